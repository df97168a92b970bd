#include "scheduler/node_result_cache.h"

#include <algorithm>
#include <atomic>
#include <optional>
#include <utility>

#include "base/mutex.h"
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
  failed_at_.clear();
  infeasible_count_ = 0;
  local_plan_.clear();
  fresh_plan_.clear();
  fresh_stamp_.clear();
  fresh_rejected_.clear();
  fresh_status_.clear();
  all_feasible_ = false;
  cycle_framework_ = nullptr;
  cycle_state_ = nullptr;
  cycle_pod_ = nullptr;
  score_plan_.clear();
  columns_.clear();
  score_valid_.clear();
  snapshot_generation_ = -1;
  change_finder_.Reset();
  totals_.Invalidate();
  dirty_.clear();
  dirty_flag_.clear();
}

bool NodeResultCache::PrepareFilter(framework::Framework& framework,
                                    const framework::CycleState& state, const api::Pod& pod,
                                    const framework::Snapshot& snapshot, std::size_t start,
                                    std::size_t to_find) {
  const std::vector<std::uint16_t>* plan = framework.FilterPlan(state);
  if (plan == nullptr || !pod.status.nominated_node_name.empty()) return false;
  if (const framework::PodNominator* nominator = framework.nominator();
      nominator != nullptr && nominator->HasNominatedPods()) {
    // Results computed now would include nominated pods; results from before would not.
    Clear();
    return false;
  }
  const std::vector<framework::NodeInfo*>& nodes = snapshot.nodes();
  bool reused = false;
  const bool same_pod = valid_ && framework_ == &framework && filter_plan_ == *plan &&
                        SameForScheduling(pod_, pod);
  if (!same_pod || snapshot_ != &snapshot || list_version_ != snapshot.list_version()) {
    // Everything anew: another pod, profile or plan, or nodes added, removed or reordered.
    Clear();
    for (const std::uint16_t i : *plan) {
      (framework.FilterPluginIsNodeLocal(i) ? local_plan_ : fresh_plan_).push_back(i);
    }
    if (local_plan_.empty()) {
      Clear();  // nothing to keep: every Filter plugin runs every cycle anyway
      return false;
    }
    framework_ = &framework;
    pod_ = pod;
    filter_plan_ = *plan;
    snapshot_ = &snapshot;
    list_version_ = snapshot.list_version();
    nodes_ = nodes;
    dirty_flag_.assign(nodes.size(), 0);
    generations_.resize(nodes.size());
    statuses_.assign(nodes.size(), framework::Status());
    failed_at_.assign(nodes.size(), kPassed);
    infeasible_count_ = 0;
    // feasible() and status() read the stamps (0 never matches stamp_).
    fresh_stamp_.assign(nodes.size(), 0);
    fresh_rejected_.assign(nodes.size(), 0);
    if (!fresh_plan_.empty()) fresh_status_.assign(nodes.size(), framework::Status());
    ++stats_.rebuilt;
    if (!FilterNodes(framework, state, pod, nodes, {})) {
      Clear();
      return false;
    }
    valid_ = true;
    snapshot_generation_ = snapshot.generation();
  } else {
    reused = true;
    VerifyChangesRecorded(snapshot);
    if (snapshot.generation() != snapshot_generation_) {
      change_finder_.Find(snapshot, snapshot_generation_, generations_, changed_);
      if (!changed_.empty()) {
        stats_.refreshed_nodes += static_cast<std::int64_t>(changed_.size());
        for (const std::size_t i : changed_) {
          if (!score_valid_.empty()) score_valid_[i] = 0;
          if (dirty_flag_[i] == 0) {
            dirty_flag_[i] = 1;
            dirty_.push_back(static_cast<std::uint32_t>(i));
          }
        }
        if (!FilterNodes(framework, state, pod, nodes, changed_)) {
          Clear();
          return false;
        }
      }
      snapshot_generation_ = snapshot.generation();
    }
    ++stats_.reused_cycles;
  }
  cycle_framework_ = &framework;
  cycle_state_ = &state;
  cycle_pod_ = &pod;
  if (reused) VerifySampledVerdicts();
  if (fresh_plan_.empty()) {
    all_feasible_ = infeasible_count_ == 0;
    return true;
  }
  // A new cycle number: last cycle's per-cycle verdicts no longer count.
  if (++stamp_ == 0) {
    std::fill(fresh_stamp_.begin(), fresh_stamp_.end(), 0);
    stamp_ = 1;
  }
  return FilterPerCycle(start, to_find);
}

