// StorageObjectStores: the PersistentVolumeClaims, PersistentVolumes, StorageClasses, CSINodes,
// VolumeAttachments, CSIDrivers and CSIStorageCapacities as their reflectors have them, read by the volume plugins through framework::StorageLister (upstream:
// the informer factory's listers), and StorageEventHandler<T>, the reflector handler that keeps
// one of the stores and turns each change into the cluster event the volume plugins registered
// for (upstream eventhandlers.go buildEvtResHandler: "PersistentVolumeClaimAdd", ...), so that a
// pod they rejected is retried when its claim, volume or class appears or changes.
//
// Ownership: the stores share the objects with the reflectors (immutable). Thread-safety: the
// lookups are safe from any thread; handler calls come from each reflector's thread.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/storage.h"
#include "framework/cluster_event.h"
#include "framework/storage_lister.h"
#include "scheduler/in_flight_events.h"
#include "scheduler/namespaced_object_store.h"
#include "scheduler/scheduling_queue.h"

namespace ksched::scheduler {

class StorageObjectStores final : public framework::StorageLister {
 public:
  std::shared_ptr<const api::PersistentVolumeClaim> GetPersistentVolumeClaim(
      std::string_view ns, std::string_view name) const override {
    return claims_->Get(ns, name);
  }
  std::shared_ptr<const api::PersistentVolume> GetPersistentVolume(std::string_view name) const override {
    return volumes_->Get("", name);
  }
  std::shared_ptr<const api::StorageClass> GetStorageClass(std::string_view name) const override {
    return classes_->Get("", name);
  }
  std::vector<std::shared_ptr<const api::PersistentVolume>> ListPersistentVolumes() const override {
    return volumes_->ListIn("");
  }
  std::shared_ptr<const api::CSINode> GetCSINode(std::string_view name) const override {
    return csi_nodes_->Get("", name);
  }
  void ForEachVolumeAttachment(const std::function<void(const api::VolumeAttachment&)>& fn) const override {
    attachments_->ForEachIn("", fn);
  }
  std::shared_ptr<const api::CSIDriver> GetCSIDriver(std::string_view name) const override {
    return csi_drivers_->Get("", name);
  }
  void ForEachCSIStorageCapacity(const std::function<void(const api::CSIStorageCapacity&)>& fn) const override {
    capacities_->ForEach(fn);
  }

  const std::shared_ptr<NamespacedObjectStore<api::PersistentVolumeClaim>>& claims() const { return claims_; }
  const std::shared_ptr<NamespacedObjectStore<api::PersistentVolume>>& volumes() const { return volumes_; }
  const std::shared_ptr<NamespacedObjectStore<api::StorageClass>>& classes() const { return classes_; }
  const std::shared_ptr<NamespacedObjectStore<api::CSINode>>& csi_nodes() const { return csi_nodes_; }
  const std::shared_ptr<NamespacedObjectStore<api::VolumeAttachment>>& attachments() const { return attachments_; }
  const std::shared_ptr<NamespacedObjectStore<api::CSIDriver>>& csi_drivers() const { return csi_drivers_; }
  const std::shared_ptr<NamespacedObjectStore<api::CSIStorageCapacity>>& capacities() const { return capacities_; }

