// NodeResultCache: the per-node Filter statuses and raw Score values of the pods a scheduling
// thread placed last, reused for the next pod when that pod is identical for scheduling, so that
// a run of identical pods (a Deployment's replicas, a Job's workers, scheduler_perf's templates)
// costs one Filter and one Score per *changed* node instead of one per node. The idea is
// upstream's opportunistic batching (KEP-5598, alpha in v1.35); the decisions are the ones the
// full path would take.
//
// What makes reuse exact (each checked on every pod; otherwise the cache is rebuilt or bypassed):
//   - the same framework runtime (profile);
//   - the pod equals the cached one in namespace, labels, annotations, owner references and the
//     whole spec, and has no status.nominatedNodeName;
//   - PreFilter kept all nodes and left the same Filter plan, and some Filter plugin in it
//     declares Plugin::NodeLocalResults(); the others (InterPodAffinity and PodTopologySpread,
//     whose verdicts read counts over all nodes) run in every cycle, in plan order before the
//     cached plugin that rejected the node, so that a node's status is the one the full path
//     would report;
//   - no pod is nominated anywhere (filtering with nominated pods reads the queue);
//   - the snapshot lists the same NodeInfos in the same order; a node whose NodeInfo generation
//     moved (a pod assumed, bound or deleted there, the node updated) is filtered again and its
//     raw scores are dropped;
//   - Score: the same Score plugins run; the raw scores of those that are NodeLocalResults() are
//     reused, the others' computed in every cycle; NormalizeScore and the weights always run over
//     the current feasible set, so scores that depend on all nodes stay exact.
// A node whose Filter failed with an error is never cached: PrepareFilter reports the cache
// unusable and the caller's full path reports the error.
//
// When every feasible node is scored, every Filter and Score plugin of the cycle is
// NodeLocalResults() and the Score plugins' normalizations are known, SelectBest
// goes one step further and keeps the weighted totals and the best nodes (IncrementalTotals), so
// that a decision costs O(changed nodes); changed nodes are found from the snapshot's record of
// its last update instead of a pass over every node.
//
// Everything above rests on the snapshot's record of what its last update changed
// (framework/node_change_finder.h): a NodeInfo changed in the snapshot outside the cache's
// UpdateSnapshot (through Snapshot::GetMutable) keeps its old verdict and scores here. Debug builds
// (framework/debug_checks.h) check, in every reused cycle, that no node changed unrecorded, and
// recompute the verdicts and node-local raw scores of a rotating sample of the nodes (every
// kVerifyStride-th) to compare them with the reused ones; either failing aborts. Release builds
// compile both checks out.
//
// Thread-safety: none. One instance per ScheduleAlgorithm (per scheduling thread); the refresh of
// changed nodes fans out on the framework's parallelizer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "api/pod.h"
#include "framework/cycle_state.h"
#include "framework/debug_checks.h"
#include "framework/framework.h"
#include "framework/node_change_finder.h"
#include "framework/snapshot.h"
#include "framework/status.h"
#include "scheduler/incremental_totals.h"

namespace ksched::scheduler {

// Whether two pods are the same for scheduling: everything plugins may read but identity
// (name, uid, resourceVersion, generation, timestamps) and status.
bool SameForScheduling(const api::Pod& a, const api::Pod& b);

class NodeResultCache {
 public:
  // Counters for tests and the decision-rate benchmark.
  struct Stats {
    std::int64_t reused_cycles = 0;      // cycles whose Filter came from the cache
    std::int64_t rebuilt = 0;            // full refreshes (first pod, other pod, node list change)
    std::int64_t refreshed_nodes = 0;    // nodes filtered again because their NodeInfo changed
    std::int64_t scored_nodes = 0;       // raw scores computed (not reused)
    std::int64_t incremental_selections = 0;  // hosts chosen by SelectBest
    std::int64_t per_cycle_filtered_nodes = 0;  // nodes the non-node-local Filter plugins ran on
  };

  // After a successful PreFilter of `pod` in `state`: brings every node's Filter result up to
  // date and returns true, or returns false when the pod cannot use the cache (the caller then
  // filters as usual, which also reports a Filter plugin's error). The snapshot must be the one
  // the framework points at. `start` and `to_find` are the cycle's round-robin start and how many
  // feasible nodes it looks for: the Filter plugins that are not NodeLocalResults() run, in
  // parallel, on the nodes from `start` on until `to_find` + 1 feasible nodes are known (on all
  // nodes when `to_find` covers them), and on others when Evaluate asks.
  bool PrepareFilter(framework::Framework& framework, const framework::CycleState& state,
                     const api::Pod& pod, const framework::Snapshot& snapshot, std::size_t start,
                     std::size_t to_find);

