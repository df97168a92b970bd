// NodeName: filters out every node but the one named by the pod's spec.nodeName, when it is set
// (upstream plugins/nodename, v1.37.2).
//
// PreFilter (v1.35+): a pod with spec.nodeName narrows the nodes to that one (PreFilterResult), so
// that the others are UnschedulableAndUnresolvable without a Filter run and preemption skips them;
// Success with all nodes otherwise. (Pending pods have no nodeName; upstream needs it for assigned
// pods whose resize is deferred.)
// Rejection: UnschedulableAndUnresolvable "node(s) didn't match the requested node name".
// Events (queueing hints are always on in v1.34): Node Add, without a hint (always Queue).
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

namespace ksched::plugins::node_name {

inline constexpr std::string_view kName = "NodeName";
inline constexpr std::string_view kErrReason = "node(s) didn't match the requested node name";

class NodeName final : public framework::PreFilterPlugin,
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

// upstream nodename.Fits: spec.nodeName is empty or names this node (which must be set).
bool Fits(const api::Pod& pod, const api::Node& node);

absl::StatusOr<std::unique_ptr<framework::Plugin>> New(const framework::PluginArgs* args,
                                                       framework::Handle& handle);

}  // namespace ksched::plugins::node_name
