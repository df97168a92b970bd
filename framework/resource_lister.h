// ResourceLister: the ResourceClaims, ResourceSlices and DeviceClasses (resource.k8s.io/v1) that
// the DynamicResources plugin reads (upstream: SharedDRAManager's ResourceClaims(),
// ResourceSlices() and DeviceClasses() listers, fed by the informer factory).
//
// Lookups return nullptr for an object the scheduler does not know (upstream's NotFound); the
// plugin turns that into upstream's messages, e.g. `resourceclaim.resource.k8s.io "gpu" not
// found`. The daemon's implementation is scheduler::ResourceObjectStores, fed by reflectors; a
// Handle without one (tools, most tests) returns nullptr from resource_lister(), and the plugin
// then finds no claim, slice or class.
//
// Ownership: the returned objects are immutable and shared; holding one keeps it alive after the
// store moved on. Thread-safety: called from the scheduling thread (PreEnqueue, PreFilter), from
// binding threads and from the queue's event dispatch (queueing hints) concurrently;
// implementations must be safe for that. The ForEach callbacks must not call back into the
// lister.
#pragma once

#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "api/resource.h"

namespace ksched::framework {

class ResourceLister {
 public:
  virtual ~ResourceLister() = default;
  virtual std::shared_ptr<const api::ResourceClaim> GetResourceClaim(std::string_view ns,
                                                                     std::string_view name) const = 0;
  // Every ResourceClaim of every namespace (the devices already allocated).
  virtual void ForEachResourceClaim(
      const std::function<void(const std::shared_ptr<const api::ResourceClaim>&)>& fn) const = 0;
  // Every ResourceSlice, in name order.
  virtual std::vector<std::shared_ptr<const api::ResourceSlice>> ListResourceSlices() const = 0;
  virtual std::shared_ptr<const api::DeviceClass> GetDeviceClass(std::string_view name) const = 0;
};

}  // namespace ksched::framework
