// NodeResourcesBalancedAllocation (upstream pkg/scheduler/framework/plugins/noderesources/
// balanced_allocation.go, v1.37.2): favours nodes whose resource usage the pod makes more
// balanced across the configured resources.
//
//   PreScore  computes the pod's requests of the configured resources (plain requests, no
//             non-zero defaults) into CycleState "PreScoreNodeResourcesBalancedAllocation";
//             returns Skip for a pod requesting none of them (upstream #129138: best-effort pods
//             would otherwise all pile onto the same nodes).
//   Score     the balance (1 - std) * 100 over the fractions requested/allocatable (capped at 1)
//             of the resources the node has, once with the pod's requests and once without,
//             combined as 50 + (50 + with - without) / 2 (scorers.h BalancedAllocationScore,
//             kubernetes#135573, v1.36); reads the node's plain requested totals. A node the pod
//             leaves as balanced as before scores 75. DRA-backed extended resources
//             (DRAExtendedResource) are not scored here: issue #45.
//
// Thread-safety: immutable after construction; Score runs concurrently.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "api/pod.h"
#include "framework/handle.h"
#include "framework/interface.h"
#include "framework/registry.h"
#include "plugins/node_resources/args.h"
#include "plugins/node_resources/resource_allocation.h"

namespace ksched::plugins::node_resources {

inline constexpr std::string_view kBalancedAllocationName = "NodeResourcesBalancedAllocation";

class BalancedAllocation final : public framework::PreScorePlugin, public framework::ScorePlugin {
 public:
  // `args` must be valid (Validate).
  explicit BalancedAllocation(NodeResourcesBalancedAllocationArgs args);
  BalancedAllocation(const BalancedAllocation&) = delete;
  BalancedAllocation& operator=(const BalancedAllocation&) = delete;

  std::string_view Name() const override { return kBalancedAllocationName; }
  // Reads only the node's NodeInfo, the pod and its own cycle state.
  bool NodeLocalResults() const override { return true; }

  framework::Status PreScore(framework::CycleState& state, const api::Pod& pod,
                             const std::vector<const framework::NodeInfo*>& nodes) override;
  std::pair<std::int64_t, framework::Status> Score(const framework::CycleState& state,
                                                   const api::Pod& pod,
                                                   const framework::NodeInfo& node) override;

 private:
  const NodeResourcesBalancedAllocationArgs args_;  // owns the names allocation_ views
  const ResourceAllocation allocation_;
};

// The plugin factory: args of type NodeResourcesBalancedAllocationArgs (nullptr: defaults),
// validated as upstream's NewBalancedAllocation does. The handle is not used.
absl::StatusOr<std::unique_ptr<framework::Plugin>> NewBalancedAllocation(
    const framework::PluginArgs* args, framework::Handle& handle);

}  // namespace ksched::plugins::node_resources
