#include "plugins/node_ports/node_ports.h"

namespace ksched::plugins::node_ports {
namespace {

// The pod's wanted ports. Shared on Clone: adding or removing pods never changes them.
class PreFilterState final : public framework::StateData {
 public:
  explicit PreFilterState(std::shared_ptr<const std::vector<HostPort>> ports)
      : ports_(std::move(ports)) {}
  std::unique_ptr<framework::StateData> Clone() const override {
    return std::make_unique<PreFilterState>(ports_);
  }
  const std::vector<HostPort>& ports() const { return *ports_; }

 private:
  std::shared_ptr<const std::vector<HostPort>> ports_;
};

}  // namespace

std::vector<HostPort> GetHostPorts(const api::Pod& pod) {
  std::vector<HostPort> ports;
  framework::ForEachHostPort(
      pod, [&](std::string_view ip, std::string_view protocol, std::int32_t port) {
        ports.push_back(HostPort{std::string(ip), std::string(protocol), port});
      });
  return ports;
}

bool FitsPorts(const std::vector<HostPort>& wanted, const framework::HostPortInfo& used) {
  for (const HostPort& port : wanted) {
    if (used.CheckConflict(port.ip, port.protocol, port.port)) return false;
  }
  return true;
}

std::pair<framework::PreFilterResult, framework::Status> NodePorts::PreFilter(
    framework::CycleState& state, const api::Pod& pod,
    const std::vector<framework::NodeInfo*>& /*nodes*/) {
  std::vector<HostPort> ports = GetHostPorts(pod);
  if (ports.empty()) return {{}, framework::Status(framework::Code::kSkip)};
  state.Write(kPreFilterStateKey,
              std::make_unique<PreFilterState>(
                  std::make_shared<const std::vector<HostPort>>(std::move(ports))));
  return {{}, {}};
}

framework::Status NodePorts::Filter(const framework::CycleState& state, const api::Pod& /*pod*/,
                                    const framework::NodeInfo& node) {
  const auto* pre_filter = state.ReadAs<PreFilterState>(kPreFilterStateKey);
  if (pre_filter == nullptr) {
    return framework::Status::FromError("reading \"" + std::string(kPreFilterStateKey) +
                                        "\" from cycleState: not found");
  }
  if (!FitsPorts(pre_filter->ports(), node.used_ports())) {
    // A constant stamped with the plugin's name: a rejected node costs no allocation.
    static const framework::Status kPortsInUse =
        framework::Status(framework::Code::kUnschedulable, {kErrReason}).WithPlugin(kName);
    return kPortsInUse;
  }
  return {};
}

std::vector<framework::ClusterEventWithHint> NodePorts::EventsToRegister() const {
  return {
      // Container ports are immutable, so pod updates never free a port.
      {framework::ClusterEvent{framework::EventResource::kPod, framework::action::kDelete,
                               "PodDelete"},
       IsSchedulableAfterPodDeleted},
      // No hint: a new node is always worth a retry.
      {framework::ClusterEvent{framework::EventResource::kNode, framework::action::kAdd, "NodeAdd"},
       nullptr},
  };
}

absl::StatusOr<framework::QueueingHint> IsSchedulableAfterPodDeleted(
    const api::Pod& pod, const framework::EventObjects& objects) {
  const api::Pod* deleted = objects.old_pod;
  if (deleted == nullptr) {
    return absl::InvalidArgumentError("NodePorts: pod delete event without the deleted pod");
  }
  // An unscheduled pod held no port anywhere.
  if (deleted->spec.node_name.empty() && deleted->status.nominated_node_name.empty()) {
    return framework::QueueingHint::kQueueSkip;
  }
  bool any_port = false;
  framework::HostPortInfo freed;
  framework::ForEachHostPort(
      *deleted, [&](std::string_view ip, std::string_view protocol, std::int32_t port) {
        freed.Add(ip, protocol, port);
        any_port = true;
      });
  if (!any_port) return framework::QueueingHint::kQueueSkip;
  // If the pod would fit beside the deleted pod alone, they share no port and the deletion
  // cannot help.
  return FitsPorts(GetHostPorts(pod), freed) ? framework::QueueingHint::kQueueSkip
                                             : framework::QueueingHint::kQueue;
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> New(const framework::PluginArgs* /*args*/,
                                                       framework::Handle& /*handle*/) {
  return std::make_unique<NodePorts>();
}

}  // namespace ksched::plugins::node_ports
