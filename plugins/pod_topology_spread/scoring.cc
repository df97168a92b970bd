// PodTopologySpread: PreScore, Score and NormalizeScore (upstream scoring.go).
#include "plugins/pod_topology_spread/pod_topology_spread.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace ksched::plugins::pod_topology_spread {
namespace {

// Marks ignored nodes between NormalizeScore's two passes (raw scores are never negative).
constexpr std::int64_t kInvalidScore = -1;

framework::Status PreScoreStateNotFound() {
  std::string message = "error reading \"";
  message += kPreScoreStateKey.name();
  message += "\" from cycleState: not found";
  return framework::Status::FromError(std::move(message));
}

absl::string_view AbslView(std::string_view s) { return absl::string_view(s.data(), s.size()); }

// upstream topologyNormalizingWeight: the weight of a topology with `size` domains, so that the
// counts of small topologies are not watered down by big ones.
double TopologyNormalizingWeight(std::size_t size) {
  return std::log(static_cast<double>(size + 2));
}

// upstream scoreForCount: `maxSkew - 1` is added so that differences between domains are watered
// down, controlling the tolerance of the score to skews.
double ScoreForCount(std::int64_t count, std::int32_t max_skew, double weight) {
  return static_cast<double>(count) * weight + static_cast<double>(max_skew - 1);
}

}  // namespace

absl::Status PodTopologySpread::InitPreScoreState(
    PreScoreState& state, const api::Pod& pod,
    const std::vector<const framework::NodeInfo*>& filtered_nodes,
    bool require_all_topologies) const {
  if (!pod.spec.topology_spread_constraints.empty()) {
    absl::StatusOr<std::vector<SpreadConstraint>> constraints = CompileConstraints(
        pod.spec.topology_spread_constraints, pod.metadata.labels, api::kScheduleAnyway);
    if (!constraints.ok()) {
      return absl::InvalidArgumentError("obtaining pod's soft topology spread constraints: " +
                                        std::string(constraints.status().message()));
    }
    state.constraints_ = *std::move(constraints);
  } else {
    state.constraints_ = BuildDefaultConstraints(pod, api::kScheduleAnyway);
  }
  const std::vector<SpreadConstraint>& cs = state.constraints_;
  if (cs.empty()) return absl::OkStatus();

  state.topology_value_to_pod_counts_.resize(cs.size());
  std::vector<std::size_t> topology_size(cs.size(), 0);
  for (const framework::NodeInfo* info : filtered_nodes) {
    const api::Node* node = info->node();
    if (node == nullptr) continue;
    if (require_all_topologies && !NodeLabelsMatchSpreadConstraints(node->metadata.labels, cs)) {
      // Nodes without every topology key are scored 0.
      state.ignored_nodes_.insert(node->metadata.name);
      continue;
    }
    for (std::size_t j = 0; j < cs.size(); ++j) {
      // Hostname counts are computed in Score.
      if (cs[j].topology_key == kHostnameKey) continue;
      // An absent label is the domain "" (only possible without require_all_topologies).
      const std::string_view value = node->metadata.labels.Get(cs[j].topology_key).value_or("");
      if (state.topology_value_to_pod_counts_[j].emplace(std::string(value), 0).second) {
        ++topology_size[j];
      }
    }
  }

  state.topology_normalizing_weight_.resize(cs.size());
  for (std::size_t j = 0; j < cs.size(); ++j) {
    std::size_t size = topology_size[j];
    if (cs[j].topology_key == kHostnameKey) {
      size = filtered_nodes.size() - state.ignored_nodes_.size();
    }
    state.topology_normalizing_weight_[j] = TopologyNormalizingWeight(size);
  }
  return absl::OkStatus();
}

