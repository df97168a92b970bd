#include "plugins/node_resources/resource_allocation.h"

#include <algorithm>

#include "api/resource_list.h"
#include "framework/resource.h"

namespace ksched::plugins::node_resources {

ResourceAllocation::ResourceAllocation(std::span<const ResourceSpec> resources,
                                       Accounting accounting)
    : accounting_(accounting) {
  names_.reserve(resources.size());
  kinds_.reserve(resources.size());
  weights_.reserve(resources.size());
  for (const ResourceSpec& resource : resources) {
    const std::string_view name = resource.name;
    Kind kind = Kind::kOther;
    if (name == api::kResourceCPU) {
      kind = Kind::kCpu;
    } else if (name == api::kResourceMemory) {
      kind = Kind::kMemory;
    } else if (name == api::kResourceEphemeralStorage) {
      kind = Kind::kEphemeralStorage;
    } else if (framework::IsScalarResourceName(name)) {
      kind = Kind::kScalar;
    }
    names_.push_back(name);
    kinds_.push_back(kind);
    weights_.push_back(resource.weight);
  }
}

namespace {

// upstream calculatePodResourceRequest with the flags of `accounting` (see the header).
framework::Resource ScoringRequests(const api::Pod& pod, Accounting accounting) {
  framework::PodRequestsOptions options;
  if (accounting == Accounting::kRequested) {
    options.use_status_resources = true;
    options.non_zero_defaults = false;
    return framework::PodRequests(pod, options);
  }
  options.use_status_resources = false;
  options.non_zero_defaults = true;
  if (pod.spec.resources.requests.empty()) return framework::PodRequests(pod, options);
  // Pod-level resources are skipped: the requests of a copy without them. (Without pod-level
  // requests, framework::PodRequests gives every container lacking cpu or memory the default,
  // exactly upstream's NonMissingContainerRequests.)
  api::Pod container_level = pod;
  container_level.spec.resources.requests = api::ResourceList();
  return framework::PodRequests(container_level, options);
}

}  // namespace

std::vector<std::int64_t> ResourceAllocation::PodRequests(const api::Pod& pod) const {
  const framework::Resource requests = ScoringRequests(pod, accounting_);
  std::vector<std::int64_t> out;
  out.reserve(names_.size());
  for (std::size_t i = 0; i < names_.size(); ++i) {
    switch (kinds_[i]) {
      case Kind::kCpu: out.push_back(requests.milli_cpu); break;
      case Kind::kMemory: out.push_back(requests.memory); break;
      case Kind::kEphemeralStorage: out.push_back(requests.ephemeral_storage); break;
      case Kind::kScalar: out.push_back(requests.Scalar(names_[i])); break;
      case Kind::kOther: out.push_back(requests.Get(names_[i])); break;
    }
  }
  return out;
}

void ResourceAllocation::Amounts(const framework::NodeInfo& node,
                                 std::span<const std::int64_t> pod_requests,
                                 std::span<std::int64_t> requested,
                                 std::span<std::int64_t> allocated,
                                 std::span<std::int64_t> allocatable) const {
  const framework::Resource& node_allocatable = node.allocatable();
  const framework::Resource& node_requested = node.requested();
  const framework::Resource& cpu_memory_requested =
      accounting_ == Accounting::kRequested ? node.requested() : node.non_zero_requested();
  for (std::size_t i = 0; i < names_.size(); ++i) {
    std::int64_t alloc = 0;
    std::int64_t used = 0;  // the node's requested amount before the pod
    switch (kinds_[i]) {
      case Kind::kCpu:
        alloc = node_allocatable.milli_cpu;
        used = cpu_memory_requested.milli_cpu;
        break;
      case Kind::kMemory:
        alloc = node_allocatable.memory;
        used = cpu_memory_requested.memory;
        break;
      case Kind::kEphemeralStorage:
        alloc = node_allocatable.ephemeral_storage;
        used = node_requested.ephemeral_storage;
        break;
      case Kind::kScalar:
        // An extended resource the pod does not ask for is left out of the score.
        if (pod_requests[i] != 0) {
          alloc = node_allocatable.Scalar(names_[i]);
          used = node_requested.Scalar(names_[i]);
        }
        break;
      case Kind::kOther:
        break;
    }
    if (alloc == 0) {
      requested[i] = 0;
      allocated[i] = 0;
      allocatable[i] = 0;
      continue;
    }
    allocatable[i] = alloc;
    allocated[i] = used;
    requested[i] = used + pod_requests[i];
  }
}

bool ResourceAllocation::IsBestEffort(std::span<const std::int64_t> pod_requests) {
  return std::all_of(pod_requests.begin(), pod_requests.end(),
                     [](std::int64_t request) { return request == 0; });
}

}  // namespace ksched::plugins::node_resources
