#include "scheduler/schedule_algorithm.h"

#include <atomic>
#include <chrono>
#include <set>
#include <mutex>

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
                                     std::optional<std::uint64_t> seed)
    : global_percentage_(global_percentage),
      rng_(seed.has_value() ? *seed : std::random_device{}()) {}

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
  if (!framework.HasScorePlugins()) {
    scores.reserve(feasible.size());
    for (const framework::NodeInfo* node : feasible) scores.push_back({node, 1});
  } else {
    framework::Status pre_score = framework.RunPreScorePlugins(state, pod, feasible);
    if (!pre_score.IsSuccess()) {
      outcome.status = framework::Status::FromError(pre_score.Message()).WithPlugin(pre_score.plugin());
      outcome.result.nominating_info = framework::NominatingInfo{"", framework::NominatingMode::kOverride};
      return outcome;
    }
    absl::StatusOr<std::vector<framework::NodePluginScores>> scored =
        framework.RunScorePlugins(state, pod, feasible);
    if (!scored.ok()) {
      outcome.status = framework::Status::FromError(std::string(scored.status().message()));
      outcome.result.nominating_info = framework::NominatingInfo{"", framework::NominatingMode::kOverride};
      return outcome;
    }
    scores = *std::move(scored);
  }
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
      if (status.IsSuccess() && !feasible.empty()) return status;
      feasible.clear();
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
  return status;
}

framework::Status ScheduleAlgorithm::FindNodesThatPassFilters(
    framework::Framework& framework, const framework::CycleState& state, const api::Pod& pod,
    const std::vector<framework::NodeInfo*>& nodes, Diagnosis& diagnosis,
    std::vector<const framework::NodeInfo*>& feasible) {
  const std::size_t num_all = nodes.size();
  feasible.clear();
  if (num_all == 0) return framework::Status();
  const std::int32_t percentage =
      framework.percentage_of_nodes_to_score().value_or(global_percentage_);
  std::size_t to_find = static_cast<std::size_t>(
      NumFeasibleNodesToFind(percentage, static_cast<std::int32_t>(num_all)));
  if (!framework.HasScorePlugins()) to_find = 1;  // no extenders: nothing would rank the others
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
  std::mutex error_mu;
  std::optional<framework::Status> error;

  // Upstream times Filter here, over all nodes of the cycle (RunFilterPlugins runs per node).
  const std::chrono::steady_clock::time_point filter_start =
      framework.records_metrics() ? std::chrono::steady_clock::now()
                                  : std::chrono::steady_clock::time_point{};
  framework.parallelizer().Until(num_all, [&](std::size_t i, framework::Parallelizer::Run& run) {
    const framework::NodeInfo* node = nodes[(start + i) % num_all];
    framework::Status status = framework.RunFilterPluginsWithNominatedPods(state, pod, *node);
    if (status.code() == framework::Code::kError) {
      std::lock_guard lock(error_mu);
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
  });

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

std::string ScheduleAlgorithm::SelectHost(const std::vector<framework::NodePluginScores>& scores) {
  std::size_t selected = 0;
  std::int64_t best = scores.front().total_score;
  std::uint64_t ties = 1;
  for (std::size_t i = 1; i < scores.size(); ++i) {
    if (scores[i].total_score > best) {
      best = scores[i].total_score;
      selected = i;
      ties = 1;
    } else if (scores[i].total_score == best) {
      ++ties;
      if (std::uniform_int_distribution<std::uint64_t>(0, ties - 1)(rng_) == 0) selected = i;
    }
  }
  return scores[selected].node->name();
}

}  // namespace ksched::scheduler
