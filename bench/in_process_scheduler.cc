#include "in_process_scheduler.h"

#include <memory>
#include <utility>

#include "framework/cycle_state.h"
#include "framework/node_info.h"
#include "framework/node_overcommit.h"

namespace ksched::bench {

InProcessScheduler::InProcessScheduler(framework::Framework& framework,
                                       std::int32_t percentage_of_nodes_to_score,
                                       std::uint64_t seed, bool reuse_node_results)
    : framework_(framework), algorithm_(percentage_of_nodes_to_score, seed, reuse_node_results) {
  framework_.SetSnapshot(&snapshot_);
}

absl::StatusOr<InProcessScheduler::Placement> InProcessScheduler::Schedule(const api::Pod& pod) {
  if (absl::Status updated = cache_.UpdateSnapshot(snapshot_); !updated.ok()) return updated;
  framework::CycleState state;
  Placement placement;
  placement.outcome = algorithm_.SchedulePod(framework_, state, pod, snapshot_);
  const std::string& host = placement.outcome.result.suggested_host;
  if (host.empty()) return placement;
  // Assume: the cache counts the pod on its node from now on, so the next cycle sees it.
  auto assumed_pod = std::make_shared<api::Pod>(pod);
  assumed_pod->spec.node_name = host;
  framework::PodInfoPtr assumed = framework::PodInfo::CreateOrDie(std::move(assumed_pod));
  if (absl::Status status = cache_.AssumePod(assumed); !status.ok()) return status;
  if (framework::Status status = framework_.RunReservePluginsReserve(state, assumed->pod(), host);
      !status.IsSuccess()) {
    return absl::InternalError("Reserve: " + status.Message());
  }
  if (framework::Status status = framework_.RunPermitPlugins(state, assumed->pod(), host);
      !status.IsSuccess()) {
    return absl::InternalError("Permit: " + status.Message());
  }
  // The informer reports the binding: the assumed pod becomes an added one.
  if (absl::Status status = cache_.AddPod(assumed); !status.ok()) return status;
  placement.bound = std::move(assumed);
  return placement;
}

absl::Status InProcessScheduler::Remove(const api::Pod& bound_pod) {
  return cache_.RemovePod(bound_pod);
}

std::optional<std::string> InProcessScheduler::FindNodeAboveAllocatable() const {
  std::optional<std::string> found;
  cache_.ForEachNodeInfo([&](const framework::NodeInfo& info) {
    if (found.has_value()) return;
    if (std::optional<framework::NodeOvercommit> over = framework::FindNodeOvercommit(info)) {
      found = "node ";
      found->append(info.name()).append(": ").append(over->ToString());
    }
  });
  return found;
}

}  // namespace ksched::bench
