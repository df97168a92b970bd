#include "plugins/node_name/node_name.h"

#include <string>
#include <utility>

namespace ksched::plugins::node_name {

bool Fits(const api::Pod& pod, const api::Node& node) {
  return pod.spec.node_name.empty() || pod.spec.node_name == node.metadata.name;
}

std::pair<framework::PreFilterResult, framework::Status> NodeName::PreFilter(
    framework::CycleState& /*state*/, const api::Pod& pod,
    const std::vector<framework::NodeInfo*>& /*nodes*/) {
  framework::PreFilterResult result;
  if (!pod.spec.node_name.empty()) {
    result.node_names.emplace();
    result.node_names->insert(std::string(pod.spec.node_name.view()));
  }
  return {std::move(result), {}};
}

framework::Status NodeName::Filter(const framework::CycleState& /*state*/, const api::Pod& pod,
                                   const framework::NodeInfo& node) {
  if (node.node() == nullptr) return framework::Status::FromError("node not found");
  if (!Fits(pod, *node.node())) {
    // A constant stamped with the plugin's name: a rejected node costs no allocation.
    static const framework::Status kNodeNameMismatch =
        framework::Status(framework::Code::kUnschedulableAndUnresolvable, {kErrReason})
            .WithPlugin(kName);
    return kNodeNameMismatch;
  }
  return {};
}

std::vector<framework::ClusterEventWithHint> NodeName::EventsToRegister() const {
  // No hint: a new node is always worth a retry (upstream registers none either).
  return {
      {framework::ClusterEvent{framework::EventResource::kNode, framework::action::kAdd, "NodeAdd"},
       nullptr},
  };
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> New(const framework::PluginArgs* /*args*/,
                                                       framework::Handle& /*handle*/) {
  return std::make_unique<NodeName>();
}

}  // namespace ksched::plugins::node_name
