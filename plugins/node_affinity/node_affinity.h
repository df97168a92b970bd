// NodeAffinity (upstream plugins/nodeaffinity, v1.34): a pod's spec.nodeSelector and required /
// preferred node affinity, plus the profile's optional addedAffinity (NodeAffinityArgs).
//   - PreFilter: Skip when the pod has neither a nodeSelector nor required node affinity and there
//     is no added required affinity. Otherwise compiles the pod's required constraints once into
//     the cycle state. When every required term names nodes with a `metadata.name In` matchFields
//     requirement, narrows the candidates to the union of those names (the intersection within a
//     term); an empty union is UnschedulableAndUnresolvable "pod affinity terms conflict".
//   - Filter: UnschedulableAndUnresolvable "node(s) didn't match scheduler-enforced node affinity"
//     when the added affinity does not match, "node(s) didn't match Pod's node affinity/selector"
//     when the pod's constraints do not (parse errors of invalid terms count as no match).
//   - PreScore compiles the pod's preferred terms (an invalid one is an Error), Skip when the pod
//     has none and there are no added preferred terms; Score is the sum of the weights of matching
//     terms (added + pod's); NormalizeScore scales to [0, 100] (not reversed).
//   - Events (queueing hints are always on in v1.34): Node Add|UpdateNodeLabel, queued when the
//     node matches the added affinity and the pod's required constraints now but did not before.
// Filter and Score never compile selectors when PreFilter/PreScore ran (they fall back to
// compiling per call, as upstream, only when those were disabled).
//
// Thread-safety: immutable after construction apart from the cycle state it writes in
// PreFilter/PreScore.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "api/node_selector.h"
#include "framework/handle.h"
#include "framework/interface.h"
#include "framework/registry.h"
#include "framework/score_normalization.h"
#include "plugins/node_affinity/args.h"

namespace ksched::plugins::node_affinity {

inline constexpr std::string_view kName = "NodeAffinity";
inline constexpr std::string_view kErrReasonPod = "node(s) didn't match Pod's node affinity/selector";
inline constexpr std::string_view kErrReasonEnforced =
    "node(s) didn't match scheduler-enforced node affinity";
inline constexpr std::string_view kErrReasonConflict = "pod affinity terms conflict";
inline constexpr framework::StateKey kPreFilterStateKey{"PreFilterNodeAffinity"};
inline constexpr framework::StateKey kPreScoreStateKey{"PreScoreNodeAffinity"};

class NodeAffinity final : public framework::PreFilterPlugin,
                           public framework::FilterPlugin,
                           public framework::PreScorePlugin,
                           public framework::ScorePlugin,
                           public framework::EnqueueExtensions {
 public:
  // Validates and compiles the added affinity (errors as ValidateNodeAffinityArgs with no path).
  static absl::StatusOr<std::unique_ptr<NodeAffinity>> Create(const NodeAffinityArgs& args);

  std::string_view Name() const override { return kName; }
  // Reads only the node's NodeInfo, the pod and its own cycle state.
  bool NodeLocalResults() const override { return true; }

  std::pair<framework::PreFilterResult, framework::Status> PreFilter(
      framework::CycleState& state, const api::Pod& pod,
      const std::vector<framework::NodeInfo*>& nodes) override;
  framework::Status Filter(const framework::CycleState& state, const api::Pod& pod,
                           const framework::NodeInfo& node) override;

  framework::Status PreScore(framework::CycleState& state, const api::Pod& pod,
                             const std::vector<const framework::NodeInfo*>& nodes) override;
  std::pair<std::int64_t, framework::Status> Score(const framework::CycleState& state,
                                                   const api::Pod& pod,
                                                   const framework::NodeInfo& node) override;
  framework::ScoreExtensions* GetScoreExtensions() override { return &normalization_; }

  std::vector<framework::ClusterEventWithHint> EventsToRegister() const override;
  // The Node Add/UpdateNodeLabel hint.
  absl::StatusOr<framework::QueueingHint> IsSchedulableAfterNodeChange(
      const api::Pod& pod, const framework::EventObjects& objects) const;

 private:
  NodeAffinity() = default;

  std::optional<api::CompiledNodeSelector> added_node_selector_;
  std::optional<api::CompiledPreferredSchedulingTerms> added_preferred_terms_;
  framework::StandardNormalization normalization_{framework::ScoreNormalization::kScaleToMax};
};

// nullptr args take the defaults (no added affinity); args of another type are an error.
absl::StatusOr<std::unique_ptr<framework::Plugin>> New(const framework::PluginArgs* args,
                                                       framework::Handle& handle);

}  // namespace ksched::plugins::node_affinity
