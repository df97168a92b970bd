// FindNodeOvercommit (framework/node_overcommit.h): the first resource a NodeInfo's pods request
// beyond its node's allocatable, in cpu, memory, ephemeral-storage, pods, scalars order.
#include "framework/node_overcommit.h"

#include <catch2/catch.hpp>
#include <optional>
#include <string>

#include "framework/node_info.h"
#include "test_objects.h"

namespace {

using ksched::framework::FindNodeOvercommit;
using ksched::framework::NodeInfo;
using ksched::framework::NodeOvercommit;
using ksched::framework::testing::MakeNode;
using ksched::framework::testing::MakePod;

NodeInfo GpuNode() {
  NodeInfo info;
  info.SetNode(
      MakeNode("gpu-0", R"("cpu": "2", "memory": "4Gi", "pods": "3", "nvidia.com/gpu": "8")"));
  return info;
}

std::string Found(const NodeInfo& info) {
  const std::optional<NodeOvercommit> over = FindNodeOvercommit(info);
  return over.has_value() ? over->ToString() : "none";
}

}  // namespace

TEST_CASE("FindNodeOvercommit: pods within the allocatable", "[framework][node_overcommit]") {
  NodeInfo info = GpuNode();
  CHECK(Found(info) == "none");
  info.AddPod(MakePod("a", "gpu-0", R"("cpu": "1", "memory": "2Gi", "nvidia.com/gpu": "4")"));
  info.AddPod(MakePod("b", "gpu-0", R"("cpu": "1", "memory": "2Gi", "nvidia.com/gpu": "4")"));
  CHECK(Found(info) == "none");  // exactly full
  // A NodeInfo without its node (pods seen first) has nothing to exceed.
  NodeInfo orphan;
  orphan.AddPod(MakePod("c", "gone", R"("cpu": "9")"));
  CHECK(Found(orphan) == "none");
}

TEST_CASE("FindNodeOvercommit: the resource above the allocatable, with both numbers",
          "[framework][node_overcommit]") {
  NodeInfo info = GpuNode();
  SECTION("GPUs: 4 + 4 + 2 on 8") {
    for (const char* name : {"a", "b"}) {
      info.AddPod(MakePod(name, "gpu-0", R"("nvidia.com/gpu": "4")"));
    }
    info.AddPod(MakePod("c", "gpu-0", R"("nvidia.com/gpu": "2")"));
    CHECK(Found(info) == "nvidia.com/gpu requested 10, allocatable 8");
  }
  SECTION("cpu, in millicores") {
    info.AddPod(MakePod("a", "gpu-0", R"("cpu": "2500m")"));
    CHECK(Found(info) == "cpu requested 2500m, allocatable 2000m");
  }
  SECTION("memory") {
    info.AddPod(MakePod("a", "gpu-0", R"("memory": "5Gi")"));
    CHECK(Found(info) == "memory requested 5368709120, allocatable 4294967296");
  }
  SECTION("the number of pods") {
    for (const char* name : {"a", "b", "c", "d"}) info.AddPod(MakePod(name, "gpu-0"));
    CHECK(Found(info) == "pods requested 4, allocatable 3");
  }
  SECTION("an extended resource the node does not offer") {
    info.AddPod(MakePod("a", "gpu-0", R"("example.com/fpga": "1")"));
    CHECK(Found(info) == "example.com/fpga requested 1, allocatable 0");
  }
  SECTION("cpu is reported before GPUs") {
    info.AddPod(MakePod("a", "gpu-0", R"("cpu": "3", "nvidia.com/gpu": "9")"));
    CHECK(Found(info) == "cpu requested 3000m, allocatable 2000m");
  }
}
