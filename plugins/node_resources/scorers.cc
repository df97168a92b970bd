#include "plugins/node_resources/scorers.h"

#include <cmath>
#include <cstddef>

#include "framework/interface.h"

namespace ksched::plugins::node_resources {

namespace {

using framework::kMaxNodeScore;

// The utilization scale of RequestedToCapacityRatio (upstream maxUtilization).
constexpr std::int64_t kMaxUtilization = 100;

std::int64_t LeastRequestedScore(std::int64_t requested, std::int64_t capacity) {
  if (capacity == 0 || requested > capacity) return 0;
  return ((capacity - requested) * kMaxNodeScore) / capacity;
}

std::int64_t MostRequestedScore(std::int64_t requested, std::int64_t capacity) {
  if (capacity == 0) return 0;
  // Requested may exceed capacity because pods without requests count default amounts.
  if (requested > capacity) requested = capacity;
  return (requested * kMaxNodeScore) / capacity;
}

template <typename PerResource>
std::int64_t WeightedAverage(std::span<const std::int64_t> requested,
                             std::span<const std::int64_t> allocatable,
                             std::span<const std::int64_t> weights, PerResource per_resource) {
  std::int64_t node_score = 0;
  std::int64_t weight_sum = 0;
  for (std::size_t i = 0; i < requested.size(); ++i) {
    if (allocatable[i] == 0) continue;
    node_score += per_resource(requested[i], allocatable[i]) * weights[i];
    weight_sum += weights[i];
  }
  return weight_sum == 0 ? 0 : node_score / weight_sum;
}

double Fraction(std::int64_t requested, std::int64_t allocatable) {
  const double fraction = static_cast<double>(requested) / static_cast<double>(allocatable);
  return fraction > 1 ? 1 : fraction;
}

}  // namespace

std::int64_t LeastAllocatedScore(std::span<const std::int64_t> requested,
                                 std::span<const std::int64_t> allocatable,
                                 std::span<const std::int64_t> weights) {
  return WeightedAverage(requested, allocatable, weights, LeastRequestedScore);
}

std::int64_t MostAllocatedScore(std::span<const std::int64_t> requested,
                                std::span<const std::int64_t> allocatable,
                                std::span<const std::int64_t> weights) {
  return WeightedAverage(requested, allocatable, weights, MostRequestedScore);
}

std::int64_t BalancedResourceScore(std::span<const std::int64_t> requested,
                                   std::span<const std::int64_t> allocatable) {
  // Two passes over the inputs instead of upstream's slice of fractions, so that no memory is
  // allocated per node; the fractions and sums are computed in upstream's order, bit for bit.
  std::size_t count = 0;
  double total = 0;
  double first = 0;
  double second = 0;
  for (std::size_t i = 0; i < requested.size(); ++i) {
    if (allocatable[i] == 0) continue;
    const double fraction = Fraction(requested[i], allocatable[i]);
    total += fraction;
    if (count == 0) first = fraction;
    if (count == 1) second = fraction;
    ++count;
  }

  double std_dev = 0;
  if (count == 2) {
    // The common cpu+memory case: the standard deviation of two values.
    std_dev = std::abs((first - second) / 2);
  } else if (count > 2) {
    const double mean = total / static_cast<double>(count);
    double sum = 0;
    for (std::size_t i = 0; i < requested.size(); ++i) {
      if (allocatable[i] == 0) continue;
      const double fraction = Fraction(requested[i], allocatable[i]);
      sum = sum + (fraction - mean) * (fraction - mean);
    }
    std_dev = std::sqrt(sum / static_cast<double>(count));
  }
  return static_cast<std::int64_t>((1 - std_dev) * static_cast<double>(kMaxNodeScore));
}

std::int64_t BalancedAllocationScore(std::span<const std::int64_t> requested,
                                     std::span<const std::int64_t> allocated,
                                     std::span<const std::int64_t> allocatable) {
  const std::int64_t with_pod = BalancedResourceScore(requested, allocatable);
  const std::int64_t without_pod = BalancedResourceScore(allocated, allocatable);
  // Both are in [50, 100], so the numerator is in [0, 100] and the division truncates as Go's.
  return kMaxNodeScore / 2 + (kMaxNodeScore / 2 + with_pod - without_pod) / 2;
}

std::int64_t BrokenLinear(std::span<const ShapePoint> shape, std::int64_t utilization) {
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (utilization <= shape[i].utilization) {
      if (i == 0) return shape[0].score;
      return shape[i - 1].score + (shape[i].score - shape[i - 1].score) *
                                      (utilization - shape[i - 1].utilization) /
                                      (shape[i].utilization - shape[i - 1].utilization);
    }
  }
  return shape.back().score;
}

RequestedToCapacityRatioScorer::RequestedToCapacityRatioScorer(
    const std::vector<UtilizationShapePoint>& shape) {
  shape_.reserve(shape.size());
  for (const UtilizationShapePoint& point : shape) {
    // The shape's 0..10 scores are scaled to the scheduler's 0..100 node scores.
    shape_.push_back({point.utilization,
                      static_cast<std::int64_t>(point.score) * (kMaxNodeScore / kMaxCustomPriorityScore)});
  }
}

std::int64_t RequestedToCapacityRatioScorer::Score(std::span<const std::int64_t> requested,
                                                   std::span<const std::int64_t> allocatable,
                                                   std::span<const std::int64_t> weights) const {
  std::int64_t node_score = 0;
  std::int64_t weight_sum = 0;
  for (std::size_t i = 0; i < requested.size(); ++i) {
    if (allocatable[i] == 0) continue;
    const std::int64_t resource_score =
        requested[i] > allocatable[i]
            ? BrokenLinear(shape_, kMaxUtilization)
            : BrokenLinear(shape_, requested[i] * kMaxUtilization / allocatable[i]);
    if (resource_score > 0) {
      node_score += resource_score * weights[i];
      weight_sum += weights[i];
    }
  }
  if (weight_sum == 0) return 0;
  return static_cast<std::int64_t>(
      std::round(static_cast<double>(node_score) / static_cast<double>(weight_sum)));
}

}  // namespace ksched::plugins::node_resources
