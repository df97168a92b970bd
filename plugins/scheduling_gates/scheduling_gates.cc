#include "plugins/scheduling_gates/scheduling_gates.h"

#include <string>
#include <utility>

namespace ksched::plugins::scheduling_gates {

framework::Status SchedulingGates::PreEnqueue(const api::Pod& pod) {
  const auto& gates = pod.spec.scheduling_gates;
  if (gates.empty()) return {};
  // Go's fmt %v of a []string: "[a b c]".
  std::string message = "waiting for scheduling gates: [";
  for (std::size_t i = 0; i < gates.size(); ++i) {
    if (i > 0) message += ' ';
    message += gates[i];
  }
  message += ']';
  return framework::Status(framework::Code::kUnschedulableAndUnresolvable,
                           std::vector<std::string>{std::move(message)});
}

std::vector<framework::ClusterEventWithHint> SchedulingGates::EventsToRegister() const {
  return {
      {framework::ClusterEvent{framework::EventResource::kPod,
                               framework::action::kUpdatePodSchedulingGatesEliminated,
                               "PodUpdatePodSchedulingGatesEliminated"},
       IsSchedulableAfterSchedulingGatesEliminated},
  };
}

absl::StatusOr<framework::QueueingHint> IsSchedulableAfterSchedulingGatesEliminated(
    const api::Pod& pod, const framework::EventObjects& objects) {
  if (objects.new_pod == nullptr) {
    return absl::InvalidArgumentError("SchedulingGates: pod update event without the new pod");
  }
  // An update of another pod cannot ungate this one.
  if (objects.new_pod->metadata.uid != pod.metadata.uid) return framework::QueueingHint::kQueueSkip;
  return framework::QueueingHint::kQueue;
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> New(const framework::PluginArgs* /*args*/,
                                                       framework::Handle& /*handle*/) {
  return std::make_unique<SchedulingGates>();
}

}  // namespace ksched::plugins::scheduling_gates
