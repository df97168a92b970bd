// NodeInfo (framework/node_info.h) against upstream's NodeInfo.AddPodInfo / RemovePod / update /
// SetNode (pkg/scheduler/framework/types.go, v1.34) and its TestNewNodeInfo / TestNodeInfoRemovePod.
#include <catch2/catch.hpp>

#include <span>
#include <string>
#include <vector>

#include "framework/node_info.h"
#include "test_objects.h"

namespace {

using ksched::framework::ForEachHostPort;
using ksched::framework::HostPortInfo;
using ksched::framework::kDefaultMemoryRequest;
using ksched::framework::kDefaultMilliCPURequest;
using ksched::framework::NodeInfo;
using ksched::framework::PodInfoPtr;
using ksched::framework::PvcRefCounts;
using ksched::framework::testing::MakeNode;
using ksched::framework::testing::PodFromJson;
using ksched::framework::testing::PodInfoFromJson;

// TestNewNodeInfo's two pods: 100m/500 with 127.0.0.1:80, 200m/1Ki with 127.0.0.1:8080.
PodInfoPtr Test1() {
  return PodInfoFromJson(R"({"metadata": {"name": "test-1", "namespace": "node_info_cache_test",
      "uid": "test-1"}, "spec": {"nodeName": "test-node", "containers": [{"name": "c",
      "resources": {"requests": {"cpu": "100m", "memory": "500"}},
      "ports": [{"hostIP": "127.0.0.1", "hostPort": 80, "protocol": "TCP"}]}],
      "volumes": [{"name": "v", "persistentVolumeClaim": {"claimName": "pvc-1"}}]}})");
}

PodInfoPtr Test2() {
  return PodInfoFromJson(R"({"metadata": {"name": "test-2", "namespace": "node_info_cache_test",
      "uid": "test-2"}, "spec": {"nodeName": "test-node", "containers": [{"name": "c",
      "resources": {"requests": {"cpu": "200m", "memory": "1Ki"}},
      "ports": [{"hostIP": "127.0.0.1", "hostPort": 8080, "protocol": "TCP"}]}],
      "volumes": [{"name": "v", "persistentVolumeClaim": {"claimName": "pvc-1"}}]}})");
}

std::vector<std::string> PodNames(std::span<const PodInfoPtr> pods) {
  std::vector<std::string> names;
  for (const PodInfoPtr& pod : pods) names.push_back(pod->pod().metadata.name);
  return names;
}

TEST_CASE("AddPod accumulates requests, ports and PVC references (TestNewNodeInfo)",
          "[framework][node_info]") {
  NodeInfo info;
  const std::int64_t g0 = info.generation();
  info.AddPod(Test1());
  const std::int64_t g1 = info.generation();
  info.AddPod(Test2());
  CHECK(g1 > g0);
  CHECK(info.generation() > g1);

  CHECK(info.requested().milli_cpu == 300);
  CHECK(info.requested().memory == 1524);
  CHECK(info.non_zero_requested().milli_cpu == 300);
  CHECK(info.non_zero_requested().memory == 1524);
  CHECK(info.allocatable().IsZero());
  HostPortInfo expected_ports;
  expected_ports.Add("127.0.0.1", "TCP", 80);
  expected_ports.Add("127.0.0.1", "TCP", 8080);
  CHECK(info.used_ports() == expected_ports);
  CHECK(info.pvc_ref_counts() == PvcRefCounts{
                                     {"node_info_cache_test/pvc-1", 2}});
  CHECK(PodNames(info.pods()) == std::vector<std::string>{"test-1", "test-2"});
  CHECK(info.image_states().empty());
  CHECK(info.node() == nullptr);
  CHECK(info.name().empty());
}

