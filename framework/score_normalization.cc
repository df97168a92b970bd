#include "framework/score_normalization.h"

namespace ksched::framework {

void DefaultNormalizeScore(bool reverse, std::vector<NodeScore>& scores) {
  ScoreColumnRange range;
  for (const NodeScore& score : scores) {
    if (score.score > range.highest) range.highest = score.score;
  }
  if (range.highest == 0 && !reverse) return;
  const ScoreNormalization normalization =
      reverse ? ScoreNormalization::kScaleToMaxReversed : ScoreNormalization::kScaleToMax;
  for (NodeScore& score : scores) score.score = NormalizedScore(normalization, range, score.score);
}

std::int64_t NormalizedScore(ScoreNormalization normalization, ScoreColumnRange range,
                             std::int64_t raw) {
  const bool reverse = normalization == ScoreNormalization::kScaleToMaxReversed;
  if (range.highest <= 0) return reverse ? kMaxNodeScore : raw;
  const std::int64_t scaled = kMaxNodeScore * raw / range.highest;
  return reverse ? kMaxNodeScore - scaled : scaled;
}

Status StandardNormalization::NormalizeScore(const CycleState& /*state*/, const api::Pod& /*pod*/,
                                             std::vector<NodeScore>& scores) {
  DefaultNormalizeScore(normalization_ == ScoreNormalization::kScaleToMaxReversed, scores);
  return Status();
}

}  // namespace ksched::framework
