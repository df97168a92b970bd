// The cluster events a pod update amounts to (upstream framework.PodSchedulingPropertiesChange,
// v1.37): the scheduling queue replays an unscheduled pod's own update through the queueing hints
// with these events (`is_target_pod`), the event handlers raise them for assigned pods and time
// the handling of an unscheduled pod's update under them.
//
// Each scheduling-relevant change is one event, on AssignedPod when the new pod has a node, else
// on TargetPod for the pod's own replay and on UnscheduledPod otherwise:
//   labels changed                           -> UpdatePodLabel
//   a resource request lowered or removed    -> UpdatePodScaleDown (effective requests with the
//                                               in-place resize status, as the scheduler counts)
//   a resource request raised or added       -> UpdatePodScaleUp
//   the last scheduling gate removed         -> UpdatePodSchedulingGatesEliminated
//   the number of tolerations changed        -> UpdatePodToleration
//   status.resourceClaimStatuses changed     -> UpdatePodGeneratedResourceClaim (the claims the
//                                               ResourceClaim controller made from templates;
//                                               upstream's resourceclaim.PodStatusEqual: the same
//                                               entries, names and claim names, in the same order)
// and a generic Update when none applies. Upstream also compares
// status.extendedResourceClaimStatus (DRAExtendedResource, off in v1.34), which is not decoded.
//
// Thread-safety: pure functions.
#pragma once

#include <vector>

#include "api/pod.h"
#include "framework/cluster_event.h"

namespace ksched::scheduler {

std::vector<framework::ClusterEvent> PodSchedulingPropertiesChange(const api::Pod& new_pod,
                                                                   const api::Pod& old_pod,
                                                                   bool is_target_pod);

}  // namespace ksched::scheduler
