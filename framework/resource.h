// Resource: an amount of each resource a pod asks for or a node offers, as the scheduler counts
// it (upstream framework.Resource): cpu in millicores, memory and ephemeral-storage in bytes, the
// number of pods, and "scalar" resources (extended resources such as nvidia.com/gpu, hugepages-*,
// attachable-volumes-*) in their integer units.
//
// Scalars are a small vector sorted by name: pods and nodes carry a handful of them, lookups take
// a string_view and never allocate, and Add/Sub on resources the target already has never allocate
// either (the hot paths: NodeInfo accounting and the Fit filter).
//
// Also here: the pod's effective requests (upstream resourcehelper.PodRequests with the
// scheduler's options) and the non-zero requests used for scoring, and, as exact quantities, its
// requests and limits (resourcehelper.PodRequests / PodLimits; /metrics/resources reports them).
//
// Thread-safety: value types; concurrent const use is safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/compact_vector.h"
#include "api/pod.h"
#include "api/resource_list.h"
#include "framework/features.h"

namespace ksched::framework {

// Upstream pkg/scheduler/util DefaultMilliCPURequest / DefaultMemoryRequest: what a container
// without a request counts as when scoring (never when filtering).
inline constexpr std::int64_t kDefaultMilliCPURequest = 100;
inline constexpr std::int64_t kDefaultMemoryRequest = 200LL * 1024 * 1024;

// True for resources kept in Resource::scalars (upstream schedutil.IsScalarResourceName):
// extended resources (a domain-prefixed name outside kubernetes.io/, e.g. nvidia.com/gpu),
// hugepages-*, attachable-volumes-*, and prefixed native names such as requests.* are not.
bool IsScalarResourceName(std::string_view name);
// upstream v1helper.IsExtendedResourceName.
bool IsExtendedResourceName(std::string_view name);
bool IsHugePageResourceName(std::string_view name);

struct Resource {
  std::int64_t milli_cpu = 0;
  std::int64_t memory = 0;
  std::int64_t ephemeral_storage = 0;
  // Only meaningful for a node's allocatable: its "pods" capacity.
  std::int64_t allowed_pod_number = 0;
  // Sorted by name, names unique. Compact (one pointer): most are empty, and every NodeInfo (the
  // cache's and the snapshot's) holds three Resources, every PodInfo two.
  api::CompactVector<std::pair<std::string, std::int64_t>> scalars;

  // From a ResourceList: cpu as MilliValue, everything else as Value; "pods" into
  // allowed_pod_number; unknown non-scalar names are ignored (as upstream NewResource).
  static Resource FromList(const api::ResourceList& list);

  std::int64_t Scalar(std::string_view name) const noexcept;
  void SetScalar(std::string_view name, std::int64_t value);
  void AddScalar(std::string_view name, std::int64_t delta);

  // Adds/subtracts every field, scalars included (upstream Resource.Add / Sub).
  void Add(const Resource& other);
  void Sub(const Resource& other);
  // Per field maximum (for init containers).
  void SetMax(const Resource& other);
  bool IsZero() const noexcept;

  // The value of a resource by its core/v1 name (cpu in millicores), 0 when absent.
  std::int64_t Get(std::string_view name) const noexcept;

  friend bool operator==(const Resource&, const Resource&) = default;
};

// Options of PodRequests (upstream resourcehelper.PodResourcesOptions, as the scheduler sets them;
// PodLevelResources is on, so pod-level resources are never skipped).
struct PodRequestsOptions {
  // Count the pod's overhead (always true in the scheduler).
  bool include_overhead = true;
  // Containers with no request for cpu/memory count kDefaultMilliCPURequest/kDefaultMemoryRequest
  // (the "non-zero" requests used for scoring).
  bool non_zero_defaults = false;
  // UseStatusResources (InPlacePodVerticalScaling, GA): what the kubelet allocated and the runtime
  // applied count as well as the spec (an in-place resize in progress).
  bool use_status_resources = true;
  // InPlacePodLevelResourcesVerticalScalingEnabled: read the pod-level status.allocatedResources /
  // status.resources when the kubelet reported them; the process's gate (framework/features.h).
  bool use_pod_level_status_resources = ProcessFeatures().in_place_pod_level_resources_vertical_scaling;
};

// The pod's effective requests (upstream resourcehelper.PodRequests, v0.37.2):
//   - the containers' aggregate (KEP-753): their sum plus restartable init containers (sidecars),
//     raised to what each init container needs while it runs (its own amount plus the sidecars
//     before it);
//   - with use_status_resources, the larger per resource of three such aggregates (#140047: the
//     maxima of sums, not the sum of per-container maxima): the spec's; the allocated one
//     (status.allocatedResources at pod level when the kubelet reported it together with
//     status.resources.requests and use_pod_level_status_resources, else each container's
//     status allocatedResources, or its spec); and the actuated one (pod level
//     status.resources.requests, else each container's status resources.requests, else its
//     allocatedResources, else its spec). Every container and init container reads its status
//     (InPlacePodVerticalScalingInitContainers, GA). While the resize is Infeasible (the
//     PodResizePending condition's reason) the spec is left out, and a container without a
//     status then counts nothing;
//   - pod-level requests (spec.resources.requests) replace cpu, memory and hugepages-* when set;
//     with both status options and a reported status.resources, the larger of the spec's (unless
//     Infeasible), status.resources.requests and status.allocatedResources;
//   - plus overhead.
// non_zero_defaults adds the defaults to each container's amount in every aggregate read from
// containers (upstream applies NonMissingContainerRequests there).
Resource PodRequests(const api::Pod& pod, const PodRequestsOptions& options = {});
// The same as exact quantities, every resource name kept (upstream's ResourceList result).
api::ResourceList PodRequestQuantities(const api::Pod& pod, const PodRequestsOptions& options);

// Options of PodLimitQuantities; the defaults are upstream's zero PodResourcesOptions.
struct PodLimitsOptions {
  // Add the pod's overhead to each limit that is present and non-zero.
  bool include_overhead = true;
  // The larger of the spec's aggregate and the actuated one (pod-level status.resources.limits
  // with use_pod_level_status_resources, else each container's status limits, else its spec's),
  // the actuated one alone while the resize is Infeasible.
  bool use_status_resources = false;
  bool use_pod_level_status_resources = false;
};

// The pod's effective limits as exact quantities (upstream resourcehelper.PodLimits, v0.37.2):
// the containers' aggregate as for requests, then, when pod-level resources are set (requests or
// limits of cpu, memory or hugepages-*), spec.resources.limits replace cpu, memory and hugepages-*
// (with both status options and a reported status.resources, the larger of those, unless
// Infeasible, and status.resources.limits), plus overhead on present non-zero limits. Resources
// without a limit are absent.
api::ResourceList PodLimitQuantities(const api::Pod& pod, const PodLimitsOptions& options = {});

}  // namespace ksched::framework
