// StorageLister: the PersistentVolumeClaims, PersistentVolumes, StorageClasses, CSINodes,
// VolumeAttachments, CSIDrivers and CSIStorageCapacities the volume plugins read (upstream: the informer factory's listers of these three kinds).
//
// Lookups return nullptr for an object the scheduler does not know (upstream's lister NotFound);
// the plugins turn that into upstream's messages, e.g. `persistentvolumeclaim "data" not found`.
// The daemon's implementation is scheduler::StorageObjectStores, fed by reflectors; a Handle
// without one (tools, most tests) returns nullptr from storage_lister(), and the volume plugins
// then find no claim, volume or class.
//
// Ownership: the returned objects are immutable and shared; holding one keeps it alive after the
// store moved on. Thread-safety: called from the scheduling thread (PreFilter, Filter) and from
// the queue's event dispatch (queueing hints) concurrently; implementations must be safe for that.
#pragma once

#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "api/storage.h"

namespace ksched::framework {

class StorageLister {
 public:
  virtual ~StorageLister() = default;
  virtual std::shared_ptr<const api::PersistentVolumeClaim> GetPersistentVolumeClaim(
      std::string_view ns, std::string_view name) const = 0;
  virtual std::shared_ptr<const api::PersistentVolume> GetPersistentVolume(std::string_view name) const = 0;
  virtual std::shared_ptr<const api::StorageClass> GetStorageClass(std::string_view name) const = 0;
  // Every PersistentVolume, in name order (VolumeBinding's candidates for unbound claims).
  virtual std::vector<std::shared_ptr<const api::PersistentVolume>> ListPersistentVolumes() const = 0;
  // The CSINode of a node (NodeVolumeLimits: its drivers' volume limits), or nullptr.
  virtual std::shared_ptr<const api::CSINode> GetCSINode(std::string_view name) const = 0;
  // Calls fn(const api::VolumeAttachment&) for every VolumeAttachment (NodeVolumeLimits). `fn`
  // must not call back into the lister.
  virtual void ForEachVolumeAttachment(const std::function<void(const api::VolumeAttachment&)>& fn) const = 0;
  // The CSIDriver of that name (VolumeBinding: whether it publishes capacities), or nullptr.
  virtual std::shared_ptr<const api::CSIDriver> GetCSIDriver(std::string_view name) const = 0;
  // Calls fn for every CSIStorageCapacity of every namespace (VolumeBinding); same rule as above.
  virtual void ForEachCSIStorageCapacity(const std::function<void(const api::CSIStorageCapacity&)>& fn) const = 0;
};

}  // namespace ksched::framework
