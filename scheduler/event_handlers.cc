#include "scheduler/event_handlers.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <map>
#include <string_view>

#include "scheduler/cluster_events.h"
#include "scheduler/metrics/metrics.h"
#include "scheduler/pod_update_events.h"

namespace ksched::scheduler {
namespace {

using SteadyClock = std::chrono::steady_clock;
namespace action = framework::action;
using framework::EventResource;

// Times a handler from construction to destruction into
// scheduler_event_handling_duration_seconds{event=label} (upstream's deferred observations).
// `label` must outlive the timer; nothing is timed without metrics.
class EventHandlingTimer {
 public:
  EventHandlingTimer(metrics::Metrics* metrics, std::string_view label)
      : metrics_(metrics), label_(label),
        start_(metrics != nullptr ? SteadyClock::now() : SteadyClock::time_point{}) {}
  ~EventHandlingTimer() {
    if (metrics_ != nullptr) metrics_->ObserveEventHandling(label_, SteadyClock::now() - start_);
  }
  EventHandlingTimer(const EventHandlingTimer&) = delete;
  EventHandlingTimer& operator=(const EventHandlingTimer&) = delete;

 private:
  metrics::Metrics* const metrics_;
  const std::string_view label_;
  const SteadyClock::time_point start_;
};

framework::PodInfoPtr MakePodInfo(std::shared_ptr<const api::Pod> pod) {
  // The API server does not validate every affinity selector; a pod with a bad one is still
  // tracked (its terms match nothing), as upstream ignores NewPodInfo's error.
  absl::StatusOr<framework::PodInfoPtr> info = framework::PodInfo::Create(pod);
  if (info.ok()) return *std::move(info);
  SPDLOG_WARN("pod {}/{} has an invalid affinity term: {}", pod->metadata.namespace_,
              pod->metadata.name, std::string(info.status().message()));
  auto stripped = std::make_shared<api::Pod>(*pod);
  stripped->spec.affinity.pod_affinity = {};
  stripped->spec.affinity.pod_anti_affinity = {};
  return framework::PodInfo::CreateOrDie(std::move(stripped));
}

bool Assigned(const api::Pod& pod) { return !pod.spec.node_name.empty(); }

framework::ClusterEvent NodeEvent(framework::ActionType action) {
  return MakeClusterEvent(framework::EventResource::kNode, action);
}

// upstream extractNodeConditionsChange compares conditions as a type -> status map: their order
// does not matter, and for a repeated type the last entry counts.
std::map<std::string_view, std::string_view> ConditionStatuses(const api::Node& node) {
  std::map<std::string_view, std::string_view> statuses;
  for (const api::NodeCondition& condition : node.status.conditions) {
    statuses[condition.type] = condition.status;
  }
  return statuses;
}

// The room a nominated pod held (its nomination) is free again: like an assigned pod's deletion,
// offered only to pods of priority <= the pod's (upstream getLEPriorityPreCheck): only those had
// to leave the nominated room to it.
void NominationReleased(SchedulingQueue& queue, const api::Pod& pod) {
  framework::EventObjects objects;
  objects.old_pod = &pod;
  const std::int32_t priority = api::PodPriority(pod);
  queue.MoveAllToActiveOrBackoffQueue(framework::AssignedPodDeleteEvent(), objects,
                                      [priority](const api::Pod& waiting) { return api::PodPriority(waiting) <= priority; });
}

}  // namespace

std::vector<framework::ClusterEvent> NodeSchedulingPropertiesChange(const api::Node& new_node,
                                                                     const api::Node& old_node) {
  std::vector<framework::ClusterEvent> events;
  // Only a node becoming schedulable can help pods (upstream files it under UpdateNodeTaint).
  if (new_node.spec.unschedulable != old_node.spec.unschedulable && !new_node.spec.unschedulable) {
    events.push_back(NodeEvent(framework::action::kUpdateNodeTaint));
  }
  if (!(new_node.status.allocatable == old_node.status.allocatable)) {
    events.push_back(NodeEvent(framework::action::kUpdateNodeAllocatable));
  }
  if (!(new_node.metadata.labels == old_node.metadata.labels)) {
    events.push_back(NodeEvent(framework::action::kUpdateNodeLabel));
  }
  if (!(new_node.spec.taints == old_node.spec.taints)) {
    events.push_back(NodeEvent(framework::action::kUpdateNodeTaint));
  }
  if (ConditionStatuses(new_node) != ConditionStatuses(old_node)) {
    events.push_back(NodeEvent(framework::action::kUpdateNodeCondition));
  }
  if (!(new_node.metadata.annotations == old_node.metadata.annotations)) {
    events.push_back(NodeEvent(framework::action::kUpdateNodeAnnotation));
  }
  // NodeDeclaredFeatures is GA and locked on in v1.37; the kubelet keeps the list sorted, so an
  // element-wise comparison is upstream's (extractNodeFeaturesChange).
  if (!(new_node.status.declared_features == old_node.status.declared_features)) {
    events.push_back(NodeEvent(framework::action::kUpdateNodeDeclaredFeature));
  }
  return events;
}

PodEventHandler::PodEventHandler(Cache& cache, SchedulingQueue& queue, const Scheduler& scheduler,
                                 metrics::Metrics* metrics)
    : cache_(cache),
      queue_(queue),
      scheduler_(scheduler),
      metrics_(metrics),
      unscheduled_add_(MakeClusterEvent(EventResource::kUnscheduledPod, action::kAdd)),
      unscheduled_update_(MakeClusterEvent(EventResource::kUnscheduledPod, action::kUpdate)),
      unscheduled_delete_(MakeClusterEvent(EventResource::kUnscheduledPod, action::kDelete)),
      assigned_add_(MakeClusterEvent(EventResource::kAssignedPod, action::kAdd)),
      assigned_update_(MakeClusterEvent(EventResource::kAssignedPod, action::kUpdate)),
      assigned_delete_(MakeClusterEvent(EventResource::kAssignedPod, action::kDelete)) {}

void PodEventHandler::AddAssigned(std::shared_ptr<const api::Pod> pod) {
  framework::PodInfoPtr info = MakePodInfo(std::move(pod));
  if (absl::Status status = cache_.AddPod(info); !status.ok()) {
    SPDLOG_ERROR("Scheduler cache AddPod failed pod=\"{}/{}\": {}", info->pod().metadata.namespace_,
                 info->pod().metadata.name, std::string(status.message()));
  }
  queue_.AssignedPodAdded(info);
}

void PodEventHandler::DeleteAssigned(const api::Pod& pod) {
  if (absl::Status status = cache_.RemovePod(pod); !status.ok()) {
    SPDLOG_ERROR("Scheduler cache RemovePod failed pod=\"{}/{}\": {}", pod.metadata.namespace_,
                 pod.metadata.name, std::string(status.message()));
  }
  framework::EventObjects objects;
  objects.old_pod = &pod;
  queue_.MoveAllToActiveOrBackoffQueue(framework::AssignedPodDeleteEvent(), objects);
}

void PodEventHandler::DeleteUnassigned(const api::Pod& pod, bool in_binding) {
  queue_.Delete(pod);
  // Bound: not a removal; the binding cycle raises what its end needs.
  if (in_binding) return;
  if (cache_.IsAssumedPod(pod)) {
    HandleAssumedPodDeletion(pod);
    return;
  }
  if (!pod.status.nominated_node_name.empty()) NominationReleased(queue_, pod);
}

void PodEventHandler::HandleAssumedPodDeletion(const api::Pod& deleted) {
  // The cache's copy has the node and is what holds the room.
  const std::optional<framework::PodInfoPtr> assumed = cache_.GetPod(deleted);
  if (!assumed.has_value()) {
    SPDLOG_TRACE("Assumed pod was already forgotten pod=\"{}/{}\"", deleted.metadata.namespace_,
                 deleted.metadata.name);
    return;
  }
  const api::Pod& pod = (*assumed)->pod();
  framework::Framework* framework = scheduler_.FrameworkForPod(pod);
  if (framework == nullptr) {
    SPDLOG_ERROR("Unable to get profile for pod pod=\"{}/{}\"", pod.metadata.namespace_, pod.metadata.name);
    return;
  }
  // Waiting at Permit: rejected, its binding cycle fails at once and forgets it. Otherwise (PreBind,
  // Bind) the room is freed here; the binding cycle fails later, as the pod is gone.
  if (!framework->RejectWaitingPod(pod.metadata.uid)) {
    if (absl::Status removed = cache_.RemoveAssumedPod(pod); !removed.ok()) {
      SPDLOG_ERROR("Scheduler cache RemoveAssumedPod failed pod=\"{}/{}\": {}", pod.metadata.namespace_,
                   pod.metadata.name, std::string(removed.message()));
    }
  }
  framework::EventObjects objects;
  objects.old_pod = &pod;
  queue_.MoveAllToActiveOrBackoffQueue(framework::AssignedPodDeleteEvent(), objects);
}

void PodEventHandler::OnAdd(const api::Pod& pod) { OnAddShared(std::make_shared<const api::Pod>(pod)); }

void PodEventHandler::OnUpdate(const api::Pod& old_pod, const api::Pod& new_pod) {
  OnUpdateShared(std::make_shared<const api::Pod>(old_pod), std::make_shared<const api::Pod>(new_pod));
}

void PodEventHandler::OnAddShared(const Shared& pod) {
  if (Assigned(*pod)) {
    const EventHandlingTimer timer(metrics_, assigned_add_.label);
    AddAssigned(pod);
  } else if (scheduler_.Responsible(*pod)) {
    const EventHandlingTimer timer(metrics_, unscheduled_add_.label);
    queue_.Add(MakePodInfo(pod));
  }
}

void PodEventHandler::OnUpdateShared(const Shared& old_shared, const Shared& new_shared) {
  const api::Pod& old_pod = *old_shared;
  const api::Pod& new_pod = *new_shared;
  if (old_pod.metadata.uid != new_pod.metadata.uid) {
    // A pod deleted and created again under the same name while the watch was down, seen through
    // the relist as one update: two pods. The old one leaves (its room freed, or its assumption
    // dropped), the new one arrives (upstream's cache removes by the old UID and adds by the new).
    OnDelete(old_pod);
    OnAddShared(new_shared);
    return;
  }
  const bool was_assigned = Assigned(old_pod);
  const bool is_assigned = Assigned(new_pod);
  if (is_assigned) {
    if (!was_assigned) {
      // Bound (by us or someone else): enters the cache, then leaves the queue (v1.37's order).
      {
        const EventHandlingTimer timer(metrics_, assigned_add_.label);
        AddAssigned(new_shared);
      }
      if (scheduler_.Responsible(old_pod)) {
        const EventHandlingTimer timer(metrics_, unscheduled_delete_.label);
        DeleteUnassigned(old_pod, /*in_binding=*/true);
      }
      return;
    }
    const EventHandlingTimer timer(metrics_, assigned_update_.label);
    const SteadyClock::time_point start = SteadyClock::now();
    framework::PodInfoPtr old_info = MakePodInfo(old_shared);
    framework::PodInfoPtr new_info = MakePodInfo(new_shared);
    if (absl::Status status = cache_.UpdatePod(old_info, new_info); !status.ok()) {
      SPDLOG_ERROR("Scheduler cache UpdatePod failed pod=\"{}/{}\": {}", new_pod.metadata.namespace_,
                   new_pod.metadata.name, std::string(status.message()));
    }
    const SteadyClock::duration updating = SteadyClock::now() - start;
    for (const framework::ClusterEvent& event : PodSchedulingPropertiesChange(new_pod, old_pod, false)) {
      const SteadyClock::time_point start_moving = SteadyClock::now();
      queue_.AssignedPodUpdated(old_info, new_info, event.action);
      if (metrics_ != nullptr) {
        metrics_->ObserveEventHandling(event.label, updating + (SteadyClock::now() - start_moving));
      }
    }
    return;
  }
  if (was_assigned) {
    // Assigned -> unassigned does not happen in Kubernetes; treat it as delete + add.
    {
      const EventHandlingTimer timer(metrics_, assigned_delete_.label);
      DeleteAssigned(old_pod);
    }
    OnAddShared(new_shared);
    return;
  }
  if (!scheduler_.Responsible(new_pod)) return;
  // Identical objects (a relist) must not send the pod through scheduling twice (k/k #96071).
  if (old_pod.metadata.resource_version == new_pod.metadata.resource_version) return;
  // Timed under UnscheduledPodUpdate and, as well, under each other label the update amounts to
  // (the events are worked out once, here, and handed to the queue). Upstream works them out before
  // it asks whether the pod is assumed, so an assumed pod's update is timed under them too.
  const EventHandlingTimer timer(metrics_, unscheduled_update_.label);
  // (Upstream times the handling under the UnscheduledPod events; the queue replays the update to
  // the pod's own plugins as TargetPod events.)
  const std::vector<framework::ClusterEvent> events = PodSchedulingPropertiesChange(new_pod, old_pod, false);
  struct OtherLabelsTimer {
    metrics::Metrics* metrics;
    std::string_view skipped_label;
    const std::vector<framework::ClusterEvent>& events;
    SteadyClock::time_point start;
    ~OtherLabelsTimer() {
      if (metrics == nullptr) return;
      for (const framework::ClusterEvent& event : events) {
        if (event.label != skipped_label) metrics->ObserveEventHandling(event.label, SteadyClock::now() - start);
      }
    }
  } const other_timers{metrics_, unscheduled_update_.label, events, SteadyClock::now()};
  if (cache_.IsAssumedPod(new_pod)) {
    // Its deletion started (v1.37): handled now, as it can be updated in no structure.
    if (new_pod.metadata.deletion_timestamp.has_value() && !old_pod.metadata.deletion_timestamp.has_value()) {
      HandleAssumedPodDeletion(new_pod);
    }
    return;
  }
  queue_.Update(MakePodInfo(old_shared), MakePodInfo(new_shared),
                PodSchedulingPropertiesChange(new_pod, old_pod, /*is_target_pod=*/true));
  if (!old_pod.status.nominated_node_name.empty() &&
      old_pod.status.nominated_node_name != new_pod.status.nominated_node_name) {
    NominationReleased(queue_, old_pod);
  }
}

void PodEventHandler::OnDelete(const api::Pod& pod) {
  if (Assigned(pod)) {
    const EventHandlingTimer timer(metrics_, assigned_delete_.label);
    DeleteAssigned(pod);
  } else if (scheduler_.Responsible(pod)) {
    const EventHandlingTimer timer(metrics_, unscheduled_delete_.label);
    DeleteUnassigned(pod, /*in_binding=*/false);
  }
}

NodeEventHandler::NodeEventHandler(Cache& cache, SchedulingQueue& queue, metrics::Metrics* metrics)
    : cache_(cache),
      queue_(queue),
      metrics_(metrics),
      add_(NodeEvent(action::kAdd)),
      delete_(NodeEvent(action::kDelete)) {}

void NodeEventHandler::OnAdd(const api::Node& node) { OnAddShared(std::make_shared<const api::Node>(node)); }

void NodeEventHandler::OnUpdate(const api::Node& old_node, const api::Node& new_node) {
  OnUpdateShared(std::make_shared<const api::Node>(old_node), std::make_shared<const api::Node>(new_node));
}

void NodeEventHandler::OnAddShared(const Shared& node) {
  const EventHandlingTimer timer(metrics_, add_.label);
  cache_.AddNode(node);
  framework::EventObjects objects;
  objects.new_node = node.get();
  queue_.MoveAllToActiveOrBackoffQueue(add_, objects);
}

void NodeEventHandler::OnUpdateShared(const Shared& old_node, const Shared& new_node) {
  const SteadyClock::time_point start = SteadyClock::now();
  cache_.UpdateNode(old_node, new_node);
  framework::EventObjects objects;
  objects.old_node = old_node.get();
  objects.new_node = new_node.get();
  const std::vector<framework::ClusterEvent> events = NodeSchedulingPropertiesChange(*new_node, *old_node);
  // Each event is timed as the cache update plus its own queue move.
  const SteadyClock::duration updating = SteadyClock::now() - start;
  for (const framework::ClusterEvent& event : events) {
    const SteadyClock::time_point start_moving = SteadyClock::now();
    queue_.MoveAllToActiveOrBackoffQueue(event, objects);
    if (metrics_ != nullptr) {
      metrics_->ObserveEventHandling(event.label, updating + (SteadyClock::now() - start_moving));
    }
  }
}

void NodeEventHandler::OnDelete(const api::Node& node) {
  const EventHandlingTimer timer(metrics_, delete_.label);
  // Upstream raises NodeDelete (PodTopologySpread, for one, may then fit a pod) before removing.
  framework::EventObjects objects;
  objects.old_node = &node;
  queue_.MoveAllToActiveOrBackoffQueue(delete_, objects);
  cache_.RemoveNode(node);
}

}  // namespace ksched::scheduler
