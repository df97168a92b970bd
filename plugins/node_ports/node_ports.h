// NodePorts (upstream plugins/nodeports, v1.34): filters out nodes where a host port the pod asks
// for (containers and sidecar init containers, framework::ForEachHostPort) is already in use.
//   - PreFilter collects the pod's host ports into the cycle state; Skip when there are none.
//   - Filter: Unschedulable "node(s) didn't have free ports for the requested pod ports" (preemption
//     may free the port). Conflicts follow HostPortInfo: same protocol and port, and the same IP or
//     either side bound to 0.0.0.0.
//   - Events (queueing hints are always on in v1.34): Pod Delete, queued when the deleted pod was
//     assigned (or nominated) and held a port this pod wants; Node Add, without a hint.
//
// Thread-safety: stateless apart from the cycle state it writes in PreFilter; Filter does not
// allocate.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "framework/handle.h"
#include "framework/interface.h"
#include "framework/registry.h"

namespace ksched::plugins::node_ports {

inline constexpr std::string_view kName = "NodePorts";
inline constexpr std::string_view kErrReason =
    "node(s) didn't have free ports for the requested pod ports";
inline constexpr framework::StateKey kPreFilterStateKey{"PreFilterNodePorts"};

// One host port the pod asks for, as declared (IP and protocol not normalized).
struct HostPort {
  std::string ip;
  std::string protocol;
  std::int32_t port = 0;
  friend bool operator==(const HostPort&, const HostPort&) = default;
};

// The pod's host ports (upstream util.GetHostPorts).
std::vector<HostPort> GetHostPorts(const api::Pod& pod);
// Whether none of `wanted` conflicts with the ports in use on the node.
bool FitsPorts(const std::vector<HostPort>& wanted, const framework::HostPortInfo& used);

class NodePorts final : public framework::PreFilterPlugin,
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

// Pod Delete hint.
absl::StatusOr<framework::QueueingHint> IsSchedulableAfterPodDeleted(
    const api::Pod& pod, const framework::EventObjects& objects);

absl::StatusOr<std::unique_ptr<framework::Plugin>> New(const framework::PluginArgs* args,
                                                       framework::Handle& handle);

}  // namespace ksched::plugins::node_ports
