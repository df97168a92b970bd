#include "scheduler/pod_update_events.h"

#include <cstdint>

#include "framework/resource.h"
#include "scheduler/cluster_events.h"

namespace ksched::scheduler {

namespace {

namespace action = framework::action;
using framework::ActionType;

constexpr ActionType kNone = 0;

// Whether any request of `old_requests` is lowered or gone in `new_requests` (upstream compares
// the request maps; a resource missing from the new requests counts as zero here).
bool ScaledDown(const framework::Resource& new_requests, const framework::Resource& old_requests) {
  if (old_requests.milli_cpu > new_requests.milli_cpu) return true;
  if (old_requests.memory > new_requests.memory) return true;
  if (old_requests.ephemeral_storage > new_requests.ephemeral_storage) return true;
  for (const auto& [name, old_value] : old_requests.scalars) {
    if (old_value > new_requests.Scalar(name)) return true;
  }
  return false;
}

// Whether any request of `new_requests` is raised or new (upstream extractPodScaleUp).
bool ScaledUp(const framework::Resource& new_requests, const framework::Resource& old_requests) {
  if (new_requests.milli_cpu > old_requests.milli_cpu) return true;
  if (new_requests.memory > old_requests.memory) return true;
  if (new_requests.ephemeral_storage > old_requests.ephemeral_storage) return true;
  for (const auto& [name, new_value] : new_requests.scalars) {
    if (new_value > old_requests.Scalar(name)) return true;
  }
  return false;
}

ActionType ExtractScaleUp(const api::Pod& new_pod, const api::Pod& old_pod) {
  return ScaledUp(framework::PodRequests(new_pod), framework::PodRequests(old_pod)) ? action::kUpdatePodScaleUp
                                                                                   : kNone;
}

ActionType ExtractScaleDown(const api::Pod& new_pod, const api::Pod& old_pod) {
  // The defaults of PodRequestsOptions are the scheduler's: overhead counted, resize status read.
  return ScaledDown(framework::PodRequests(new_pod), framework::PodRequests(old_pod))
             ? action::kUpdatePodScaleDown
             : kNone;
}

ActionType ExtractLabelsChange(const api::Pod& new_pod, const api::Pod& old_pod) {
  return new_pod.metadata.labels == old_pod.metadata.labels ? kNone : action::kUpdatePodLabel;
}

ActionType ExtractSchedulingGatesEliminated(const api::Pod& new_pod, const api::Pod& old_pod) {
  return new_pod.spec.scheduling_gates.empty() && !old_pod.spec.scheduling_gates.empty()
             ? action::kUpdatePodSchedulingGatesEliminated
             : kNone;
}

ActionType ExtractTolerationChange(const api::Pod& new_pod, const api::Pod& old_pod) {
  // API validation lets users only add tolerations, so a changed count is enough (as upstream).
  return new_pod.spec.tolerations.size() != old_pod.spec.tolerations.size()
             ? action::kUpdatePodToleration
             : kNone;
}

// DynamicResourceAllocation is on in v1.34, so upstream always runs this extractor.
ActionType ExtractGeneratedResourceClaimChange(const api::Pod& new_pod, const api::Pod& old_pod) {
  return new_pod.status.resource_claim_statuses == old_pod.status.resource_claim_statuses
             ? kNone
             : action::kUpdatePodGeneratedResourceClaim;
}

}  // namespace

std::vector<framework::ClusterEvent> PodSchedulingPropertiesChange(const api::Pod& new_pod,
                                                                   const api::Pod& old_pod,
                                                                   bool is_target_pod) {
  const framework::EventResource resource = !new_pod.spec.node_name.empty() ? framework::EventResource::kAssignedPod
                                            : is_target_pod                 ? framework::EventResource::kTargetPod
                                                            : framework::EventResource::kUnscheduledPod;
  // upstream's extractor order, which is also the order of the returned events.
  const ActionType actions[] = {
      ExtractLabelsChange(new_pod, old_pod),
      ExtractScaleDown(new_pod, old_pod),
      ExtractScaleUp(new_pod, old_pod),
      ExtractSchedulingGatesEliminated(new_pod, old_pod),
      ExtractTolerationChange(new_pod, old_pod),
      ExtractGeneratedResourceClaimChange(new_pod, old_pod),
  };
  std::vector<framework::ClusterEvent> events;
  for (ActionType a : actions) {
    if (a != kNone) events.push_back(MakeClusterEvent(resource, a));
  }
  if (events.empty()) {
    // Only plugins registered for a generic Pod/Update hear about other changes.
    events.push_back(MakeClusterEvent(resource, action::kUpdate));
  }
  return events;
}

}  // namespace ksched::scheduler