framework::Status NodeResultCache::EvaluateFresh(std::size_t i) {
  // Only the per-cycle plugins that run before the cached one that rejected the node: the first
  // rejection in plan order is the node's status, as in the full path.
  const std::uint16_t failed_at = failed_at_[i];
  std::size_t count = 0;
  while (count < fresh_plan_.size() && fresh_plan_[count] < failed_at) ++count;
  std::uint16_t rejected_by = kPassed;
  framework::Status status = cycle_framework_->RunFilterPluginSubset(
      *cycle_state_, *cycle_pod_, *nodes_[i], std::span(fresh_plan_.data(), count), rejected_by);
  if (status.code() == framework::Code::kError) return status;
  fresh_rejected_[i] = status.IsSuccess() ? 0 : 1;
  if (!status.IsSuccess()) fresh_status_[i] = std::move(status);
  fresh_stamp_[i] = stamp_;
  return framework::Status();
}

framework::Status NodeResultCache::Evaluate(std::size_t i) {
  if (fresh_plan_.empty() || fresh_stamp_[i] == stamp_) return framework::Status();
  ++stats_.per_cycle_filtered_nodes;
  return EvaluateFresh(i);
}

bool NodeResultCache::FilterPerCycle(std::size_t start, std::size_t to_find) {
  const std::size_t n = nodes_.size();
  if (n == 0) {
    all_feasible_ = true;
    return true;
  }
  const bool every_node = to_find >= n;
  std::atomic<bool> failed{false};
  std::atomic<std::size_t> found{0};
  std::atomic<std::size_t> evaluated{0};
  std::atomic<std::size_t> rejected{0};
  cycle_framework_->parallelizer().Until(n, [&](std::size_t j, framework::Parallelizer::Run& run) {
    const std::size_t i = start + j < n ? start + j : start + j - n;
    if (framework::Status status = EvaluateFresh(i); !status.IsSuccess()) {
      failed.store(true, std::memory_order_relaxed);
      run.Cancel();
      return;
    }
    evaluated.fetch_add(1, std::memory_order_relaxed);
    if (!feasible(i)) {
      rejected.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    // One feasible node beyond what the cycle keeps tells it that it has all it needs.
    if (!every_node && found.fetch_add(1, std::memory_order_relaxed) + 1 > to_find) run.Cancel();
  }, framework::GoroutineOperation::kFilter);
  stats_.per_cycle_filtered_nodes += static_cast<std::int64_t>(evaluated.load());
  if (failed.load()) return false;
  all_feasible_ = every_node && evaluated.load() == n && rejected.load() == 0;
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
    std::uint16_t failed_at = kPassed;
    framework::Status status =
        framework.RunFilterPluginSubset(state, pod, *nodes[i], local_plan_, failed_at);
    if (status.code() == framework::Code::kError) failed.store(true, std::memory_order_relaxed);
    failed_at_[i] = failed_at;
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
    }, framework::GoroutineOperation::kFilter);
  }
  infeasible_count_ = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(infeasible_count_) +
                                               infeasible_delta.load());
  return !failed.load();
}

