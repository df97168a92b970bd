// Cache: the pod state machine, node bookkeeping, image states and the incremental snapshot
// (upstream pkg/scheduler/backend/cache/cache_test.go, v1.34).
#include "scheduler/cache.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "api/quantity.h"
#include "fmt/core.h"
#include "run_in_child.h"

namespace ksched::scheduler {
namespace {

using framework::NodeInfo;
using framework::PodInfo;
using framework::PodInfoPtr;
using framework::Snapshot;
using NodePtr = std::shared_ptr<const api::Node>;

constexpr std::int64_t kMB = 1024 * 1024;

api::Quantity Q(std::string_view text) {
  absl::StatusOr<api::Quantity> q = api::Quantity::Parse(text);
  REQUIRE(q.ok());
  return *q;
}

PodInfoPtr Info(api::Pod pod) {
  return PodInfo::CreateOrDie(std::make_shared<const api::Pod>(std::move(pod)));
}

// upstream makeBasePod: one container requesting cpu/mem (and "name:value" extended) with ports.
api::Pod BasePod(std::string node, std::string name, std::string_view cpu, std::string_view mem,
                 std::string_view extended = "", std::vector<api::ContainerPort> ports = {}) {
  api::Pod pod;
  pod.metadata.name = name;
  pod.metadata.namespace_ = "node_info_cache_test";
  pod.metadata.uid = name;
  pod.spec.node_name = std::move(node);
  api::Container container;
  container.name = "container";
  container.image = "pause";
  if (!cpu.empty()) {
    container.resources.requests.Set("cpu", Q(cpu));
    container.resources.requests.Set("memory", Q(mem));
    if (!extended.empty()) {
      const std::size_t colon = extended.find(':');
      REQUIRE(colon != std::string_view::npos);
      container.resources.requests.Set(std::string(extended.substr(0, colon)),
                                       Q(extended.substr(colon + 1)));
    }
  }
  container.ports = std::move(ports);
  pod.spec.containers.push_back(std::move(container));
  return pod;
}

api::ContainerPort HostPort(std::string ip, std::int32_t port) {
  api::ContainerPort p;
  p.host_ip = std::move(ip);
  p.host_port = port;
  p.container_port = port;
  p.protocol = "TCP";
  return p;
}

api::Pod SimplePod(std::string name, std::string ns, std::string uid, std::string node) {
  api::Pod pod;
  pod.metadata.name = std::move(name);
  pod.metadata.namespace_ = std::move(ns);
  pod.metadata.uid = std::move(uid);
  pod.spec.node_name = std::move(node);
  return pod;
}

NodePtr MakeNode(std::string name, api::ResourceList allocatable = {},
                 std::vector<api::ContainerImage> images = {}, api::Labels labels = {}) {
  auto node = std::make_shared<api::Node>();
  node->metadata.name = std::move(name);
  node->metadata.labels = std::move(labels);
  node->status.capacity = allocatable;
  node->status.allocatable = std::move(allocatable);
  node->status.images = std::move(images);
  return node;
}

NodePtr WithAllocatable(const NodePtr& node, api::ResourceList allocatable) {
  auto copy = std::make_shared<api::Node>(*node);
  copy->status.allocatable = std::move(allocatable);
  return copy;
}

struct LogLine {
  CacheLogSeverity severity;
  std::string message;
};

struct RecordingSink {
  std::shared_ptr<std::vector<LogLine>> lines = std::make_shared<std::vector<LogLine>>();
  CacheLogSink sink() const {
    auto out = lines;
    return [out](CacheLogSeverity severity, std::string_view message) {
      out->push_back({severity, std::string(message)});
    };
  }
  bool Contains(CacheLogSeverity severity, std::string_view text) const {
    for (const LogLine& line : *lines) {
      if (line.severity == severity && line.message.find(text) != std::string::npos) return true;
    }
    return false;
  }
};

framework::Resource Res(std::int64_t milli_cpu, std::int64_t memory,
                        std::int64_t ephemeral_storage = 0) {
  framework::Resource r;
  r.milli_cpu = milli_cpu;
  r.memory = memory;
  r.ephemeral_storage = ephemeral_storage;
  return r;
}

struct ExpectedNodeInfo {
  framework::Resource requested;
  framework::Resource non_zero_requested;
  std::vector<std::string> pod_uids;
  std::vector<std::pair<std::string, std::int32_t>> ports;  // (ip, port), TCP
  std::map<std::string, std::int64_t> scalars = {};
};

void CheckNodeInfo(const std::optional<NodeInfo>& info, const ExpectedNodeInfo& want) {
  REQUIRE(info.has_value());
  CHECK(info->requested().milli_cpu == want.requested.milli_cpu);
  CHECK(info->requested().memory == want.requested.memory);
  CHECK(info->requested().ephemeral_storage == want.requested.ephemeral_storage);
  for (const auto& [name, value] : want.scalars) CHECK(info->requested().Scalar(name) == value);
  std::int64_t nonzero_scalars = 0;
  for (const auto& [name, value] : info->requested().scalars) {
    if (value != 0 && !want.scalars.contains(name)) ++nonzero_scalars;
  }
  CHECK(nonzero_scalars == 0);
  CHECK(info->non_zero_requested().milli_cpu == want.non_zero_requested.milli_cpu);
  CHECK(info->non_zero_requested().memory == want.non_zero_requested.memory);
  std::vector<std::string> uids;
  for (const PodInfoPtr& pod : info->pods()) uids.push_back(pod->pod().metadata.uid);
  CHECK(uids == want.pod_uids);
  framework::HostPortInfo ports;
  for (const auto& [ip, port] : want.ports) ports.Add(ip, "TCP", port);
  CHECK(info->used_ports() == ports);
}

// A NodeInfo copy must equal its source in everything the plugins read.
void CheckSameNodeInfo(const NodeInfo& want, const NodeInfo& got) {
  CHECK(got.generation() == want.generation());
  CHECK(got.node_ptr() == want.node_ptr());
  CHECK(got.pods() == want.pods());
  CHECK(got.pods_with_affinity() == want.pods_with_affinity());
  CHECK(got.pods_with_required_anti_affinity() == want.pods_with_required_anti_affinity());
  CHECK(got.requested() == want.requested());
  CHECK(got.non_zero_requested() == want.non_zero_requested());
  CHECK(got.allocatable() == want.allocatable());
  CHECK(got.used_ports() == want.used_ports());
  CHECK(got.pvc_ref_counts() == want.pvc_ref_counts());
  CHECK(got.image_states().size() == want.image_states().size());
}

std::vector<std::string> Names(const std::vector<NodeInfo*>& list) {
  std::vector<std::string> names;
  for (const NodeInfo* info : list) names.push_back(info->name());
  return names;
}

// upstream compareCacheWithNodeInfoSnapshot.
void CompareCacheWithSnapshot(const Cache& cache, const Snapshot& snapshot) {
  const std::vector<std::string> order = cache.NodeTreeOrder();
  CHECK(snapshot.stored() == order.size());
  for (const std::string& name : cache.NodeNamesByRecency()) {
    INFO("node " << name);
    const std::optional<NodeInfo> want = cache.GetNodeInfo(name);
    REQUIRE(want.has_value());
    const NodeInfo* got = snapshot.Get(name);
    if (want->node() == nullptr) {
      CHECK(got == nullptr);
    } else {
      REQUIRE(got != nullptr);
      CheckSameNodeInfo(*want, *got);
    }
  }
  REQUIRE(snapshot.size() == order.size());
  std::vector<NodeInfo*> want_affinity;
  std::vector<NodeInfo*> want_anti_affinity;
  for (std::size_t i = 0; i < order.size(); ++i) {
    INFO("list index " << i);
    CHECK(snapshot.nodes()[i] == snapshot.Get(order[i]));
    NodeInfo* info = snapshot.nodes()[i];
    if (!info->pods_with_affinity().empty()) want_affinity.push_back(info);
    if (!info->pods_with_required_anti_affinity().empty()) want_anti_affinity.push_back(info);
  }
  CHECK(snapshot.have_pods_with_affinity() == want_affinity);
  CHECK(snapshot.have_pods_with_required_anti_affinity() == want_anti_affinity);
}

bool IsForgotten(const Cache& cache, const api::Pod& pod) {
  return !cache.IsAssumedPod(pod) && !cache.GetPod(pod).has_value();
}

// --- The pod state machine -------------------------------------------------------------------

TEST_CASE("AssumePod aggregates the pod on its node, ForgetPod undoes it", "[cache]") {
  const std::vector<api::Pod> pods = {
      BasePod("node", "test-resource-request-and-port-0", "100m", "500", "",
              {HostPort("127.0.0.1", 80)}),
      BasePod("node", "test-resource-request-and-port-1", "100m", "500", "",
              {HostPort("127.0.0.1", 80)}),
      BasePod("node", "test-resource-request-and-port-2", "200m", "1Ki", "",
              {HostPort("127.0.0.1", 8080)}),
      BasePod("node", "test-nonzero-request", "", "", "", {HostPort("127.0.0.1", 80)}),
      BasePod("node", "test-extended-resource-1", "100m", "500", "example.com/foo:3",
              {HostPort("127.0.0.1", 80)}),
      BasePod("node", "test-extended-resource-2", "200m", "1Ki", "example.com/foo:5",
              {HostPort("127.0.0.1", 8080)}),
      BasePod("node", "test-extended-key", "100m", "500", "random-invalid-extended-key:100",
              {api::ContainerPort{}}),
  };
  struct Case {
    const char* name;
    std::vector<std::size_t> pods;
    ExpectedNodeInfo want;
  };
  const std::vector<Case> cases = {
      {"assumed one pod with resource request and used ports",
       {0},
       {Res(100, 500), Res(100, 500), {pods[0].metadata.uid}, {{"127.0.0.1", 80}}}},
      {"node requested resource are equal to the sum of the assumed pods requested resource, "
       "node contains host ports defined by pods",
       {1, 2},
       {Res(300, 1524),
        Res(300, 1524),
        {pods[1].metadata.uid, pods[2].metadata.uid},
        {{"127.0.0.1", 80}, {"127.0.0.1", 8080}}}},
      {"assumed pod without resource request",
       {3},
       {Res(0, 0),
        Res(framework::kDefaultMilliCPURequest, framework::kDefaultMemoryRequest),
        {pods[3].metadata.uid},
        {{"127.0.0.1", 80}}}},
      {"assumed one pod with extended resource",
       {4},
       {Res(100, 500),
        Res(100, 500),
        {pods[4].metadata.uid},
        {{"127.0.0.1", 80}},
        {{"example.com/foo", 3}}}},
      {"assumed two pods with extended resources",
       {4, 5},
       {Res(300, 1524),
        Res(300, 1524),
        {pods[4].metadata.uid, pods[5].metadata.uid},
        {{"127.0.0.1", 80}, {"127.0.0.1", 8080}},
        {{"example.com/foo", 8}}}},
      {"assumed pod with random invalid extended resource key",
       {6},
       {Res(100, 500), Res(100, 500), {pods[6].metadata.uid}, {}}},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    Cache cache;
    for (std::size_t i : c.pods) {
      REQUIRE(cache.AssumePod(Info(pods[i])).ok());
      // Already in the cache: cannot be assumed again.
      const absl::Status again = cache.AssumePod(Info(pods[i]));
      CHECK(absl::IsAlreadyExists(again));
      CHECK(std::string(again.message()) ==
            fmt::format("pod {}(node_info_cache_test/{}) is in the cache, so can't be assumed",
                        pods[i].metadata.uid, pods[i].metadata.name));
    }
    CheckNodeInfo(cache.GetNodeInfo("node"), c.want);
    CHECK(cache.AssumedPodCount() == c.pods.size());
    for (std::size_t i : c.pods) {
      REQUIRE(cache.ForgetPod(pods[i]).ok());
      CHECK(IsForgotten(cache, pods[i]));
    }
    CHECK(cache.AssumedPodCount() == 0);
    CHECK(cache.PodCount() == 0);
    // The node-less NodeInfo goes with its last pod.
    CHECK_FALSE(cache.GetNodeInfo("node").has_value());
    CHECK(cache.NodeCount() == 0);
  }
}

TEST_CASE("AddPod confirms an assumed pod", "[cache]") {
  const api::Pod p0 = BasePod("node", "test-1", "100m", "500", "", {HostPort("127.0.0.1", 80)});
  const api::Pod p1 = BasePod("node", "test-2", "200m", "1Ki", "", {HostPort("127.0.0.1", 8080)});
  Cache cache;
  REQUIRE(cache.AssumePod(Info(p0)).ok());
  REQUIRE(cache.AssumePod(Info(p1)).ok());
  REQUIRE(cache.AddPod(Info(p0)).ok());
  CHECK_FALSE(cache.IsAssumedPod(p0));
  CHECK(cache.IsAssumedPod(p1));
  CHECK(cache.AssumedPodCount() == 1);
  // Already in added state.
  const absl::Status again = cache.AddPod(Info(p0));
  CHECK(absl::IsAlreadyExists(again));
  CHECK(std::string(again.message()) ==
        "pod test-1(node_info_cache_test/test-1) was already in added state");
  // An added pod cannot be forgotten.
  CHECK(absl::IsFailedPrecondition(cache.ForgetPod(p0)));
  REQUIRE(cache.ForgetPod(p1).ok());
  CheckNodeInfo(cache.GetNodeInfo("node"),
                {Res(100, 500), Res(100, 500), {"test-1"}, {{"127.0.0.1", 80}}});
  CHECK(cache.PodCount() == 1);
}

TEST_CASE("AddPod always replaces the PodInfo of an assumed pod", "[cache]") {
  const api::Pod p1 = BasePod("node1", "test-1", "100m", "500", "", {HostPort("", 80)});
  api::Pod p2 = p1;
  p2.status.conditions.push_back({std::string(api::kPodScheduled),
                                  std::string(api::kConditionTrue), "", "", {}, {}, 0});
  Cache cache;
  REQUIRE(cache.AssumePod(Info(p1)).ok());
  const PodInfoPtr added = Info(p2);
  REQUIRE(cache.AddPod(added).ok());
  const std::optional<NodeInfo> info = cache.GetNodeInfo("node1");
  CheckNodeInfo(info, {Res(100, 500), Res(100, 500), {"test-1"}, {{"0.0.0.0", 80}}});
  REQUIRE(info->pods().size() == 1);
  CHECK(info->pods()[0] == added);
  CHECK(cache.GetPod(p1) == std::optional<PodInfoPtr>(added));
}

TEST_CASE("AddPod on another node than assumed moves the pod", "[cache]") {
  const api::Pod assumed = BasePod("assumed-node", "test-1", "100m", "500", "", {HostPort("", 80)});
  const api::Pod added = BasePod("actual-node", "test-1", "100m", "500", "", {HostPort("", 80)});
  const api::Pod updated = BasePod("actual-node", "test-1", "200m", "500", "", {HostPort("", 90)});
  RecordingSink log;
  Cache cache(log.sink());
  REQUIRE(cache.AssumePod(Info(assumed)).ok());
  REQUIRE(cache.AddPod(Info(added)).ok());
  CHECK(log.Contains(CacheLogSeverity::kInfo,
                     "Pod was added to a different node than it was assumed podKey=\"test-1\" "
                     "pod=\"node_info_cache_test/test-1\" assumedNode=\"assumed-node\" "
                     "currentNode=\"actual-node\""));
  CHECK_FALSE(cache.IsAssumedPod(added));
  REQUIRE(cache.UpdatePod(Info(added), Info(updated)).ok());
  CHECK_FALSE(cache.GetNodeInfo("assumed-node").has_value());
  CheckNodeInfo(cache.GetNodeInfo("actual-node"),
                {Res(200, 500), Res(200, 500), {"test-1"}, {{"0.0.0.0", 90}}});
  CHECK(cache.NodeCount() == 1);
}

TEST_CASE("UpdatePod replaces an added pod", "[cache]") {
  const api::Pod v0 = BasePod("node", "test", "100m", "500", "", {HostPort("127.0.0.1", 80)});
  const api::Pod v1 = BasePod("node", "test", "200m", "1Ki", "", {HostPort("127.0.0.1", 8080)});
  Cache cache;
  REQUIRE(cache.AddPod(Info(v0)).ok());
  REQUIRE(cache.UpdatePod(Info(v0), Info(v1)).ok());
  CheckNodeInfo(cache.GetNodeInfo("node"),
                {Res(200, 1024), Res(200, 1024), {"test"}, {{"127.0.0.1", 8080}}});
  REQUIRE(cache.UpdatePod(Info(v1), Info(v0)).ok());
  CheckNodeInfo(cache.GetNodeInfo("node"),
                {Res(100, 500), Res(100, 500), {"test"}, {{"127.0.0.1", 80}}});
  CHECK(cache.PodCount() == 1);
}

TEST_CASE("UpdatePod and GetPod: Get returns the latest state", "[cache]") {
  const api::Pod v0 = BasePod("node", "test", "100m", "500", "", {HostPort("127.0.0.1", 80)});
  const api::Pod v1 = BasePod("node", "test", "200m", "1Ki", "", {HostPort("127.0.0.1", 8080)});
  SECTION("an assumed pod is not updated") {
    Cache cache;
    CHECK_FALSE(cache.GetPod(v0).has_value());
    const absl::Status unknown = cache.UpdatePod(Info(v0), Info(v1));
    CHECK(absl::IsNotFound(unknown));
    CHECK(std::string(unknown.message()) ==
          "pod test(node_info_cache_test/test) is not added to scheduler cache, so cannot be "
          "updated");
    const PodInfoPtr assumed = Info(v0);
    REQUIRE(cache.AssumePod(assumed).ok());
    const absl::Status status = cache.UpdatePod(Info(v0), Info(v1));
    CHECK(absl::IsFailedPrecondition(status));
    CHECK(std::string(status.message()) ==
          "assumed pod test(node_info_cache_test/test) should not be updated");
    CHECK(cache.GetPod(v0) == std::optional<PodInfoPtr>(assumed));
  }
  SECTION("an added pod is updated") {
    Cache cache;
    REQUIRE(cache.AddPod(Info(v0)).ok());
    const PodInfoPtr latest = Info(v1);
    REQUIRE(cache.UpdatePod(Info(v0), latest).ok());
    CHECK(cache.GetPod(v0) == std::optional<PodInfoPtr>(latest));
  }
}

TEST_CASE("Ephemeral storage is accounted and removed", "[cache]") {
  api::Pod pod = SimplePod("pod-with-ephemeral-storage", "default-namespace",
                           "pod-with-ephemeral-storage", "node");
  api::Container container;
  container.resources.requests.Set("ephemeral-storage", Q("500"));
  pod.spec.containers.push_back(container);
  Cache cache;
  REQUIRE(cache.AddPod(Info(pod)).ok());
  CheckNodeInfo(cache.GetNodeInfo("node"),
                {Res(0, 0, 500),
                 Res(framework::kDefaultMilliCPURequest, framework::kDefaultMemoryRequest),
                 {"pod-with-ephemeral-storage"},
                 {}});
  REQUIRE(cache.RemovePod(pod).ok());
  CHECK_FALSE(cache.GetPod(pod).has_value());
}

TEST_CASE("RemovePod subtracts the pod, its node moves to the head", "[cache]") {
  const api::Pod pod = BasePod("node-1", "test", "100m", "500", "", {HostPort("127.0.0.1", 80)});
  const bool assume = GENERATE(false, true);
  INFO((assume ? "assumed" : "bound"));
  Cache cache;
  // Add/Assume succeeds before the node exists.
  REQUIRE((assume ? cache.AssumePod(Info(pod)) : cache.AddPod(Info(pod))).ok());
  CheckNodeInfo(cache.GetNodeInfo("node-1"),
                {Res(100, 500), Res(100, 500), {"test"}, {{"127.0.0.1", 80}}});
  cache.AddNode(MakeNode("node-1"));
  cache.AddNode(MakeNode("node-2"));
  CHECK(cache.NodeNamesByRecency() == std::vector<std::string>{"node-2", "node-1"});
  REQUIRE(cache.RemovePod(pod).ok());
  CHECK_FALSE(cache.GetPod(pod).has_value());
  CHECK(cache.AssumedPodCount() == 0);
  const absl::Status again = cache.RemovePod(pod);
  CHECK(absl::IsNotFound(again));
  CHECK(std::string(again.message()) ==
        "pod test(node_info_cache_test/test) is not found in scheduler cache, so cannot be "
        "removed from it");
  CHECK(cache.NodeNamesByRecency() == std::vector<std::string>{"node-1", "node-2"});
  CheckNodeInfo(cache.GetNodeInfo("node-1"), {Res(0, 0), Res(0, 0), {}, {}});
}

TEST_CASE("ForEachNodeInfo visits every NodeInfo, node-less ones included", "[cache]") {
  Cache cache;
  cache.AddNode(MakeNode("node-1"));
  cache.AddNode(MakeNode("node-2"));
  REQUIRE(cache.AddPod(Info(BasePod("node-1", "a", "100m", "500"))).ok());
  REQUIRE(cache.AddPod(Info(BasePod("node-gone", "b", "200m", "500"))).ok());
  std::map<std::string, std::int64_t> milli_cpu;  // by pod's node name
  cache.ForEachNodeInfo([&](const NodeInfo& info) {
    const std::string name =
        info.node() != nullptr ? info.name() : std::string(info.pods()[0]->pod().spec.node_name);
    milli_cpu[name] = info.requested().milli_cpu;
  });
  CHECK(milli_cpu == std::map<std::string, std::int64_t>{{"node-1", 100}, {"node-2", 0}, {"node-gone", 200}});
}

TEST_CASE("ForgetPod", "[cache]") {
  const api::Pod pod = BasePod("node", "test", "100m", "500", "", {HostPort("127.0.0.1", 80)});
  Cache cache;
  REQUIRE(cache.AssumePod(Info(pod)).ok());
  CHECK(cache.IsAssumedPod(pod));
  const std::optional<PodInfoPtr> cached = cache.GetPod(pod);
  REQUIRE(cached.has_value());
  CHECK((*cached)->pod().metadata.namespace_ == pod.metadata.namespace_);
  CHECK((*cached)->pod().metadata.name == pod.metadata.name);

  SECTION("on another node than assumed") {
    api::Pod elsewhere = pod;
    elsewhere.spec.node_name = "other";
    const absl::Status status = cache.ForgetPod(elsewhere);
    CHECK(absl::IsFailedPrecondition(status));
    CHECK(std::string(status.message()) ==
          "pod test(node_info_cache_test/test) was assumed on other but assigned to node");
    CHECK(cache.IsAssumedPod(pod));
  }
  SECTION("twice: v1.37 forgets a pod the cache no longer has without an error") {
    REQUIRE(cache.ForgetPod(pod).ok());
    CHECK(IsForgotten(cache, pod));
    CHECK(cache.ForgetPod(pod).ok());
  }
  SECTION("an added pod is not forgotten") {
    REQUIRE(cache.AddPod(Info(pod)).ok());
    const absl::Status status = cache.ForgetPod(pod);
    CHECK(absl::IsFailedPrecondition(status));
    CHECK(std::string(status.message()) ==
          "pod test(node_info_cache_test/test) is not assumed, so it cannot be removed or forgotten");
    CHECK(cache.PodCount() == 1);
  }
}

TEST_CASE("RemoveAssumedPod frees an assumed pod's room (v1.37, k/k #134157)", "[cache]") {
  const api::Pod pod = BasePod("node", "test", "100m", "500");
  Cache cache;
  REQUIRE(cache.AssumePod(Info(pod)).ok());
  REQUIRE(cache.RemoveAssumedPod(pod).ok());
  CHECK(IsForgotten(cache, pod));
  CHECK(cache.AssumedPodCount() == 0);
  // The binding cycle's ForgetPod, when its bind then fails, finds nothing and is no error.
  CHECK(cache.ForgetPod(pod).ok());
  CHECK(cache.RemoveAssumedPod(pod).ok());
}

TEST_CASE("Pods without a UID or a node are refused", "[cache]") {
  Cache cache;
  const api::Pod no_uid = SimplePod("p", "ns", "", "node");
  for (const absl::Status& status :
       {cache.AssumePod(Info(no_uid)), cache.AddPod(Info(no_uid)), cache.ForgetPod(no_uid),
        cache.RemovePod(no_uid), cache.RemoveAssumedPod(no_uid),
        cache.UpdatePod(Info(no_uid), Info(no_uid))}) {
    CHECK(absl::IsInvalidArgument(status));
    CHECK(std::string(status.message()) == "cannot get cache key for pod with empty UID");
  }
  const api::Pod no_node = SimplePod("p", "ns", "uid", "");
  CHECK(absl::IsInvalidArgument(cache.AssumePod(Info(no_node))));
  CHECK(absl::IsInvalidArgument(cache.AddPod(Info(no_node))));
  const api::Pod other_uid = SimplePod("p", "ns", "uid-2", "node");
  REQUIRE(cache.AddPod(Info(SimplePod("p", "ns", "uid", "node"))).ok());
  CHECK(absl::IsInvalidArgument(
      cache.UpdatePod(Info(SimplePod("p", "ns", "uid", "node")), Info(other_uid))));
  CHECK(cache.PodCount() == 1);
  CHECK(cache.NodeCount() == 1);
}

// Runs `fn` in a child process; true when it exited with status 1 (upstream's FlushAndExit), having
// written what it wrote to stderr into *stderr_text.
bool ExitsOneInChild(const std::function<void()>& fn, std::string* stderr_text = nullptr) {
  const testing::ChildEnd end = testing::RunInChild(fn);
  if (stderr_text != nullptr) *stderr_text = end.stderr_text;
  return end.exited && end.exit_code == 1;
}

TEST_CASE("A pod moving between nodes behind the cache's back exits 1, the message flushed", "[cache]") {
  const api::Pod on_a = SimplePod("p", "ns", "uid", "node-a");
  const api::Pod on_b = SimplePod("p", "ns", "uid", "node-b");
  Cache cache;
  REQUIRE(cache.AddPod(Info(on_a)).ok());
  std::string said;
  CHECK(ExitsOneInChild([&] { (void)cache.UpdatePod(Info(on_a), Info(on_b)); }, &said));
  CHECK_THAT(said, Catch::Contains("Scheduler cache is corrupted and can badly affect scheduling decisions"));
  CHECK(ExitsOneInChild([&] { (void)cache.RemovePod(on_b); }));
  // The child's failures left this cache alone; and a normal removal does not exit.
  CHECK_FALSE(ExitsOneInChild([&] { (void)cache.RemovePod(on_a); }));
  CHECK(cache.PodCount() == 1);
}

TEST_CASE("RemovePod with an empty node name removes the cached pod", "[cache]") {
  // A missed Delete: the informer hands over the last state it knew, possibly unassigned.
  RecordingSink log;
  Cache cache(log.sink());
  REQUIRE(cache.AddPod(Info(SimplePod("p", "ns", "uid", "node-a"))).ok());
  REQUIRE(cache.RemovePod(SimplePod("p", "ns", "uid", "")).ok());
  CHECK(cache.PodCount() == 0);
  CHECK(cache.NodeCount() == 0);
  CHECK(log.Contains(CacheLogSeverity::kError,
                     "Pod was added to a different node than it was assumed"));
}

// --- Nodes and images ------------------------------------------------------------------------

std::vector<api::ContainerImage> Images(const std::map<std::string, std::int64_t>& by_name) {
  std::vector<api::ContainerImage> images;
  for (const auto& [name, size] : by_name) images.push_back({{name}, size});
  return images;
}

// checkImageStateSummary: every NodeInfo that has the image reports the same summary.
bool SameImageSummaries(const std::vector<NodeInfo>& infos, const std::string& image) {
  std::optional<framework::ImageStateSummary> first;
  for (const NodeInfo& info : infos) {
    auto it = info.image_states().find(image);
    if (it == info.image_states().end()) continue;
    if (!first) first = it->second;
    if (!(it->second == *first)) return false;
  }
  return true;
}

TEST_CASE("Node add, update and remove (upstream TestNodeOperators)", "[cache]") {
  const api::ResourceList resources1 = {
      {"cpu", Q("1000m")}, {"memory", Q("100m")}, {"example.com/foo", Q("1")}};
  const api::ResourceList resources2 = {
      {"cpu", Q("500m")}, {"memory", Q("50m")}, {"example.com/foo", Q("2")}};
  const auto images1 = Images({{"gcr.io/80:latest", 80 * kMB},
                               {"gcr.io/80:v1", 80 * kMB},
                               {"gcr.io/300:latest", 300 * kMB},
                               {"gcr.io/300:v1", 300 * kMB}});
  const auto images2 = Images(
      {{"gcr.io/600:latest", 600 * kMB},
       {"gcr.io/80:latest", 80 * kMB},
       {"gcr.io/900:latest", 900 * kMB}});
  std::vector<NodePtr> nodes = {
      MakeNode("test-node-1", resources1, images1), MakeNode("test-node-2", resources2, images2),
      MakeNode("test-node-3", resources1, images1), MakeNode("test-node-4", resources2, images2)};
  const std::size_t node_count = GENERATE(std::size_t{3}, std::size_t{4});
  nodes.resize(node_count);
  INFO(node_count << " nodes");
  std::vector<api::Pod> pods = {BasePod("test-node-1", "pod1", "500m", "50m", "",
                                        {HostPort("", 80)})};
  if (node_count == 3) pods.push_back(BasePod("test-node-1", "pod2", "500m", "50m"));

  auto all_infos = [&](const Cache& cache) {
    std::vector<NodeInfo> infos;
    for (const std::string& name : cache.NodeNamesByRecency()) {
      infos.push_back(*cache.GetNodeInfo(name));
    }
    return infos;
  };

  RecordingSink log;
  Cache cache(log.sink());
  for (const NodePtr& node : nodes) cache.AddNode(node);
  for (const api::Pod& pod : pods) REQUIRE(cache.AddPod(Info(pod)).ok());

  // Step 1: the node was added with its pods, allocatable and images.
  const NodePtr& node = nodes[0];
  std::optional<NodeInfo> got = cache.GetNodeInfo("test-node-1");
  REQUIRE(got.has_value());
  CHECK(got->node_ptr() == node);
  CHECK(got->pods().size() == pods.size());
  CHECK(got->allocatable().milli_cpu == 1000);
  CHECK(got->allocatable().Scalar("example.com/foo") == 1);
  CHECK(got->requested().milli_cpu == 500 * static_cast<std::int64_t>(pods.size()));
  CHECK(got->image_states().size() == 4);
  const int nodes_with_80 = static_cast<int>(node_count);  // every node has gcr.io/80:latest
  const int nodes_with_300 = 2;                            // nodes 1 and 3
  CHECK(got->image_states().at("gcr.io/80:latest") ==
        framework::ImageStateSummary{80 * kMB, nodes_with_80});
  CHECK(got->image_states().at("gcr.io/300:latest") ==
        framework::ImageStateSummary{300 * kMB, nodes_with_300});
  CHECK(cache.NodeTreeOrder().size() == node_count);
  CHECK(SameImageSummaries(all_infos(cache), "gcr.io/80:latest"));
  CHECK(SameImageSummaries(all_infos(cache), "gcr.io/300:latest"));

  // Step 2: a snapshot holds the same NodeInfos.
  Snapshot snapshot;
  REQUIRE(cache.UpdateSnapshot(snapshot).ok());
  CHECK(snapshot.stored() == node_count);
  REQUIRE(snapshot.Get("test-node-1") != nullptr);
  CheckSameNodeInfo(*got, *snapshot.Get("test-node-1"));
  CHECK(snapshot.Get("test-node-1")->image_states() == got->image_states());
  std::vector<NodeInfo> snapshot_infos;
  for (const NodeInfo* info : snapshot.nodes()) snapshot_infos.push_back(*info);
  CHECK(SameImageSummaries(snapshot_infos, "gcr.io/80:latest"));
  CHECK(SameImageSummaries(snapshot_infos, "gcr.io/300:latest"));

  // Step 3: an update replaces the node and bumps the generation.
  const std::int64_t generation = got->generation();
  const NodePtr updated = WithAllocatable(
      node, {{"cpu", Q("1000m")}, {"memory", Q("50m")}, {"example.com/foo", Q("1")}});
  cache.UpdateNode(nullptr, updated);
  got = cache.GetNodeInfo("test-node-1");
  CHECK(got->generation() > generation);
  CHECK(got->node_ptr() == updated);
  CHECK(got->allocatable().memory == Q("50m").Value());
  CHECK(got->pods().size() == pods.size());
  CHECK(got->image_states().size() == 4);
  CHECK(cache.ImageNumNodes("gcr.io/80:latest") == nodes_with_80);
  CHECK(SameImageSummaries(all_infos(cache), "gcr.io/80:latest"));
  CHECK(cache.NodeTreeOrder().size() == node_count);

  // Step 4: the node can be removed while it has pods: a node-less NodeInfo stays.
  cache.RemoveNode(*updated);
  got = cache.GetNodeInfo("test-node-1");
  REQUIRE(got.has_value());
  CHECK(got->node() == nullptr);
  CHECK(got->pods().size() == pods.size());
  // Removing it again is an error (logged: the informer API has no caller to return it to).
  cache.RemoveNode(*updated);
  CHECK(log.Contains(CacheLogSeverity::kError, "node test-node-1 is not found"));
  CHECK(cache.NodeTreeOrder().size() == node_count - 1);
  CHECK(cache.ImageNumNodes("gcr.io/80:latest") == nodes_with_80 - 1);
  CHECK(cache.ImageNumNodes("gcr.io/300:latest") == nodes_with_300 - 1);
  CHECK(SameImageSummaries(all_infos(cache), "gcr.io/80:latest"));
  for (const api::Pod& pod : pods) CHECK(cache.GetPod(pod).has_value());
  REQUIRE(cache.UpdateSnapshot(snapshot).ok());
  CHECK(snapshot.Get("test-node-1") == nullptr);
  CHECK(snapshot.size() == node_count - 1);

  // Step 5: removing the pods of the removed node still succeeds, and the NodeInfo goes.
  for (const api::Pod& pod : pods) {
    REQUIRE(cache.RemovePod(pod).ok());
    CHECK_FALSE(cache.GetPod(pod).has_value());
  }
  CHECK_FALSE(cache.GetNodeInfo("test-node-1").has_value());
  CHECK(cache.NodeCount() == node_count - 1);
}

TEST_CASE("Image states count the nodes having each image", "[cache]") {
  Cache cache;
  Snapshot snapshot;
  // The same name listed in two images of one node counts once (first size wins).
  cache.AddNode(MakeNode("n1", {},
                         {{{"img-a", "img-a:v1"}, 100}, {{"img-a"}, 999}}));
  cache.AddNode(MakeNode("n2", {}, {{{"img-a"}, 100}, {{"img-b"}, 200}}));
  CHECK(cache.ImageNumNodes("img-a") == 2);
  CHECK(cache.ImageNumNodes("img-a:v1") == 1);
  CHECK(cache.ImageNumNodes("img-b") == 1);
  CHECK(cache.ImageNumNodes("img-c") == 0);
  REQUIRE(cache.UpdateSnapshot(snapshot).ok());
  using Summaries = framework::ImageStateMap;
  CHECK(snapshot.Get("n1")->image_states() ==
        Summaries{{"img-a", {100, 2}}, {"img-a:v1", {100, 1}}});
  CHECK(snapshot.Get("n2")->image_states() == Summaries{{"img-a", {100, 2}}, {"img-b", {200, 1}}});

  // A new node with img-b: its copy counts 2; n2's copy was not recopied and keeps its count,
  // as upstream (the count is taken when a NodeInfo is copied).
  cache.AddNode(MakeNode("n3", {}, {{{"img-b"}, 200}}));
  REQUIRE(cache.UpdateSnapshot(snapshot).ok());
  CHECK(snapshot.Get("n3")->image_states() == Summaries{{"img-b", {200, 2}}});
  CHECK(snapshot.Get("n2")->image_states().at("img-b").num_nodes == 1);
  // Once n2 changes, its copy is current.
  REQUIRE(cache.AddPod(Info(SimplePod("p", "ns", "uid", "n2"))).ok());
  REQUIRE(cache.UpdateSnapshot(snapshot).ok());
  CHECK(snapshot.Get("n2")->image_states().at("img-b").num_nodes == 2);

  // Removing and updating nodes releases their images.
  cache.RemoveNode(*MakeNode("n1"));
  CHECK(cache.ImageNumNodes("img-a") == 1);
  CHECK(cache.ImageNumNodes("img-a:v1") == 0);
  cache.UpdateNode(nullptr, MakeNode("n2", {}, {{{"img-b"}, 200}}));
  CHECK(cache.ImageNumNodes("img-a") == 0);
  CHECK(cache.ImageNumNodes("img-b") == 2);
  CHECK(cache.GetNodeInfo("n2")->image_states() == Summaries{{"img-b", {200, 2}}});
  // Adding a node again (a relist) does not count it twice.
  cache.AddNode(MakeNode("n3", {}, {{{"img-b"}, 200}}));
  CHECK(cache.ImageNumNodes("img-b") == 2);
}

// --- UpdateSnapshot --------------------------------------------------------------------------

struct SnapshotFixture {
  std::vector<NodePtr> nodes;
  std::vector<NodePtr> updated_nodes;
  std::vector<PodInfoPtr> pods;
  std::vector<PodInfoPtr> updated_pods;
  std::vector<PodInfoPtr> pods_with_affinity;
  std::vector<PodInfoPtr> pods_with_pvc;
  Cache cache;
  Snapshot snapshot;

