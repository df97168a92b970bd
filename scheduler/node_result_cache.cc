#include "scheduler/node_result_cache.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <optional>
#include <utility>

#include "framework/parallelizer.h"

namespace ksched::scheduler {

bool SameForScheduling(const api::Pod& a, const api::Pod& b) {
  return a.metadata.namespace_ == b.metadata.namespace_ && a.spec == b.spec &&
         a.metadata.labels == b.metadata.labels &&
         a.metadata.owner_references == b.metadata.owner_references &&
         a.metadata.annotations == b.metadata.annotations;
}

void NodeResultCache::Clear() {
  valid_ = false;
  framework_ = nullptr;
  snapshot_ = nullptr;
  nodes_.clear();
  generations_.clear();
  statuses_.clear();
  infeasible_count_ = 0;
  score_plan_.clear();
  columns_.clear();
  score_valid_.clear();
  snapshot_generation_ = -1;
}

bool NodeResultCache::PrepareFilter(framework::Framework& framework,
                                    const framework::CycleState& state, const api::Pod& pod,
                                    const framework::Snapshot& snapshot) {
  const std::vector<std::uint16_t>* plan = framework.FilterPlan(state);
  if (plan == nullptr || !pod.status.nominated_node_name.empty() ||
      !framework.FilterPluginsAreNodeLocal(*plan)) {
    return false;
  }
  if (const framework::PodNominator* nominator = framework.nominator();
      nominator != nullptr && nominator->HasNominatedPods()) {
    // Results computed now would include nominated pods; results from before would not.
    Clear();
    return false;
  }
  const std::vector<framework::NodeInfo*>& nodes = snapshot.nodes();
  const bool same_pod = valid_ && framework_ == &framework && filter_plan_ == *plan &&
                        SameForScheduling(pod_, pod);
  if (!same_pod || snapshot_ != &snapshot || list_version_ != snapshot.list_version()) {
    // Everything anew: another pod, profile or plan, or nodes added, removed or reordered.
    Clear();
    framework_ = &framework;
    pod_ = pod;
    filter_plan_ = *plan;
    snapshot_ = &snapshot;
    list_version_ = snapshot.list_version();
    nodes_ = nodes;
    generations_.resize(nodes.size());
    statuses_.assign(nodes.size(), framework::Status());
    infeasible_count_ = 0;
    ++stats_.rebuilt;
    if (!FilterNodes(framework, state, pod, nodes, {})) {
      Clear();
      return false;
    }
    valid_ = true;
    snapshot_generation_ = snapshot.generation();
    return true;
  }
  if (snapshot.generation() != snapshot_generation_) {
    std::vector<std::size_t> changed;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      if (nodes[i]->generation() != generations_[i]) changed.push_back(i);
    }
    if (!changed.empty()) {
      stats_.refreshed_nodes += static_cast<std::int64_t>(changed.size());
      if (!score_valid_.empty()) {
        for (const std::size_t i : changed) score_valid_[i] = 0;
      }
      if (!FilterNodes(framework, state, pod, nodes, changed)) {
        Clear();
        return false;
      }
    }
    snapshot_generation_ = snapshot.generation();
  }
  ++stats_.reused_cycles;
  return true;
}

bool NodeResultCache::FilterNodes(framework::Framework& framework,
                                  const framework::CycleState& state, const api::Pod& pod,
                                  const std::vector<framework::NodeInfo*>& nodes,
                                  const std::vector<std::size_t>& indexes) {
  const std::size_t count = indexes.empty() ? nodes.size() : indexes.size();
  std::atomic<bool> failed{false};
  std::atomic<std::ptrdiff_t> infeasible_delta{0};
  auto filter_one = [&](std::size_t j) {
    const std::size_t i = indexes.empty() ? j : indexes[j];
    framework::Status status = framework.RunFilterPlugins(state, pod, *nodes[i]);
    if (status.code() == framework::Code::kError) failed.store(true, std::memory_order_relaxed);
    const int delta = (status.IsSuccess() ? 0 : 1) - (statuses_[i].IsSuccess() ? 0 : 1);
    if (delta != 0) infeasible_delta.fetch_add(delta, std::memory_order_relaxed);
    statuses_[i] = std::move(status);
    generations_[i] = nodes[i]->generation();
  };
  if (count < 32) {
    // A handful of changed nodes (the usual case: the node the last pod went to): no fan-out.
    for (std::size_t j = 0; j < count; ++j) filter_one(j);
  } else {
    framework.parallelizer().Until(count, [&](std::size_t j, framework::Parallelizer::Run& run) {
      filter_one(j);
      if (failed.load(std::memory_order_relaxed)) run.Cancel();
    });
  }
  infeasible_count_ = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(infeasible_count_) +
                                               infeasible_delta.load());
  return !failed.load();
}

