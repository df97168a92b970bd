// IncrementalTotals: the weighted total score of every feasible node, and the set of nodes with
// the best total, kept up to date node by node across a run of pods that are identical for
// scheduling (scheduler/node_result_cache.h), so that choosing the host costs O(changed nodes)
// instead of normalizing and summing every column for every pod.
//
// It applies when the cycle scores every feasible node (the feasible list is all feasible nodes
// in round-robin order) and every Score plugin's normalization is known to the framework
// (Framework::KnownScoreShape: none, or a standard shape of score_normalization.h). A node's
// normalized score then depends only on its raw score and its column's range (the largest raw
// score among the members), so:
//   - a node whose raw scores or feasibility changed has its total recomputed;
//   - when a column's range changes, every total is recomputed (rare in a run: it moves only
//     when the largest raw score moves);
//   - the best set is the sorted indexes of the members with the highest total; it is rebuilt
//     by a scan only when it empties.
// The decision is the one Framework::NormalizeAndWeighScores + ScheduleAlgorithm::SelectHost
// would take over the same feasible list, with the same random draw.
//
// Out-of-range normalized scores (a plugin returning a raw score outside what its normalization
// maps into [0, 100]) are not represented: Settle returns false, the state is dropped, and the
// caller takes the full path, which reports the error as upstream does.
//
// Thread-safety: none; owned by one NodeResultCache (one scheduling thread).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <vector>

#include "absl/container/btree_map.h"
#include "framework/score_normalization.h"

namespace ksched::scheduler {

class IncrementalTotals {
 public:
  // One Score plugin's column: its weight and normalization (nullopt: raw scores as they are).
  struct Column {
    std::int64_t weight = 1;
    std::optional<framework::ScoreNormalization> normalization;
    bool operator==(const Column&) const = default;
  };

  // Starts over for `columns` over `nodes` node indexes; no node is a member.
  void Reset(std::span<const Column> columns, std::size_t nodes);
  // Whether Reset was called with these columns and node count since the last Invalidate.
  bool ConfiguredFor(std::span<const Column> columns, std::size_t nodes) const;
  // Forgets everything; ConfiguredFor is then false.
  void Invalidate();

  // Node `i` is now a member (feasible) with these raw scores (one per column), or not a member
  // (`raw` ignored). Takes effect at the next Settle.
  void Update(std::size_t i, bool member, std::span<const std::int64_t> raw);
  // Recomputes what the updates since the last Settle changed. False when some member's
  // normalized score is out of range: the state is then invalidated.
  bool Settle();

  std::size_t members() const { return members_; }
  // The chosen node among those with the best total: the `pick`-th of them in round-robin order
  // from `rotation_start`, `pick` uniform in [0, ties) drawn from `rng` (no draw for one node), as
  // SelectHost over the feasible list in that order. Requires members() > 0 after Settle.
  std::size_t Pick(std::size_t rotation_start, std::mt19937_64& rng) const;

 private:
  // The columns' ranges over the current members.
  std::vector<framework::ScoreColumnRange> CurrentRanges() const;
  // Node i's total under ranges_, or nullopt when a normalized score is out of range.
  std::optional<std::int64_t> Total(std::size_t i) const;
  // totals_[i] = Total(i); when out of range, invalidates and returns false.
  bool RefreshTotal(std::size_t i);
  bool RecomputeAll();
  void RescanBest();
  void AddToBest(std::size_t i);

  std::vector<Column> columns_;
  bool configured_ = false;
  std::size_t nodes_ = 0;
  std::vector<std::int64_t> raw_;          // raw_[i * columns + k]: as last Updated
  std::vector<std::uint8_t> member_;       // per node
  std::vector<std::uint8_t> pending_;      // per node: Updated since the last Settle
  std::vector<std::uint32_t> pending_list_;
  std::size_t members_ = 0;
  // Per column: how many members have each raw score (only for normalized columns).
  std::vector<absl::btree_map<std::int64_t, std::int32_t>> counts_;
  std::vector<framework::ScoreColumnRange> ranges_;  // the ranges totals_ were computed with
  std::vector<std::int64_t> totals_;                 // valid for members
  std::int64_t best_ = 0;
  std::vector<std::uint32_t> best_nodes_;  // ascending indexes of members whose total is best_
  std::vector<std::uint8_t> in_best_;      // per node
};

}  // namespace ksched::scheduler
