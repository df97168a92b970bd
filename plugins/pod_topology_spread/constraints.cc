#include "plugins/pod_topology_spread/constraints.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "plugins/helper/taint.h"

namespace ksched::plugins::pod_topology_spread {
namespace {

// A policy field as decoded: "" is absent (the default); any value other than Honor is treated
// as not honoured, as upstream compares against Honor only.
NodeInclusionPolicy ParsePolicy(std::string_view value, NodeInclusionPolicy absent) {
  if (value.empty()) return absent;
  return value == api::kNodeInclusionPolicyHonor ? NodeInclusionPolicy::kHonor
                                                 : NodeInclusionPolicy::kIgnore;
}

// upstream mergeLabelSetWithSelector: `key=value` for every entry ANDed with the selector's
// requirements; a selector that matches nothing has no requirements to extend and stays as is.
api::CompiledLabelSelector MergeLabelSetWithSelector(const api::Labels& match_labels,
                                                     const api::CompiledLabelSelector& selector) {
  if (selector.MatchesNothing()) return selector;
  const api::CompiledLabelSelector from_set = api::CompiledLabelSelector::FromSet(match_labels);
  std::vector<api::LabelRequirement> requirements(from_set.requirements().begin(),
                                                  from_set.requirements().end());
  requirements.insert(requirements.end(), selector.requirements().begin(),
                      selector.requirements().end());
  return api::CompiledLabelSelector::FromRequirements(std::move(requirements));
}

}  // namespace

bool SpreadConstraint::MatchNodeInclusionPolicies(
    const api::Pod& pod, const api::Node& node,
    const helper::RequiredNodeAffinity& affinity) const noexcept {
  if (node_affinity_policy == NodeInclusionPolicy::kHonor) {
    absl::StatusOr<bool> match = affinity.Match(node);
    if (!match.ok() || !*match) return false;  // parse errors ignored, as upstream
  }
  if (node_taints_policy == NodeInclusionPolicy::kHonor) {
    const api::Taint* untolerated = helper::FindMatchingUntoleratedTaint(
        node.spec.taints, pod.spec.tolerations,
        [](const api::Taint& taint) { return helper::IsDoNotScheduleTaint(taint); });
    if (untolerated != nullptr) return false;
  }
  return true;
}

absl::StatusOr<std::vector<SpreadConstraint>> CompileConstraints(
    std::span<const api::TopologySpreadConstraint> constraints, const api::Labels& pod_labels,
    std::string_view action) {
  std::vector<SpreadConstraint> result;
  for (const api::TopologySpreadConstraint& c : constraints) {
    if (c.when_unsatisfiable != action) continue;
    absl::StatusOr<api::CompiledLabelSelector> selector = api::CompiledLabelSelector::Compile(
        c.label_selector.has_value() ? &*c.label_selector : nullptr);
    if (!selector.ok()) return selector.status();

    if (!c.match_label_keys.empty()) {
      api::Labels match_labels;
      for (const std::string& key : c.match_label_keys) {
        if (std::optional<std::string_view> value = pod_labels.Get(key)) {
          match_labels.Set(key, std::string(*value));
        }
      }
      if (!match_labels.empty()) *selector = MergeLabelSetWithSelector(match_labels, *selector);
    }

    SpreadConstraint& tsc = result.emplace_back();
    tsc.max_skew = c.max_skew;
    tsc.topology_key = c.topology_key;
    tsc.selector = *std::move(selector);
    tsc.min_domains = c.min_domains.value_or(1);
    tsc.node_affinity_policy = ParsePolicy(c.node_affinity_policy, NodeInclusionPolicy::kHonor);
    tsc.node_taints_policy = ParsePolicy(c.node_taints_policy, NodeInclusionPolicy::kIgnore);
  }
  return result;
}

bool NodeLabelsMatchSpreadConstraints(const api::Labels& node_labels,
                                      std::span<const SpreadConstraint> constraints) noexcept {
  for (const SpreadConstraint& c : constraints) {
    if (!node_labels.Has(c.topology_key)) return false;
  }
  return true;
}

int CountPodsMatchSelector(std::span<const framework::PodInfoPtr> pods,
                           const api::CompiledLabelSelector& selector,
                           std::string_view ns) noexcept {
  if (selector.Empty()) return 0;
  int count = 0;
  for (const framework::PodInfoPtr& info : pods) {
    const api::Pod& pod = info->pod();
    // Terminating pods are bypassed (upstream #87621).
    if (pod.metadata.deletion_timestamp.has_value() || pod.metadata.namespace_ != ns) continue;
    if (selector.Matches(pod.metadata.labels)) ++count;
  }
  return count;
}

bool PodLabelsMatchSpreadConstraints(std::span<const SpreadConstraint> constraints,
                                     const api::Labels& labels) noexcept {
  for (const SpreadConstraint& c : constraints) {
    if (c.selector.Matches(labels)) return true;
  }
  return false;
}

}  // namespace ksched::plugins::pod_topology_spread
