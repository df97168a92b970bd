#include "framework/resource.h"

#include <algorithm>
#include <initializer_list>
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

// upstream findContainerStatus (v0.37.2): containerStatuses first, then initContainerStatuses.
const api::ContainerStatus* FindContainerStatus(const api::Pod& pod, std::string_view name) {
  const api::PodResourceStatus& reported = pod.status.resource_status.Get();
  for (const api::ContainerStatus& status : reported.container_statuses) {
    if (status.name == name) return &status;
  }
  for (const api::ContainerStatus& status : reported.init_container_statuses) {
    if (status.name == name) return &status;
  }
  return nullptr;
}

// upstream max(a, b...): a copy of `a` raised to each of the others, name by name.
api::ResourceList MaxOf(api::ResourceList result, std::initializer_list<const api::ResourceList*> others) {
  for (const api::ResourceList* other : others) MaxList(result, *other);
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

// What one container contributes to an aggregate (upstream's getResourceList functions): its
// spec's, or what its status says; nullptr means nothing (an Infeasible resize without status).
enum class ContainerAmount : std::uint8_t { kSpecRequests, kAllocatedRequests, kActuatedRequests, kSpecLimits, kActuatedLimits };

const api::ResourceList* AmountOf(ContainerAmount kind, const api::Container& container,
                                  const api::ContainerStatus* status, bool infeasible) {
  switch (kind) {
    case ContainerAmount::kSpecRequests:
      return &container.resources.requests;
    case ContainerAmount::kSpecLimits:
      return &container.resources.limits;
    case ContainerAmount::kAllocatedRequests:  // containerAllocatedRequests
      if (status != nullptr && !status->allocated_resources.empty()) return &status->allocated_resources;
      break;
    case ContainerAmount::kActuatedRequests:  // containerActuatedRequests
      if (status != nullptr && status->resources.has_value() && !status->resources->requests.empty()) {
        return &status->resources->requests;
      }
      if (status != nullptr && !status->allocated_resources.empty()) return &status->allocated_resources;
      break;
    case ContainerAmount::kActuatedLimits:  // containerActuatedLimits
      if (status != nullptr && status->resources.has_value() && !status->resources->limits.empty()) {
        return &status->resources->limits;
      }
      break;
  }
  if (infeasible) return nullptr;
  return kind == ContainerAmount::kActuatedLimits ? &container.resources.limits : &container.resources.requests;
}

// upstream aggregateContainerResourcesByFn (KEP-753): the containers' sum plus restartable init
// containers (sidecars), raised to what each init container needs while it runs: its own amount
// plus the sidecars started before it. Statuses are read (for every container and init
// container) only with `use_status`; `non_missing` defaults are added to each container's amount.
api::ResourceList AggregateContainers(const api::Pod& pod, ContainerAmount kind, bool use_status,
                                      const api::ResourceList& non_missing) {
  // The spec's amounts read no status.
  const bool reads_status =
      use_status && kind != ContainerAmount::kSpecRequests && kind != ContainerAmount::kSpecLimits;
  const bool infeasible = reads_status && IsPodResizeInfeasible(pod);
  const api::ResourceList kNothing;
  auto amount = [&](const api::Container& container) {
    const api::ContainerStatus* status = reads_status ? FindContainerStatus(pod, container.name) : nullptr;
    const api::ResourceList* list = AmountOf(kind, container, status, infeasible);
    if (list == nullptr) list = &kNothing;
    return non_missing.empty() ? *list : ApplyNonMissing(*list, non_missing);
  };
  api::ResourceList result;
  for (const api::Container& container : pod.spec.containers) AddList(result, amount(container));
  api::ResourceList sidecars;
  api::ResourceList init_peak;
  for (const api::Container& container : pod.spec.init_containers) {
    api::ResourceList own = amount(container);
    if (container.IsRestartable()) {
      AddList(result, own);
      AddList(sidecars, own);
      MaxList(init_peak, sidecars);
    } else {
      AddList(own, sidecars);
      MaxList(init_peak, own);
    }
  }
  MaxList(result, init_peak);
  return result;
}

// upstream AggregateContainerRequests (v0.37.2).
api::ResourceList AggregateContainerRequests(const api::Pod& pod, const PodRequestsOptions& options,
                                             const api::ResourceList& non_missing) {
  if (!options.use_status_resources) {
    return AggregateContainers(pod, ContainerAmount::kSpecRequests, false, non_missing);
  }
  const bool infeasible = IsPodResizeInfeasible(pod);
  const api::ResourceList spec = AggregateContainers(pod, ContainerAmount::kSpecRequests, true, non_missing);
  // Nothing reported (every pending pod): the allocated and actuated aggregates read the spec too.
  if (!pod.status.resource_status.has_value() && !infeasible) return spec;
  const api::PodResourceStatus& reported = pod.status.resource_status.Get();
  api::ResourceList allocated;
  api::ResourceList actuated;
  // The pod-level status already aggregates the containers (a v1.37 kubelet sets it).
  if (options.use_pod_level_status_resources && !reported.allocated_resources.empty() &&
      reported.resources.has_value() && !reported.resources->requests.empty()) {
    allocated = reported.allocated_resources;
    actuated = reported.resources->requests;
  } else {
    allocated = AggregateContainers(pod, ContainerAmount::kAllocatedRequests, true, non_missing);
    actuated = AggregateContainers(pod, ContainerAmount::kActuatedRequests, true, non_missing);
  }
  if (infeasible) return MaxOf(std::move(actuated), {&allocated});
  return MaxOf(spec, {&actuated, &allocated});
}

// upstream AggregateContainerLimits (v0.37.2).
api::ResourceList AggregateContainerLimits(const api::Pod& pod, const PodLimitsOptions& options) {
  const api::ResourceList kNone;
  if (!options.use_status_resources) return AggregateContainers(pod, ContainerAmount::kSpecLimits, false, kNone);
  const bool infeasible = IsPodResizeInfeasible(pod);
  const api::ResourceList spec = AggregateContainers(pod, ContainerAmount::kSpecLimits, true, kNone);
  if (!pod.status.resource_status.has_value() && !infeasible) return spec;
  const api::PodResourceStatus& reported = pod.status.resource_status.Get();
  api::ResourceList actuated;
  if (options.use_pod_level_status_resources && reported.resources.has_value() &&
      !reported.resources->limits.empty()) {
    actuated = reported.resources->limits;
  } else {
    actuated = AggregateContainers(pod, ContainerAmount::kActuatedLimits, true, kNone);
  }
  if (infeasible) return actuated;
  return MaxOf(spec, {&actuated});
}

// upstream IsSupportedPodLevelResource.
bool IsSupportedPodLevelResource(std::string_view name) {
  return name == api::kResourceCPU || name == api::kResourceMemory ||
         StartsWith(name, kHugePagesPrefix);
}

bool HasSupportedPodLevelResource(const api::ResourceList& list) {
  for (const auto& entry : list) {
    if (IsSupportedPodLevelResource(entry.first)) return true;
  }
  return false;
}

// upstream IsPodLevelRequestsSet.
bool IsPodLevelRequestsSet(const api::Pod& pod) { return HasSupportedPodLevelResource(pod.spec.resources.requests); }

// upstream IsPodLevelResourcesSet: requests or limits.
bool IsPodLevelResourcesSet(const api::Pod& pod) {
  return IsPodLevelRequestsSet(pod) || HasSupportedPodLevelResource(pod.spec.resources.limits);
}

// upstream effectivePodLevelResources: the larger of the spec's (left out while the resize is
// Infeasible) and the statuses'.
api::ResourceList EffectivePodLevelResources(const api::Pod& pod, const api::ResourceList& spec,
                                             std::initializer_list<const api::ResourceList*> statuses) {
  return MaxOf(IsPodResizeInfeasible(pod) ? api::ResourceList() : spec, statuses);
}

// upstream applyPodLevelResources: the supported names of `effective` replace the aggregate's.
void ApplyPodLevelResources(api::ResourceList& result, const api::ResourceList& effective) {
  for (const auto& [name, quantity] : effective) {
    if (IsSupportedPodLevelResource(name)) result.Set(std::string(std::string_view(name)), quantity);
  }
}

// upstream resourcehelper.PodRequests (PodLevelResources enabled, as in v1.37).
api::ResourceList PodRequestList(const api::Pod& pod, const PodRequestsOptions& options,
                                 const api::ResourceList& non_missing) {
  api::ResourceList requests = AggregateContainerRequests(pod, options, non_missing);
  if (IsPodLevelRequestsSet(pod)) {
    const api::PodResourceStatus& reported = pod.status.resource_status.Get();
    if (options.use_pod_level_status_resources && options.use_status_resources && reported.resources.has_value()) {
      ApplyPodLevelResources(requests, EffectivePodLevelResources(pod, pod.spec.resources.requests,
                                                                  {&reported.resources->requests,
                                                                   &reported.allocated_resources}));
    } else {
      ApplyPodLevelResources(requests, pod.spec.resources.requests);
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
  api::ResourceList limits = AggregateContainerLimits(pod, options);
  if (IsPodLevelResourcesSet(pod)) {
    const api::PodResourceStatus& reported = pod.status.resource_status.Get();
    if (options.use_pod_level_status_resources && options.use_status_resources && reported.resources.has_value()) {
      ApplyPodLevelResources(limits,
                             EffectivePodLevelResources(pod, pod.spec.resources.limits, {&reported.resources->limits}));
    } else {
      ApplyPodLevelResources(limits, pod.spec.resources.limits);
    }
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
