// ScheduleAlgorithm: the placement decision of one scheduling cycle (upstream schedule_one.go
// schedulePod / findNodesThatFitPod / findNodesThatPassFilters / prioritizeNodes / selectHost /
// numFeasibleNodesToFind): PreFilter, the nominated node first, Filter in parallel from a
// round-robin start index until enough feasible nodes are found (adaptive
// percentageOfNodesToScore), PreScore and Score, then the best total with a uniformly random
// tie-break among equal scores.
//
// Outcomes: a host; or a FitError (no node fits: status Unschedulable or
// UnschedulableAndUnresolvable, message FitError::Message()); or an error status (plugin errors,
// no nodes at all = UnschedulableAndUnresolvable "no nodes available to schedule pods").
//
// Identical pods in a row reuse per-node Filter and raw Score results (NodeResultCache), and when
// every feasible node is scored, incrementally kept totals, unless constructed with
// reuse_node_results false or given extenders; the decisions are the same either way.
//
// Extenders (scheduler/extender.h), when set: they filter after the Filter plugins (the nominated
// node's check included) and add their weighted scores to the plugins' totals; a profile without
// Score plugins then scores through them (every node starts at 0 instead of 1), and the number of
// feasible nodes looked for is the percentage's unless no Score plugin, filtering or scoring
// extender exists (then 1).
//
// Thread-safety: one instance per scheduling thread (it keeps the round-robin index and the
// tie-break random generator); Filter/Score fan out on the framework's parallelizer.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>

#include "framework/cycle_state.h"
#include "framework/framework.h"
#include "framework/snapshot.h"
#include "framework/status.h"
#include "scheduler/extender.h"
#include "scheduler/fit_error.h"
#include "scheduler/node_result_cache.h"

namespace ksched::scheduler {

struct ScheduleResult {
  std::string suggested_host;
  int evaluated_nodes = 0;  // nodes whose filters ran (feasible + rejected)
  int feasible_nodes = 0;
  // What to do with status.nominatedNodeName on failure (set by PostFilter, cleared otherwise).
  std::optional<framework::NominatingInfo> nominating_info;
};

struct ScheduleOutcome {
  ScheduleResult result;  // suggested_host set on success
  framework::Status status;  // Success, a rejection carrying the FitError message, or an error
  std::optional<FitError> fit_error;  // set when no node fit
};

// upstream minFeasibleNodesToFind / minFeasibleNodesPercentageToFind.
inline constexpr std::int32_t kMinFeasibleNodesToFind = 100;
inline constexpr std::int32_t kMinFeasibleNodesPercentageToFind = 5;

// upstream numFeasibleNodesToFind: how many feasible nodes to look for among `num_all_nodes`,
// with `percentage` = the profile's percentageOfNodesToScore or else the global one (0 = adaptive).
std::int32_t NumFeasibleNodesToFind(std::int32_t percentage, std::int32_t num_all_nodes);

class ScheduleAlgorithm {
 public:
  // `global_percentage`: KubeSchedulerConfiguration.percentageOfNodesToScore. `seed` seeds the
  // tie-break (nullopt: random).
  ScheduleAlgorithm(std::int32_t global_percentage, std::optional<std::uint64_t> seed,
                    bool reuse_node_results = true);

  // One decision against `snapshot` (already updated by the caller and set on the framework).
  ScheduleOutcome SchedulePod(framework::Framework& framework, framework::CycleState& state,
                              const api::Pod& pod, const framework::Snapshot& snapshot);

  // The configured extenders, in order (borrowed; they outlive the algorithm). Non-empty turns
  // the reuse of node results off: extenders answer per pod.
  void set_extenders(std::vector<Extender*> extenders);
  // Where extender calls are counted (scheduler_goroutines); nullptr (the default): nowhere.
  void set_goroutines(framework::RunningGoroutines* goroutines) { goroutines_ = goroutines; }

  std::size_t next_start_node_index() const { return next_start_node_index_; }
  const NodeResultCache::Stats& node_result_stats() const { return node_results_.stats(); }

 private:
  // Feasible nodes, or an error status; `diagnosis` collects rejections.
  framework::Status FindNodesThatFitPod(framework::Framework& framework, framework::CycleState& state,
                                        const api::Pod& pod, const framework::Snapshot& snapshot,
                                        Diagnosis& diagnosis,
                                        std::vector<const framework::NodeInfo*>& feasible);
  framework::Status FindNodesThatPassFilters(framework::Framework& framework,
                                             const framework::CycleState& state, const api::Pod& pod,
                                             const std::vector<framework::NodeInfo*>& nodes,
                                             Diagnosis& diagnosis,
                                             std::vector<const framework::NodeInfo*>& feasible);
  // How many feasible nodes a cycle over `num_all` nodes looks for (1 without Score plugins).
  std::size_t FeasibleNodesToFind(const framework::Framework& framework, std::size_t num_all) const;
  // FindNodesThatPassFilters from the cache's results over all nodes: the first feasible nodes
  // from the round-robin start, as a sequential filter pass would find them. An error is a
  // per-cycle Filter plugin's (the cycle then fails with it).
  framework::Status GatherFeasible(framework::Framework& framework, const framework::Snapshot& snapshot,
                      Diagnosis& diagnosis, std::vector<const framework::NodeInfo*>& feasible);
  // With a reused cycle that lists every feasible node: the chosen node's snapshot index from
  // the cache's incremental totals (NodeResultCache::SelectBest), or nullopt when they do not
  // apply. Observes the Score extension point when it decided.
  absl::StatusOr<std::optional<std::size_t>> SelectIncrementally(framework::Framework& framework,
                                                                 const framework::CycleState& state,
                                                                 const api::Pod& pod);
  // RunScorePlugins with the cache's raw scores where the plugins allow it.
  absl::StatusOr<std::vector<framework::NodePluginScores>> ScoreFeasible(
      framework::Framework& framework, const framework::CycleState& state, const api::Pod& pod,
      const std::vector<const framework::NodeInfo*>& feasible);
  // Highest total; ties broken uniformly at random (reservoir sampling, as upstream).
  std::string SelectHost(const std::vector<framework::NodePluginScores>& scores);

  std::int32_t global_percentage_;
  std::size_t next_start_node_index_ = 0;
  std::mt19937_64 rng_;
  bool reuse_node_results_;
  NodeResultCache node_results_;
  bool cycle_reused_ = false;                 // this cycle's Filter results came from the cache
  std::vector<std::size_t> feasible_indexes_;  // with cycle_reused_: snapshot indexes of `feasible`
  std::optional<std::size_t> feasible_rotation_start_;  // set when `feasible` is every node from it
  std::size_t feasible_start_ = 0;     // with cycle_reused_: the round-robin start of `feasible`
  bool all_feasible_listed_ = false;   // with cycle_reused_: `feasible` is every feasible node
  std::vector<std::vector<framework::NodeScore>> score_scratch_;  // reused raw-score storage
  std::vector<Extender*> extenders_;
  framework::RunningGoroutines* goroutines_ = nullptr;
  bool extender_filters_ = false;      // some extender has a filterVerb
  bool extender_prioritizers_ = false; // some extender has a prioritizeVerb
};

}  // namespace ksched::scheduler