absl::StatusOr<bool> NodeResultCache::RawScores(
    framework::Framework& framework, const framework::CycleState& state, const api::Pod& pod,
    std::span<const std::size_t> indexes, std::optional<std::size_t> rotation_start,
    std::span<const std::uint16_t> active,
    std::vector<std::vector<framework::NodeScore>>& scores) {
  if (!valid_ || !framework.ScorePluginsAreNodeLocal(active)) return false;
  const std::size_t plugins = active.size();
  if (plugins == 0) {
    scores.clear();
    return true;
  }
  if (score_valid_.size() != nodes_.size() ||
      !std::equal(score_plan_.begin(), score_plan_.end(), active.begin(), active.end())) {
    score_plan_.assign(active.begin(), active.end());
    columns_.assign(plugins, std::vector<framework::NodeScore>(nodes_.size()));
    for (std::vector<framework::NodeScore>& column : columns_) {
      for (std::size_t i = 0; i < nodes_.size(); ++i) column[i].node = nodes_[i];
    }
    score_valid_.assign(nodes_.size(), 0);
  }
  std::vector<std::size_t> missing;
  for (const std::size_t i : indexes) {
    if (score_valid_[i] == 0) missing.push_back(i);
  }
  if (!missing.empty()) {
    stats_.scored_nodes += static_cast<std::int64_t>(missing.size());
    std::mutex error_mu;
    std::optional<absl::Status> first_error;
    auto score_one = [&](std::size_t j) -> bool {
      const std::size_t i = missing[j];
      std::int64_t inline_values[16];
      std::vector<std::int64_t> heap_values;  // only for profiles with more than 16 Score plugins
      std::span<std::int64_t> values(inline_values, plugins);
      if (plugins > 16) {
        heap_values.resize(plugins);
        values = std::span<std::int64_t>(heap_values);
      }
      absl::Status status = framework.ScoreNode(state, pod, *nodes_[i], active, values);
      if (!status.ok()) {
        std::lock_guard lock(error_mu);
        if (!first_error) first_error = std::move(status);
        return false;
      }
      for (std::size_t k = 0; k < plugins; ++k) columns_[k][i].score = values[k];
      score_valid_[i] = 1;
      return true;
    };
    if (missing.size() < 32) {
      for (std::size_t j = 0; j < missing.size(); ++j) {
        if (!score_one(j)) break;
      }
    } else {
      framework.parallelizer().Until(missing.size(),
                                     [&](std::size_t j, framework::Parallelizer::Run& run) {
                                       if (!score_one(j)) run.Cancel();
                                     });
    }
    if (first_error) return *std::move(first_error);
  }
  scores.resize(plugins);
  for (std::size_t k = 0; k < plugins; ++k) {
    const std::vector<framework::NodeScore>& cached = columns_[k];
    std::vector<framework::NodeScore>& column = scores[k];
    column.resize(indexes.size());
    if (rotation_start.has_value()) {
      // Every node from the start, wrapping: two block copies.
      const auto start = static_cast<std::ptrdiff_t>(*rotation_start);
      auto out = std::copy(cached.begin() + start, cached.end(), column.begin());
      std::copy(cached.begin(), cached.begin() + start, out);
      continue;
    }
    for (std::size_t j = 0; j < indexes.size(); ++j) column[j] = cached[indexes[j]];
  }
  return true;
}

}  // namespace ksched::scheduler
