// TaintToleration (upstream plugins/tainttoleration, v1.37.2):
//   - PreFilter (v1.35+): always Success; upstream's Skip for a pod whose resize is deferred
//     belongs to InPlacePodVerticalScalingSchedulerPreemption (alpha, off). It makes the plugin
//     run, and count in the plugin metrics, at PreFilter as upstream's does.
//   - Filter: the node's first NoSchedule/NoExecute taint no toleration of the pod tolerates makes
//     the node UnschedulableAndUnresolvable "node(s) had untolerated taint(s)". (v1.34.3 and later
//     no longer name the taint's key and value in the message, kubernetes#135023.)
//   - PreScore collects the pod's tolerations of PreferNoSchedule taints (effect PreferNoSchedule
//     or empty); Score counts the node's PreferNoSchedule taints none of them tolerates;
//     NormalizeScore reverses (fewest intolerable taints -> 100).
//   - Events (queueing hints are always on in v1.34): Node Add|UpdateNodeTaint, queued when the
//     node goes from having an untolerated NoSchedule/NoExecute taint (or not existing) to having
//     none; Pod UpdatePodToleration, queued when the updated pod is the pod itself.
// Toleration matching: plugins/helper/taint.h.
//
// Thread-safety: stateless apart from the cycle state it writes in PreScore; Filter and Score do
// not allocate.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "framework/handle.h"
#include "framework/interface.h"
#include "framework/registry.h"
#include "framework/score_normalization.h"

namespace ksched::plugins::taint_toleration {

inline constexpr std::string_view kName = "TaintToleration";
inline constexpr std::string_view kErrReasonUntolerated = "node(s) had untolerated taint(s)";
// The CycleState key of the PreScore state.
inline constexpr framework::StateKey kPreScoreStateKey{"PreScoreTaintToleration"};

class TaintToleration final : public framework::PreFilterPlugin,
                              public framework::FilterPlugin,
                              public framework::PreScorePlugin,
                              public framework::ScorePlugin,
                              public framework::EnqueueExtensions {
 public:
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

 private:
  // Fewest intolerable taints -> 100.
  framework::StandardNormalization normalization_{framework::ScoreNormalization::kScaleToMaxReversed};
};

// Node Add/UpdateNodeTaint hint.
absl::StatusOr<framework::QueueingHint> IsSchedulableAfterNodeChange(
    const api::Pod& pod, const framework::EventObjects& objects);
// Pod UpdatePodToleration hint.
absl::StatusOr<framework::QueueingHint> IsSchedulableAfterPodTolerationChange(
    const api::Pod& pod, const framework::EventObjects& objects);

absl::StatusOr<std::unique_ptr<framework::Plugin>> New(const framework::PluginArgs* args,
                                                       framework::Handle& handle);

}  // namespace ksched::plugins::taint_toleration