  SnapshotFixture() {
    for (int i = 0; i < 10; ++i) {
      nodes.push_back(
          MakeNode(fmt::format("test-node{}", i), {{"cpu", Q("1000m")}, {"memory", Q("100m")}}));
      updated_nodes.push_back(
          WithAllocatable(nodes.back(), {{"cpu", Q("2000m")}, {"memory", Q("500m")}}));
    }
    for (int i = 0; i < 20; ++i) {
      api::Pod pod = SimplePod(fmt::format("test-pod{}", i), "test-ns",
                               fmt::format("test-puid{}", i), fmt::format("test-node{}", i % 10));
      pods.push_back(Info(pod));
      pod.spec.priority = 1000;
      updated_pods.push_back(Info(pod));
    }
    for (int i = 0; i < 2; ++i) {
      api::Pod pod = SimplePod(fmt::format("p-affinity-{}", i), "test-ns",
                               fmt::format("puid-affinity-{}", i), fmt::format("test-node{}", i));
      api::PodAffinityTerm term;
      term.label_selector = api::LabelSelector{{}, {{"foo", "Exists", {}}}};
      pod.spec.affinity.pod_affinity.required.push_back(term);
      pods_with_affinity.push_back(Info(pod));
    }
    for (int i = 0; i < 8; ++i) {
      api::Pod pod = SimplePod(fmt::format("p-pvc-{}", i), "test-ns", fmt::format("puid-pvc-{}", i),
                               fmt::format("test-node{}", i % 2));
      api::Volume volume;
      volume.persistent_volume_claim =
          api::PersistentVolumeClaimVolumeSource{fmt::format("test-pvc{}", i % 4), false};
      pod.spec.volumes.push_back(volume);
      pods_with_pvc.push_back(Info(pod));
    }
  }
};

using Op = std::function<void(SnapshotFixture&)>;

Op AddNodeOp(int i) { return [i](SnapshotFixture& f) { f.cache.AddNode(f.nodes[i]); }; }
Op RemoveNodeOp(int i) { return [i](SnapshotFixture& f) { f.cache.RemoveNode(*f.nodes[i]); }; }
Op UpdateNodeOp(int i) {
  return [i](SnapshotFixture& f) { f.cache.UpdateNode(f.nodes[i], f.updated_nodes[i]); };
}
Op AddPodOp(int i) { return [i](SnapshotFixture& f) { CHECK(f.cache.AddPod(f.pods[i]).ok()); }; }
Op AssumePodOp(int i) {
  return [i](SnapshotFixture& f) { CHECK(f.cache.AssumePod(f.pods[i]).ok()); };
}
Op ForgetPodOp(int i) {
  return [i](SnapshotFixture& f) { CHECK(f.cache.ForgetPod(f.pods[i]->pod()).ok()); };
}
Op AddPodWithAffinityOp(int i) {
  return [i](SnapshotFixture& f) { CHECK(f.cache.AddPod(f.pods_with_affinity[i]).ok()); };
}
Op AddPodWithPVCOp(int i) {
  return [i](SnapshotFixture& f) { CHECK(f.cache.AddPod(f.pods_with_pvc[i]).ok()); };
}
Op RemovePodOp(int i) {
  return [i](SnapshotFixture& f) { CHECK(f.cache.RemovePod(f.pods[i]->pod()).ok()); };
}
Op RemovePodWithAffinityOp(int i) {
  return [i](SnapshotFixture& f) { CHECK(f.cache.RemovePod(f.pods_with_affinity[i]->pod()).ok()); };
}
Op RemovePodWithPVCOp(int i) {
  return [i](SnapshotFixture& f) { CHECK(f.cache.RemovePod(f.pods_with_pvc[i]->pod()).ok()); };
}
Op UpdatePodOp(int i) {
  return [i](SnapshotFixture& f) { CHECK(f.cache.UpdatePod(f.pods[i], f.updated_pods[i]).ok()); };
}
Op UpdateSnapshotOp() {
  return [](SnapshotFixture& f) {
    CHECK(f.cache.UpdateSnapshot(f.snapshot).ok());
    CompareCacheWithSnapshot(f.cache, f.snapshot);
  };
}

TEST_CASE("UpdateSnapshot follows the cache (upstream TestSchedulerCache_UpdateSnapshot)",
          "[cache][snapshot]") {
  struct Case {
    const char* name;
    std::vector<Op> operations;
    std::vector<int> expected;  // node indexes, most recently updated first
    std::size_t expected_with_affinity = 0;
    std::set<std::string> expected_pvcs = {};
  };
  const std::vector<Case> cases = {
      {"Empty cache", {}, {}},
      {"Single node", {AddNodeOp(1)}, {1}},
      {"Add node, remove it, add it again",
       {AddNodeOp(1), UpdateSnapshotOp(), RemoveNodeOp(1), AddNodeOp(1)},
       {1}},
      {"Add node and remove it in the same cycle, add it again",
       {AddNodeOp(1), UpdateSnapshotOp(), AddNodeOp(2), RemoveNodeOp(1)},
       {2}},
      {"Add a few nodes, and snapshot in the middle",
       {AddNodeOp(0), UpdateSnapshotOp(), AddNodeOp(1), UpdateSnapshotOp(), AddNodeOp(2),
        UpdateSnapshotOp(), AddNodeOp(3)},
       {3, 2, 1, 0}},
      {"Add a few nodes, and snapshot in the end",
       {AddNodeOp(0), AddNodeOp(2), AddNodeOp(5), AddNodeOp(6)},
       {6, 5, 2, 0}},
      {"Update some nodes",
       {AddNodeOp(0), AddNodeOp(1), AddNodeOp(5), UpdateSnapshotOp(), UpdateNodeOp(1)},
       {1, 5, 0}},
      {"Add a few nodes, and remove all of them",
       {AddNodeOp(0), AddNodeOp(2), AddNodeOp(5), AddNodeOp(6), UpdateSnapshotOp(), RemoveNodeOp(0),
        RemoveNodeOp(2), RemoveNodeOp(5), RemoveNodeOp(6)},
       {}},
      {"Add a few nodes, and remove some of them",
       {AddNodeOp(0), AddNodeOp(2), AddNodeOp(5), AddNodeOp(6), UpdateSnapshotOp(), RemoveNodeOp(0),
        RemoveNodeOp(6)},
       {5, 2}},
      {"Add a few nodes, remove all of them, and add more",
       {AddNodeOp(2), AddNodeOp(5), AddNodeOp(6), UpdateSnapshotOp(), RemoveNodeOp(2),
        RemoveNodeOp(5), RemoveNodeOp(6), UpdateSnapshotOp(), AddNodeOp(7), AddNodeOp(9)},
       {9, 7}},
      {"Update nodes in particular order",
       {AddNodeOp(8), UpdateNodeOp(2), UpdateNodeOp(8), UpdateSnapshotOp(), AddNodeOp(1)},
       {1, 8, 2}},
      {"Add some nodes and some pods",
       {AddNodeOp(0), AddNodeOp(2), AddNodeOp(8), UpdateSnapshotOp(), AddPodOp(8), AddPodOp(2)},
       {2, 8, 0}},
      {"Updating a pod moves its node to the head",
       {AddNodeOp(0), AddPodOp(0), AddNodeOp(2), AddNodeOp(4), UpdatePodOp(0)},
       {0, 4, 2}},
      {"Add pod before its node",
       {AddNodeOp(0), AddPodOp(1), UpdatePodOp(1), AddNodeOp(1)},
       {1, 0}},
      {"Remove node before its pods",
       {AddNodeOp(0), AddNodeOp(1), AddPodOp(1), AddPodOp(11), UpdateSnapshotOp(), RemoveNodeOp(1),
        UpdateSnapshotOp(), UpdatePodOp(1), UpdatePodOp(11), RemovePodOp(1), RemovePodOp(11)},
       {0}},
      {"Add Pods with affinity",
       {AddNodeOp(0), AddPodWithAffinityOp(0), UpdateSnapshotOp(), AddNodeOp(1)},
       {1, 0},
       1},
      {"Add Pods with PVC",
       {AddNodeOp(0), AddPodWithPVCOp(0), UpdateSnapshotOp(), AddNodeOp(1)},
       {1, 0},
       0,
       {"test-ns/test-pvc0"}},
      {"Add multiple nodes with pods with affinity",
       {AddNodeOp(0), AddPodWithAffinityOp(0), UpdateSnapshotOp(), AddNodeOp(1),
        AddPodWithAffinityOp(1), UpdateSnapshotOp()},
       {1, 0},
       2},
      {"Add multiple nodes with pods with PVC",
       {AddNodeOp(0), AddPodWithPVCOp(0), UpdateSnapshotOp(), AddNodeOp(1), AddPodWithPVCOp(1),
        UpdateSnapshotOp()},
       {1, 0},
       0,
       {"test-ns/test-pvc0", "test-ns/test-pvc1"}},
      {"Add then Remove pods with affinity",
       {AddNodeOp(0), AddNodeOp(1), AddPodWithAffinityOp(0), UpdateSnapshotOp(),
        RemovePodWithAffinityOp(0), UpdateSnapshotOp()},
       {0, 1},
       0},
      {"Add then Remove pod with PVC",
       {AddNodeOp(0), AddPodWithPVCOp(0), UpdateSnapshotOp(), RemovePodWithPVCOp(0),
        AddPodWithPVCOp(2), UpdateSnapshotOp()},
       {0},
       0,
       {"test-ns/test-pvc2"}},
      {"Add then Remove pod with PVC and add same pod again",
       {AddNodeOp(0), AddPodWithPVCOp(0), UpdateSnapshotOp(), RemovePodWithPVCOp(0),
        AddPodWithPVCOp(0), UpdateSnapshotOp()},
       {0},
       0,
       {"test-ns/test-pvc0"}},
      {"Add and Remove multiple pods with PVC with same ref count length different content",
       {AddNodeOp(0), AddNodeOp(1), AddPodWithPVCOp(0), AddPodWithPVCOp(1), UpdateSnapshotOp(),
        RemovePodWithPVCOp(0), RemovePodWithPVCOp(1), AddPodWithPVCOp(2), AddPodWithPVCOp(3),
        UpdateSnapshotOp()},
       {1, 0},
       0,
       {"test-ns/test-pvc2", "test-ns/test-pvc3"}},
      {"Add and Remove multiple pods with PVC",
       {AddNodeOp(0), AddNodeOp(1), AddPodWithPVCOp(0), AddPodWithPVCOp(1), AddPodWithPVCOp(2),
        UpdateSnapshotOp(), RemovePodWithPVCOp(0), RemovePodWithPVCOp(1), UpdateSnapshotOp(),
        AddPodWithPVCOp(0), UpdateSnapshotOp(), AddPodWithPVCOp(3), AddPodWithPVCOp(4),
        AddPodWithPVCOp(5), UpdateSnapshotOp(), RemovePodWithPVCOp(0), RemovePodWithPVCOp(3),
        RemovePodWithPVCOp(4), UpdateSnapshotOp()},
       {0, 1},
       0,
       {"test-ns/test-pvc1", "test-ns/test-pvc2"}},
      // upstream's case also assumes and forgets in the snapshot, which this Snapshot does not do.
      {"Assume and forget in cache",
       {AddNodeOp(0), AddNodeOp(2), AddNodeOp(4), AddNodeOp(8), UpdateSnapshotOp(), AssumePodOp(8),
        AssumePodOp(0), ForgetPodOp(0), UpdateSnapshotOp()},
       {0, 8, 4, 2}},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    SnapshotFixture f;
    for (const Op& op : c.operations) op(f);

    std::vector<std::string> expected;
    for (int i : c.expected) expected.push_back(f.nodes[i]->metadata.name);
    CHECK(f.cache.NodeNamesByRecency() == expected);
    CHECK(f.cache.NodeCount() == expected.size());
    CHECK(f.snapshot.have_pods_with_affinity().size() == c.expected_with_affinity);

    // Always update the snapshot at the end and compare it.
    REQUIRE(f.cache.UpdateSnapshot(f.snapshot).ok());
    CompareCacheWithSnapshot(f.cache, f.snapshot);
    std::set<std::string> pvcs;
    for (const NodeInfo* info : f.snapshot.nodes()) {
      for (const auto& [key, count] : info->pvc_ref_counts()) pvcs.insert(key);
    }
    CHECK(pvcs == c.expected_pvcs);
  }
}

TEST_CASE("UpdateSnapshot copies only the NodeInfos that changed", "[cache][snapshot]") {
  Cache cache;
  Snapshot snapshot;
  constexpr int kNodes = 100;
  for (int i = 0; i < kNodes; ++i) cache.AddNode(MakeNode(fmt::format("n{}", i)));
  REQUIRE(cache.UpdateSnapshot(snapshot).ok());
  std::vector<const NodeInfo*> pointers;
  for (int i = 0; i < kNodes; ++i) {
    NodeInfo* info = snapshot.GetMutable(fmt::format("n{}", i));
    REQUIRE(info != nullptr);
    pointers.push_back(info);
    // A marker only the snapshot's copy has: a recopy erases it.
    info->mutable_image_states()["marker"] = {1, 1};
  }
  const std::vector<NodeInfo*> list_before = snapshot.nodes();
  const std::int64_t generation_before = snapshot.generation();

  SECTION("nothing changed: nothing is copied, the generation stays") {
    REQUIRE(cache.UpdateSnapshot(snapshot).ok());
    CHECK(snapshot.generation() == generation_before);
    for (int i = 0; i < kNodes; ++i) {
      CHECK(snapshot.Get(fmt::format("n{}", i))->image_states().contains("marker"));
    }
  }
  SECTION("pods added to two nodes: exactly those are recopied, in place") {
    REQUIRE(cache.AddPod(Info(SimplePod("a", "ns", "uid-a", "n7"))).ok());
    REQUIRE(cache.AssumePod(Info(SimplePod("b", "ns", "uid-b", "n42"))).ok());
    REQUIRE(cache.UpdateSnapshot(snapshot).ok());
    CHECK(snapshot.generation() > generation_before);
    CHECK(snapshot.generation() == cache.GetNodeInfo("n42")->generation());
    std::vector<std::string> recopied;
    for (int i = 0; i < kNodes; ++i) {
      const std::string name = fmt::format("n{}", i);
      const NodeInfo* info = snapshot.Get(name);
      CHECK(info == pointers[static_cast<std::size_t>(i)]);  // the same object, updated in place
      if (!info->image_states().contains("marker")) recopied.push_back(name);
      CHECK(info->generation() == cache.GetNodeInfo(name)->generation());
    }
    CHECK(recopied == std::vector<std::string>{"n7", "n42"});
    CHECK(snapshot.Get("n7")->pods().size() == 1);
    CHECK(snapshot.Get("n42")->pods().size() == 1);
    // No node was added or removed: the ordered list is the same.
    CHECK(snapshot.nodes() == list_before);
    for (NodeInfo* info : snapshot.nodes()) info->mutable_image_states().erase("marker");
    CompareCacheWithSnapshot(cache, snapshot);
  }
  SECTION("a node-less NodeInfo (pods before their node) is not copied") {
    REQUIRE(cache.AddPod(Info(SimplePod("a", "ns", "uid-a", "not-yet"))).ok());
    REQUIRE(cache.UpdateSnapshot(snapshot).ok());
    CHECK(snapshot.Get("not-yet") == nullptr);
    CHECK(snapshot.size() == kNodes);
    CHECK(cache.NodeCount() == kNodes + 1);
    cache.AddNode(MakeNode("not-yet"));
    REQUIRE(cache.UpdateSnapshot(snapshot).ok());
    REQUIRE(snapshot.Get("not-yet") != nullptr);
    CHECK(snapshot.Get("not-yet")->pods().size() == 1);
    CHECK(snapshot.size() == kNodes + 1);
    // Adding a node rebuilds the list, not the NodeInfos: the others were not recopied.
    for (NodeInfo* info : snapshot.nodes()) {
      CHECK(info->image_states().contains("marker") == (info->name() != "not-yet"));
      info->mutable_image_states().erase("marker");
    }
    CompareCacheWithSnapshot(cache, snapshot);
  }
}

TEST_CASE("UpdateSnapshot rebuilds the affinity lists when a node gains or loses such pods",
          "[cache][snapshot]") {
  SnapshotFixture f;
  f.cache.AddNode(f.nodes[0]);
  f.cache.AddNode(f.nodes[1]);
  REQUIRE(f.cache.UpdateSnapshot(f.snapshot).ok());
  CHECK(f.snapshot.have_pods_with_affinity().empty());
  REQUIRE(f.cache.AddPod(f.pods_with_affinity[1]).ok());
  REQUIRE(f.cache.UpdateSnapshot(f.snapshot).ok());
  CHECK(Names(f.snapshot.have_pods_with_affinity()) == std::vector<std::string>{"test-node1"});

  api::Pod anti = SimplePod("anti", "test-ns", "anti-uid", "test-node0");
  api::PodAffinityTerm term;
  term.label_selector = api::LabelSelector{{{"app", "x"}}, {}};
  term.topology_key = "kubernetes.io/hostname";
  anti.spec.affinity.pod_anti_affinity.required.push_back(term);
  REQUIRE(f.cache.AddPod(Info(anti)).ok());
  REQUIRE(f.cache.UpdateSnapshot(f.snapshot).ok());
  CHECK(Names(f.snapshot.have_pods_with_required_anti_affinity()) ==
        std::vector<std::string>{"test-node0"});
  CompareCacheWithSnapshot(f.cache, f.snapshot);

  REQUIRE(f.cache.RemovePod(anti).ok());
  REQUIRE(f.cache.RemovePod(f.pods_with_affinity[1]->pod()).ok());
  REQUIRE(f.cache.UpdateSnapshot(f.snapshot).ok());
  CHECK(f.snapshot.have_pods_with_affinity().empty());
  CHECK(f.snapshot.have_pods_with_required_anti_affinity().empty());
}

std::vector<NodePtr> ZonedNodes() {
  // zone 0 -> 2 nodes, zone 1 -> 6 nodes (upstream TestSchedulerCache_updateNodeInfoSnapshotList).
  std::vector<NodePtr> nodes;
  int i = 0;
  const int per_zone[] = {2, 6};
  for (int zone = 0; zone < 2; ++zone) {
    for (int j = 0; j < per_zone[zone]; ++j) {
      nodes.push_back(MakeNode(fmt::format("node-{}", i++), {}, {},
                               {{std::string(kLabelTopologyRegion), fmt::format("region-{}", zone)},
                                {std::string(kLabelTopologyZone), fmt::format("zone-{}", zone)}}));
    }
  }
  return nodes;
}

TEST_CASE("The snapshot's node list interleaves zones in node-tree order", "[cache][snapshot]") {
  const std::vector<NodePtr> nodes = ZonedNodes();
  struct Case {
    const char* name;
    std::vector<std::vector<int>> batches;  // nodes added, a snapshot update after each batch
    std::vector<std::string> expected;
  };
  const std::vector<Case> cases = {
      {"Empty cache", {}, {}},
      {"Single node", {{0}}, {"node-0"}},
      {"Two nodes", {{0}, {1}}, {"node-0", "node-1"}},
      {"bug 91601, two nodes, update the snapshot and add two nodes in different zones",
       {{2, 3}, {4, 0}},
       {"node-2", "node-0", "node-3", "node-4"}},
      {"bug 91601, 6 nodes, one in a different zone",
       {{2, 3, 4, 5}, {6, 0}},
       {"node-2", "node-0", "node-3", "node-4", "node-5", "node-6"}},
      {"bug 91601, 7 nodes, two in a different zone",
       {{2}, {3, 4}, {5, 6, 0, 1}},
       {"node-2", "node-0", "node-3", "node-1", "node-4", "node-5", "node-6"}},
      {"bug 91601, 7 nodes, two in a different zone, different zone order",
       {{2, 1}, {3, 4}, {5, 6, 0}},
       {"node-2", "node-1", "node-3", "node-0", "node-4", "node-5", "node-6"}},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    Cache cache;
    Snapshot snapshot;
    for (const std::vector<int>& batch : c.batches) {
      for (int i : batch) cache.AddNode(nodes[static_cast<std::size_t>(i)]);
      REQUIRE(cache.UpdateSnapshot(snapshot).ok());
      CompareCacheWithSnapshot(cache, snapshot);
    }
    CHECK(Names(snapshot.nodes()) == c.expected);
  }
}

TEST_CASE("A zone change reorders the snapshot's list", "[cache][snapshot]") {
  auto node = [](std::string name, std::string zone) {
    return MakeNode(std::move(name), {}, {}, {{std::string(kLabelTopologyZone), std::move(zone)}});
  };
  Cache cache;
  Snapshot snapshot;
  cache.AddNode(node("a", "z1"));
  cache.AddNode(node("b", "z1"));
  cache.AddNode(node("c", "z2"));
  REQUIRE(cache.UpdateSnapshot(snapshot).ok());
  CHECK(Names(snapshot.nodes()) == std::vector<std::string>{"a", "c", "b"});
  // a moves to z2: z1 = [b], z2 = [c, a]. No node was added or removed, yet the order changed.
  cache.UpdateNode(node("a", "z1"), node("a", "z2"));
  REQUIRE(cache.UpdateSnapshot(snapshot).ok());
  CHECK(Names(snapshot.nodes()) == std::vector<std::string>{"b", "c", "a"});
  CompareCacheWithSnapshot(cache, snapshot);
  // A repeated Add (relist) with another zone moves it too, without duplicating it.
  cache.AddNode(node("a", "z3"));
  REQUIRE(cache.UpdateSnapshot(snapshot).ok());
  CHECK(Names(snapshot.nodes()) == std::vector<std::string>{"b", "c", "a"});
  CHECK(cache.NodeTreeOrder() == std::vector<std::string>{"b", "c", "a"});
  cache.RemoveNode(*node("a", "whatever: the cache's copy is used"));
  CHECK(cache.NodeTreeOrder() == std::vector<std::string>{"b", "c"});
}

TEST_CASE("An inconsistent snapshot is reported and recovered on the next update",
          "[cache][snapshot]") {
  RecordingSink log;
  Cache cache(log.sink());
  Snapshot snapshot;
  cache.AddNode(MakeNode("n1"));
  REQUIRE(cache.UpdateSnapshot(snapshot).ok());
  cache.AddNode(MakeNode("n2"));
  // A snapshot claiming a generation the cache never reached misses n2.
  snapshot.set_generation(std::numeric_limits<std::int64_t>::max());
  const absl::Status status = cache.UpdateSnapshot(snapshot);
  CHECK(absl::IsInternal(status));
  CHECK(std::string(status.message()) ==
        "snapshot state is not consistent, length of NodeInfoList=1 not equal to length of nodes "
        "in tree=2 , length of NodeInfoMap=1, length of nodes in cache=2, trying to recover");
  CHECK(log.Contains(CacheLogSeverity::kError, "snapshot state is not consistent"));
  REQUIRE(cache.UpdateSnapshot(snapshot).ok());
  CHECK(Names(snapshot.nodes()) == std::vector<std::string>{"n1", "n2"});
  CompareCacheWithSnapshot(cache, snapshot);
}

TEST_CASE("Two snapshots are each brought up to date", "[cache][snapshot]") {
  SnapshotFixture f;
  Snapshot other;
  f.cache.AddNode(f.nodes[0]);
  REQUIRE(f.cache.UpdateSnapshot(f.snapshot).ok());
  f.cache.AddNode(f.nodes[1]);
  REQUIRE(f.cache.AddPod(f.pods[0]).ok());
  REQUIRE(f.cache.UpdateSnapshot(other).ok());
  f.cache.RemoveNode(*f.nodes[1]);
  REQUIRE(f.cache.UpdateSnapshot(f.snapshot).ok());
  REQUIRE(f.cache.UpdateSnapshot(other).ok());
  CompareCacheWithSnapshot(f.cache, f.snapshot);
  CompareCacheWithSnapshot(f.cache, other);
  CHECK(Names(other.nodes()) == std::vector<std::string>{"test-node0"});
}

// --- Dump and counters -----------------------------------------------------------------------

TEST_CASE("Dump prints each NodeInfo as the upstream debugger does", "[cache]") {
  Cache cache;
  cache.AddNode(MakeNode("node", {{"cpu", Q("1")}, {"memory", Q("100")}, {"pods", Q("10")},
                                  {"example.com/foo", Q("2")}}));
  REQUIRE(
      cache.AssumePod(Info(BasePod("node", "test-1", "100m", "500", "example.com/foo:1"))).ok());
  api::Pod nominated = SimplePod("test-2", "ns", "uid-2", "ghost");
  nominated.status.phase = "Running";
  nominated.status.nominated_node_name = "other";
  REQUIRE(cache.AddPod(Info(nominated)).ok());
  CHECK(cache.Dump() ==
        "Node name: ghost\n"
        "Deleted: true\n"
        "Requested Resources: &{MilliCPU:0 Memory:0 EphemeralStorage:0 AllowedPodNumber:0 "
        "ScalarResources:map[]}\n"
        "Allocatable Resources:&{MilliCPU:0 Memory:0 EphemeralStorage:0 AllowedPodNumber:0 "
        "ScalarResources:map[]}\n"
        "Scheduled Pods(number: 1):\n"
        "name: test-2, namespace: ns, uid: uid-2, phase: Running, nominated node: other\n"
        "\n\n"
        "Node name: node\n"
        "Deleted: false\n"
        "Requested Resources: &{MilliCPU:100 Memory:500 EphemeralStorage:0 AllowedPodNumber:0 "
        "ScalarResources:map[example.com/foo:1]}\n"
        "Allocatable Resources:&{MilliCPU:1000 Memory:100 EphemeralStorage:0 AllowedPodNumber:10 "
        "ScalarResources:map[example.com/foo:2]}\n"
        "Scheduled Pods(number: 1):\n"
        "name: test-1, namespace: node_info_cache_test, uid: test-1, phase: , nominated node: \n");
  CHECK(cache.NodeCount() == 2);
  CHECK(cache.PodCount() == 2);
  CHECK(cache.AssumedPodCount() == 1);
  CHECK(Cache().Dump().empty());
}

TEST_CASE("Concurrent informer updates and snapshot updates stay consistent", "[cache][snapshot]") {
  Cache cache;
  Snapshot snapshot;
  constexpr int kNodes = 16;
  for (int i = 0; i < kNodes; ++i) cache.AddNode(MakeNode(fmt::format("n{}", i)));
  std::vector<PodInfoPtr> pods;
  for (int i = 0; i < 200; ++i) {
    pods.push_back(Info(SimplePod(fmt::format("p{}", i), "ns", fmt::format("uid{}", i),
                                  fmt::format("n{}", i % kNodes))));
  }
  std::atomic<bool> failed{false};
  std::thread informer([&] {
    for (int round = 0; round < 20; ++round) {
      for (const PodInfoPtr& pod : pods) {
        if (!cache.AddPod(pod).ok()) failed = true;
      }
      for (const PodInfoPtr& pod : pods) {
        if (!cache.RemovePod(pod->pod()).ok()) failed = true;
      }
    }
    for (const PodInfoPtr& pod : pods) {
      if (!cache.AssumePod(pod).ok()) failed = true;
    }
  });
  bool snapshot_failed = false;
  for (int i = 0; i < 200; ++i) {
    if (!cache.UpdateSnapshot(snapshot).ok()) snapshot_failed = true;
  }
  informer.join();
  CHECK_FALSE(failed.load());
  CHECK_FALSE(snapshot_failed);
  REQUIRE(cache.UpdateSnapshot(snapshot).ok());
  CompareCacheWithSnapshot(cache, snapshot);
  std::size_t pods_in_snapshot = 0;
  for (const NodeInfo* info : snapshot.nodes()) pods_in_snapshot += info->pods().size();
  CHECK(pods_in_snapshot == pods.size());
  CHECK(cache.AssumedPodCount() == pods.size());
}

}  // namespace
}  // namespace ksched::scheduler
