// framework/score_normalization: DefaultNormalizeScore (upstream helper normalize_score_test.go,
// v1.34.4) and the per-node form NormalizedScore, which must agree with it on every column.
#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <vector>

#include "framework/interface.h"
#include "framework/score_normalization.h"

namespace {

using ksched::framework::DefaultNormalizeScore;
using ksched::framework::NodeScore;
using ksched::framework::NormalizedScore;
using ksched::framework::ScoreColumnRange;
using ksched::framework::ScoreNormalization;

std::vector<std::int64_t> Normalized(const std::vector<std::int64_t>& raw, bool reverse) {
  std::vector<NodeScore> scores;
  for (std::int64_t score : raw) scores.push_back(NodeScore{nullptr, score});
  DefaultNormalizeScore(reverse, scores);
  std::vector<std::int64_t> out;
  for (const NodeScore& score : scores) out.push_back(score.score);
  return out;
}

TEST_CASE("DefaultNormalizeScore scales to [0, 100], optionally reversed",
          "[framework][normalize]") {
  using V = std::vector<std::int64_t>;
  // Upstream's TestDefaultNormalizeScore rows.
  CHECK(Normalized(V{1, 2, 3, 4}, false) == V{25, 50, 75, 100});
  CHECK(Normalized(V{1, 2, 3, 4}, true) == V{75, 50, 25, 0});
  CHECK(Normalized(V{1000, 10, 20, 30}, false) == V{100, 1, 2, 3});
  CHECK(Normalized(V{1000, 10, 20, 30}, true) == V{0, 99, 98, 97});
  CHECK(Normalized(V{1, 1, 1, 1}, false) == V{100, 100, 100, 100});
  CHECK(Normalized(V{1000, 1, 1, 1}, false) == V{100, 0, 0, 0});
  CHECK(Normalized(V{0, 1, 1, 1}, true) == V{100, 0, 0, 0});
  CHECK(Normalized(V{0, 0, 0, 0}, false) == V{0, 0, 0, 0});
  CHECK(Normalized(V{0, 0, 0, 0}, true) == V{100, 100, 100, 100});
  CHECK(Normalized(V{}, true).empty());
  // Negative raw scores (a misbehaving plugin) pass through unchanged when the max is 0, and
  // come out of range otherwise: the framework's range check reports them.
  CHECK(Normalized(V{-3, 0}, false) == V{-3, 0});
  CHECK(Normalized(V{-3, 0}, true) == V{100, 100});
  CHECK(Normalized(V{-3, 3}, false) == V{-100, 100});
}

TEST_CASE("NormalizedScore gives each node what DefaultNormalizeScore gives it in its column",
          "[framework][normalize]") {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 2000; ++round) {
    const bool reverse = round % 2 == 1;
    const ScoreNormalization normalization =
        reverse ? ScoreNormalization::kScaleToMaxReversed : ScoreNormalization::kScaleToMax;
    const std::size_t size = 1 + rng() % 20;
    // Mostly small non-negative values (many zeros and ties), sometimes negative or huge.
    std::vector<std::int64_t> raw(size);
    for (std::int64_t& value : raw) {
      const std::uint64_t kind = rng() % 10;
      if (kind < 3) value = 0;
      else if (kind < 8) value = static_cast<std::int64_t>(rng() % 7);
      else if (kind < 9) value = -static_cast<std::int64_t>(rng() % 5);
      else value = static_cast<std::int64_t>(rng() % 1'000'000'000);
    }
    ScoreColumnRange range;
    for (const std::int64_t value : raw) range.highest = std::max(range.highest, value);
    const std::vector<std::int64_t> column = Normalized(raw, reverse);
    for (std::size_t i = 0; i < size; ++i) {
      INFO("round " << round << " node " << i << " raw " << raw[i]);
      CHECK(NormalizedScore(normalization, range, raw[i]) == column[i]);
    }
  }
}

}  // namespace
