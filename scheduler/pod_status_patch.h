// Pod status changes as kube-scheduler writes them to pods/{name}/status (v1.34): the condition
// update rule of podutil.UpdatePodCondition, and the patch util.PatchPodStatus sends, which is
// strategicpatch.CreateTwoWayMergePatch between the JSON of a Pod holding the old status and one
// holding the new status.
//
// The patch is reproduced byte for byte for what the scheduler changes: status.conditions (a list
// merged by "type") and status.nominatedNodeName. Like Go's, every object's keys are sorted
// (Go marshals the diff as maps), and:
//   - conditions absent before: "conditions" is the whole new list;
//   - conditions present before and after: "conditions" lists, in the new order, the new
//     elements whole and, for changed ones, only the changed fields (null for a field that became
//     empty) plus "type"; removed types follow as {"$patch":"delete","type":..}, sorted; and
//     "$setElementOrder/conditions" lists every new type in order, as [{"type":..},...];
//   - all conditions removed: "conditions":null;
//   - nominatedNodeName: the new value, or null when it became empty.
// A condition serializes as v1.PodCondition does: type and status always, reason, message and
// observedGeneration when non-empty, lastProbeTime and lastTransitionTime always (null when unset,
// else RFC 3339 with whole seconds: differences below a second are invisible, as in Go).
//
// Thread-safety: pure functions.
#pragma once

#include <string>

#include "api/pod.h"
#include "api/time.h"

namespace ksched::scheduler {

// podutil.UpdatePodCondition: puts `condition` into `status` (replacing the one of its type, or
// appending), with lastTransitionTime `now` when the condition is new or its status changed, else
// the current condition's. True when the condition was added or its status, reason, message,
// lastProbeTime or lastTransitionTime changed (observedGeneration alone does not count, as
// upstream; it is still replaced).
bool UpdatePodCondition(api::PodStatus& status, api::PodCondition condition, api::Time now);

// The strategic-merge patch from a pod with `old_status` to one with `new_status` (see above);
// fields other than conditions and nominatedNodeName are not compared. "{}" when nothing differs.
std::string PodStatusPatch(const api::PodStatus& old_status, const api::PodStatus& new_status);

}  // namespace ksched::scheduler
