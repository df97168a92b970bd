// ResourceObjectStores: the ResourceClaims, ResourceSlices and DeviceClasses (resource.k8s.io/v1)
// as their reflectors have them, read by DynamicResources through framework::ResourceLister
// (upstream: the informer factory's listers behind the SharedDRAManager). Claims are namespaced;
// slices and classes cluster-scoped (under ""). Each store is kept by an ObjectEventHandler<T>
// (scheduler/object_event_handler.h), which raises "ResourceClaimAdd/Update/Delete",
// "ResourceSliceAdd/..." and "DeviceClassAdd/..." with the objects, so that a pod DynamicResources
// rejected is retried when its claim, a slice or a class appears or changes.
//
// Ownership: the stores share the objects with the reflectors (immutable). Thread-safety: the
// lookups are safe from any thread; handler calls come from each reflector's thread.
#pragma once

#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "api/resource.h"
#include "framework/resource_lister.h"
#include "scheduler/namespaced_object_store.h"
#include "scheduler/object_event_handler.h"

namespace ksched::scheduler {

class ResourceObjectStores final : public framework::ResourceLister {
 public:
  std::shared_ptr<const api::ResourceClaim> GetResourceClaim(std::string_view ns,
                                                             std::string_view name) const override {
    return claims_->Get(ns, name);
  }
  void ForEachResourceClaim(
      const std::function<void(const std::shared_ptr<const api::ResourceClaim>&)>& fn) const override {
    claims_->ForEachShared(fn);
  }
  std::vector<std::shared_ptr<const api::ResourceSlice>> ListResourceSlices() const override {
    return slices_->ListIn("");
  }
  std::shared_ptr<const api::DeviceClass> GetDeviceClass(std::string_view name) const override {
    return classes_->Get("", name);
  }

  const std::shared_ptr<NamespacedObjectStore<api::ResourceClaim>>& claims() const { return claims_; }
  const std::shared_ptr<NamespacedObjectStore<api::ResourceSlice>>& slices() const { return slices_; }
  const std::shared_ptr<NamespacedObjectStore<api::DeviceClass>>& classes() const { return classes_; }

 private:
  std::shared_ptr<NamespacedObjectStore<api::ResourceClaim>> claims_ =
      std::make_shared<NamespacedObjectStore<api::ResourceClaim>>();
  std::shared_ptr<NamespacedObjectStore<api::ResourceSlice>> slices_ =
      std::make_shared<NamespacedObjectStore<api::ResourceSlice>>();
  std::shared_ptr<NamespacedObjectStore<api::DeviceClass>> classes_ =
      std::make_shared<NamespacedObjectStore<api::DeviceClass>>();
};

KSCHED_OBJECT_EVENT_KIND(ResourceClaim, resource, old_resource_claim, new_resource_claim)
KSCHED_OBJECT_EVENT_KIND(ResourceSlice, resource, old_resource_slice, new_resource_slice)
KSCHED_OBJECT_EVENT_KIND(DeviceClass, resource, old_device_class, new_device_class)

}  // namespace ksched::scheduler
