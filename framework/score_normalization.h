// The standard shapes of NormalizeScore, known to the framework so that one node's normalized
// score can be computed from its raw score and the range of the column alone (the scheduler's
// incremental totals, scheduler/incremental_totals.h, depend on that).
//
//   kScaleToMax          upstream helper.DefaultNormalizeScore(MaxNodeScore, reverse=false):
//                        raw * 100 / max(raw over the column, 0), truncating; all 0 when that max
//                        is 0 (raw scores then stay as they are).
//   kScaleToMaxReversed  the same with reverse=true: 100 - raw * 100 / max; every node 100 when the
//                        max is 0.
//
// A plugin whose NormalizeScore is one of these returns a StandardNormalization from
// GetScoreExtensions() instead of implementing NormalizeScore itself, so that the declaration and
// the computation cannot differ. Raw scores are expected non-negative (as upstream); negative ones
// yield out-of-range results, which the framework reports as upstream does.
//
// Thread-safety: pure functions; StandardNormalization is immutable.
#pragma once

#include <cstdint>
#include <vector>

#include "framework/interface.h"

namespace ksched::framework {

enum class ScoreNormalization : std::uint8_t { kScaleToMax, kScaleToMaxReversed };

// What NormalizedScore needs of a column: its largest raw score.
struct ScoreColumnRange {
  std::int64_t highest = 0;  // max(0, the largest raw score)
  bool operator==(const ScoreColumnRange&) const = default;
};

// Upstream helper.DefaultNormalizeScore with max priority kMaxNodeScore: rewrites `scores` in place.
void DefaultNormalizeScore(bool reverse, std::vector<NodeScore>& scores);

// One node's normalized score: equal to what NormalizeScores gives that node in a column whose
// range is `range`.
std::int64_t NormalizedScore(ScoreNormalization normalization, ScoreColumnRange range,
                             std::int64_t raw);

// The ScoreExtensions of a plugin whose NormalizeScore is a standard shape.
class StandardNormalization final : public ScoreExtensions {
 public:
  explicit StandardNormalization(ScoreNormalization normalization)
      : normalization_(normalization) {}
  ScoreNormalization normalization() const { return normalization_; }
  Status NormalizeScore(const CycleState& state, const api::Pod& pod,
                        std::vector<NodeScore>& scores) override;

 private:
  const ScoreNormalization normalization_;
};

}  // namespace ksched::framework
