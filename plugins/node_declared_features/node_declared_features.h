// NodeDeclaredFeatures (upstream plugins/nodedeclaredfeatures, v1.37.2; in the default set since
// v1.36, its gate GA and locked on in v1.37): filters out nodes that do not declare, in
// node.status.declaredFeatures, every feature the pod needs (feature_inference.h).
//
//   PreFilter  infers the pod's required features into CycleState "PreFilterNodeDeclaredFeatures";
//              Skip when it needs none (Filter then does not run for the pod).
//   Filter     UnschedulableAndUnresolvable "node(s) didn't match Pod's required features" unless
//              the node's declared features (the registered ones, feature_inference.h
//              MapDeclaredFeatures) include them all; an Error when PreFilter's state is missing.
//   Events     Node Add|UpdateNodeDeclaredFeature: Queue unless the node's declared features are
//              unchanged (an add always queues). An update of the pod itself: Queue when its
//              required features changed.
// With the NodeDeclaredFeatures gate off (--emulated-version 1.35 or older) the plugin is inert:
// PreFilter Skips, no events.
// Upstream's Skip of pods whose resize is deferred belongs to InPlacePodVerticalScalingScheduler-
// Preemption (alpha, off): not implemented.
//
// Thread-safety: stateless apart from the cycle state it writes in PreFilter; Filter does not
// allocate.
#pragma once

#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "framework/handle.h"
#include "framework/interface.h"
#include "framework/registry.h"

namespace ksched::plugins::node_declared_features {

inline constexpr std::string_view kName = "NodeDeclaredFeatures";
inline constexpr std::string_view kErrReasonUnsatisfiedRequirements =
    "node(s) didn't match Pod's required features";
inline constexpr framework::StateKey kPreFilterStateKey{"PreFilterNodeDeclaredFeatures"};

class NodeDeclaredFeatures final : public framework::PreFilterPlugin,
                                   public framework::FilterPlugin,
                                   public framework::EnqueueExtensions {
 public:
  explicit NodeDeclaredFeatures(bool enabled = true) : enabled_(enabled) {}
  std::string_view Name() const override { return kName; }
  // Reads only the node's NodeInfo (its Node), the pod and its own cycle state.
  bool NodeLocalResults() const override { return true; }
  std::pair<framework::PreFilterResult, framework::Status> PreFilter(
      framework::CycleState& state, const api::Pod& pod,
      const std::vector<framework::NodeInfo*>& nodes) override;
  framework::Status Filter(const framework::CycleState& state, const api::Pod& pod,
                           const framework::NodeInfo& node) override;
  std::vector<framework::ClusterEventWithHint> EventsToRegister() const override;

 private:
  bool enabled_;
};

// Node Add|UpdateNodeDeclaredFeature hint (upstream isSchedulableAfterNodeChange).
absl::StatusOr<framework::QueueingHint> IsSchedulableAfterNodeChange(
    const api::Pod& pod, const framework::EventObjects& objects);
// The pod's own update (upstream isSchedulableAfterTargetPodUpdate).
absl::StatusOr<framework::QueueingHint> IsSchedulableAfterTargetPodUpdate(
    const api::Pod& pod, const framework::EventObjects& objects);

absl::StatusOr<std::unique_ptr<framework::Plugin>> New(const framework::PluginArgs* args,
                                                       framework::Handle& handle);

}  // namespace ksched::plugins::node_declared_features
