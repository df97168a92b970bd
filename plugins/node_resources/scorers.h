// The node-resource scoring functions (upstream noderesources least_allocated.go,
// most_allocated.go, requested_to_capacity_ratio.go, balanced_allocation.go and
// helper/shape_score.go), with upstream's integer and floating-point arithmetic step for step so
// that scores match upstream exactly.
//
// Each function takes, per configured resource i, the node's requested amount (the incoming pod's
// request included) and allocatable amount, and the resource's weight (BalancedAllocationScore
// also the node's amount without the pod). A resource whose
// allocatable is 0 is left out (the node does not have it, or the pod does not ask for an extended
// resource). The result is in [0, framework::kMaxNodeScore].
//
// Thread-safety: pure functions; RequestedToCapacityRatioScorer is immutable after construction.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "plugins/node_resources/args.h"

namespace ksched::plugins::node_resources {

// ((allocatable - requested) * 100 / allocatable) per resource (0 when over capacity), weighted
// integer average.
std::int64_t LeastAllocatedScore(std::span<const std::int64_t> requested,
                                 std::span<const std::int64_t> allocatable,
                                 std::span<const std::int64_t> weights);

// (min(requested, allocatable) * 100 / allocatable) per resource, weighted integer average.
std::int64_t MostAllocatedScore(std::span<const std::int64_t> requested,
                                std::span<const std::int64_t> allocatable,
                                std::span<const std::int64_t> weights);

// The balance of one set of amounts (upstream balancedResourceScore): (1 - std) * 100 over the
// fractions amount/allocatable capped at 1: |f1 - f2| / 2 for two resources, the population
// standard deviation for more, 0 for fewer. Weights are not used. In [50, 100].
std::int64_t BalancedResourceScore(std::span<const std::int64_t> amounts,
                                   std::span<const std::int64_t> allocatable);

// NodeResourcesBalancedAllocation's score (upstream balancedResourceScorer, since v1.36,
// kubernetes#135573): how much the pod improves the node's balance,
// 50 + (50 + with - without) / 2 in integer arithmetic, where `with` is the balance of
// `requested` (the pod included) and `without` that of `allocated`. No change scores 75; the
// result is in [50, 100].
std::int64_t BalancedAllocationScore(std::span<const std::int64_t> requested,
                                     std::span<const std::int64_t> allocated,
                                     std::span<const std::int64_t> allocatable);

// A piecewise-linear function through the shape points (upstream helper.BuildBrokenLinearFunction):
// the first point's score below the first utilization, the last point's above the last one,
// integer interpolation in between. `shape` must be non-empty and sorted by utilization.
struct ShapePoint {
  std::int64_t utilization = 0;
  std::int64_t score = 0;
};
std::int64_t BrokenLinear(std::span<const ShapePoint> shape, std::int64_t utilization);

class RequestedToCapacityRatioScorer {
 public:
  // Shape scores (0..10) are scaled to 0..100. `shape` must be non-empty (validated args).
  explicit RequestedToCapacityRatioScorer(const std::vector<UtilizationShapePoint>& shape);

  // Per resource: the shape at utilization requested*100/allocatable (at 100 when over capacity);
  // resources scoring 0 are left out of the weighted average, which is rounded half away from 0.
  std::int64_t Score(std::span<const std::int64_t> requested,
                     std::span<const std::int64_t> allocatable,
                     std::span<const std::int64_t> weights) const;

 private:
  std::vector<ShapePoint> shape_;
};

}  // namespace ksched::plugins::node_resources
