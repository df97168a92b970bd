// Informer event handlers (upstream eventhandlers.go): route pod and node deltas from the
// reflectors into the cache and the scheduling queue.
//
//   assigned pods (spec.nodeName set)            -> cache (add/update/remove), and queue events
//                                                   (AssignedPodAdd/Update/Delete) for pods whose
//                                                   rejecting plugins care
//   unassigned pods of one of our profiles       -> queue (add/update/delete); a pod deleted (or
//                                                   whose deletion starts) while assumed in its
//                                                   binding cycle is rejected at Permit or removed
//                                                   from the cache, raising AssignedPodDelete; a
//                                                   nominated pod deleted or renominated raises
//                                                   AssignedPodDelete
//   unassigned -> assigned (bound by us or another scheduler) -> added to the cache, then removed
//                                                   from the queue (no other event)
//   nodes                                        -> cache, and NodeAdd / NodeUpdate* / NodeDelete
//                                                   queue events
//
// Pods of other schedulers that are not assigned are ignored.
//
// With metrics, each handled event is timed into scheduler_event_handling_duration_seconds{event}
// as upstream's handlers time theirs: the whole handler under UnscheduledPodAdd/Delete,
// AssignedPodAdd/Delete, NodeAdd/Delete; an unscheduled pod's update (unless its resourceVersion is
// unchanged) under UnscheduledPodUpdate and each other label of its
// PodSchedulingPropertiesChange; an assigned pod's update under AssignedPodUpdate and, per event
// it raises, the cache update plus that event's queue move; a node's update likewise per
// NodeSchedulingPropertiesChange event (none when nothing relevant changed).
//
// Thread-safety: called on the reflector threads (one per resource); the cache, the queue and the
// metrics are thread-safe.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "api/node.h"
#include "api/pod.h"
#include "client/reflector.h"
#include "framework/cluster_event.h"
#include "scheduler/cache.h"
#include "scheduler/scheduler.h"
#include "scheduler/scheduling_queue.h"

namespace ksched::scheduler::metrics {
class Metrics;
}  // namespace ksched::scheduler::metrics

namespace ksched::scheduler {

// The node events an update raises (upstream NodeSchedulingPropertiesChange), in upstream's order
// and with its labels ("NodeUpdateNodeTaint", ...): spec.unschedulable turning false (filed as
// UpdateNodeTaint), allocatable (semantic quantities), labels, taints, conditions (type -> status,
// order-insensitive), annotations.
std::vector<framework::ClusterEvent> NodeSchedulingPropertiesChange(const api::Node& new_node,
                                                                     const api::Node& old_node);

// Both handlers keep the reflector's shared objects (the *Shared calls) in the cache and the
// queue rather than copies; the reference calls copy once and do the same (tests use them).
class PodEventHandler final : public client::ReflectorHandler<api::Pod> {
 public:
  using Shared = std::shared_ptr<const api::Pod>;
  // `metrics` (optional) must outlive the handler.
  PodEventHandler(Cache& cache, SchedulingQueue& queue, const Scheduler& scheduler,
                  metrics::Metrics* metrics = nullptr);
  void OnAdd(const api::Pod& pod) override;
  void OnUpdate(const api::Pod& old_pod, const api::Pod& new_pod) override;
  void OnDelete(const api::Pod& pod) override;
  void OnAddShared(const Shared& pod) override;
  void OnUpdateShared(const Shared& old_pod, const Shared& new_pod) override;

 private:
  void AddAssigned(std::shared_ptr<const api::Pod> pod);
  void DeleteAssigned(const api::Pod& pod);
  // `in_binding`: the pod left the queue because it was bound (only the queue forgets it).
  void DeleteUnassigned(const api::Pod& pod, bool in_binding);
  // upstream handleAssumedPodDeletion (v1.37, k/k #134157): a pod deleted while assumed (in its
  // binding cycle) stops holding its node at once: rejected if it waits at Permit, else removed
  // from the cache; then AssignedPodDelete.
  void HandleAssumedPodDeletion(const api::Pod& pod);

  Cache& cache_;
  SchedulingQueue& queue_;
  const Scheduler& scheduler_;
  metrics::Metrics* const metrics_;
  // The labels the handler's events are timed under.
  const framework::ClusterEvent unscheduled_add_, unscheduled_update_, unscheduled_delete_;
  const framework::ClusterEvent assigned_add_, assigned_update_, assigned_delete_;
};

class NodeEventHandler final : public client::ReflectorHandler<api::Node> {
 public:
  using Shared = std::shared_ptr<const api::Node>;
  // `metrics` (optional) must outlive the handler.
  NodeEventHandler(Cache& cache, SchedulingQueue& queue, metrics::Metrics* metrics = nullptr);
  void OnAdd(const api::Node& node) override;
  void OnUpdate(const api::Node& old_node, const api::Node& new_node) override;
  void OnDelete(const api::Node& node) override;
  void OnAddShared(const Shared& node) override;
  void OnUpdateShared(const Shared& old_node, const Shared& new_node) override;

 private:
  Cache& cache_;
  SchedulingQueue& queue_;
  metrics::Metrics* const metrics_;
  const framework::ClusterEvent add_, delete_;
};

}  // namespace ksched::scheduler
