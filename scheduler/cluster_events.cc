#include "scheduler/cluster_events.h"

namespace ksched::scheduler {

namespace action = framework::action;
using framework::ActionType;
using framework::ClusterEvent;
using framework::EventResource;

std::string_view ActionTypeName(ActionType a) {
  switch (a) {
    case action::kAdd: return "Add";
    case action::kDelete: return "Delete";
    case action::kUpdateNodeAllocatable: return "UpdateNodeAllocatable";
    case action::kUpdateNodeLabel: return "UpdateNodeLabel";
    case action::kUpdateNodeTaint: return "UpdateNodeTaint";
    case action::kUpdateNodeCondition: return "UpdateNodeCondition";
    case action::kUpdateNodeAnnotation: return "UpdateNodeAnnotation";
    case action::kUpdateNodeDeclaredFeature: return "UpdateNodeDeclaredFeature";
    case action::kUpdatePodLabel: return "UpdatePodLabel";
    case action::kUpdatePodScaleDown: return "UpdatePodScaleDown";
    case action::kUpdatePodScaleUp: return "UpdatePodScaleUp";
    case action::kUpdatePodToleration: return "UpdatePodToleration";
    case action::kUpdatePodSchedulingGatesEliminated: return "UpdatePodSchedulingGatesEliminated";
    case action::kUpdatePodGeneratedResourceClaim: return "UpdatePodGeneratedResourceClaim";
    // upstream's unexported updatePodOther prints as "Update".
    case action::kUpdateOther: return "Update";
    case action::kUpdate: return "Update";
    case action::kAll: return "All";
    default: return "";
  }
}

ClusterEvent MakeClusterEvent(EventResource resource, ActionType a) {
  std::string label(framework::EventResourceName(resource));
  label += ActionTypeName(a);
  return ClusterEvent{resource, a, std::move(label)};
}

ClusterEvent UnscheduledPodAddEvent() {
  return MakeClusterEvent(EventResource::kUnscheduledPod, action::kAdd);
}

ClusterEvent UnscheduledPodUpdateEvent() {
  return MakeClusterEvent(EventResource::kUnscheduledPod, action::kUpdate);
}

ClusterEvent AssignedPodAddEvent() {
  return MakeClusterEvent(EventResource::kAssignedPod, action::kAdd);
}

bool MatchAnyClusterEvent(const ClusterEvent& incoming,
                          const std::vector<ClusterEvent>& registrations) {
  for (const ClusterEvent& registered : registrations) {
    if (registered.Match(incoming)) return true;
  }
  return false;
}

}  // namespace ksched::scheduler
