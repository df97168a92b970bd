#include "plugins/helper/required_node_affinity.h"

namespace ksched::plugins::helper {

RequiredNodeAffinity RequiredNodeAffinity::FromPod(const api::Pod& pod) {
  RequiredNodeAffinity affinity;
  if (!pod.spec.node_selector.empty()) {
    affinity.node_selector_ = api::CompiledLabelSelector::FromSet(pod.spec.node_selector);
  }
  if (pod.spec.affinity.node_affinity.required.has_value()) {
    affinity.required_ =
        api::LazyErrorNodeSelector::Compile(*pod.spec.affinity.node_affinity.required);
  }
  return affinity;
}

absl::StatusOr<bool> RequiredNodeAffinity::Match(const api::Node& node) const noexcept {
  if (node_selector_.has_value() && !node_selector_->Matches(node.metadata.labels)) return false;
  if (required_.has_value()) return required_->Match(node.metadata.labels, node.metadata.name);
  return true;
}

}  // namespace ksched::plugins::helper