  // After PrepareFilter returned true, within the same cycle (it keeps the framework, state and
  // pod PrepareFilter got): makes node `i`'s status final for this cycle, running the per-cycle
  // Filter plugins there if they have not run yet. An error is a Filter plugin's error, as
  // RunFilterPlugins reports it. `i` indexes snapshot.nodes().
  framework::Status Evaluate(std::size_t i);
  // After Evaluate(i) (or when every node is known feasible).
  bool feasible(std::size_t i) const {
    return statuses_[i].IsSuccess() && !(fresh_stamp_[i] == stamp_ && fresh_rejected_[i] != 0);
  }
  const framework::Status& status(std::size_t i) const {
    return fresh_stamp_[i] == stamp_ && fresh_rejected_[i] != 0 ? fresh_status_[i] : statuses_[i];
  }
  // Whether every node is known to be feasible this cycle (false when not known).
  bool all_feasible() const { return all_feasible_; }

  // Raw scores of the Score plugins `active` for the snapshot nodes `indexes` (after PreScore
  // ran for this pod): scores[k][j] is plugin active[k] on node indexes[j] (`scores` is resized;
  // pass the same vector every cycle to reuse its storage). `rotation_start` says that `indexes`
  // is every node in order from that index, wrapping around (copied in two blocks). Computes what
  // is not cached, and the scores of the plugins that are not NodeLocalResults() every time.
  // Returns false (nothing filled) when there are no cached results; an error is a plugin's Score
  // error, as RunScorePlugins reports it.
  absl::StatusOr<bool> RawScores(framework::Framework& framework, const framework::CycleState& state,
                                 const api::Pod& pod, std::span<const std::size_t> indexes,
                                 std::optional<std::size_t> rotation_start,
                                 std::span<const std::uint16_t> active,
                                 std::vector<std::vector<framework::NodeScore>>& scores);

  // When every feasible node is scored (the feasible list is all of them, in round-robin order
  // from `rotation_start`) and the Score plugins `active` (after PreScore ran for this pod) are
  // all NodeLocalResults with a normalization the framework knows (Framework::KnownScoreShape):
  // the snapshot index of the node NormalizeScore + weights + SelectHost would choose, drawing from
  // `rng` as SelectHost does, from totals kept incrementally (IncrementalTotals). nullopt when
  // that does not apply (the caller scores as usual; that path also reports out-of-range scores).
  // An error is a plugin's Score error, as RunScorePlugins reports it.
  absl::StatusOr<std::optional<std::size_t>> SelectBest(framework::Framework& framework,
                                                        const framework::CycleState& state,
                                                        const api::Pod& pod,
                                                        std::span<const std::uint16_t> active,
                                                        std::size_t rotation_start,
                                                        std::mt19937_64& rng);

  // Forgets everything (e.g. when a cycle used it but then failed in a way that may leave state
  // behind).
  void Clear();

  const Stats& stats() const { return stats_; }

  // --- Checks of reuse (debug builds; the queries also for tests) -----------------------------
  // One node in this many is recomputed per reused cycle, from an offset that moves by one each
  // cycle (so every node is compared once every kVerifyStride reused cycles).
  static constexpr std::size_t kVerifyStride = 64;
  // Whether the debug-build checks run (default: in debug builds; never in Release builds, which
  // compile them out). Tests that build a stale state on purpose turn them off to query it.
  void set_verify_reuse(bool on) { verify_reuse_ = on; }
  // After PrepareFilter returned true, within its cycle: the first of the nodes offset,
  // offset + stride, ... whose cached verdict (the NodeLocalResults() Filter plugins' status and
  // the plugin that rejected) differs from a fresh run of those plugins, described with both;
  // nullopt when all agree. Runs Filter plugins on the scheduling thread.
  std::optional<std::string> FindStaleVerdict(std::size_t stride, std::size_t offset) const;
  // After RawScores or SelectBest, within the same cycle (after PreScore for `pod`): the first of
  // the sampled nodes (as above) with valid cached raw scores whose NodeLocalResults() Score
  // plugins among `active` now score it otherwise, described; nullopt when all agree.
  absl::StatusOr<std::optional<std::string>> FindStaleScore(const framework::Framework& framework,
                                                            const framework::CycleState& state,
                                                            const api::Pod& pod,
                                                            std::span<const std::uint16_t> active,
                                                            std::size_t stride,
                                                            std::size_t offset) const;

