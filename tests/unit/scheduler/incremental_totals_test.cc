// scheduler/incremental_totals: after any sequence of updates, Pick chooses what the full path
// chooses (every column normalized over the members, weighted, summed; the best total with
// SelectHost's single uniform draw over the ties in round-robin order), and Settle refuses
// exactly when a member's normalized score is out of range.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "framework/interface.h"
#include "framework/score_normalization.h"
#include "scheduler/incremental_totals.h"

namespace {

using ksched::framework::NodeScore;
using ksched::framework::ScoreNormalization;
using ksched::scheduler::IncrementalTotals;

struct Model {
  std::vector<IncrementalTotals::Column> columns;
  std::vector<bool> member;
  std::vector<std::vector<std::int64_t>> raw;  // raw[i][k]
};

// The full path: normalize each column over the members (in round-robin order from `start`),
// check ranges, weigh, sum, then SelectHost's draw. nullopt when a score is out of range.
std::optional<std::size_t> FullPath(const Model& model, std::size_t start, std::mt19937_64& rng) {
  const std::size_t n = model.member.size();
  std::vector<std::size_t> order;
  for (std::size_t j = 0; j < n; ++j) {
    const std::size_t i = (start + j) % n;
    if (model.member[i]) order.push_back(i);
  }
  std::vector<std::int64_t> totals(order.size(), 0);
  for (std::size_t k = 0; k < model.columns.size(); ++k) {
    std::vector<NodeScore> column;
    for (const std::size_t i : order) column.push_back(NodeScore{nullptr, model.raw[i][k]});
    if (model.columns[k].normalization) {
      ksched::framework::DefaultNormalizeScore(
          *model.columns[k].normalization == ScoreNormalization::kScaleToMaxReversed, column);
    }
    for (std::size_t j = 0; j < order.size(); ++j) {
      if (column[j].score < 0 || column[j].score > 100) return std::nullopt;
      totals[j] += column[j].score * model.columns[k].weight;
    }
  }
  std::int64_t best = totals.front();
  std::uint64_t ties = 0;
  for (const std::int64_t total : totals) {
    if (total > best) {
      best = total;
      ties = 1;
    } else if (total == best) {
      ++ties;
    }
  }
  std::uint64_t pick = ties > 1 ? std::uniform_int_distribution<std::uint64_t>(0, ties - 1)(rng) : 0;
  for (std::size_t j = 0; j < order.size(); ++j) {
    if (totals[j] != best) continue;
    if (pick == 0) return order[j];
    --pick;
  }
  FAIL("no best node");
  return std::nullopt;
}

std::int64_t RandomRaw(std::mt19937_64& rng, bool allow_bad) {
  const std::uint64_t kind = rng() % 20;
  if (allow_bad && kind == 0) return 150;  // out of range for an unnormalized column
  if (allow_bad && kind == 1) return -1;   // out of range once a column's max is positive
  if (kind < 8) return static_cast<std::int64_t>(rng() % 3);  // many ties
  return static_cast<std::int64_t>(rng() % 101);
}

TEST_CASE("IncrementalTotals picks what the full path picks, update after update",
          "[scheduler][incremental_totals]") {
  std::mt19937_64 gen(11);
  int compared = 0;
  int refused = 0;
  for (int run = 0; run < 60; ++run) {
    const bool allow_bad = run % 4 == 3;
    const std::size_t n = 1 + gen() % 40;
    Model model;
    model.columns = {{3, ScoreNormalization::kScaleToMaxReversed},
                     {2, ScoreNormalization::kScaleToMax},
                     {1, std::nullopt},
                     {1 + static_cast<std::int64_t>(gen() % 4), std::nullopt}};
    model.member.assign(n, false);
    model.raw.assign(n, std::vector<std::int64_t>(model.columns.size(), 0));
    IncrementalTotals totals;
    totals.Reset(model.columns, n);
    REQUIRE(totals.ConfiguredFor(model.columns, n));
    for (int step = 0; step < 200; ++step) {
      if (!totals.ConfiguredFor(model.columns, n)) {
        // Refused before: start over, as NodeResultCache does.
        totals.Reset(model.columns, n);
        for (std::size_t i = 0; i < n; ++i) totals.Update(i, model.member[i], model.raw[i]);
      }
      // A few nodes change (sometimes many, sometimes none).
      const std::size_t changes = gen() % 10 == 0 ? n : gen() % 3;
      for (std::size_t c = 0; c < changes; ++c) {
        const std::size_t i = gen() % n;
        model.member[i] = gen() % 6 != 0;
        for (std::int64_t& value : model.raw[i]) value = RandomRaw(gen, allow_bad);
        totals.Update(i, model.member[i], model.raw[i]);
      }
      const bool any_member = std::find(model.member.begin(), model.member.end(), true) != model.member.end();
      const std::size_t start = gen() % n;
      std::mt19937_64 full_rng(static_cast<std::uint64_t>(run * 1000 + step));
      std::mt19937_64 incremental_rng = full_rng;
      const bool settled = totals.Settle();
      if (!any_member) {
        CHECK(settled);
        CHECK(totals.members() == 0);
        continue;
      }
      const std::optional<std::size_t> expected = FullPath(model, start, full_rng);
      INFO("run " << run << " step " << step << " nodes " << n << " start " << start);
      REQUIRE(settled == expected.has_value());
      if (!settled) {
        ++refused;
        CHECK_FALSE(totals.ConfiguredFor(model.columns, n));
        continue;
      }
      CHECK(totals.Pick(start, incremental_rng) == *expected);
      // The same number of draws: the generators stay in step.
      CHECK(incremental_rng() == full_rng());
      ++compared;
    }
  }
  CHECK(compared > 5000);
  CHECK(refused > 20);
}

TEST_CASE("IncrementalTotals is configured for its columns and node count only",
          "[scheduler][incremental_totals]") {
  const std::vector<IncrementalTotals::Column> columns = {{1, std::nullopt}};
  const std::vector<IncrementalTotals::Column> other = {{2, std::nullopt}};
  IncrementalTotals totals;
  CHECK_FALSE(totals.ConfiguredFor(columns, 3));
  totals.Reset(columns, 3);
  CHECK(totals.ConfiguredFor(columns, 3));
  CHECK_FALSE(totals.ConfiguredFor(columns, 4));
  CHECK_FALSE(totals.ConfiguredFor(other, 3));
  totals.Invalidate();
  CHECK_FALSE(totals.ConfiguredFor(columns, 3));
}

}  // namespace