void NodeResultCache::UseScorePlan(std::span<const std::uint16_t> active) {
  if (score_valid_.size() == nodes_.size() &&
      std::equal(score_plan_.begin(), score_plan_.end(), active.begin(), active.end())) {
    return;
  }
  score_plan_.assign(active.begin(), active.end());
  columns_.assign(active.size(), std::vector<framework::NodeScore>(nodes_.size()));
  for (std::vector<framework::NodeScore>& column : columns_) {
    for (std::size_t i = 0; i < nodes_.size(); ++i) column[i].node = nodes_[i];
  }
  score_valid_.assign(nodes_.size(), 0);
  totals_.Invalidate();  // its raw scores were other plugins'
}

absl::Status NodeResultCache::ScoreMissing(framework::Framework& framework,
                                           const framework::CycleState& state,
                                           const api::Pod& pod,
                                           std::span<const std::uint16_t> active,
                                           const std::vector<std::size_t>& missing) {
  if (missing.empty()) return absl::OkStatus();
  const std::size_t plugins = active.size();
  stats_.scored_nodes += static_cast<std::int64_t>(missing.size());
  base::Mutex error_mu;
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
      base::MutexLock lock(&error_mu);
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
                                   }, framework::GoroutineOperation::kScore);
  }
  if (first_error) return *std::move(first_error);
  return absl::OkStatus();
}

absl::StatusOr<bool> NodeResultCache::RawScores(
    framework::Framework& framework, const framework::CycleState& state, const api::Pod& pod,
    std::span<const std::size_t> indexes, std::optional<std::size_t> rotation_start,
    std::span<const std::uint16_t> active,
    std::vector<std::vector<framework::NodeScore>>& scores) {
  if (!valid_) return false;
  const std::size_t plugins = active.size();
  if (plugins == 0) {
    scores.clear();
    return true;
  }
  UseScorePlan(active);
  std::vector<std::size_t> missing;
  if (rotation_start.has_value()) {
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      if (score_valid_[i] == 0) missing.push_back(i);
    }
  } else {
    for (const std::size_t i : indexes) {
      if (score_valid_[i] == 0) missing.push_back(i);
    }
  }
  if (absl::Status status = ScoreMissing(framework, state, pod, active, missing); !status.ok()) {
    return status;
  }
  if (absl::Status status = ScorePerCycle(framework, state, pod, active, indexes,
                                          rotation_start.has_value());
      !status.ok()) {
    return status;
  }
  VerifySampledScores(framework, state, pod, active);
  scores.resize(plugins);
  for (std::size_t k = 0; k < plugins; ++k) {
    const std::vector<framework::NodeScore>& cached = columns_[k];
    std::vector<framework::NodeScore>& column = scores[k];
    if (rotation_start.has_value()) {
      // Every node from the start, wrapping: two block copies.
      column.resize(cached.size());
      const auto start = static_cast<std::ptrdiff_t>(*rotation_start);
      auto out = std::copy(cached.begin() + start, cached.end(), column.begin());
      std::copy(cached.begin(), cached.begin() + start, out);
      continue;
    }
    column.resize(indexes.size());
    for (std::size_t j = 0; j < indexes.size(); ++j) column[j] = cached[indexes[j]];
  }
  return true;
}

