// NodeUnschedulable: filters out cordoned nodes (spec.unschedulable) unless the pod tolerates the
// node.kubernetes.io/unschedulable:NoSchedule taint (upstream plugins/nodeunschedulable, v1.37.2).
//
// PreFilter (v1.35+): always Success; upstream's Skip for a pod whose resize is deferred belongs to
// InPlacePodVerticalScalingSchedulerPreemption (alpha, off). It makes the plugin run, and count in
// the plugin metrics, at PreFilter as upstream's does.
// Rejection: UnschedulableAndUnresolvable "node(s) were unschedulable" (preemption cannot help).
// A NodeInfo without a node is UnschedulableAndUnresolvable "node(s) had unknown conditions", as
// upstream did while it checked for it.
// Events (queueing hints are always on in v1.34): Node Add|UpdateNodeTaint, queued when a node is
// added schedulable or turns schedulable; Pod UpdatePodToleration, queued when the pod itself now
// tolerates the unschedulable taint.
//
// Thread-safety: stateless.
#pragma once

#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "framework/handle.h"
#include "framework/interface.h"
#include "framework/registry.h"

namespace ksched::plugins::node_unschedulable {

inline constexpr std::string_view kName = "NodeUnschedulable";
inline constexpr std::string_view kErrReasonUnschedulable = "node(s) were unschedulable";
inline constexpr std::string_view kErrReasonUnknownCondition = "node(s) had unknown conditions";

class NodeUnschedulable final : public framework::PreFilterPlugin,
                                public framework::FilterPlugin,
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
  std::vector<framework::ClusterEventWithHint> EventsToRegister() const override;
};

// Node Add/Update hint: Queue when the node is added schedulable or goes unschedulable ->
// schedulable.
absl::StatusOr<framework::QueueingHint> IsSchedulableAfterNodeChange(
    const api::Pod& pod, const framework::EventObjects& objects);
// Pod UpdatePodToleration hint: Queue when the updated pod is `pod` and now tolerates the
// unschedulable taint.
absl::StatusOr<framework::QueueingHint> IsSchedulableAfterPodTolerationChange(
    const api::Pod& pod, const framework::EventObjects& objects);

absl::StatusOr<std::unique_ptr<framework::Plugin>> New(const framework::PluginArgs* args,
                                                       framework::Handle& handle);

}  // namespace ksched::plugins::node_unschedulable
