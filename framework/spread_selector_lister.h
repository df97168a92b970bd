// SpreadSelectorLister: the label selector of the workload a pod belongs to, which spreading
// plugins use for their default constraints (upstream helper.DefaultSelector over the Service,
// ReplicationController, ReplicaSet and StatefulSet listers of the informer factory).
//
// Upstream semantics, which an implementation must follow: the AND of
//   - the spec.selector of every Service in the pod's namespace whose (non-nil) selector matches
//     the pod's labels, merged as a label set;
//   - the spec.selector of the pod's controlling owner (metadata.ownerReferences with
//     controller: true) when it is a v1 ReplicationController, or the requirements of the
//     spec.selector of an apps/v1 ReplicaSet or StatefulSet, when that owner exists in the pod's
//     namespace.
// The result is Empty() (matches everything) when none of these is known: spreading plugins then
// apply no default constraint to the pod.
//
// The daemon's implementation is scheduler::WorkloadSelectorLister, fed by reflectors of the four
// kinds (scheduler/workload_selector_lister.h). A Handle without one (tools, most tests) returns
// nullptr from spread_selector_lister(), and default constraints then apply to no pod.
//
// Thread-safety: DefaultSelector is called from the scheduling thread (PreFilter, PreScore) and
// from the queue's event dispatch (queueing hints) concurrently; implementations must be safe for
// that.
#pragma once

#include "api/label_selector.h"
#include "api/pod.h"

namespace ksched::framework {

class SpreadSelectorLister {
 public:
  virtual ~SpreadSelectorLister() = default;
  // The selector deduced from the pod's Services and controller; Empty() when none is known.
  virtual api::CompiledLabelSelector DefaultSelector(const api::Pod& pod) const = 0;
};

}  // namespace ksched::framework