framework::Status PodTopologySpread::PreScore(
    framework::CycleState& cycle_state, const api::Pod& pod,
    const std::vector<const framework::NodeInfo*>& filtered_nodes) {
  const std::vector<framework::NodeInfo*>& all_nodes = handle_.snapshot().nodes();
  if (all_nodes.empty()) return framework::Status(framework::Code::kSkip);

  auto state = std::make_unique<PreScoreState>();
  // Only non-system-default spreading requires every topology label, so that nodes without a
  // zone label still get hostname spreading.
  const bool require_all_topologies =
      !pod.spec.topology_spread_constraints.empty() || !system_defaulted_;
  if (absl::Status status = InitPreScoreState(*state, pod, filtered_nodes, require_all_topologies);
      !status.ok()) {
    return framework::Status::FromError("calculating preScoreState: " +
                                        std::string(status.message()));
  }
  if (state->constraints_.empty()) return framework::Status(framework::Code::kSkip);

  // Hostname constraints are counted per node in Score. The others take their domains' sums over
  // all nodes, kept across cycles of alike pods (DomainCounts), restricted to the domains of the
  // filtered nodes that InitPreScoreState listed.
  const std::vector<SpreadConstraint>& cs = state->constraints_;
  const bool sums_needed = std::ranges::any_of(
      cs, [](const SpreadConstraint& c) { return c.topology_key != kHostnameKey; });
  if (sums_needed) {
    const DomainCounts::Mode mode{.require_all_keys = require_all_topologies, .skip_hostname = true};
    auto take_sums = [&](const DomainCounts& counts) {
      for (std::size_t j = 0; j < cs.size(); ++j) {
        if (cs[j].topology_key == kHostnameKey) continue;
        for (auto& [value, count] : state->topology_value_to_pod_counts_[j]) count = counts.Sum(j, value);
      }
    };
    const framework::Snapshot* snapshot = &handle_.snapshot();
    if (score_domain_counts_mu_.TryLock()) {
      base::MutexLock lock(&score_domain_counts_mu_, std::adopt_lock);
      score_domain_counts_.Refresh(pod, cs, all_nodes, snapshot, match_counts_, handle_.parallelizer(), mode);
      take_sums(score_domain_counts_);
    } else {
      DomainCounts counts;
      counts.Refresh(pod, cs, all_nodes, nullptr, match_counts_, handle_.parallelizer(), mode);
      take_sums(counts);
    }
  }

  cycle_state.Write(kPreScoreStateKey, std::move(state));
  return {};
}

std::pair<std::int64_t, framework::Status> PodTopologySpread::Score(
    const framework::CycleState& cycle_state, const api::Pod& pod,
    const framework::NodeInfo& node_info) {
  const api::Node* node = node_info.node();
  if (node == nullptr) return {0, framework::Status::FromError("node not found")};
  const auto* s = cycle_state.ReadAs<PreScoreState>(kPreScoreStateKey);
  if (s == nullptr) return {0, PreScoreStateNotFound()};

  if (s->ignored_nodes_.contains(node->metadata.name)) return {0, {}};

  // Every domain the node belongs to credits it with its number of matching pods.
  double score = 0;
  const std::vector<SpreadConstraint>& cs = s->constraints_;
  for (std::size_t j = 0; j < cs.size(); ++j) {
    const SpreadConstraint& c = cs[j];
    const std::optional<std::string_view> value = node->metadata.labels.Get(c.topology_key);
    if (!value.has_value()) continue;
    std::int64_t count = 0;
    if (c.topology_key == kHostnameKey) {
      count = CountPodsMatchSelector(node_info.pods(), c.selector, pod.metadata.namespace_);
    } else {
      const auto& pod_counts = s->topology_value_to_pod_counts_[j];
      auto it = pod_counts.find(AbslView(*value));
      if (it == pod_counts.end()) {
        // Upstream dereferences a nil count here: Score was called for a node PreScore never saw.
        return {0, framework::Status::FromError("PodTopologySpread: node " + node->metadata.name +
                                                " was not passed to PreScore")};
      }
      count = it->second;
    }
    score += ScoreForCount(count, c.max_skew, s->topology_normalizing_weight_[j]);
  }
  return {static_cast<std::int64_t>(std::round(score)), {}};
}

framework::Status PodTopologySpread::NormalizeScore(const framework::CycleState& cycle_state,
                                                    const api::Pod& /*pod*/,
                                                    std::vector<framework::NodeScore>& scores) {
  const auto* s = cycle_state.ReadAs<PreScoreState>(kPreScoreStateKey);
  if (s == nullptr) return PreScoreStateNotFound();

  std::int64_t min_score = std::numeric_limits<std::int64_t>::max();
  std::int64_t max_score = 0;
  for (framework::NodeScore& score : scores) {
    if (score.node != nullptr && s->ignored_nodes_.contains(score.node->name())) {
      score.score = kInvalidScore;
      continue;
    }
    min_score = std::min(min_score, score.score);
    max_score = std::max(max_score, score.score);
  }
  for (framework::NodeScore& score : scores) {
    if (score.score == kInvalidScore) {
      score.score = 0;
      continue;
    }
    if (max_score == 0) {
      score.score = framework::kMaxNodeScore;
      continue;
    }
    score.score = framework::kMaxNodeScore * (max_score + min_score - score.score) / max_score;
  }
  return {};
}

}  // namespace ksched::plugins::pod_topology_spread
