// WorkloadSelectorLister: the framework::SpreadSelectorLister of the daemon, upstream
// helper.DefaultSelector over the Services, ReplicationControllers, ReplicaSets and StatefulSets
// that four reflectors keep (scheduler/scheduler_app.cc). With it, pods of a Deployment,
// ReplicaSet, StatefulSet or ReplicationController, or selected by a Service, get
// PodTopologySpread's default constraints ("System": hostname maxSkew 3 and zone maxSkew 5,
// ScheduleAnyway) as under upstream's kube-scheduler.
//
// DefaultSelector(pod), as upstream (framework/spread_selector_lister.h states the rules): the
// label set merged from the selectors of the pod's namespace's Services whose (non-null) selector
// matches the pod's labels; then, by the pod's controlling owner (exact apiVersion and kind):
//   - v1 ReplicationController: its selector merged into that set (a later key wins);
//   - apps/v1 ReplicaSet or StatefulSet: its selector's requirements added (none when the
//     selector is null or invalid, as LabelSelectorAsSelector's error or labels.Nothing());
//   - an owner not in the store, or of another kind: nothing more.
//
// Ownership: owns the four stores and shares them with the reflectors (their handlers).
// Thread-safety: DefaultSelector from any thread, concurrently with the reflectors' updates.
#pragma once

#include <memory>

#include "api/label_selector.h"
#include "api/pod.h"
#include "api/workloads.h"
#include "framework/spread_selector_lister.h"
#include "scheduler/namespaced_object_store.h"

namespace ksched::scheduler {

class WorkloadSelectorLister final : public framework::SpreadSelectorLister {
 public:
  WorkloadSelectorLister();

  api::CompiledLabelSelector DefaultSelector(const api::Pod& pod) const override;

  // The stores, each the handler of its kind's reflector.
  const std::shared_ptr<NamespacedObjectStore<api::Service>>& services() const { return services_; }
  const std::shared_ptr<NamespacedObjectStore<api::ReplicationController>>& replication_controllers()
      const {
    return replication_controllers_;
  }
  const std::shared_ptr<NamespacedObjectStore<api::ReplicaSet>>& replica_sets() const {
    return replica_sets_;
  }
  const std::shared_ptr<NamespacedObjectStore<api::StatefulSet>>& stateful_sets() const {
    return stateful_sets_;
  }

 private:
  std::shared_ptr<NamespacedObjectStore<api::Service>> services_;
  std::shared_ptr<NamespacedObjectStore<api::ReplicationController>> replication_controllers_;
  std::shared_ptr<NamespacedObjectStore<api::ReplicaSet>> replica_sets_;
  std::shared_ptr<NamespacedObjectStore<api::StatefulSet>> stateful_sets_;
};

}  // namespace ksched::scheduler