TEST_CASE("RemovePod undoes AddPod and swaps the last pod into the hole", "[framework][node_info]") {
  NodeInfo info;
  info.AddPod(Test1());
  info.AddPod(Test2());
  info.AddPod(PodInfoFromJson(
      R"({"metadata": {"name": "test-3", "namespace": "ns", "uid": "test-3"},
          "spec": {"containers": [{"name": "requestless"}]}})"));

  const std::int64_t before = info.generation();
  REQUIRE(info.RemovePod("test-1"));
  CHECK(info.generation() > before);
  // upstream removeFromSlice: s[i] = s[len(s)-1].
  CHECK(PodNames(info.pods()) == std::vector<std::string>{"test-3", "test-2"});
  CHECK(info.requested().milli_cpu == 200);
  CHECK(info.requested().memory == 1024);
  CHECK(info.non_zero_requested().milli_cpu == 200 + kDefaultMilliCPURequest);
  CHECK(info.non_zero_requested().memory == 1024 + kDefaultMemoryRequest);
  CHECK_FALSE(info.used_ports().CheckConflict("127.0.0.1", "TCP", 80));
  CHECK(info.used_ports().CheckConflict("127.0.0.1", "TCP", 8080));
  CHECK(info.pvc_ref_counts().at("node_info_cache_test/pvc-1") == 1);

  REQUIRE(info.RemovePod("test-2"));
  CHECK(info.pvc_ref_counts().empty());  // a count reaching 0 is erased
  REQUIRE(info.RemovePod("test-3"));
  CHECK(info.pods().empty());
  CHECK(info.requested().milli_cpu == 0);
  CHECK(info.requested().memory == 0);
  CHECK(info.non_zero_requested().milli_cpu == 0);
  CHECK(info.non_zero_requested().memory == 0);
  CHECK(info.used_ports().empty());
}

TEST_CASE("RemovePod of an unknown or empty UID changes nothing", "[framework][node_info]") {
  NodeInfo info;
  info.AddPod(Test1());
  const NodeInfo copy = info.Clone();
  CHECK_FALSE(info.RemovePod("nope"));
  CHECK_FALSE(info.RemovePod(""));
  CHECK(info.generation() == copy.generation());
  CHECK(info.pods().size() == 1);
  CHECK(info.requested() == copy.requested());
}

TEST_CASE("requested carries scalars and ephemeral storage, non-zero only cpu and memory",
          "[framework][node_info]") {
  NodeInfo info;
  info.AddPod(PodInfoFromJson(R"({"metadata": {"name": "p", "uid": "p"}, "spec": {"containers": [
      {"name": "c", "resources": {"requests": {"nvidia.com/gpu": "2", "ephemeral-storage": "1Ki",
                                               "hugepages-2Mi": "2Mi"}}}]}})"));
  CHECK(info.requested().Scalar("nvidia.com/gpu") == 2);
  CHECK(info.requested().Scalar("hugepages-2Mi") == 2 * 1024 * 1024);
  CHECK(info.requested().ephemeral_storage == 1024);
  CHECK(info.requested().milli_cpu == 0);
  CHECK(info.requested().allowed_pod_number == 0);
  CHECK(info.non_zero_requested().milli_cpu == kDefaultMilliCPURequest);
  CHECK(info.non_zero_requested().memory == kDefaultMemoryRequest);
  CHECK(info.non_zero_requested().ephemeral_storage == 0);
  CHECK(info.non_zero_requested().scalars.empty());
  REQUIRE(info.RemovePod("p"));
  CHECK(info.requested().Scalar("nvidia.com/gpu") == 0);
}

TEST_CASE("affinity sub-lists follow the pods' spec", "[framework][node_info]") {
  PodInfoPtr plain = PodInfoFromJson(R"({"metadata": {"name": "plain", "uid": "plain"}})");
  PodInfoPtr affinity = PodInfoFromJson(R"({"metadata": {"name": "aff", "uid": "aff"},
      "spec": {"affinity": {"podAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
        {"weight": 1, "podAffinityTerm": {"labelSelector": {}, "topologyKey": "zone"}}]}}}})");
  PodInfoPtr anti = PodInfoFromJson(R"({"metadata": {"name": "anti", "uid": "anti"},
      "spec": {"affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        {"labelSelector": {}, "topologyKey": "zone"}]}}}})");
  NodeInfo info;
  info.AddPod(plain);
  info.AddPod(affinity);
  info.AddPod(anti);
  CHECK(PodNames(info.pods_with_affinity()) == std::vector<std::string>{"aff", "anti"});
  CHECK(PodNames(info.pods_with_required_anti_affinity()) == std::vector<std::string>{"anti"});
  REQUIRE(info.RemovePod("aff"));
  CHECK(PodNames(info.pods_with_affinity()) == std::vector<std::string>{"anti"});
  REQUIRE(info.RemovePod("anti"));
  CHECK(info.pods_with_affinity().empty());
  CHECK(info.pods_with_required_anti_affinity().empty());
  CHECK(PodNames(info.pods()) == std::vector<std::string>{"plain"});
}

TEST_CASE("PVC references count persistentVolumeClaim volumes only (v1.34)",
          "[framework][node_info]") {
  NodeInfo info;
  info.AddPod(PodInfoFromJson(R"({"metadata": {"name": "p", "namespace": "ns", "uid": "p"},
      "spec": {"volumes": [
        {"name": "data", "persistentVolumeClaim": {"claimName": "claim-a"}},
        {"name": "logs", "persistentVolumeClaim": {"claimName": "claim-b", "readOnly": true}},
        {"name": "scratch", "ephemeral": {"volumeClaimTemplate": {"spec": {}}}},
        {"name": "cfg", "configMap": {"name": "x"}}]}})"));
  CHECK(info.pvc_ref_counts() ==
        PvcRefCounts{{"ns/claim-a", 1}, {"ns/claim-b", 1}});
}