absl::Status NodeResultCache::ScorePerCycle(framework::Framework& framework,
                                            const framework::CycleState& state,
                                            const api::Pod& pod,
                                            std::span<const std::uint16_t> active,
                                            std::span<const std::size_t> indexes,
                                            bool all_nodes) {
  // The Score plugins that are not NodeLocalResults(), with their columns.
  std::vector<std::uint16_t> fresh;
  std::vector<std::size_t> fresh_columns;
  for (std::size_t k = 0; k < active.size(); ++k) {
    if (framework.ScorePluginIsNodeLocal(active[k], pod)) continue;
    fresh.push_back(active[k]);
    fresh_columns.push_back(k);
  }
  if (fresh.empty()) return absl::OkStatus();
  const std::size_t count = all_nodes ? nodes_.size() : indexes.size();
  stats_.scored_nodes += static_cast<std::int64_t>(count);
  base::Mutex error_mu;
  std::optional<absl::Status> first_error;
  framework.parallelizer().Until(count, [&](std::size_t j, framework::Parallelizer::Run& run) {
    const std::size_t i = all_nodes ? j : indexes[j];
    std::int64_t inline_values[16];
    std::vector<std::int64_t> heap_values;  // only for more than 16 such plugins
    std::span<std::int64_t> values(inline_values, std::min<std::size_t>(fresh.size(), 16));
    if (fresh.size() > 16) {
      heap_values.resize(fresh.size());
      values = std::span<std::int64_t>(heap_values);
    }
    if (absl::Status status = framework.ScoreNode(state, pod, *nodes_[i], fresh, values);
        !status.ok()) {
      base::MutexLock lock(&error_mu);
      if (!first_error) first_error = std::move(status);
      run.Cancel();
      return;
    }
    for (std::size_t f = 0; f < fresh.size(); ++f) columns_[fresh_columns[f]][i].score = values[f];
  }, framework::GoroutineOperation::kScore);
  if (first_error) return *std::move(first_error);
  return absl::OkStatus();
}

absl::StatusOr<std::optional<std::size_t>> NodeResultCache::SelectBest(
    framework::Framework& framework, const framework::CycleState& state, const api::Pod& pod,
    std::span<const std::uint16_t> active, std::size_t rotation_start, std::mt19937_64& rng) {
  // Totals kept across cycles need every verdict and raw score to be node-local.
  if (!valid_ || active.empty() || !fresh_plan_.empty() ||
      !framework.ScorePluginsAreNodeLocal(active, pod)) {
    return std::nullopt;
  }
  std::vector<IncrementalTotals::Column> columns;
  columns.reserve(active.size());
  for (const std::uint16_t index : active) {
    const std::optional<framework::Framework::ScoreShape>& shape = framework.KnownScoreShape(index);
    if (!shape) return std::nullopt;
    columns.push_back(IncrementalTotals::Column{shape->weight, shape->normalization});
  }
  UseScorePlan(active);
  // The nodes whose raw scores or feasibility may differ from what the totals hold: all of them
  // when the totals start over, else those refreshed since.
  std::vector<std::size_t> candidates;
  if (!totals_.ConfiguredFor(columns, nodes_.size())) {
    totals_.Reset(columns, nodes_.size());
    candidates.resize(nodes_.size());
    for (std::size_t i = 0; i < nodes_.size(); ++i) candidates[i] = i;
  } else {
    candidates.assign(dirty_.begin(), dirty_.end());
  }
  std::vector<std::size_t> missing;
  for (const std::size_t i : candidates) {
    if (feasible(i) && score_valid_[i] == 0) missing.push_back(i);
  }
  if (absl::Status status = ScoreMissing(framework, state, pod, active, missing); !status.ok()) {
    totals_.Invalidate();  // some candidates were not taken in
    return status;
  }
  VerifySampledScores(framework, state, pod, active);
  std::vector<std::int64_t> row(active.size());
  for (const std::size_t i : candidates) {
    const bool member = feasible(i);
    if (member) {
      for (std::size_t k = 0; k < row.size(); ++k) row[k] = columns_[k][i].score;
    }
    totals_.Update(i, member, row);
  }
  for (const std::uint32_t i : dirty_) dirty_flag_[i] = 0;
  dirty_.clear();
  if (!totals_.Settle() || totals_.members() == 0) return std::nullopt;
  ++stats_.incremental_selections;
  return totals_.Pick(rotation_start, rng);
}

// --- Checks of reuse ------------------------------------------------------------------------

void NodeResultCache::VerifyChangesRecorded(const framework::Snapshot& snapshot) const {
  if constexpr (framework::kDebugChecks) {
    if (verify_reuse_) {
      framework::CheckChangesRecorded(snapshot, snapshot_generation_, generations_,
                                      "NodeResultCache");
    }
  }
}

