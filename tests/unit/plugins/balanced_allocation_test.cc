// NodeResourcesBalancedAllocation: upstream v1.37.2 balanced_allocation_test.go
// (TestNodeResourcesBalancedAllocation) with its expected scores (the with/without-pod formula of
// kubernetes#135573 changed all of v1.34's), plus the scoring function and the
// factory's validation.
#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "api/node.h"
#include "api/pod.h"
#include "framework/cycle_state.h"
#include "framework/interface.h"
#include "framework/node_info.h"
#include "framework/status.h"
#include "plugins/node_resources/args.h"
#include "plugins/node_resources/balanced_allocation.h"
#include "plugins/node_resources/scorers.h"
#include "fake_handle.h"
#include "node_resources_test_util.h"
#include "test_objects.h"

namespace {

using ksched::api::Node;
using ksched::api::Pod;
using ksched::framework::Code;
using ksched::framework::CycleState;
using ksched::framework::NodeInfo;
using ksched::framework::Status;
using ksched::plugins::node_resources::BalancedAllocation;
using ksched::plugins::node_resources::BalancedAllocationScore;
using ksched::plugins::node_resources::BalancedResourceScore;
using ksched::plugins::node_resources::kBalancedAllocationName;
using ksched::plugins::node_resources::NewBalancedAllocation;
using ksched::plugins::node_resources::NodeResourcesBalancedAllocationArgs;
using ksched::plugins::node_resources::ResourceSpec;
using ksched::plugins::testing::Build;
using ksched::plugins::testing::FakeHandle;
using ksched::plugins::testing::List;
using ksched::plugins::testing::MakeResourceNode;
using ksched::plugins::testing::PodInfos;
using ksched::plugins::testing::RequestPod;
namespace api = ksched::api;

using Requests = std::vector<std::pair<std::string, std::string>>;

api::Container RequestContainer(const Requests& requests) {
  api::Container container;
  container.resources.requests = List(requests);
  return container;
}

// upstream's PodSpecs of the table.
Pod CpuAndMemoryAndGpu() {
  Pod pod;
  pod.spec.node_name = "node1";
  pod.spec.containers = {
      RequestContainer({{"cpu", "1000m"}, {"memory", "2000"}}),
      RequestContainer({{"cpu", "2000m"}, {"memory", "3000"}, {"nvidia.com/gpu", "3"}})};
  return pod;
}

Pod CpuOnly(std::string node) {
  Pod pod;
  pod.spec.node_name = std::move(node);
  pod.spec.containers = {RequestContainer({{"cpu", "1000m"}, {"memory", "0"}}),
                         RequestContainer({{"cpu", "2000m"}, {"memory", "0"}})};
  return pod;
}

Pod CpuAndMemory() {
  Pod pod;
  pod.spec.node_name = "node2";
  pod.spec.containers = {RequestContainer({{"cpu", "1000m"}, {"memory", "2000"}}),
                         RequestContainer({{"cpu", "2000m"}, {"memory", "3000"}})};
  return pod;
}

NodeResourcesBalancedAllocationArgs Args(std::vector<ResourceSpec> resources) {
  NodeResourcesBalancedAllocationArgs args;
  args.resources = std::move(resources);
  return args;
}

TEST_CASE("BalancedAllocation scores (TestNodeResourcesBalancedAllocation)",
          "[plugins][node_resources][balanced_allocation]") {
  const std::vector<ResourceSpec> cpu_memory = {{"cpu", 1}, {"memory", 1}};
  const std::vector<ResourceSpec> cpu_memory_gpu = {{"cpu", 1}, {"memory", 1}, {"nvidia.com/gpu", 1}};
  const std::vector<std::pair<std::string, std::int64_t>> gpu8 = {{"nvidia.com/gpu", 8}};

  struct Case {
    std::string name;
    Pod pod;
    std::vector<Pod> pods;
    std::vector<std::shared_ptr<const Node>> nodes;
    NodeResourcesBalancedAllocationArgs args;
    bool run_pre_score = true;
    Code want_pre_score = Code::kSuccess;
    std::vector<std::int64_t> want;
  };
  const std::vector<Case> cases = {
      {"nothing scheduled, nothing requested, skip in PreScore",
       Pod{},
       {},
       {MakeResourceNode("node1", 4000, 10000), MakeResourceNode("node2", 4000, 10000)},
       Args(cpu_memory),
       true,
       Code::kSkip,
       {}},
      // upstream v1.37.2's table (kubernetes#135573): 50 + (50 + with pod - without pod) / 2.
      // node1: cpu 0 -> 3000/4000, memory 0 -> 5000/10000: 100 -> 87, 68;
      // node2: cpu 0 -> 3000/6000, memory 0 -> 5000/10000: 100 -> 100, 75.
      {"nothing scheduled, resources requested, differently sized nodes",
       CpuAndMemory(),
       {},
       {MakeResourceNode("node1", 4000, 10000), MakeResourceNode("node2", 6000, 10000)},
       Args(cpu_memory),
       true,
       Code::kSuccess,
       {68, 75}},
      // node1: cpu 30% -> 60%, memory 0% -> 25%: 85 -> 82, 73;
      // node2: cpu 30% -> 60%, memory 25% -> 50%: 97 -> 95, 74.
      {"resources requested, pods scheduled with resources",
       CpuAndMemory(),
       {CpuOnly("node1"), CpuAndMemory()},
       {MakeResourceNode("node1", 10000, 20000), MakeResourceNode("node2", 10000, 20000)},
       Args(cpu_memory),
       true,
       Code::kSuccess,
       {73, 74}},
      // node2: cpu 30% -> 60%, memory 10% -> 20%: 90 -> 80, 70.
      {"resources requested, pods scheduled with resources, differently sized nodes",
       CpuAndMemory(),
       {CpuOnly("node1"), CpuAndMemory()},
       {MakeResourceNode("node1", 10000, 20000), MakeResourceNode("node2", 10000, 50000)},
       Args(cpu_memory),
       true,
       Code::kSuccess,
       {73, 70}},
      // node1: cpu 100% -> 100%, memory 0% -> 100%: 50 -> 100, 100;
      // node2: cpu 0% -> 0%, memory 0% -> 100%: 100 -> 50, 50.
      {"resources requested, pods scheduled with resources, nodes to reach min/max score",
       RequestPod({{{"memory", "2000"}}, {{"memory", "3000"}}}),
       {CpuOnly("node1")},
       {MakeResourceNode("node1", 3000, 5000), MakeResourceNode("node2", 3000, 5000)},
       Args(cpu_memory),
       true,
       Code::kSuccess,
       {100, 50}},
      // node1: cpu 50% -> 100%, memory 0%: 75 -> 50, 62; node2: memory 50%: 100 -> 75, 62.
      {"requested resources at node capacity",
       CpuOnly("node1"),
       {CpuOnly("node1"), CpuAndMemory()},
       {MakeResourceNode("node1", 6000, 10000), MakeResourceNode("node2", 6000, 10000)},
       Args(cpu_memory),
       true,
       Code::kSuccess,
       {62, 62}},
      // Three resources: the population standard deviation.
      // node1: gpu 3 -> 4 of 8: 69 -> 70, 75; node2: gpu 0 -> 1 of 8: 62 -> 65, 76.
      {"scalar resource is included in the score computation if pod requests the scalar resource",
       RequestPod({{{"cpu", "0"}, {"memory", "0"}, {"nvidia.com/gpu", "1"}}}),
       {CpuAndMemory(), CpuAndMemoryAndGpu()},
       {MakeResourceNode("node1", 3500, 40000, gpu8), MakeResourceNode("node2", 3500, 40000, gpu8)},
       Args(cpu_memory_gpu),
       true,
       Code::kSuccess,
       {75, 76}},
      // cpu 0 -> 85.7%, memory 0 -> 12.5%, gpu ignored: 100 -> 63, 56.
      {"scalar resource is not included in the score computation if pod doesn't request the scalar resource",
       CpuAndMemory(),
       {},
       {MakeResourceNode("node1", 3500, 40000, gpu8), MakeResourceNode("node2", 3500, 40000)},
       Args(cpu_memory_gpu),
       true,
       Code::kSuccess,
       {56, 56}},
      {"resources requested, pods scheduled with resources if PreScore not called",
       CpuAndMemory(),
       {CpuOnly("node1"), CpuAndMemory()},
       {MakeResourceNode("node1", 10000, 20000), MakeResourceNode("node2", 10000, 20000)},
       Args(cpu_memory),
       false,
       Code::kSuccess,
       {73, 74}},
      // upstream's two DRA-backed extended resource cases (DRAExtendedResource) are issue #45's.
  };

  for (const Case& c : cases) {
    INFO(c.name);
    FakeHandle handle(c.nodes, PodInfos(c.pods));
    auto plugin = Build<BalancedAllocation>(NewBalancedAllocation, &c.args, handle);
    std::vector<const NodeInfo*> node_infos;
    for (const auto& node : c.nodes) {
      node_infos.push_back(handle.snapshot().Get(node->metadata.name));
      REQUIRE(node_infos.back() != nullptr);
    }
    CycleState state;
    if (c.run_pre_score) {
      const Status status = plugin->PreScore(state, c.pod, node_infos);
      CHECK(status.code() == c.want_pre_score);
      if (status.IsSkip()) continue;
    }
    std::vector<std::int64_t> scores;
    for (const NodeInfo* node_info : node_infos) {
      const auto [score, status] = plugin->Score(state, c.pod, *node_info);
      CHECK(status.IsSuccess());
      scores.push_back(score);
    }
    CHECK(scores == c.want);
  }
}

TEST_CASE("BalancedAllocation Score without PreScore gives best-effort pods 0",
          "[plugins][node_resources][balanced_allocation]") {
  FakeHandle handle({MakeResourceNode("node1", 4000, 10000)});
  auto plugin = Build<BalancedAllocation>(NewBalancedAllocation, nullptr, handle);
  CycleState state;
  const auto [score, status] = plugin->Score(state, Pod{}, *handle.snapshot().Get("node1"));
  CHECK(status.IsSuccess());
  CHECK(score == 0);
  CHECK(plugin->Name() == kBalancedAllocationName);
}

TEST_CASE("BalancedResourceScore follows upstream's arithmetic",
          "[plugins][node_resources][balanced_allocation]") {
  using V = std::vector<std::int64_t>;
  // Fewer than two resources on the node: std 0.
  CHECK(BalancedResourceScore(V{}, V{}) == 100);
  CHECK(BalancedResourceScore(V{5, 7}, V{10, 0}) == 100);
  // Fractions are capped at 1: |1 - 0.5| / 2 = 0.25.
  CHECK(BalancedResourceScore(V{30, 5}, V{10, 10}) == 75);
  // Three fractions 1, 0, 0: mean 1/3, std = sqrt(2/9) = 0.4714 -> int64(52.85) = 52.
  CHECK(BalancedResourceScore(V{10, 0, 0}, V{10, 10, 10}) == 52);
}

TEST_CASE("BalancedAllocationScore scores the change in balance (kubernetes#135573)",
          "[plugins][node_resources][balanced_allocation]") {
  using V = std::vector<std::int64_t>;
  // No change: 50 + 50 / 2.
  CHECK(BalancedAllocationScore(V{5, 5}, V{5, 5}, V{10, 10}) == 75);
  CHECK(BalancedAllocationScore(V{}, V{}, V{}) == 75);
  // Best improvement 50 -> 100 and worst 100 -> 50.
  CHECK(BalancedAllocationScore(V{10, 10}, V{10, 0}, V{10, 10}) == 100);
  CHECK(BalancedAllocationScore(V{10, 0}, V{0, 0}, V{10, 10}) == 50);
  // Odd differences truncate: 100 -> 87 gives 50 + 37 / 2 = 68.
  CHECK(BalancedAllocationScore(V{3000, 5000}, V{0, 0}, V{4000, 10000}) == 68);
}

TEST_CASE("NewBalancedAllocation validates its args", "[plugins][node_resources][balanced_allocation]") {
  FakeHandle handle;
  const NodeResourcesBalancedAllocationArgs bad_weight = Args({{"cpu", 2}, {"memory", 1}});
  const auto built = NewBalancedAllocation(&bad_weight, handle);
  REQUIRE_FALSE(built.ok());
  CHECK(std::string(built.status().message()) == "resources[0].weight: Invalid value: 2: must be 1");

  ksched::plugins::node_resources::NodeResourcesFitArgs other;
  const auto wrong_type = NewBalancedAllocation(&other, handle);
  REQUIRE_FALSE(wrong_type.ok());
  CHECK(std::string(wrong_type.status().message()) ==
        "want args of the right type for plugin NodeResourcesBalancedAllocation");
}

}  // namespace
