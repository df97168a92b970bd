#include "plugins/helper/normalize_score.h"

namespace ksched::plugins::helper {

void DefaultNormalizeScore(std::int64_t max_priority, bool reverse,
                           std::vector<framework::NodeScore>& scores) {
  std::int64_t max_count = 0;
  for (const framework::NodeScore& score : scores) {
    if (score.score > max_count) max_count = score.score;
  }
  if (max_count == 0) {
    if (reverse) {
      for (framework::NodeScore& score : scores) score.score = max_priority;
    }
    return;
  }
  for (framework::NodeScore& score : scores) {
    std::int64_t value = max_priority * score.score / max_count;
    if (reverse) value = max_priority - value;
    score.score = value;
  }
}

}  // namespace ksched::plugins::helper