void NodeResultCache::VerifySampledVerdicts() {
  if constexpr (framework::kDebugChecks) {
    if (!verify_reuse_) return;
    // A new sample for this cycle (the raw scores' check takes the same one).
    verify_offset_ = (verify_offset_ + 1) % kVerifyStride;
    if (std::optional<std::string> stale = FindStaleVerdict(kVerifyStride, verify_offset_)) {
      framework::BrokenInvariant("NodeResultCache reused a stale Filter verdict: " + *stale);
    }
  }
}

void NodeResultCache::VerifySampledScores(const framework::Framework& framework,
                                          const framework::CycleState& state, const api::Pod& pod,
                                          std::span<const std::uint16_t> active) {
  if constexpr (framework::kDebugChecks) {
    if (!verify_reuse_) return;
    absl::StatusOr<std::optional<std::string>> stale =
        FindStaleScore(framework, state, pod, active, kVerifyStride, verify_offset_);
    // A Score error here was the cached path's to report (it ran the same plugins).
    if (stale.ok() && stale->has_value()) {
      framework::BrokenInvariant("NodeResultCache reused a stale raw score: " + **stale);
    }
  }
}

std::optional<std::string> NodeResultCache::FindStaleVerdict(std::size_t stride,
                                                             std::size_t offset) const {
  if (!valid_ || cycle_framework_ == nullptr || stride == 0) return std::nullopt;
  for (std::size_t i = offset; i < nodes_.size(); i += stride) {
    std::uint16_t failed_at = kPassed;
    const framework::Status fresh = cycle_framework_->RunFilterPluginSubset(
        *cycle_state_, *cycle_pod_, *nodes_[i], local_plan_, failed_at);
    if (fresh == statuses_[i] && failed_at == failed_at_[i]) continue;
    std::string out = "node \"";
    out.append(nodes_[i]->name())
        .append("\": cached \"")
        .append(statuses_[i].ToString())
        .append("\", fresh \"")
        .append(fresh.ToString())
        .append("\"");
    return out;
  }
  return std::nullopt;
}

absl::StatusOr<std::optional<std::string>> NodeResultCache::FindStaleScore(
    const framework::Framework& framework, const framework::CycleState& state, const api::Pod& pod,
    std::span<const std::uint16_t> active, std::size_t stride, std::size_t offset) const {
  if (!valid_ || stride == 0 || score_valid_.size() != nodes_.size() ||
      !std::equal(score_plan_.begin(), score_plan_.end(), active.begin(), active.end())) {
    return std::nullopt;
  }
  std::vector<std::uint16_t> local;  // the node-local plugins, whose raw scores are reused
  std::vector<std::size_t> local_columns;
  for (std::size_t k = 0; k < active.size(); ++k) {
    if (!framework.ScorePluginIsNodeLocal(active[k], pod)) continue;
    local.push_back(active[k]);
    local_columns.push_back(k);
  }
  if (local.empty()) return std::nullopt;
  std::vector<std::int64_t> fresh(local.size());
  for (std::size_t i = offset; i < nodes_.size(); i += stride) {
    if (score_valid_[i] == 0) continue;
    if (absl::Status status = framework.ScoreNode(state, pod, *nodes_[i], local, fresh);
        !status.ok()) {
      return status;
    }
    for (std::size_t f = 0; f < local.size(); ++f) {
      const std::int64_t cached = columns_[local_columns[f]][i].score;
      if (cached == fresh[f]) continue;
      std::string out = "node \"";
      out.append(nodes_[i]->name())
          .append("\", Score plugin #")
          .append(std::to_string(local[f]))
          .append(": cached ")
          .append(std::to_string(cached))
          .append(", fresh ")
          .append(std::to_string(fresh[f]));
      return out;
    }
  }
  return std::nullopt;
}

}  // namespace ksched::scheduler
