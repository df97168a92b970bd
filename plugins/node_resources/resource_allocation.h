// ResourceAllocation: what NodeResourcesFit's scoring and NodeResourcesBalancedAllocation share
// (upstream noderesources resourceAllocationScorer): the configured resources, classified once,
// the pod's request of each (computed once per cycle in PreScore), and, per node, the requested and
// allocatable amount of each that the scoring functions (scorers.h) take, with the node's amount
// before the pod (allocated) next to it.
//
// Upstream semantics kept (resource_allocation.go, v1.37.2):
//   - How the pod's requests and the node's totals are read depends on the plugin (Accounting).
//   - ephemeral-storage and scalar resources always read the node's plain requested totals.
//   - A scalar (extended, hugepages, ...) resource the pod does not request, a resource the node
//     does not have, and any other resource name are skipped (allocatable 0).
//
// Ownership: the resource names are views into the ResourceSpecs given to the constructor, which
// must outlive this object (the plugins keep their args). Thread-safety: immutable after
// construction; Amounts and Score may be called concurrently.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "api/pod.h"
#include "framework/node_info.h"
#include "framework/status.h"
#include "plugins/node_resources/args.h"

namespace ksched::plugins::node_resources {

// The resourceAllocationScorer flags as upstream's factories set them in v1.34.
enum class Accounting : std::uint8_t {
  // NodeResourcesFit: containers without a cpu or memory request count 100m / 200Mi ("non-zero"
  // requests) and the node side reads the non-zero totals for cpu and memory. Container-level
  // requests only, without in-place-resize status: upstream's NewFit builds its scorer without
  // the PodLevelResources and InPlacePodVerticalScaling flags (they stay false there even though
  // both features are on), so pod-level resources do not count in Fit's scores.
  kNonZeroContainerLevel,
  // NodeResourcesBalancedAllocation: the plain requests, pod-level resources and in-place-resize
  // status resources included, and the node's plain requested totals.
  kRequested,
};

class ResourceAllocation {
 public:
  ResourceAllocation(std::span<const ResourceSpec> resources, Accounting accounting);

  std::size_t size() const { return names_.size(); }
  std::span<const std::int64_t> weights() const { return weights_; }

  // The pod's request of each configured resource, in order (upstream
  // calculatePodResourceRequestList): cpu in millicores, the rest in units.
  std::vector<std::int64_t> PodRequests(const api::Pod& pod) const;

  // Fills, for each configured resource on `node` (upstream calculateNodeAllocatableRequest):
  // allocated[i], the node's requested amount without the pod; requested[i], the same with the
  // pod's request `pod_requests[i]` added; allocatable[i]. Skipped resources get 0 / 0 / 0. All
  // spans have size().
  void Amounts(const framework::NodeInfo& node, std::span<const std::int64_t> pod_requests,
               std::span<std::int64_t> requested, std::span<std::int64_t> allocated,
               std::span<std::int64_t> allocatable) const;

  // Runs `score(requested, allocated, allocatable)` on this node's amounts without allocating for
  // up to kInlineResources resources. Error "resources not found" when no resource is configured.
  template <typename ScoreFn>
  std::pair<std::int64_t, framework::Status> Score(const framework::NodeInfo& node,
                                                   std::span<const std::int64_t> pod_requests,
                                                   ScoreFn&& score) const;

  // Whether the pod requests none of the configured resources (upstream isBestEffortPod).
  static bool IsBestEffort(std::span<const std::int64_t> pod_requests);

  static constexpr std::size_t kInlineResources = 16;

 private:
  // How a configured resource is read, decided once instead of comparing names per node.
  enum class Kind : std::uint8_t { kCpu, kMemory, kEphemeralStorage, kScalar, kOther };

  std::vector<std::string_view> names_;
  std::vector<Kind> kinds_;
  std::vector<std::int64_t> weights_;
  Accounting accounting_;
};

template <typename ScoreFn>
std::pair<std::int64_t, framework::Status> ResourceAllocation::Score(
    const framework::NodeInfo& node, std::span<const std::int64_t> pod_requests,
    ScoreFn&& score) const {
  const std::size_t n = size();
  if (n == 0) return {0, framework::Status(framework::Code::kError, {"resources not found"})};
  std::array<std::int64_t, 3 * kInlineResources> buffer{};
  std::vector<std::int64_t> heap;  // only for configurations with many resources
  std::int64_t* data = buffer.data();
  if (n > kInlineResources) {
    heap.assign(3 * n, 0);
    data = heap.data();
  }
  const std::span<std::int64_t> requested(data, n);
  const std::span<std::int64_t> allocated(data + n, n);
  const std::span<std::int64_t> allocatable(data + 2 * n, n);
  Amounts(node, pod_requests, requested, allocated, allocatable);
  return {score(std::span<const std::int64_t>(requested), std::span<const std::int64_t>(allocated),
                std::span<const std::int64_t>(allocatable)),
          framework::Status()};
}

}  // namespace ksched::plugins::node_resources
