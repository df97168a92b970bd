// InterPodAffinity PreScore, Score and NormalizeScore (upstream scoring.go).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "plugins/inter_pod_affinity/filtering_state.h"
#include "plugins/inter_pod_affinity/incoming_terms.h"
#include "plugins/inter_pod_affinity/inter_pod_affinity.h"
#include "plugins/inter_pod_affinity/topology_counts.h"

namespace ksched::plugins::inter_pod_affinity {
namespace {

using framework::Code;
using framework::Status;

// The weighted sums per topology pair, and the distinct topology keys among them (Score probes
// the node's value of each key). Read-only once written, so clones share it.
struct TopologyScore {
  TopologyCounts scores;
  std::vector<std::string> keys;
};

class PreScoreState final : public framework::StateData {
 public:
  explicit PreScoreState(std::shared_ptr<const TopologyScore> score) : score_(std::move(score)) {}
  std::unique_ptr<framework::StateData> Clone() const override {
    return std::make_unique<PreScoreState>(score_);
  }
  const TopologyScore& score() const { return *score_; }

 private:
  std::shared_ptr<const TopologyScore> score_;
};

Status MissingPreScoreState() {
  return Status::FromError("failed to read \"" + std::string(kPreScoreStateKey) +
                           "\" from cycleState: not found");
}

// What one PreScore run needs to process an existing pod.
struct ScoringContext {
  const api::Pod& incoming_pod;
  const framework::PodInfo& incoming;
  // The incoming pod's namespace labels, for the existing pods' terms.
  const api::Labels& namespace_labels;
  NamespaceLabelsCache& namespaces;
  std::int32_t hard_pod_affinity_weight;
};

// upstream processTerm for the incoming pod's terms (namespace selectors resolved).
void ProcessIncomingTerms(const std::vector<framework::WeightedAffinityTerm>& terms,
                          const api::Pod& existing, NamespaceLabelsCache& namespaces,
                          const api::Node& node, std::int32_t multiplier,
                          TopologyCountList& out) {
  for (const framework::WeightedAffinityTerm& weighted : terms) {
    if (IncomingTermMatches(weighted.term, existing, namespaces)) {
      AppendIfLabeled(out, node, weighted.term.topology_key, weighted.weight * multiplier);
    }
  }
}

// upstream processTerm for an existing pod's terms against the incoming pod.
void ProcessExistingTerm(const framework::AffinityTerm& term, std::int32_t weight,
                         const ScoringContext& context, const api::Node& node,
                         std::int32_t multiplier, TopologyCountList& out) {
  if (term.Matches(context.incoming_pod, &context.namespace_labels)) {
    AppendIfLabeled(out, node, term.topology_key, weight * multiplier);
  }
}

// upstream processExistingPod.
void ProcessExistingPod(const ScoringContext& context, const framework::PodInfo& existing,
                        const api::Node& node, TopologyCountList& out) {
  if (node.metadata.labels.empty()) return;
  // The incoming pod's preferred affinity (+w) and anti-affinity (-w) against the existing pod.
  ProcessIncomingTerms(context.incoming.preferred_affinity_terms(), existing.pod(),
                       context.namespaces, node, 1, out);
  ProcessIncomingTerms(context.incoming.preferred_anti_affinity_terms(), existing.pod(),
                       context.namespaces, node, -1, out);
  // Symmetry: the existing pod's required affinity terms weigh hard_pod_affinity_weight...
  if (context.hard_pod_affinity_weight > 0) {
    for (const framework::AffinityTerm& term : existing.required_affinity_terms()) {
      ProcessExistingTerm(term, context.hard_pod_affinity_weight, context, node, 1, out);
    }
  }
  // ...and its preferred terms their weight.
  for (const framework::WeightedAffinityTerm& weighted : existing.preferred_affinity_terms()) {
    ProcessExistingTerm(weighted.term, weighted.weight, context, node, 1, out);
  }
  for (const framework::WeightedAffinityTerm& weighted : existing.preferred_anti_affinity_terms()) {
    ProcessExistingTerm(weighted.term, weighted.weight, context, node, -1, out);
  }
}

}  // namespace

Status InterPodAffinity::PreScore(framework::CycleState& state, const api::Pod& pod,
                                  const std::vector<const framework::NodeInfo*>& /*nodes*/) {
  const api::Affinity& affinity = pod.spec.affinity;
  const bool has_constraints =
      !affinity.pod_affinity.preferred.empty() || !affinity.pod_anti_affinity.preferred.empty();
  if (args_.ignore_preferred_terms_of_existing_pods && !has_constraints) {
    return Status(Code::kSkip);
  }
  // Without preferred terms of its own, only pods with affinity can score the pod. Every node of
  // the cluster counts (not only the feasible ones): a pod elsewhere in a domain scores it.
  const framework::Snapshot& snapshot = handle_.snapshot();
  const std::vector<framework::NodeInfo*>& all_nodes =
      has_constraints ? snapshot.nodes() : snapshot.have_pods_with_affinity();

  // PreFilter compiled the pod already unless it was skipped or disabled.
  framework::PodInfoPtr incoming;
  if (const auto* pre_filter = state.ReadAs<PreFilterState>(kPreFilterStateKey)) {
    incoming = pre_filter->pod_info_ptr();
  } else {
    absl::StatusOr<framework::PodInfoPtr> created =
        framework::PodInfo::Create(std::make_shared<const api::Pod>(pod));
    if (!created.ok()) {
      return Status::FromError("failed to parse pod: " + std::string(created.status().message()));
    }
    incoming = *std::move(created);
  }
  std::shared_ptr<NamespaceLabelsCache> namespaces = CycleNamespaceLabels(state, handle_);
  const api::Labels* own_labels = namespaces->Get(pod.metadata.namespace_);
  const api::Labels empty_labels;
  const ScoringContext context{pod, *incoming, own_labels != nullptr ? *own_labels : empty_labels,
                               *namespaces, args_.hard_pod_affinity_weight};

  framework::Parallelizer& parallelizer = handle_.parallelizer();
  std::vector<TopologyCountList> per_slice(parallelizer.SliceCount(all_nodes.size()));
  parallelizer.ForEachSlice(all_nodes.size(), [&](std::size_t begin, std::size_t end, std::size_t slice) {
    for (std::size_t i = begin; i < end; ++i) {
      const framework::NodeInfo& info = *all_nodes[i];
      const api::Node* node = info.node();
      if (node == nullptr) continue;
      const framework::PodInfoList& pods =
          has_constraints ? info.pods() : info.pods_with_affinity();
      for (const framework::PodInfoPtr& existing : pods) {
        ProcessExistingPod(context, *existing, *node, per_slice[slice]);
      }
    }
  }, framework::GoroutineOperation::kInterPodAffinity);

  auto score = std::make_shared<TopologyScore>();
  std::vector<std::string>& keys = score->keys;
  for (const TopologyCountList& list : per_slice) {
    score->scores.Merge(list);
    for (const TopologyCount& entry : list) {
      // Terms use few topology keys: a linear search beats hashing here.
      if (std::find(keys.begin(), keys.end(), entry.pair.key) == keys.end()) {
        keys.emplace_back(entry.pair.key);
      }
    }
  }
  // Nothing matched anywhere: every node would score the same.
  if (score->scores.empty()) return Status(Code::kSkip);
  state.Write(kPreScoreStateKey, std::make_unique<PreScoreState>(std::move(score)));
  return {};
}

std::pair<std::int64_t, Status> InterPodAffinity::Score(const framework::CycleState& state,
                                                        const api::Pod& /*pod*/,
                                                        const framework::NodeInfo& node_info) {
  const auto* pre_score = state.ReadAs<PreScoreState>(kPreScoreStateKey);
  if (pre_score == nullptr) return {0, MissingPreScoreState()};
  const api::Node* node = node_info.node();
  if (node == nullptr) return {0, Status::FromError("node not found")};
  const TopologyScore& topology = pre_score->score();
  std::int64_t score = 0;
  for (const std::string& key : topology.keys) {
    if (std::optional<std::string_view> value = node->metadata.labels.Get(key)) {
      score += topology.scores.Get(key, *value);
    }
  }
  return {score, {}};
}

Status InterPodAffinity::NormalizeScore(const framework::CycleState& state, const api::Pod& /*pod*/,
                                        std::vector<framework::NodeScore>& scores) {
  const auto* pre_score = state.ReadAs<PreScoreState>(kPreScoreStateKey);
  if (pre_score == nullptr) return MissingPreScoreState();
  if (pre_score->score().scores.empty()) return {};
  std::int64_t min_count = std::numeric_limits<std::int64_t>::max();
  std::int64_t max_count = std::numeric_limits<std::int64_t>::min();
  for (const framework::NodeScore& score : scores) {
    max_count = std::max(max_count, score.score);
    min_count = std::min(min_count, score.score);
  }
  const std::int64_t max_min_diff = max_count - min_count;
  for (framework::NodeScore& score : scores) {
    double normalized = 0;
    if (max_min_diff > 0) {
      normalized = static_cast<double>(framework::kMaxNodeScore) *
                   (static_cast<double>(score.score - min_count) /
                    static_cast<double>(max_min_diff));
    }
    score.score = static_cast<std::int64_t>(normalized);
  }
  return {};
}

}  // namespace ksched::plugins::inter_pod_affinity
