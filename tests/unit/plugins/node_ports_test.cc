// NodePorts: ported from upstream nodeports/node_ports_test.go (v1.34.4).
#include "plugins/node_ports/node_ports.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "fake_handle.h"
#include "test_objects.h"

namespace {

using ksched::api::Container;
using ksched::api::ContainerPort;
using ksched::api::Pod;
using ksched::framework::Code;
using ksched::framework::CycleState;
using ksched::framework::EnqueueExtensions;
using ksched::framework::EventObjects;
using ksched::framework::EventResource;
using ksched::framework::QueueingHint;
using ksched::framework::Status;
namespace action = ksched::framework::action;
namespace node_ports = ksched::plugins::node_ports;
using ksched::plugins::testing::Build;
using ksched::plugins::testing::FakeHandle;
using ksched::plugins::testing::MakeNode;
using ksched::plugins::testing::MakeNodeInfo;
using ksched::plugins::testing::MakePod;

struct PortSpec {
  const char* protocol;
  const char* ip;
  std::int32_t port;
};

// upstream newPod: one container with the given "protocol/ip/port" host ports, on `node`.
Pod PodWithPorts(const std::string& node, const std::vector<PortSpec>& ports) {
  Pod pod = MakePod("p");
  pod.spec.node_name = node;
  Container container;
  container.name = "c";
  for (const PortSpec& port : ports) {
    container.ports.push_back(ContainerPort{port.port, port.port, port.protocol, port.ip});
  }
  pod.spec.containers.push_back(container);
  return pod;
}

Pod PodWithInitContainerPort(bool sidecar, std::int32_t host_port) {
  Pod pod = MakePod("p");
  Container init;
  init.name = "init";
  init.ports.push_back(ContainerPort{host_port, host_port, "TCP", ""});
  if (sidecar) init.restart_policy = "Always";
  pod.spec.init_containers.push_back(init);
  return pod;
}

TEST_CASE("NodePorts filters nodes where a wanted host port is in use", "[plugins][node_ports]") {
  FakeHandle handle;
  auto plugin = Build<node_ports::NodePorts>(node_ports::New, nullptr, handle);
  CHECK(plugin->Name() == "NodePorts");
  const Status rejected(Code::kUnschedulable,
                        {"node(s) didn't have free ports for the requested pod ports"});

  struct Row {
    const char* name;
    Pod pod;
    std::vector<Pod> existing;
    bool fits;
  };
  const std::vector<Row> rows = {
      {"other port", PodWithPorts("m1", {{"UDP", "127.0.0.1", 8080}}),
       {PodWithPorts("m1", {{"UDP", "127.0.0.1", 9090}})}, true},
      {"same udp port", PodWithPorts("m1", {{"UDP", "127.0.0.1", 8080}}),
       {PodWithPorts("m1", {{"UDP", "127.0.0.1", 8080}})}, false},
      {"same tcp port", PodWithPorts("m1", {{"TCP", "127.0.0.1", 8080}}),
       {PodWithPorts("m1", {{"TCP", "127.0.0.1", 8080}})}, false},
      {"different host ip", PodWithPorts("m1", {{"TCP", "127.0.0.1", 8080}}),
       {PodWithPorts("m1", {{"TCP", "127.0.0.2", 8080}})}, true},
      {"different protocol", PodWithPorts("m1", {{"UDP", "127.0.0.1", 8080}}),
       {PodWithPorts("m1", {{"TCP", "127.0.0.1", 8080}})}, true},
      {"second udp port conflict",
       PodWithPorts("m1", {{"UDP", "127.0.0.1", 8000}, {"UDP", "127.0.0.1", 8080}}),
       {PodWithPorts("m1", {{"UDP", "127.0.0.1", 8080}})}, false},
      {"first tcp port conflict",
       PodWithPorts("m1", {{"TCP", "127.0.0.1", 8001}, {"UDP", "127.0.0.1", 8080}}),
       {PodWithPorts("m1", {{"TCP", "127.0.0.1", 8001}, {"UDP", "127.0.0.1", 8081}})}, false},
      {"first tcp port conflict due to 0.0.0.0 hostIP",
       PodWithPorts("m1", {{"TCP", "0.0.0.0", 8001}}),
       {PodWithPorts("m1", {{"TCP", "127.0.0.1", 8001}})}, false},
      {"TCP hostPort conflict due to 0.0.0.0 hostIP",
       PodWithPorts("m1", {{"TCP", "10.0.10.10", 8001}, {"TCP", "0.0.0.0", 8001}}),
       {PodWithPorts("m1", {{"TCP", "127.0.0.1", 8001}})}, false},
      {"second tcp port conflict to 0.0.0.0 hostIP",
       PodWithPorts("m1", {{"TCP", "127.0.0.1", 8001}}),
       {PodWithPorts("m1", {{"TCP", "0.0.0.0", 8001}})}, false},
      {"second different protocol", PodWithPorts("m1", {{"UDP", "127.0.0.1", 8001}}),
       {PodWithPorts("m1", {{"TCP", "0.0.0.0", 8001}})}, true},
      {"UDP hostPort conflict due to 0.0.0.0 hostIP",
       PodWithPorts("m1", {{"UDP", "127.0.0.1", 8001}}),
       {PodWithPorts("m1", {{"TCP", "0.0.0.0", 8001}, {"UDP", "0.0.0.0", 8001}})}, false},
      {"empty host IP means every IP", PodWithPorts("m1", {{"TCP", "", 8001}}),
       {PodWithPorts("m1", {{"TCP", "127.0.0.1", 8001}})}, false},
      {"TCP hostPort conflict from sidecar initContainer", PodWithInitContainerPort(true, 8001),
       {PodWithPorts("m1", {{"TCP", "0.0.0.0", 8001}})}, false},
  };
  for (const Row& row : rows) {
    CAPTURE(row.name);
    CycleState state;
    auto [result, pre_filter] = plugin->PreFilter(state, row.pod, {});
    REQUIRE(pre_filter.IsSuccess());
    CHECK(result.AllNodes());
    const Status status = plugin->Filter(state, row.pod, MakeNodeInfo(MakeNode("m1"), row.existing));
    if (row.fits) {
      CHECK(status.IsSuccess());
    } else {
      CHECK(status == rejected);
    }
  }
}

TEST_CASE("NodePorts PreFilter skips pods without host ports", "[plugins][node_ports]") {
  FakeHandle handle;
  auto plugin = Build<node_ports::NodePorts>(node_ports::New, nullptr, handle);
  CycleState state;
  CHECK(plugin->PreFilter(state, MakePod("p"), {}).second.code() == Code::kSkip);
  // An ordinary init container's host port is released before the containers start.
  CHECK(plugin->PreFilter(state, PodWithInitContainerPort(false, 8001), {}).second.code() ==
        Code::kSkip);
  // A container port without hostPort is not a host port.
  Pod no_host_port = MakePod("p");
  Container container;
  container.ports.push_back(ContainerPort{8080, 0, "TCP", ""});
  no_host_port.spec.containers.push_back(container);
  CHECK(plugin->PreFilter(state, no_host_port, {}).second.code() == Code::kSkip);
}

TEST_CASE("NodePorts Filter without PreFilter is an error", "[plugins][node_ports]") {
  FakeHandle handle;
  auto plugin = Build<node_ports::NodePorts>(node_ports::New, nullptr, handle);
  CycleState state;
  const Status status = plugin->Filter(state, MakePod("p"), MakeNodeInfo(MakeNode("n")));
  CHECK(status.code() == Code::kError);
  CHECK(status.Message() == "reading \"PreFilterNodePorts\" from cycleState: not found");
}

TEST_CASE("NodePorts PreFilter state survives a CycleState clone", "[plugins][node_ports]") {
  FakeHandle handle;
  auto plugin = Build<node_ports::NodePorts>(node_ports::New, nullptr, handle);
  CycleState state;
  const Pod pod = PodWithPorts("", {{"TCP", "", 8080}});
  REQUIRE(plugin->PreFilter(state, pod, {}).second.IsSuccess());
  auto clone = state.Clone();
  const auto busy = MakeNodeInfo(MakeNode("n"), {PodWithPorts("n", {{"TCP", "", 8080}})});
  CHECK(plugin->Filter(*clone, pod, busy).code() == Code::kUnschedulable);
  CHECK(plugin->Filter(*clone, pod, MakeNodeInfo(MakeNode("m"))).IsSuccess());
}

TEST_CASE("NodePorts registers pod deletes with a hint and node adds without",
          "[plugins][node_ports]") {
  FakeHandle handle;
  auto plugin = Build<EnqueueExtensions>(node_ports::New, nullptr, handle);
  const auto events = plugin->EventsToRegister();
  REQUIRE(events.size() == 2);
  CHECK(events[0].event.resource == EventResource::kPod);
  CHECK(events[0].event.action == action::kDelete);
  CHECK(events[0].hint != nullptr);
  CHECK(events[1].event.resource == EventResource::kNode);
  CHECK(events[1].event.action == action::kAdd);
  CHECK(events[1].hint == nullptr);
}

TEST_CASE("NodePorts delete hint queues only when an assigned pod freed a wanted port",
          "[plugins][node_ports]") {
  const Pod pod = PodWithPorts("", {{"TCP", "", 8080}});
  const Pod unscheduled = PodWithPorts("", {{"TCP", "", 8080}});
  const Pod no_host_port = MakePod("q");
  Pod assigned_no_port = no_host_port;
  assigned_no_port.spec.node_name = "fake-node";
  const Pod unrelated = PodWithPorts("fake-node", {{"TCP", "", 8081}});
  const Pod released = PodWithPorts("fake-node", {{"TCP", "", 8080}});
  Pod nominated = unscheduled;
  nominated.status.nominated_node_name = "fake-node";

  struct Row {
    const char* name;
    const Pod* deleted;
    QueueingHint want;
  };
  const Row rows[] = {
      {"skip an unscheduled pod", &unscheduled, QueueingHint::kQueueSkip},
      {"skip a pod without host ports", &assigned_no_port, QueueingHint::kQueueSkip},
      {"skip an unrelated host port", &unrelated, QueueingHint::kQueueSkip},
      {"queue a released host port", &released, QueueingHint::kQueue},
      {"queue a nominated pod's released host port", &nominated, QueueingHint::kQueue},
  };
  for (const Row& row : rows) {
    CAPTURE(row.name);
    auto hint = node_ports::IsSchedulableAfterPodDeleted(
        pod, EventObjects{row.deleted, nullptr, nullptr, nullptr});
    REQUIRE(hint.ok());
    CHECK(*hint == row.want);
  }
  CHECK_FALSE(node_ports::IsSchedulableAfterPodDeleted(pod, EventObjects{}).ok());
}

}  // namespace
