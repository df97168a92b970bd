// ObjectEventHandler<T>: the reflector handler that keeps one kind's NamespacedObjectStore and turns
// each change into the cluster event the plugins registered for (upstream eventhandlers.go
// buildEvtResHandler: "PersistentVolumeClaimAdd", "ResourceSliceUpdate", ...), with the objects in
// the event (SharedEventObjects), so that a pod a plugin rejected is retried when the object it
// waited for appears or changes. Used for the volume plugins' kinds (scheduler/storage_object_stores.h)
// and DynamicResources' (scheduler/resource_object_stores.h).
//
// A kind is described by ObjectEventKind<T>, declared with KSCHED_OBJECT_EVENT_KIND(Kind, group,
// old, new) next to its store: the EventResource k<Kind> and the
// SharedEventObjects members (`group`.`old`, `group`.`new`) its objects go in.
//
// With metrics, the queue move of each event is timed into
// scheduler_event_handling_duration_seconds{event} when some plugin registered for that action of
// the kind, as upstream installs a handler only for the registered actions (buildEvtResHandler).
// Labels are upstream's: the kind's EventResource name ("storage.k8s.io/StorageClass", ...) plus
// the action ("Add", "Update", "Delete").
//
// Ownership: shares the store and the objects (immutable) with the reflector; `metrics`
// (optional) must outlive the handler. Thread-safety: the handler calls come from the
// reflector's thread.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "client/reflector.h"
#include "framework/cluster_event.h"
#include "scheduler/in_flight_events.h"
#include "scheduler/metrics/metrics.h"
#include "scheduler/namespaced_object_store.h"
#include "scheduler/scheduling_queue.h"

namespace ksched::scheduler {

template <typename T>
struct ObjectEventKind;

#define KSCHED_OBJECT_EVENT_KIND(Kind, group, old_member, new_member)                             \
  template <>                                                                                     \
  struct ObjectEventKind<api::Kind> {                                                             \
    static constexpr framework::EventResource kResource = framework::EventResource::k##Kind;      \
    static constexpr auto kGroup = &SharedEventObjects::group;                                    \
    static constexpr auto kOld = &decltype(SharedEventObjects::group)::old_member;                \
    static constexpr auto kNew = &decltype(SharedEventObjects::group)::new_member;                \
  };

template <typename T>
class ObjectEventHandler final : public client::ReflectorHandler<T> {
 public:
  using Shared = std::shared_ptr<const T>;
  ObjectEventHandler(std::shared_ptr<NamespacedObjectStore<T>> store, SchedulingQueue& queue,
                     metrics::Metrics* metrics = nullptr)
      : store_(std::move(store)), queue_(queue), metrics_(metrics) {}

  void OnAddShared(const Shared& object) override {
    store_->OnAddShared(object);
    Raise(framework::action::kAdd, "Add", nullptr, object);
  }
  void OnUpdateShared(const Shared& old, const Shared& now) override {
    store_->OnUpdateShared(old, now);
    Raise(framework::action::kUpdate, "Update", old, now);
  }
  void OnDeleteShared(const Shared& last_known) override {
    store_->OnDeleteShared(last_known);
    Raise(framework::action::kDelete, "Delete", last_known, nullptr);
  }

 private:
  void Raise(framework::ActionType action, std::string_view verb, Shared old, Shared now) {
    using Kind = ObjectEventKind<T>;
    SharedEventObjects objects;
    auto& group = objects.*Kind::kGroup;
    group.*Kind::kOld = std::move(old);
    group.*Kind::kNew = std::move(now);
    const framework::ClusterEvent event{
        Kind::kResource, action,
        std::string(framework::EventResourceName(Kind::kResource)) + std::string(verb)};
    const auto start = std::chrono::steady_clock::now();
    queue_.MoveAllToActiveOrBackoffQueue(event, objects);
    if (metrics_ != nullptr && queue_.HasRegistrationFor(Kind::kResource, action)) {
      metrics_->ObserveEventHandling(event.label, std::chrono::steady_clock::now() - start);
    }
  }

  std::shared_ptr<NamespacedObjectStore<T>> store_;
  SchedulingQueue& queue_;
  metrics::Metrics* const metrics_;
};

}  // namespace ksched::scheduler