TEST_CASE("host ports come from containers and sidecars, not from other init containers",
          "[framework][node_info]") {
  auto pod = PodFromJson(R"({"metadata": {"name": "p", "uid": "p"}, "spec": {
      "initContainers": [
        {"name": "init", "ports": [{"containerPort": 1, "hostPort": 7001}]},
        {"name": "sidecar", "restartPolicy": "Always",
         "ports": [{"containerPort": 2, "hostPort": 7002, "protocol": "UDP", "hostIP": "10.0.0.1"}]}],
      "containers": [{"name": "c", "ports": [
        {"containerPort": 80},
        {"containerPort": 3, "hostPort": 7003}]}]}})");
  struct Seen {
    std::string ip;
    std::string protocol;
    std::int32_t port;
    bool operator==(const Seen&) const = default;
  };
  std::vector<Seen> seen;
  ForEachHostPort(*pod, [&](std::string_view ip, std::string_view protocol, std::int32_t port) {
    seen.push_back({std::string(ip), std::string(protocol), port});
  });
  CHECK(seen == std::vector<Seen>{{"10.0.0.1", "UDP", 7002}, {"", "TCP", 7003}});

  NodeInfo info;
  info.AddPod(ksched::framework::PodInfo::CreateOrDie(pod));
  CHECK(info.used_ports().size() == 2);
  CHECK(info.used_ports().CheckConflict("10.0.0.1", "UDP", 7002));
  CHECK(info.used_ports().CheckConflict("", "TCP", 7003));
  CHECK_FALSE(info.used_ports().CheckConflict("", "TCP", 7001));
}

TEST_CASE("SetNode reads allocatable, RemoveNode keeps the pods", "[framework][node_info]") {
  NodeInfo info;
  info.AddPod(Test1());
  const std::int64_t before = info.generation();
  info.SetNode(MakeNode("test-node",
                        R"("cpu": "4", "memory": "8Gi", "pods": "110", "nvidia.com/gpu": "2",
                           "ephemeral-storage": "100Gi")"));
  CHECK(info.generation() > before);
  CHECK(info.name() == "test-node");
  REQUIRE(info.node() != nullptr);
  CHECK(info.allocatable().milli_cpu == 4000);
  CHECK(info.allocatable().memory == 8LL * 1024 * 1024 * 1024);
  CHECK(info.allocatable().allowed_pod_number == 110);
  CHECK(info.allocatable().Scalar("nvidia.com/gpu") == 2);
  CHECK(info.allocatable().ephemeral_storage == 100LL * 1024 * 1024 * 1024);

  info.SetNode(MakeNode("test-node", R"("cpu": "2")"));
  CHECK(info.allocatable().milli_cpu == 2000);
  CHECK(info.allocatable().memory == 0);  // recomputed, not merged

  const std::int64_t set = info.generation();
  info.RemoveNode();
  CHECK(info.generation() > set);
  CHECK(info.node() == nullptr);
  CHECK(info.name().empty());
  CHECK(info.pods().size() == 1);
  CHECK(info.requested().milli_cpu == 100);
}

TEST_CASE("generations are process-wide and strictly increasing", "[framework][node_info]") {
  NodeInfo a;
  NodeInfo b;
  CHECK(b.generation() > a.generation());
  a.AddPod(Test1());
  CHECK(a.generation() > b.generation());
  const std::int64_t next = NodeInfo::NextGeneration();
  CHECK(next > a.generation());
  CHECK(NodeInfo::NextGeneration() == next + 1);
}

TEST_CASE("Clone is an independent copy sharing the pods", "[framework][node_info]") {
  NodeInfo info;
  info.SetNode(MakeNode("n", R"("cpu": "1")"));
  info.AddPod(Test1());
  info.mutable_image_states()["nginx:1"] = {100, 3};
  NodeInfo copy = info.Clone();
  REQUIRE(copy.RemovePod("test-1"));
  CHECK(info.pods().size() == 1);
  CHECK(info.requested().milli_cpu == 100);
  CHECK(copy.requested().milli_cpu == 0);
  CHECK(copy.node() == info.node());
  CHECK(copy.image_states().at("nginx:1").num_nodes == 3);
}

}  // namespace