 private:
  std::shared_ptr<NamespacedObjectStore<api::PersistentVolumeClaim>> claims_ =
      std::make_shared<NamespacedObjectStore<api::PersistentVolumeClaim>>();
  std::shared_ptr<NamespacedObjectStore<api::PersistentVolume>> volumes_ =
      std::make_shared<NamespacedObjectStore<api::PersistentVolume>>();
  std::shared_ptr<NamespacedObjectStore<api::StorageClass>> classes_ =
      std::make_shared<NamespacedObjectStore<api::StorageClass>>();
  std::shared_ptr<NamespacedObjectStore<api::CSINode>> csi_nodes_ =
      std::make_shared<NamespacedObjectStore<api::CSINode>>();
  std::shared_ptr<NamespacedObjectStore<api::VolumeAttachment>> attachments_ =
      std::make_shared<NamespacedObjectStore<api::VolumeAttachment>>();
  std::shared_ptr<NamespacedObjectStore<api::CSIDriver>> csi_drivers_ =
      std::make_shared<NamespacedObjectStore<api::CSIDriver>>();
  std::shared_ptr<NamespacedObjectStore<api::CSIStorageCapacity>> capacities_ =
      std::make_shared<NamespacedObjectStore<api::CSIStorageCapacity>>();
};

// Where a kind's objects go in an event, and its resource and label stem.
template <typename T>
struct StorageEventKind;
template <>
struct StorageEventKind<api::PersistentVolumeClaim> {
  static constexpr framework::EventResource kResource = framework::EventResource::kPersistentVolumeClaim;
  static constexpr std::string_view kLabel = "PersistentVolumeClaim";
  static constexpr auto kOld = &SharedEventObjects::Storage::old_pvc;
  static constexpr auto kNew = &SharedEventObjects::Storage::new_pvc;
};
template <>
struct StorageEventKind<api::PersistentVolume> {
  static constexpr framework::EventResource kResource = framework::EventResource::kPersistentVolume;
  static constexpr std::string_view kLabel = "PersistentVolume";
  static constexpr auto kOld = &SharedEventObjects::Storage::old_pv;
  static constexpr auto kNew = &SharedEventObjects::Storage::new_pv;
};
template <>
struct StorageEventKind<api::StorageClass> {
  static constexpr framework::EventResource kResource = framework::EventResource::kStorageClass;
  static constexpr std::string_view kLabel = "StorageClass";
  static constexpr auto kOld = &SharedEventObjects::Storage::old_storage_class;
  static constexpr auto kNew = &SharedEventObjects::Storage::new_storage_class;
};
template <>
struct StorageEventKind<api::CSINode> {
  static constexpr framework::EventResource kResource = framework::EventResource::kCSINode;
  static constexpr std::string_view kLabel = "CSINode";
  static constexpr auto kOld = &SharedEventObjects::Storage::old_csi_node;
  static constexpr auto kNew = &SharedEventObjects::Storage::new_csi_node;
};
template <>
struct StorageEventKind<api::VolumeAttachment> {
  static constexpr framework::EventResource kResource = framework::EventResource::kVolumeAttachment;
  static constexpr std::string_view kLabel = "VolumeAttachment";
  static constexpr auto kOld = &SharedEventObjects::Storage::old_volume_attachment;
  static constexpr auto kNew = &SharedEventObjects::Storage::new_volume_attachment;
};
template <>
struct StorageEventKind<api::CSIDriver> {
  static constexpr framework::EventResource kResource = framework::EventResource::kCSIDriver;
  static constexpr std::string_view kLabel = "CSIDriver";
  static constexpr auto kOld = &SharedEventObjects::Storage::old_csi_driver;
  static constexpr auto kNew = &SharedEventObjects::Storage::new_csi_driver;
};
template <>
struct StorageEventKind<api::CSIStorageCapacity> {
  static constexpr framework::EventResource kResource = framework::EventResource::kCSIStorageCapacity;
  static constexpr std::string_view kLabel = "CSIStorageCapacity";
  static constexpr auto kOld = &SharedEventObjects::Storage::old_csi_storage_capacity;
  static constexpr auto kNew = &SharedEventObjects::Storage::new_csi_storage_capacity;
};

template <typename T>
class StorageEventHandler final : public client::ReflectorHandler<T> {
 public:
  using Shared = std::shared_ptr<const T>;
  StorageEventHandler(std::shared_ptr<NamespacedObjectStore<T>> store, SchedulingQueue& queue)
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
    using Kind = StorageEventKind<T>;
    SharedEventObjects objects;
    objects.storage.*Kind::kOld = std::move(old);
    objects.storage.*Kind::kNew = std::move(now);
    queue_.MoveAllToActiveOrBackoffQueue(
        framework::ClusterEvent{Kind::kResource, action, std::string(Kind::kLabel) + std::string(verb)},
        objects);
  }

  std::shared_ptr<NamespacedObjectStore<T>> store_;
  SchedulingQueue& queue_;
};

}  // namespace ksched::scheduler
