// The cluster events a pod update amounts to (upstream framework.PodSchedulingPropertiesChange,
// v1.34): the scheduling queue replays an unscheduled pod's own update through the queueing hints
// with these events, and the event handlers raise them for assigned pods.
//
// Each scheduling-relevant change is one event, on AssignedPod when the new pod has a node and on
// UnschedulablePod otherwise:
//   labels changed                           -> UpdatePodLabel
//   a resource request lowered or removed    -> UpdatePodScaleDown (effective requests with the
//                                               in-place resize status, as the scheduler counts)
//   the last scheduling gate removed         -> UpdatePodSchedulingGatesEliminated
//   the number of tolerations changed        -> UpdatePodToleration
// and a generic Update when none applies. Upstream's UpdatePodGeneratedResourceClaim (DRA claim
// statuses) is not produced: the api layer does not decode status.resourceClaimStatuses.
//
// Thread-safety: pure functions.
#pragma once

#include <vector>

#include "api/pod.h"
#include "framework/cluster_event.h"

namespace ksched::scheduler {

std::vector<framework::ClusterEvent> PodSchedulingPropertiesChange(const api::Pod& new_pod,
                                                                   const api::Pod& old_pod);

}  // namespace ksched::scheduler
