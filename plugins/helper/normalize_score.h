// DefaultNormalizeScore: scales raw scores from [0, max(scores)] to [0, max_priority], optionally
// reversed (upstream pkg/scheduler/framework/plugins/helper.DefaultNormalizeScore, v1.34).
//
// Scores are assumed non-negative. When every score is 0 they stay 0, or become max_priority when
// reversed. Integer arithmetic exactly as upstream: max_priority * score / max (truncating).
//
// Thread-safety: a pure function over the caller's vector.
#pragma once

#include <cstdint>
#include <vector>

#include "framework/interface.h"

namespace ksched::plugins::helper {

void DefaultNormalizeScore(std::int64_t max_priority, bool reverse,
                           std::vector<framework::NodeScore>& scores);

}  // namespace ksched::plugins::helper
