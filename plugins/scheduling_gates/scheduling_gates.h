// SchedulingGates: the PreEnqueue plugin that keeps a pod out of the active queue while its
// spec.schedulingGates is non-empty (upstream plugins/schedulinggates, v1.34).
//
// A gated pod gets UnschedulableAndUnresolvable "waiting for scheduling gates: [g1 g2]" (Go's %v of
// the gate names) and is never attempted. The plugin registers for pod updates that remove the last
// gate; the hint queues only the pod that was updated (queueing hints are always on in v1.34).
//
// Thread-safety: stateless; every method may be called from any thread.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "framework/handle.h"
#include "framework/interface.h"
#include "framework/registry.h"

namespace ksched::plugins::scheduling_gates {

inline constexpr std::string_view kName = "SchedulingGates";

class SchedulingGates final : public framework::PreEnqueuePlugin,
                              public framework::EnqueueExtensions {
 public:
  std::string_view Name() const override { return kName; }
  framework::Status PreEnqueue(const api::Pod& pod) override;
  std::vector<framework::ClusterEventWithHint> EventsToRegister() const override;
};

// Pod/UpdatePodSchedulingGatesEliminated hint: Queue when the updated pod is `pod` itself.
absl::StatusOr<framework::QueueingHint> IsSchedulableAfterSchedulingGatesEliminated(
    const api::Pod& pod, const framework::EventObjects& objects);

absl::StatusOr<std::unique_ptr<framework::Plugin>> New(const framework::PluginArgs* args,
                                                       framework::Handle& handle);

}  // namespace ksched::plugins::scheduling_gates
