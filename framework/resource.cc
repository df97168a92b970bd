#include "framework/resource.h"

#include <algorithm>
#include <string>

#include "api/label_selector.h"

namespace ksched::framework {

namespace {

// core/v1 constants (k8s.io/api/core/v1/types.go).
constexpr std::string_view kDefaultNamespacePrefix = "kubernetes.io/";
constexpr std::string_view kRequestsPrefix = "requests.";
constexpr std::string_view kHugePagesPrefix = "hugepages-";
constexpr std::string_view kAttachableVolumesPrefix = "attachable-volumes-";
constexpr std::string_view kPodResizePendingReasonInfeasible = "Infeasible";

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

bool IsPrefixedNativeResource(std::string_view name) {
  return name.find(kDefaultNamespacePrefix) != std::string_view::npos;
}

bool IsNativeResource(std::string_view name) {
  return name.find('/') == std::string_view::npos || IsPrefixedNativeResource(name);
}

bool IsAttachableVolumeResourceName(std::string_view name) {
  return StartsWith(name, kAttachableVolumesPrefix);
}

using ScalarEntry = std::pair<std::string, std::int64_t>;

struct ScalarLess {
  bool operator()(const ScalarEntry& entry, std::string_view name) const noexcept {
    return std::string_view(entry.first) < name;
  }
};

// ---- PodRequests: exact Quantity arithmetic, as upstream's ResourceList helpers ---------------
// Sums and maxima are taken on Quantities and converted to integers only at the end (as upstream
// does), so that rounding of fractional values happens once, on the total.

// upstream addResourceList: list[name] += quantity for every name of `added`.
void AddList(api::ResourceList& list, const api::ResourceList& added) {
  for (const auto& [name, quantity] : added) {
    if (const api::Quantity* existing = list.Get(name)) {
      api::Quantity sum = *existing;
      sum.Add(quantity);
      list.Set(name, std::move(sum));
    } else {
      list.Set(name, quantity);
    }
  }
}

// upstream maxResourceList: list[name] = max(list[name], quantity) for every name of `other`.
void MaxList(api::ResourceList& list, const api::ResourceList& other) {
  for (const auto& [name, quantity] : other) {
    const api::Quantity* existing = list.Get(name);
    if (existing == nullptr || quantity.Cmp(*existing) > 0) list.Set(name, quantity);
  }
}

// upstream IsPodResizeInfeasible: the first PodResizePending condition decides.
bool IsPodResizeInfeasible(const api::Pod& pod) {
  const api::PodCondition* condition = pod.status.FindCondition(api::kPodResizePending);
  return condition != nullptr && condition->reason == kPodResizePendingReasonInfeasible;
}

// upstream builds a name -> status map from containerStatuses, then initContainerStatuses (the
// latter win on a name clash).
const api::ContainerStatus* FindContainerStatus(const api::Pod& pod, std::string_view name) {
  for (const api::ContainerStatus& status : pod.status.init_container_statuses) {
    if (status.name == name) return &status;
  }
  for (const api::ContainerStatus& status : pod.status.container_statuses) {
    if (status.name == name) return &status;
  }
  return nullptr;
}

// upstream determineContainerReqs: with a resize in progress, the largest of what the spec asks,
// what the runtime applied and what the kubelet allocated (the spec is left out when the resize
// is infeasible).
api::ResourceList DetermineContainerRequests(const api::Pod& pod, const api::Container& container,
                                             const api::ContainerStatus& status) {
  const bool infeasible = IsPodResizeInfeasible(pod);
  api::ResourceList result = infeasible ? status.resources->requests : container.resources.requests;
  if (!infeasible) MaxList(result, status.resources->requests);
  MaxList(result, status.allocated_resources);
  return result;
}

// upstream applyNonMissing: names of `defaults` absent from `requests` are added (an explicit
// request, even "0", is kept).
api::ResourceList ApplyNonMissing(const api::ResourceList& requests,
                                  const api::ResourceList& defaults) {
  api::ResourceList result = requests;
  for (const auto& [name, quantity] : defaults) {
    if (!requests.Has(name)) result.Set(name, quantity);
  }
  return result;
}

// The requests of one container, status-adjusted and defaulted.
api::ResourceList ContainerRequests(const api::Pod& pod, const api::Container& container,
                                    bool use_status, const api::ResourceList& non_missing) {
  api::ResourceList requests = container.resources.requests;
  if (use_status) {
    const api::ContainerStatus* status = FindContainerStatus(pod, container.name);
    if (status != nullptr && status->resources.has_value()) {
      requests = DetermineContainerRequests(pod, container, *status);
    }
  }
  if (!non_missing.empty()) requests = ApplyNonMissing(requests, non_missing);
  return requests;
}

// upstream AggregateContainerRequests / AggregateContainerLimits (KEP-753): the containers' sum
// plus restartable init containers (sidecars), raised to what each init container needs while it
// runs: its own amount plus the sidecars started before it. `amounts(container, is_init)` gives
// one container's requests or limits.
template <typename AmountsFn>
api::ResourceList AggregateContainers(const api::Pod& pod, const AmountsFn& amounts) {
  api::ResourceList result;
  for (const api::Container& container : pod.spec.containers) {
    AddList(result, amounts(container, false));
  }
  api::ResourceList sidecars;
  api::ResourceList init_peak;
  for (const api::Container& container : pod.spec.init_containers) {
    api::ResourceList amount = amounts(container, true);
    if (container.IsRestartable()) {
      AddList(result, amount);
      AddList(sidecars, amount);
      MaxList(init_peak, sidecars);
    } else {
      AddList(amount, sidecars);
      MaxList(init_peak, amount);
    }
  }
  MaxList(result, init_peak);
  return result;
}

api::ResourceList AggregateContainerRequests(const api::Pod& pod, bool use_status,
                                             const api::ResourceList& non_missing) {
  return AggregateContainers(pod, [&](const api::Container& container, bool is_init) {
    // upstream reads the status of restartable init containers only.
    const bool status = use_status && (!is_init || container.IsRestartable());
    return ContainerRequests(pod, container, status, non_missing);
  });
}

// upstream determineContainerLimits: with a resize in progress, the larger of what the spec and
// the runtime say (the runtime's alone when the resize is infeasible).
api::ResourceList ContainerLimits(const api::Pod& pod, const api::Container& container,
                                  bool use_status) {
  if (use_status) {
    const api::ContainerStatus* status = FindContainerStatus(pod, container.name);
    if (status != nullptr && status->resources.has_value()) {
      if (IsPodResizeInfeasible(pod)) return status->resources->limits;
      api::ResourceList result = container.resources.limits;
      MaxList(result, status->resources->limits);
      return result;
    }
  }
  return container.resources.limits;
}

// upstream IsSupportedPodLevelResource.
bool IsSupportedPodLevelResource(std::string_view name) {
  return name == api::kResourceCPU || name == api::kResourceMemory ||
         StartsWith(name, kHugePagesPrefix);
}

// upstream IsPodLevelRequestsSet.
bool IsPodLevelRequestsSet(const api::Pod& pod) {
  for (const auto& entry : pod.spec.resources.requests) {
    if (IsSupportedPodLevelResource(entry.first)) return true;
  }
  return false;
}

// upstream resourcehelper.PodRequests (PodLevelResources enabled, as in v1.34).
api::ResourceList PodRequestList(const api::Pod& pod, const PodRequestsOptions& options,
                                 const api::ResourceList& non_missing) {
  api::ResourceList requests =
      AggregateContainerRequests(pod, options.use_status_resources, non_missing);
  if (IsPodLevelRequestsSet(pod)) {
    for (const auto& [name, quantity] : pod.spec.resources.requests) {
      if (IsSupportedPodLevelResource(name)) requests.Set(name, quantity);
    }
  }
  if (options.include_overhead) AddList(requests, pod.spec.overhead);
  return requests;
}

// upstream getNonMissingContainerRequests (framework/types.go): without pod-level requests every
// container lacking a cpu/memory request counts the default; with them, a default applies only
// to a resource that neither the pod level nor any container names.
api::ResourceList NonMissingContainerRequests(const api::ResourceList& requests,
                                              bool pod_level_requests_set) {
  constexpr api::QuantityFormat kDecimalSI = api::QuantityFormat::kDecimalSI;
  api::ResourceList defaults;
  if (!pod_level_requests_set || !requests.Has(api::kResourceCPU)) {
    defaults.Set(std::string(api::kResourceCPU),
                 api::Quantity::FromMilli(kDefaultMilliCPURequest, kDecimalSI));
  }
  if (!pod_level_requests_set || !requests.Has(api::kResourceMemory)) {
    defaults.Set(std::string(api::kResourceMemory),
                 api::Quantity::FromInt(kDefaultMemoryRequest, kDecimalSI));
  }
  return defaults;
}

}  // namespace

bool IsHugePageResourceName(std::string_view name) { return StartsWith(name, kHugePagesPrefix); }

bool IsExtendedResourceName(std::string_view name) {
  if (IsNativeResource(name) || StartsWith(name, kRequestsPrefix)) return false;
  // The name must stay a qualified name once turned into its quota name ("requests.<name>").
  std::string quota_name(kRequestsPrefix);
  quota_name += name;
  return api::IsQualifiedName(quota_name).empty();
}

bool IsScalarResourceName(std::string_view name) {
  return IsExtendedResourceName(name) || IsHugePageResourceName(name) ||
         IsPrefixedNativeResource(name) || IsAttachableVolumeResourceName(name);
}

Resource Resource::FromList(const api::ResourceList& list) {
  Resource resource;
  for (const auto& [name, quantity] : list) {
    if (name == api::kResourceCPU) {
      resource.milli_cpu += quantity.MilliValue();
    } else if (name == api::kResourceMemory) {
      resource.memory += quantity.Value();
    } else if (name == api::kResourcePods) {
      resource.allowed_pod_number += quantity.Value();
    } else if (name == api::kResourceEphemeralStorage) {
      resource.ephemeral_storage += quantity.Value();
    } else if (IsScalarResourceName(name)) {
      resource.AddScalar(name, quantity.Value());
    }
  }
  return resource;
}

std::int64_t Resource::Scalar(std::string_view name) const noexcept {
  auto it = std::lower_bound(scalars.begin(), scalars.end(), name, ScalarLess{});
  return it != scalars.end() && it->first == name ? it->second : 0;
}

void Resource::SetScalar(std::string_view name, std::int64_t value) {
  auto it = std::lower_bound(scalars.begin(), scalars.end(), name, ScalarLess{});
  if (it != scalars.end() && it->first == name) {
    it->second = value;
  } else {
    scalars.emplace(it, std::string(name), value);
  }
}

void Resource::AddScalar(std::string_view name, std::int64_t delta) {
  auto it = std::lower_bound(scalars.begin(), scalars.end(), name, ScalarLess{});
  if (it != scalars.end() && it->first == name) {
    it->second += delta;
  } else {
    scalars.emplace(it, std::string(name), delta);
  }
}

void Resource::Add(const Resource& other) {
  milli_cpu += other.milli_cpu;
  memory += other.memory;
  ephemeral_storage += other.ephemeral_storage;
  allowed_pod_number += other.allowed_pod_number;
  for (const auto& [name, value] : other.scalars) AddScalar(name, value);
}

void Resource::Sub(const Resource& other) {
  milli_cpu -= other.milli_cpu;
  memory -= other.memory;
  ephemeral_storage -= other.ephemeral_storage;
  allowed_pod_number -= other.allowed_pod_number;
  for (const auto& [name, value] : other.scalars) AddScalar(name, -value);
}

void Resource::SetMax(const Resource& other) {
  milli_cpu = std::max(milli_cpu, other.milli_cpu);
  memory = std::max(memory, other.memory);
  ephemeral_storage = std::max(ephemeral_storage, other.ephemeral_storage);
  allowed_pod_number = std::max(allowed_pod_number, other.allowed_pod_number);
  // An absent scalar counts as 0, as upstream's map lookup.
  for (const auto& [name, value] : other.scalars) SetScalar(name, std::max(Scalar(name), value));
}

bool Resource::IsZero() const noexcept {
  if (milli_cpu != 0 || memory != 0 || ephemeral_storage != 0 || allowed_pod_number != 0) {
    return false;
  }
  return std::all_of(scalars.begin(), scalars.end(),
                     [](const ScalarEntry& entry) { return entry.second == 0; });
}

std::int64_t Resource::Get(std::string_view name) const noexcept {
  if (name == api::kResourceCPU) return milli_cpu;
  if (name == api::kResourceMemory) return memory;
  if (name == api::kResourceEphemeralStorage) return ephemeral_storage;
  if (name == api::kResourcePods) return allowed_pod_number;
  return Scalar(name);
}

api::ResourceList PodRequestQuantities(const api::Pod& pod, const PodRequestsOptions& options) {
  api::ResourceList requests = PodRequestList(pod, options, api::ResourceList());
  if (!options.non_zero_defaults) return requests;
  // upstream PodInfo.CalculateResource: a second pass with per-container defaults.
  const api::ResourceList defaults = NonMissingContainerRequests(requests, IsPodLevelRequestsSet(pod));
  return defaults.empty() ? requests : PodRequestList(pod, options, defaults);
}

api::ResourceList PodLimitQuantities(const api::Pod& pod, const PodLimitsOptions& options) {
  api::ResourceList limits =
      AggregateContainers(pod, [&](const api::Container& container, bool is_init) {
        const bool status = options.use_status_resources && (!is_init || container.IsRestartable());
        return ContainerLimits(pod, container, status);
      });
  // Pod-level limits of supported resources replace the containers' (upstream guards this with
  // IsPodLevelResourcesSet, which any such limit satisfies).
  for (const auto& [name, quantity] : pod.spec.resources.limits) {
    if (IsSupportedPodLevelResource(name)) limits.Set(name, quantity);
  }
  if (options.include_overhead) {
    for (const auto& [name, quantity] : pod.spec.overhead) {
      const api::Quantity* limit = limits.Get(name);
      if (limit == nullptr || limit->IsZero()) continue;
      api::Quantity sum = *limit;
      sum.Add(quantity);
      limits.Set(name, std::move(sum));
    }
  }
  return limits;
}

Resource PodRequests(const api::Pod& pod, const PodRequestsOptions& options) {
  return Resource::FromList(PodRequestQuantities(pod, options));
}

}  // namespace ksched::framework