 private:
  // Filters the nodes at `indexes` (every node when `indexes` is empty) with the node-local plan
  // and records their statuses, rejecting plugins and generations; false when a Filter plugin
  // returned an error.
  bool FilterNodes(framework::Framework& framework, const framework::CycleState& state,
                   const api::Pod& pod, const std::vector<framework::NodeInfo*>& nodes,
                   const std::vector<std::size_t>& indexes);
  // Runs the per-cycle Filter plugins on the nodes from `start` on until `to_find` + 1 feasible
  // nodes are known (all nodes when to_find >= their number); false on a plugin error.
  bool FilterPerCycle(std::size_t start, std::size_t to_find);
  // Evaluate's body, for any thread (distinct `i`).
  framework::Status EvaluateFresh(std::size_t i);
  // Makes columns_ hold the plugins `active` (dropping cached raw scores and totals when the plan
  // changes).
  void UseScorePlan(std::span<const std::uint16_t> active);
  // Computes the raw scores of the Score plugins among `active` that are not NodeLocalResults()
  // into columns_, for the nodes `indexes` (every node when `all_nodes`).
  absl::Status ScorePerCycle(framework::Framework& framework, const framework::CycleState& state,
                             const api::Pod& pod, std::span<const std::uint16_t> active,
                             std::span<const std::size_t> indexes, bool all_nodes);
  // The debug-build checks of a reused cycle (no-ops unless verify_reuse_): no node of `snapshot`
  // changed without the snapshot's record saying so (before the refresh), the sampled verdicts
  // (after it), the sampled raw scores (after scoring).
  void VerifyChangesRecorded(const framework::Snapshot& snapshot) const;
  void VerifySampledVerdicts();
  void VerifySampledScores(const framework::Framework& framework,
                           const framework::CycleState& state, const api::Pod& pod,
                           std::span<const std::uint16_t> active);
  // Computes the raw scores of the nodes `missing` into columns_.
  absl::Status ScoreMissing(framework::Framework& framework, const framework::CycleState& state,
                            const api::Pod& pod, std::span<const std::uint16_t> active,
                            const std::vector<std::size_t>& missing);

  const framework::Framework* framework_ = nullptr;
  bool valid_ = false;
  api::Pod pod_;
  std::vector<std::uint16_t> filter_plan_;
  std::vector<std::uint16_t> local_plan_;  // its NodeLocalResults() plugins: cached
  std::vector<std::uint16_t> fresh_plan_;  // the others: run every cycle
  const framework::Snapshot* snapshot_ = nullptr;  // the results are for its nodes() at
  std::uint64_t list_version_ = 0;                 // this list_version()
  std::vector<framework::NodeInfo*> nodes_;   // a copy of that list
  std::vector<std::int64_t> generations_;     // parallel to nodes_
  std::int64_t snapshot_generation_ = -1;
  std::vector<framework::Status> statuses_;   // parallel to nodes_: local_plan_'s result
  std::vector<std::uint16_t> failed_at_;      // parallel: the plugin that rejected, or kPassed
  static constexpr std::uint16_t kPassed = 0xFFFF;
  std::size_t infeasible_count_ = 0;          // statuses_ that are not Success
  // The per-cycle part (fresh_plan_ non-empty): node i's fresh_status_ / fresh_rejected_ hold
  // this cycle's verdict of fresh_plan_ when fresh_stamp_[i] == stamp_ (the cycle's number).
  std::uint32_t stamp_ = 1;
  std::vector<std::uint32_t> fresh_stamp_;
  std::vector<std::uint8_t> fresh_rejected_;
  std::vector<framework::Status> fresh_status_;
  bool all_feasible_ = false;
  // The cycle PrepareFilter last prepared, for Evaluate (valid until the cycle ends).
  framework::Framework* cycle_framework_ = nullptr;
  const framework::CycleState* cycle_state_ = nullptr;
  const api::Pod* cycle_pod_ = nullptr;
  // Raw scores: one column per plugin of score_plan_, parallel to nodes_ (node pointers set),
  // valid where score_valid_[i].
  std::vector<std::uint16_t> score_plan_;
  std::vector<std::vector<framework::NodeScore>> columns_;
  std::vector<std::uint8_t> score_valid_;
  framework::NodeChangeFinder change_finder_;
  std::vector<std::size_t> changed_;  // scratch of change_finder_
  // Totals over the feasible nodes, and the nodes refreshed since they last took them in
  // (dirty_flag_ parallel to nodes_).
  IncrementalTotals totals_;
  std::vector<std::uint32_t> dirty_;
  std::vector<std::uint8_t> dirty_flag_;
  Stats stats_;
  bool verify_reuse_ = framework::kDebugChecks;
  std::size_t verify_offset_ = 0;  // the sample's offset; moves by one per check
};

}  // namespace ksched::scheduler
