#include "plugins/node_resources/balanced_allocation.h"

#include <span>
#include <string>

#include "plugins/helper/pod_requests_state.h"
#include "plugins/node_resources/scorers.h"

namespace ksched::plugins::node_resources {

namespace {

using framework::Status;

constexpr framework::StateKey kPreScoreStateKey{"PreScoreNodeResourcesBalancedAllocation"};

// The pod's request of each weighed resource, computed once per cycle in PreScore.
using PreScoreState = helper::PodRequestsState;

std::int64_t ScoreAmounts(std::span<const std::int64_t> requested,
                          std::span<const std::int64_t> allocated,
                          std::span<const std::int64_t> allocatable) {
  return BalancedAllocationScore(requested, allocated, allocatable);
}

}  // namespace

BalancedAllocation::BalancedAllocation(NodeResourcesBalancedAllocationArgs args)
    : args_(std::move(args)), allocation_(args_.resources, Accounting::kRequested) {}

Status BalancedAllocation::PreScore(framework::CycleState& state, const api::Pod& pod,
                                    const std::vector<const framework::NodeInfo*>& /*nodes*/) {
  std::vector<std::int64_t> pod_requests = allocation_.PodRequests(pod);
  if (ResourceAllocation::IsBestEffort(pod_requests)) return Status(framework::Code::kSkip);
  state.Write(kPreScoreStateKey,
              std::make_unique<PreScoreState>(std::move(pod_requests)));
  return Status();
}

std::pair<std::int64_t, Status> BalancedAllocation::Score(const framework::CycleState& state,
                                                          const api::Pod& pod,
                                                          const framework::NodeInfo& node) {
  if (const auto* pre_score = state.ReadAs<PreScoreState>(kPreScoreStateKey)) {
    return allocation_.Score(node, pre_score->pod_requests(), ScoreAmounts);
  }
  // Without PreScore (upstream tolerates it): compute the requests here.
  const std::vector<std::int64_t> pod_requests = allocation_.PodRequests(pod);
  if (ResourceAllocation::IsBestEffort(pod_requests)) return {0, Status()};
  return allocation_.Score(node, pod_requests, ScoreAmounts);
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> NewBalancedAllocation(
    const framework::PluginArgs* args, framework::Handle& /*handle*/) {
  const absl::StatusOr<const NodeResourcesBalancedAllocationArgs*> typed =
      framework::ArgsAs<NodeResourcesBalancedAllocationArgs>(args, kBalancedAllocationName);
  if (!typed.ok()) return typed.status();
  NodeResourcesBalancedAllocationArgs balanced_args =
      *typed != nullptr ? **typed : NodeResourcesBalancedAllocationArgs{};
  if (absl::Status valid = Validate(balanced_args); !valid.ok()) return valid;
  return std::unique_ptr<framework::Plugin>(
      std::make_unique<BalancedAllocation>(std::move(balanced_args)));
}

}  // namespace ksched::plugins::node_resources
