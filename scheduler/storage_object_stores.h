// StorageObjectStores: the PersistentVolumeClaims, PersistentVolumes, StorageClasses, CSINodes,
// VolumeAttachments, CSIDrivers and CSIStorageCapacities as their reflectors have them, read by the
// volume plugins through framework::StorageLister (upstream: the informer factory's listers). Each
// store is kept by an ObjectEventHandler<T> (scheduler/object_event_handler.h), which turns each
// change into the cluster event the volume plugins registered for ("PersistentVolumeClaimAdd", ...),
// so that a pod they rejected is retried when its claim, volume or class appears or changes.
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
#include "scheduler/namespaced_object_store.h"
#include "scheduler/object_event_handler.h"

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

KSCHED_OBJECT_EVENT_KIND(PersistentVolumeClaim, storage, old_pvc, new_pvc)
KSCHED_OBJECT_EVENT_KIND(PersistentVolume, storage, old_pv, new_pv)
KSCHED_OBJECT_EVENT_KIND(StorageClass, storage, old_storage_class, new_storage_class)
KSCHED_OBJECT_EVENT_KIND(CSINode, storage, old_csi_node, new_csi_node)
KSCHED_OBJECT_EVENT_KIND(VolumeAttachment, storage, old_volume_attachment, new_volume_attachment)
KSCHED_OBJECT_EVENT_KIND(CSIDriver, storage, old_csi_driver, new_csi_driver)
KSCHED_OBJECT_EVENT_KIND(CSIStorageCapacity, storage, old_csi_storage_capacity, new_csi_storage_capacity)

}  // namespace ksched::scheduler
