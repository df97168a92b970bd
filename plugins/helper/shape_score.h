// BrokenLinear: upstream plugins/helper BuildBrokenLinearFunction, the piecewise-linear scoring
// function of a shape (VolumeBinding's capacity scoring; NodeResourcesFit's
// RequestedToCapacityRatio has the same function in node_resources/scorers.h): the first point's
// score at or below the first utilization, the last point's above the last one, integer
// interpolation (Go's truncating division) in between.
//
// Contract: `shape` is non-empty and sorted by increasing utilization (validated args).
// Thread-safety: pure function.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace ksched::plugins::helper {

struct FunctionShapePoint {
  std::int64_t utilization = 0;
  std::int64_t score = 0;
};

inline std::int64_t BrokenLinear(std::span<const FunctionShapePoint> shape, std::int64_t p) {
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (p <= shape[i].utilization) {
      if (i == 0) return shape[0].score;
      return shape[i - 1].score + (shape[i].score - shape[i - 1].score) * (p - shape[i - 1].utilization) /
                                      (shape[i].utilization - shape[i - 1].utilization);
    }
  }
  return shape.back().score;
}

}  // namespace ksched::plugins::helper
