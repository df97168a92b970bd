// ObjectEventHandler<T>: the reflector handler that keeps one kind's NamespacedObjectStore and turns
// each change into the cluster event the plugins registered for (upstream eventhandlers.go
// buildEvtResHandler: "PersistentVolumeClaimAdd", "ResourceSliceUpdate", ...), with the objects in
// the event (SharedEventObjects), so that a pod a plugin rejected is retried when the object it
// waited for appears or changes. Used for the volume plugins' kinds (scheduler/storage_object_stores.h)
// and DynamicResources' (scheduler/resource_object_stores.h).
//
// A kind is described by ObjectEventKind<T>, declared with KSCHED_OBJECT_EVENT_KIND(Kind, group,
// old, new) next to its store: the EventResource k<Kind>, the label stem "<Kind>", and the
// SharedEventObjects members (`group`.`old`, `group`.`new`) its objects go in.
//
// Ownership: shares the store and the objects (immutable) with the reflector. Thread-safety: the
// handler calls come from the reflector's thread.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "client/reflector.h"
#include "framework/cluster_event.h"
#include "scheduler/in_flight_events.h"
#include "scheduler/namespaced_object_store.h"
#include "scheduler/scheduling_queue.h"

namespace ksched::scheduler {

template <typename T>
struct ObjectEventKind;

#define KSCHED_OBJECT_EVENT_KIND(Kind, group, old_member, new_member)                             \
  template <>                                                                                     \
  struct ObjectEventKind<api::Kind> {                                                             \
    static constexpr framework::EventResource kResource = framework::EventResource::k##Kind;      \
    static constexpr std::string_view kLabel = #Kind;                                             \
    static constexpr auto kGroup = &SharedEventObjects::group;                                    \
    static constexpr auto kOld = &decltype(SharedEventObjects::group)::old_member;                \
    static constexpr auto kNew = &decltype(SharedEventObjects::group)::new_member;                \
  };

template <typename T>
class ObjectEventHandler final : public client::ReflectorHandler<T> {
 public:
  using Shared = std::shared_ptr<const T>;
  ObjectEventHandler(std::shared_ptr<NamespacedObjectStore<T>> store, SchedulingQueue& queue)
      : store_(std::move(store)), queue_(queue) {}

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
    queue_.MoveAllToActiveOrBackoffQueue(
        framework::ClusterEvent{Kind::kResource, action, std::string(Kind::kLabel) + std::string(verb)},
        objects);
  }

  std::shared_ptr<NamespacedObjectStore<T>> store_;
  SchedulingQueue& queue_;
};

}  // namespace ksched::scheduler
