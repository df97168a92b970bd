// Allocator: DRA's structured-parameters allocator as kube-scheduler v1.34 runs it
// (k8s.io/dynamic-resource-allocation structured, the "incubating" variant that v1.34's default
// feature set selects: DRAAdminAccess and DRAPrioritizedList on; partitionable devices, device
// taints, binding conditions and consumable capacity off).
//
// Built once per scheduling cycle (PreFilter) from every ResourceSlice, the devices already
// allocated, the DeviceClasses and a CEL cache; Allocate() then answers per node (Filter) whether
// the pod's unallocated claims can all be allocated there, and with which devices:
//   - Pools: the slices published for the node (nodeName), for every node (allNodes) or for the
//     nodes a nodeSelector selects, grouped by driver and pool; only the slices of a pool's
//     highest generation count; a pool whose slices are fewer than resourceSliceCount is
//     incomplete, one listing a device name twice is invalid. Slices with perDeviceNodeSelection
//     are skipped (DRAPartitionableDevices off).
//   - Requests, claim after claim: `exactly` (ExactCount: count devices; All: every matching
//     device of the node's pools, which must all be complete and valid) or `firstAvailable`
//     (the first subrequest that can be satisfied, in order). A device matches when its class's
//     and the request's CEL selectors all accept it; it must not be allocated already (unless the
//     request asks for adminAccess, which only excludes devices this claim already takes) nor
//     consume counters or have binding conditions (features off).
//   - Constraints: matchAttribute (all devices of the named requests, or of every request, have
//     the same value of the fully qualified attribute; an unqualified device attribute counts as
//     the driver's domain).
//   - Search: depth first over devices in pool and slice order, backtracking, first full
//     solution wins (upstream's exhaustive search); at most 32 devices per claim.
//   - Result per claim: the devices ("request" or "request/subrequest", driver, pool, device,
//     adminAccess when requested), the class configs (FromClass, each class once) then the claim's
//     configs (FromClaim) for the requests chosen, and a node selector: the node's name
//     (metadata.name In) when a device came from a node-local slice, else the requirements of
//     the slices' one-term node selectors, else none.
// Pool order: upstream iterates a Go map (random); here pools are in (driver, pool) order and
// slices in name order, so ties between equally good devices are broken deterministically.
//
// Errors (as upstream's, e.g. `claim default/gpu, request gpu: could not retrieve device class
// gpu-class: ...`, `class gpu-class: selector #0: CEL runtime error: no such key: model`) mean
// the claim or class cannot be handled at all; the plugin turns them into an error Status.
//
// Thread-safety: Allocate is const and may run on several Filter workers at once (the CEL cache
// is locked); the objects passed in must outlive the Allocator.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "api/node.h"
#include "api/node_selector.h"
#include "api/resource.h"
#include "plugins/dynamic_resources/cel/device_selector.h"

namespace ksched::plugins::dynamic_resources {

// klog.KObj: "namespace/name", or the name of a cluster-scoped object (the messages' object names).
std::string ObjectName(const api::ObjectMeta& meta);

// A device's identity: driver, pool and device name joined by '\0' (pool names may hold '/').
std::string DeviceKey(std::string_view driver, std::string_view pool, std::string_view device);

// The devices already allocated (or being allocated) to claims, by DeviceKey.
using AllocatedDevices = absl::flat_hash_set<std::string>;

// Looks up a DeviceClass by name; nullptr when there is none.
using DeviceClassGetter = std::function<std::shared_ptr<const api::DeviceClass>(std::string_view)>;

struct AllocatorFeatures {
  bool admin_access = true;      // DRAAdminAccess (beta, on in v1.34)
  bool prioritized_list = true;  // DRAPrioritizedList (beta, on in v1.34)
};

class Allocator {
 public:
  Allocator(AllocatorFeatures features, AllocatedDevices allocated, DeviceClassGetter classes,
            std::vector<std::shared_ptr<const api::ResourceSlice>> slices, SelectorCache& cel_cache);

  // One AllocationResult per claim, in order; nullopt when the claims cannot all be allocated on
  // `node`; FailedPrecondition when they cannot and an invalid pool was skipped on the way
  // (upstream's ErrFailedAllocationOnNode: this node only); another error when a claim, class or
  // slice cannot be handled, DeadlineExceeded when the search ran past `deadline` (upstream's
  // filter timeout).
  absl::StatusOr<std::optional<std::vector<api::AllocationResult>>> Allocate(
      const api::Node& node, std::span<const api::ResourceClaim* const> claims,
      std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt) const;

  // allocateOne invocations of the last Allocate calls (tests, for the search's work).
  std::int64_t allocate_one_calls() const;

 private:
  friend class AllocationSearch;
  struct Slice {
    const api::ResourceSlice* slice;
    // Compiled spec.nodeSelector, or the error it gave (the pool is then unusable for any node).
    std::optional<absl::StatusOr<api::CompiledNodeSelector>> node_selector;
  };

  AllocatorFeatures features_;
  AllocatedDevices allocated_;
  DeviceClassGetter classes_;
  std::vector<std::shared_ptr<const api::ResourceSlice>> slices_;  // keeps them alive
  // Slices by nodeName; the others (allNodes, nodeSelector) in name order.
  absl::flat_hash_map<std::string, std::vector<const api::ResourceSlice*>> by_node_name_;
  std::vector<Slice> cluster_slices_;
  SelectorCache& cel_cache_;
  mutable std::atomic<std::int64_t> allocate_one_calls_{0};
};

}  // namespace ksched::plugins::dynamic_resources
