// Dynamic resource allocation objects (resource.k8s.io/v1, GA in Kubernetes 1.34) as
// kube-scheduler v1.34's DynamicResources plugin and its structured allocator read them, each
// reduced to those fields:
//   ResourceSlice   metadata, spec.driver, spec.pool, spec.nodeName / nodeSelector / allNodes /
//                   perDeviceNodeSelection, spec.devices (name, attributes, capacity; whether it
//                   consumes counters or has binding conditions, both features off in v1.34, so
//                   such a device is never allocated, as upstream's allocator decides)
//   DeviceClass     metadata, spec.selectors (CEL), spec.config (opaque, copied into allocations)
//   ResourceClaim   metadata, spec.devices (requests with exactly / firstAvailable, constraints,
//                   config), status.allocation, status.reservedFor, status.devices (kept as JSON
//                   text: only compared, for the queueing hint)
// Opaque driver configuration is kept as the JSON text of its `opaque` member, since the
// scheduler only copies it into the allocation it writes.
//
// Thread-safety: plain value types.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/node_selector.h"
#include "api/object_meta.h"
#include "api/quantity.h"

namespace ksched::api {

// The finalizer the scheduler adds before it writes an allocation (resourceapi.Finalizer).
inline constexpr std::string_view kResourceClaimFinalizer = "resource.kubernetes.io/delete-protection";
// resourceapi.AllocationResultsMaxSize: devices per claim.
inline constexpr int kAllocationResultsMaxSize = 32;
// resourceapi.ResourceClaimReservedForMaxSize.
inline constexpr int kResourceClaimReservedForMaxSize = 256;
inline constexpr std::string_view kDeviceAllocationModeExactCount = "ExactCount";
inline constexpr std::string_view kDeviceAllocationModeAll = "All";
inline constexpr std::string_view kAllocationConfigSourceClass = "FromClass";
inline constexpr std::string_view kAllocationConfigSourceClaim = "FromClaim";

// One typed attribute value; exactly one member is set in a valid object.
struct DeviceAttribute {
  enum class Kind : std::uint8_t { kNone, kInt, kBool, kString, kVersion };
  Kind kind = Kind::kNone;
  std::int64_t int_value = 0;
  bool bool_value = false;
  std::string string_value;  // the string, or the semantic version's text

  friend bool operator==(const DeviceAttribute&, const DeviceAttribute&) = default;
};

struct Device {
  std::string name;
  // Qualified name ("domain/id" or "id", the driver's domain implied) → value, sorted by name.
  std::vector<std::pair<std::string, DeviceAttribute>> attributes;
  std::vector<std::pair<std::string, Quantity>> capacity;  // capacity[name].value, sorted by name
  bool consumes_counters = false;       // consumesCounters non-empty (DRAPartitionableDevices)
  bool has_binding_conditions = false;  // bindingConditions non-empty (DRADeviceBindingConditions)

  // Quantities compare semantically ("1" == "1000m"), as ResourceList's; Quantity has no ==.
  friend bool operator==(const Device& a, const Device& b) {
    return a.name == b.name && a.attributes == b.attributes && a.consumes_counters == b.consumes_counters &&
           a.has_binding_conditions == b.has_binding_conditions &&
           std::equal(a.capacity.begin(), a.capacity.end(), b.capacity.begin(), b.capacity.end(),
                      [](const auto& x, const auto& y) { return x.first == y.first && x.second.Equal(y.second); });
  }
};

struct ResourcePool {
  std::string name;
  std::int64_t generation = 0;
  std::int64_t resource_slice_count = 0;

  friend bool operator==(const ResourcePool&, const ResourcePool&) = default;
};

struct ResourceSlice {
  ObjectMeta metadata;
  std::string driver;
  ResourcePool pool;
  std::string node_name;  // "" when absent
  std::optional<NodeSelector> node_selector;
  bool all_nodes = false;
  std::optional<bool> per_device_node_selection;  // DRAPartitionableDevices (off): slice skipped
  std::vector<Device> devices;

  friend bool operator==(const ResourceSlice&, const ResourceSlice&) = default;
};

struct DeviceSelector {
  // spec.selectors[i].cel.expression; nullopt when the selector has no `cel` member (a selector
  // type this scheduler does not know, which upstream's allocator rejects).
  std::optional<std::string> cel_expression;

