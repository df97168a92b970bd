#include "scheduler/schedule_algorithm.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <set>

#include "base/mutex.h"

namespace ksched::scheduler {

std::int32_t NumFeasibleNodesToFind(std::int32_t percentage, std::int32_t num_all_nodes) {
  if (num_all_nodes < kMinFeasibleNodesToFind) return num_all_nodes;
  if (percentage == 0) {
    percentage = 50 - num_all_nodes / 125;
    if (percentage < kMinFeasibleNodesPercentageToFind) percentage = kMinFeasibleNodesPercentageToFind;
  }
  const std::int32_t num_nodes =
      static_cast<std::int32_t>(static_cast<std::int64_t>(num_all_nodes) * percentage / 100);
  if (num_nodes < kMinFeasibleNodesToFind) return kMinFeasibleNodesToFind;
  return num_nodes;
}

ScheduleAlgorithm::ScheduleAlgorithm(std::int32_t global_percentage,
                                     std::optional<std::uint64_t> seed, bool reuse_node_results)
    : global_percentage_(global_percentage),
      rng_(seed.has_value() ? *seed : std::random_device{}()),
      reuse_node_results_(reuse_node_results) {}

void ScheduleAlgorithm::set_extenders(std::vector<Extender*> extenders) {
  extenders_ = std::move(extenders);
  extender_filters_ = std::any_of(extenders_.begin(), extenders_.end(), [](Extender* e) { return e->IsFilter(); });
  extender_prioritizers_ =
      std::any_of(extenders_.begin(), extenders_.end(), [](Extender* e) { return e->IsPrioritizer(); });
  if (!extenders_.empty()) reuse_node_results_ = false;
}

ScheduleOutcome ScheduleAlgorithm::SchedulePod(framework::Framework& framework,
                                               framework::CycleState& state, const api::Pod& pod,
                                               const framework::Snapshot& snapshot) {
  ScheduleOutcome outcome;
  if (snapshot.size() == 0) {
    outcome.status = framework::Status(framework::Code::kUnschedulableAndUnresolvable)
                         .WithError(std::string(kNoNodesAvailable));
    outcome.result.nominating_info = framework::NominatingInfo{"", framework::NominatingMode::kOverride};
    return outcome;
  }
  Diagnosis diagnosis;
  std::vector<const framework::NodeInfo*> feasible;
  framework::Status status = FindNodesThatFitPod(framework, state, pod, snapshot, diagnosis, feasible);
  // Upstream's cycle runs its Filter loop through the parallelizer even when the nodes' results
  // are reused or few; the series of scheduler_goroutines{operation="Filter"} exists likewise.
  if (goroutines_ != nullptr && framework.HasFilterPlugins()) {
    goroutines_->Add(framework::GoroutineOperation::kFilter, 0);
  }
  if (!status.IsSuccess()) {
    outcome.status = std::move(status);
    outcome.result.nominating_info = framework::NominatingInfo{"", framework::NominatingMode::kOverride};
    return outcome;
  }
  if (feasible.empty()) {
    FitError fit_error{static_cast<int>(snapshot.size()), std::move(diagnosis)};
    // The caller runs PostFilter (preemption) and sets the final message.
    outcome.status = framework::Status(framework::Code::kUnschedulable).WithError(fit_error.Message());
    outcome.fit_error = std::move(fit_error);
    return outcome;
  }
  const int rejected = static_cast<int>(diagnosis.node_to_status.size());
  if (feasible.size() == 1) {
    outcome.result.suggested_host = feasible.front()->name();
    outcome.result.evaluated_nodes = 1 + rejected;
    outcome.result.feasible_nodes = 1;
    return outcome;
  }

  std::vector<framework::NodePluginScores> scores;
  // As with Filter: upstream's RunScorePlugins always runs its Score loops in the parallelizer.
  if (goroutines_ != nullptr && (!extenders_.empty() || framework.HasScorePlugins())) {
    goroutines_->Add(framework::GoroutineOperation::kScore, 0);
  }
  if (extenders_.empty() && !framework.HasScorePlugins()) {
    scores.reserve(feasible.size());
    for (const framework::NodeInfo* node : feasible) scores.push_back({node, 1});
  } else if (!framework.HasScorePlugins()) {
    // Extenders score alone (upstream runs the empty PreScore and Score: every total 0).
    scores.reserve(feasible.size());
    for (const framework::NodeInfo* node : feasible) scores.push_back({node, 0});
  } else {
    framework::Status pre_score = framework.RunPreScorePlugins(state, pod, feasible);
    if (!pre_score.IsSuccess()) {
      outcome.status = framework::Status::FromError(pre_score.Message()).WithPlugin(pre_score.plugin());
      outcome.result.nominating_info = framework::NominatingInfo{"", framework::NominatingMode::kOverride};
      return outcome;
    }
    absl::StatusOr<std::optional<std::size_t>> best =
        SelectIncrementally(framework, state, pod);
    if (!best.ok()) {
      outcome.status = framework::Status::FromError(std::string(best.status().message()));
      outcome.result.nominating_info = framework::NominatingInfo{"", framework::NominatingMode::kOverride};
      return outcome;
    }
    if (best->has_value()) {
      outcome.result.suggested_host = snapshot.nodes()[**best]->name();
      outcome.result.evaluated_nodes = static_cast<int>(feasible.size()) + rejected;
      outcome.result.feasible_nodes = static_cast<int>(feasible.size());
      return outcome;
    }
    absl::StatusOr<std::vector<framework::NodePluginScores>> scored =
        ScoreFeasible(framework, state, pod, feasible);
    if (!scored.ok()) {
      outcome.status = framework::Status::FromError(std::string(scored.status().message()));
      outcome.result.nominating_info = framework::NominatingInfo{"", framework::NominatingMode::kOverride};
      return outcome;
    }
    scores = *std::move(scored);
  }
  if (!extenders_.empty()) AddExtenderScores(extenders_, pod, feasible, scores, goroutines_);
  outcome.result.suggested_host = SelectHost(scores);
  outcome.result.evaluated_nodes = static_cast<int>(feasible.size()) + rejected;
  outcome.result.feasible_nodes = static_cast<int>(feasible.size());
  return outcome;
}

framework::Status ScheduleAlgorithm::FindNodesThatFitPod(
    framework::Framework& framework, framework::CycleState& state, const api::Pod& pod,
    const framework::Snapshot& snapshot, Diagnosis& diagnosis,
    std::vector<const framework::NodeInfo*>& feasible) {
  const std::vector<framework::NodeInfo*>& all_nodes = snapshot.nodes();
  std::set<std::string, std::less<>> pre_filter_plugins;
  auto [pre_result, pre_status] = framework.RunPreFilterPlugins(state, pod, pre_filter_plugins);
  diagnosis.unschedulable_plugins = pre_filter_plugins;
  if (!pre_status.IsSuccess()) {
    if (!pre_status.IsRejected()) return pre_status;
    // Every node gets the PreFilter's status, so that preemption sees it; the message is
    // reported once, without a per-node histogram.
    diagnosis.pre_filter_msg = pre_status.Message();
    diagnosis.AddPluginStatus(pre_status);
    diagnosis.node_to_status.set_absent_status(std::move(pre_status));
    return framework::Status();
  }

  // A nominated node (from an earlier preemption) is tried first: it is likely the only one.
  if (!pod.status.nominated_node_name.empty()) {
    if (const framework::NodeInfo* nominated = snapshot.Get(pod.status.nominated_node_name)) {
      std::vector<framework::NodeInfo*> one{const_cast<framework::NodeInfo*>(nominated)};
      framework::Status status = FindNodesThatPassFilters(framework, state, pod, one, diagnosis, feasible);
      if (status.IsSuccess() && !extenders_.empty() && !feasible.empty()) {
        status = FilterWithExtenders(extenders_, pod, feasible, diagnosis);
      }
      if (status.IsSuccess() && !feasible.empty()) return status;
      feasible.clear();
    }
  }

  cycle_reused_ = false;
  if (reuse_node_results_ && pre_result.AllNodes()) {
    const std::chrono::steady_clock::time_point filter_start =
        framework.records_metrics() ? std::chrono::steady_clock::now()
                                    : std::chrono::steady_clock::time_point{};
    if (node_results_.PrepareFilter(framework, state, pod, snapshot, next_start_node_index_,
                                    FeasibleNodesToFind(framework, all_nodes.size()))) {
      cycle_reused_ = true;
      framework::Status status = GatherFeasible(framework, snapshot, diagnosis, feasible);
      if (framework.records_metrics()) {
        framework.ObserveExtensionPoint(framework::ExtensionPoint::kFilter, status.code(),
                                        filter_start);
      }
      if (!status.IsSuccess()) {
        // A per-cycle Filter plugin's error: the cycle fails as the full path's would.
        cycle_reused_ = false;
        feasible.clear();
      }
      return status;
    }
  }

  std::vector<framework::NodeInfo*> narrowed;
  const std::vector<framework::NodeInfo*>* nodes = &all_nodes;
  if (!pre_result.AllNodes()) {
    narrowed.reserve(pre_result.node_names->size());
    for (const std::string& name : *pre_result.node_names) {
      if (const framework::NodeInfo* node = snapshot.Get(name)) {
        narrowed.push_back(const_cast<framework::NodeInfo*>(node));
      }
    }
    nodes = &narrowed;
    // sets.List of the plugins that narrowed, formatted as Go's %v of a []string.
    std::string list = "[";
    bool first = true;
    for (const std::string& name : pre_filter_plugins) {
      if (!first) list += ' ';
      list += name;
      first = false;
    }
    list += ']';
    diagnosis.node_to_status.set_absent_status(framework::Status(
        framework::Code::kUnschedulableAndUnresolvable, {"node(s) didn't satisfy plugin(s) " + list}));
  }
  framework::Status status = FindNodesThatPassFilters(framework, state, pod, *nodes, diagnosis, feasible);
  // Advance the round-robin start even on errors, so every node gets its turn.
  const std::size_t processed = feasible.size() + diagnosis.node_to_status.size();
  next_start_node_index_ = (next_start_node_index_ + processed) % all_nodes.size();
  if (!status.IsSuccess() || extenders_.empty()) return status;
  return FilterWithExtenders(extenders_, pod, feasible, diagnosis);
}

std::size_t ScheduleAlgorithm::FeasibleNodesToFind(const framework::Framework& framework,
                                                   std::size_t num_all) const {
  // Nothing would rank the others.
  if (!framework.HasScorePlugins() && !extender_filters_ && !extender_prioritizers_) return 1;
  const std::int32_t percentage =
      framework.percentage_of_nodes_to_score().value_or(global_percentage_);
  return static_cast<std::size_t>(
      NumFeasibleNodesToFind(percentage, static_cast<std::int32_t>(num_all)));
}

framework::Status ScheduleAlgorithm::FindNodesThatPassFilters(
    framework::Framework& framework, const framework::CycleState& state, const api::Pod& pod,
    const std::vector<framework::NodeInfo*>& nodes, Diagnosis& diagnosis,
    std::vector<const framework::NodeInfo*>& feasible) {
  const std::size_t num_all = nodes.size();
  feasible.clear();
  if (num_all == 0) return framework::Status();
  const std::size_t to_find = FeasibleNodesToFind(framework, num_all);
  const std::size_t start = next_start_node_index_;

  if (!framework.HasFilterPlugins()) {
    for (std::size_t i = 0; i < to_find && i < num_all; ++i) {
      feasible.push_back(nodes[(start + i) % num_all]);
    }
    return framework::Status();
  }

  std::vector<const framework::NodeInfo*> found(to_find, nullptr);
  std::vector<std::optional<framework::Status>> rejected(num_all);
  std::atomic<std::size_t> found_count{0};
  base::Mutex error_mu;
  std::optional<framework::Status> error;

  // Upstream times Filter here, over all nodes of the cycle (RunFilterPlugins runs per node).
  const std::chrono::steady_clock::time_point filter_start =
      framework.records_metrics() ? std::chrono::steady_clock::now()
                                  : std::chrono::steady_clock::time_point{};
  framework.parallelizer().Until(num_all, [&](std::size_t i, framework::Parallelizer::Run& run) {
    const framework::NodeInfo* node = nodes[(start + i) % num_all];
    framework::Status status = framework.RunFilterPluginsWithNominatedPods(state, pod, *node);
    if (status.code() == framework::Code::kError) {
      base::MutexLock lock(&error_mu);
      if (!error) error = std::move(status);
      run.Cancel();
      return;
    }
    if (status.IsSuccess()) {
      const std::size_t index = found_count.fetch_add(1, std::memory_order_relaxed);
      if (index >= to_find) {
        found_count.fetch_sub(1, std::memory_order_relaxed);
        run.Cancel();  // enough feasible nodes
      } else {
        found[index] = node;
      }
      return;
    }
    rejected[i] = std::move(status);
  }, framework::GoroutineOperation::kFilter);

  const std::size_t count = std::min(found_count.load(), to_find);
  feasible.assign(found.begin(), found.begin() + static_cast<std::ptrdiff_t>(count));
  for (std::size_t i = 0; i < num_all; ++i) {
    if (!rejected[i].has_value()) continue;
    diagnosis.AddPluginStatus(*rejected[i]);
    diagnosis.node_to_status.Set(nodes[(start + i) % num_all]->name(), std::move(*rejected[i]));
  }
  if (framework.records_metrics()) {
    framework.ObserveExtensionPoint(framework::ExtensionPoint::kFilter,
                                    error ? framework::Code::kError : framework::Code::kSuccess,
                                    filter_start);
  }
  if (error) return *std::move(error);
  return framework::Status();
}

framework::Status ScheduleAlgorithm::GatherFeasible(framework::Framework& framework,
                                                    const framework::Snapshot& snapshot,
                                                    Diagnosis& diagnosis,
                                                    std::vector<const framework::NodeInfo*>& feasible) {
  const std::vector<framework::NodeInfo*>& nodes = snapshot.nodes();
  const std::size_t num_all = nodes.size();
  const std::size_t to_find = FeasibleNodesToFind(framework, num_all);
  const std::size_t start = next_start_node_index_;
  feasible.clear();
  feasible_indexes_.clear();
  feasible_rotation_start_.reset();
  feasible_start_ = start;
  all_feasible_listed_ = true;
  if (node_results_.all_feasible() && to_find >= num_all) {
    // Every node, from the round-robin start: what a full filter pass finds (feasible_indexes_
    // stays empty: feasible_rotation_start_ says it all).
    feasible.reserve(num_all);
    feasible.insert(feasible.end(), nodes.begin() + static_cast<std::ptrdiff_t>(start), nodes.end());
    feasible.insert(feasible.end(), nodes.begin(), nodes.begin() + static_cast<std::ptrdiff_t>(start));
    feasible_rotation_start_ = start;
    return framework::Status();  // all nodes processed: the start index comes back to itself
  }
  feasible.reserve(std::min(to_find, num_all));
  // As the filter pass: nodes in order from the start; rejections are recorded until one feasible
  // node more than needed turns up (it is not counted); the start then moves past what was kept.
  std::size_t rejected = 0;
  bool done = false;
  // Two ranges, [start, n) then [0, start), instead of a modulo per node.
  for (const auto& [from, to] : {std::pair{start, num_all}, std::pair{std::size_t{0}, start}}) {
    for (std::size_t i = from; i < to && !done; ++i) {
      if (framework::Status status = node_results_.Evaluate(i); !status.IsSuccess()) {
        return status;
      }
      if (node_results_.feasible(i)) {
        if (feasible.size() == to_find) {
          done = true;
          break;
        }
        feasible.push_back(nodes[i]);
        feasible_indexes_.push_back(i);
        continue;
      }
      ++rejected;
      diagnosis.AddPluginStatus(node_results_.status(i));
      diagnosis.node_to_status.Set(nodes[i]->name(), node_results_.status(i));
    }
  }
  all_feasible_listed_ = !done;
  next_start_node_index_ = (start + feasible.size() + rejected) % num_all;
  return framework::Status();
}

absl::StatusOr<std::optional<std::size_t>> ScheduleAlgorithm::SelectIncrementally(
    framework::Framework& framework, const framework::CycleState& state, const api::Pod& pod) {
  if (!cycle_reused_ || !all_feasible_listed_) return std::nullopt;
  const std::chrono::steady_clock::time_point start =
      framework.records_metrics() ? std::chrono::steady_clock::now()
                                  : std::chrono::steady_clock::time_point{};
  absl::StatusOr<std::optional<std::size_t>> best = node_results_.SelectBest(
      framework, state, pod, framework.ActiveScorePlugins(state), feasible_start_, rng_);
  if (framework.records_metrics() && (!best.ok() || best->has_value())) {
    framework.ObserveExtensionPoint(framework::ExtensionPoint::kScore,
                                    best.ok() ? framework::Code::kSuccess : framework::Code::kError,
                                    start);
  }
  return best;
}

absl::StatusOr<std::vector<framework::NodePluginScores>> ScheduleAlgorithm::ScoreFeasible(
    framework::Framework& framework, const framework::CycleState& state, const api::Pod& pod,
    const std::vector<const framework::NodeInfo*>& feasible) {
  if (cycle_reused_) {
    const std::chrono::steady_clock::time_point start =
        framework.records_metrics() ? std::chrono::steady_clock::now()
                                    : std::chrono::steady_clock::time_point{};
    const std::vector<std::uint16_t> active = framework.ActiveScorePlugins(state);
    absl::StatusOr<bool> reused =
        node_results_.RawScores(framework, state, pod, feasible_indexes_, feasible_rotation_start_,
                                active, score_scratch_);
    if (!reused.ok()) return reused.status();
    if (*reused) {
      return framework.NormalizeAndWeighScores(state, pod, active, score_scratch_, feasible, start);
    }
  }
  return framework.RunScorePlugins(state, pod, feasible);
}

std::string ScheduleAlgorithm::SelectHost(const std::vector<framework::NodePluginScores>& scores) {
  // Uniform among the best, as upstream's reservoir sampling, but with one random draw instead of
  // one per tie: identical nodes tie by the thousand.
  std::int64_t best = scores.front().total_score;
  std::uint64_t ties = 0;
  for (const framework::NodePluginScores& score : scores) {
    if (score.total_score > best) {
      best = score.total_score;
      ties = 1;
    } else if (score.total_score == best) {
      ++ties;
    }
  }
  std::uint64_t pick = ties > 1 ? std::uniform_int_distribution<std::uint64_t>(0, ties - 1)(rng_) : 0;
  for (const framework::NodePluginScores& score : scores) {
    if (score.total_score != best) continue;
    if (pick == 0) return score.node->name();
    --pick;
  }
  std::abort();  // unreachable: `ties` nodes have the best score
}

}  // namespace ksched::scheduler