  friend bool operator==(const DeviceSelector&, const DeviceSelector&) = default;
};

// DeviceConfiguration: `opaque` ({driver, parameters}) as JSON text, "" when absent.
struct DeviceConfiguration {
  std::string opaque_json;

  friend bool operator==(const DeviceConfiguration&, const DeviceConfiguration&) = default;
};

struct DeviceClass {
  ObjectMeta metadata;
  std::vector<DeviceSelector> selectors;
  std::vector<DeviceConfiguration> config;

  friend bool operator==(const DeviceClass&, const DeviceClass&) = default;
};

struct DeviceSubRequest {
  std::string name;
  std::string device_class_name;
  std::vector<DeviceSelector> selectors;
  std::string allocation_mode;  // "ExactCount" (the API server's default) or "All"
  std::int64_t count = 0;       // ExactCount's count (defaulted to 1 by the API server)

  friend bool operator==(const DeviceSubRequest&, const DeviceSubRequest&) = default;
};

struct ExactDeviceRequest {
  std::string device_class_name;
  std::vector<DeviceSelector> selectors;
  std::string allocation_mode;
  std::int64_t count = 0;
  std::optional<bool> admin_access;

  friend bool operator==(const ExactDeviceRequest&, const ExactDeviceRequest&) = default;
};

struct DeviceRequest {
  std::string name;
  std::optional<ExactDeviceRequest> exactly;
  std::vector<DeviceSubRequest> first_available;  // DRAPrioritizedList

  friend bool operator==(const DeviceRequest&, const DeviceRequest&) = default;
};

struct DeviceConstraint {
  std::vector<std::string> requests;            // empty: every request of the claim
  std::optional<std::string> match_attribute;   // nullopt: a constraint type not known here

  friend bool operator==(const DeviceConstraint&, const DeviceConstraint&) = default;
};

struct DeviceClaimConfiguration {
  std::vector<std::string> requests;
  DeviceConfiguration configuration;

  friend bool operator==(const DeviceClaimConfiguration&, const DeviceClaimConfiguration&) = default;
};

struct DeviceRequestAllocationResult {
  std::string request;  // "request" or "request/subrequest"
  std::string driver;
  std::string pool;
  std::string device;
  std::optional<bool> admin_access;

  friend bool operator==(const DeviceRequestAllocationResult&, const DeviceRequestAllocationResult&) = default;
};

struct DeviceAllocationConfiguration {
  std::string source;  // "FromClass" or "FromClaim"
  std::vector<std::string> requests;
  DeviceConfiguration configuration;

  friend bool operator==(const DeviceAllocationConfiguration&, const DeviceAllocationConfiguration&) = default;
};

struct AllocationResult {
  std::vector<DeviceRequestAllocationResult> results;  // devices.results
  std::vector<DeviceAllocationConfiguration> config;   // devices.config
  std::optional<NodeSelector> node_selector;
  std::string allocation_timestamp;  // RFC 3339 text, "" when absent (binding conditions only)

  friend bool operator==(const AllocationResult&, const AllocationResult&) = default;
};

struct ResourceClaimConsumerReference {
  std::string api_group;  // "" for pods
  std::string resource;   // "pods"
  std::string name;
  std::string uid;

  friend bool operator==(const ResourceClaimConsumerReference&, const ResourceClaimConsumerReference&) = default;
};

struct ResourceClaimSpec {
  std::vector<DeviceRequest> requests;
  std::vector<DeviceConstraint> constraints;
  std::vector<DeviceClaimConfiguration> config;

  friend bool operator==(const ResourceClaimSpec&, const ResourceClaimSpec&) = default;
};

struct ResourceClaimStatus {
  std::optional<AllocationResult> allocation;
  std::vector<ResourceClaimConsumerReference> reserved_for;
  std::string devices_json;  // status.devices as JSON text, "" when absent

  friend bool operator==(const ResourceClaimStatus&, const ResourceClaimStatus&) = default;
};

struct ResourceClaim {
  ObjectMeta metadata;
  std::vector<std::string> finalizers;  // metadata.finalizers (the scheduler adds its own)
  ResourceClaimSpec spec;
  ResourceClaimStatus status;

  friend bool operator==(const ResourceClaim&, const ResourceClaim&) = default;
};

}  // namespace ksched::api
