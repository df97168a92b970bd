// Binpack (plugins/binpack/): raw scores per node (resources, weights, assumed pods, the pod's own
// request, nodes lacking a resource, over-commitment, int64 extremes), the min-max
// normalisation, PreScore's Skip, the args JSON (defaults and every error, with the field named),
// and the plugin inside a real framework runtime built from the in-tree registry.
#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "api/node.h"
#include "api/pod.h"
#include "framework/cycle_state.h"
#include "framework/framework.h"
#include "framework/interface.h"
#include "framework/node_info.h"
#include "framework/parallelizer.h"
#include "framework/profile_config.h"
#include "framework/raw_plugin_args.h"
#include "framework/snapshot.h"
#include "framework/status.h"
#include "plugins/binpack/args.h"
#include "plugins/binpack/binpack.h"
#include "plugins/in_tree_registry.h"
#include "plugins/node_resources/args.h"
#include "fake_handle.h"
#include "node_resources_test_util.h"
#include "test_objects.h"

namespace {

using ksched::api::Pod;
using ksched::framework::Code;
using ksched::framework::CycleState;
using ksched::framework::NodeInfo;
using ksched::framework::NodeScore;
using ksched::framework::RawPluginArgs;
using ksched::framework::Status;
using ksched::plugins::binpack::Binpack;
using ksched::plugins::binpack::BinpackArgs;
using ksched::plugins::binpack::BinpackResource;
using ksched::plugins::binpack::kRawScoreScale;
using ksched::plugins::binpack::MinMaxNormalize;
using ksched::plugins::binpack::New;
using ksched::plugins::binpack::ParseBinpackArgs;
using ksched::plugins::testing::CapacityNode;
using ksched::plugins::testing::FakeHandle;
using ksched::plugins::testing::MakeNodeInfo;
using ksched::plugins::testing::RequestPod;

using Requests = std::vector<std::pair<std::string, std::string>>;

// A node with these allocatable resources and pods requesting `used` (one pod per entry).
struct NodeSpec {
  std::string name;
  Requests allocatable;
  std::vector<Requests> pods = {};
};

// A handle whose snapshot holds these nodes and their pods (the plugin reads the scales there).
std::unique_ptr<FakeHandle> BuildCluster(const std::vector<NodeSpec>& specs) {
  std::vector<std::shared_ptr<const ksched::api::Node>> nodes;
  std::vector<Pod> pods;
  for (const NodeSpec& spec : specs) {
    nodes.push_back(CapacityNode(spec.name, spec.allocatable));
    int index = 0;
    for (const Requests& requests : spec.pods) {
      Pod pod = RequestPod({requests}, spec.name);
      pod.metadata.name = spec.name + "-pod-" + std::to_string(index++);
      pod.metadata.uid = pod.metadata.name;
      pods.push_back(std::move(pod));
    }
  }
  return std::make_unique<FakeHandle>(nodes, ksched::plugins::testing::PodInfos(pods));
}

std::unique_ptr<Binpack> MakePlugin(std::vector<BinpackResource> resources,
                                    const FakeHandle& handle) {
  BinpackArgs args;
  if (!resources.empty()) args.resources = std::move(resources);
  REQUIRE(ksched::plugins::binpack::ValidateBinpackArgs(args).ok());
  return std::make_unique<Binpack>(std::move(args), handle);
}

// PreScore (unless `with_pre_score` is false) + Score on every node of the snapshot, in order;
// the raw and normalised scores, or nothing when PreScore skipped.
struct Scored {
  Status pre_score;
  std::vector<std::int64_t> raw;
  std::vector<std::int64_t> normalized;
};

Scored ScoreAll(Binpack& plugin, const Pod& pod, const FakeHandle& handle,
                bool with_pre_score = true) {
  CycleState state;
  std::vector<const NodeInfo*> nodes(handle.snapshot().nodes().begin(),
                                     handle.snapshot().nodes().end());
  Scored out;
  if (with_pre_score) {
    out.pre_score = plugin.PreScore(state, pod, nodes);
    if (!out.pre_score.IsSuccess()) return out;
  }
  std::vector<NodeScore> scores;
  for (const NodeInfo* node : nodes) {
    auto [score, status] = plugin.Score(state, pod, *node);
    INFO(status.ToString());
    REQUIRE(status.IsSuccess());
    out.raw.push_back(score);
    scores.push_back(NodeScore{node, score});
  }
  REQUIRE(plugin.GetScoreExtensions()->NormalizeScore(state, pod, scores).IsSuccess());
  for (const NodeScore& score : scores) out.normalized.push_back(score.score);
  return out;
}

constexpr std::int64_t kFull = kRawScoreScale;  // every counted resource used up

const char* const kGpu = "nvidia.com/gpu";

TEST_CASE("Binpack: raw and normalised scores", "[plugins][binpack]") {
  struct Case {
    std::string name;
    std::vector<BinpackResource> resources;  // empty: the defaults (cpu, weight 1)
    Requests pod;
    std::vector<NodeSpec> nodes;
    std::vector<std::int64_t> raw;
    std::vector<std::int64_t> normalized;
  };
  const std::vector<Case> cases = {
      {"the article's picture: 8-GPU nodes with 2, 3 and 5 GPUs free, a 2-GPU pod: the node left "
       "with none wins",
       {{kGpu, 1}},
       {{kGpu, "2"}},
       {{"n1", {{kGpu, "8"}}, {{{kGpu, "6"}}}},
        {"n2", {{kGpu, "8"}}, {{{kGpu, "5"}}}},
        {"n3", {{kGpu, "8"}}, {{{kGpu, "3"}}}}},
       {kFull, 875'000'000, 625'000'000},
       {100, 66, 0}},
      {"defaults (the article): remaining cpu only, memory ignored",
       {},
       {{"cpu", "500m"}, {"memory", "1Gi"}},
       {{"a", {{"cpu", "4"}, {"memory", "16Gi"}}, {{{"cpu", "1"}, {"memory", "15Gi"}}}},
        {"b", {{"cpu", "4"}, {"memory", "16Gi"}}, {{{"cpu", "3"}}}}},
       {375'000'000, 875'000'000},
       {0, 100}},
      {"every pod on the node counts (assumed ones too: they are in the NodeInfo)",
       {},
       {{"cpu", "1"}},
       {{"a", {{"cpu", "4"}}, {{{"cpu", "1"}}, {{"cpu", "1"}}}}, {"b", {{"cpu", "4"}}, {{{"cpu", "2"}}}}},
       {750'000'000, 750'000'000},
       {100, 100}},
      {"best fit across node sizes: 1 left on a 4-GPU node beats 2 left on an 8-GPU node",
       {{kGpu, 1}},
       {{kGpu, "1"}},
       {{"small", {{kGpu, "4"}}, {{{kGpu, "2"}}}}, {"big", {{kGpu, "8"}}, {{{kGpu, "5"}}}}},
       {875'000'000, 750'000'000},
       {100, 0}},
      {"weights: gpu 3, cpu 1: GPU packing outweighs an emptier CPU",
       {{kGpu, 3}, {"cpu", 1}},
       {{kGpu, "1"}, {"cpu", "1"}},
       // a: 4 of 8 GPUs left after placing (used 1/2), cpu 0 of 8 left (used 1)
       // b: 1 of 8 GPUs left (used 7/8), 7 of 8 cpu left (used 1/8)
       {{"a", {{kGpu, "8"}, {"cpu", "8"}}, {{{kGpu, "3"}, {"cpu", "7"}}}},
        {"b", {{kGpu, "8"}, {"cpu", "8"}}, {{{kGpu, "6"}}}}},
       {(3 * 500'000'000LL + 1 * kFull) / 4, (3 * 875'000'000LL + 1 * 125'000'000LL) / 4},
       {0, 100}},
      {"a scalar resource the pod does not request does not count (CPU pods are not drawn to "
       "busy GPU nodes)",
       {{kGpu, 5}, {"cpu", 1}},
       {{"cpu", "1"}},
       {{"gpu-busy", {{kGpu, "8"}, {"cpu", "8"}}, {{{kGpu, "8"}}}},
        {"cpu-busy", {{kGpu, "8"}, {"cpu", "8"}}, {{{"cpu", "4"}}}}},
       {125'000'000, 625'000'000},
       {0, 100}},
      {"a node lacking a resource the others have gets no credit for it",
       {{"cpu", 1}, {"ephemeral-storage", 1}},
       {{"cpu", "1"}},
       {{"with", {{"cpu", "4"}, {"ephemeral-storage", "100Gi"}}, {{{"ephemeral-storage", "50Gi"}}}},
        {"without", {{"cpu", "4"}}}},
       {(250'000'000LL + 500'000'000LL) / 2, 250'000'000LL / 2},
       {100, 0}},
      {"an over-committed node counts as full, not beyond",
       {},
       {{"cpu", "1"}},
       {{"over", {{"cpu", "2"}}, {{{"cpu", "3"}}}}, {"fits", {{"cpu", "2"}}, {{{"cpu", "1"}}}}},
       {kFull, kFull},
       {100, 100}},
      {"int64-sized memory does not overflow",
       {{"memory", 1}},
       {{"memory", "1"}},
       {{"huge", {{"memory", "9223372036854775807"}}}, {"small", {{"memory", "1Ki"}}}},
       {0, 999'999'999},  // measured against the largest node: 1 byte used of 2^63-1 is 0, 1023 bytes left is ~all used
       {0, 100}},
      {"one node: 100",
       {},
       {{"cpu", "1"}},
       {{"only", {{"cpu", "8"}}}},
       {125'000'000},
       {100}},
  };
  for (const Case& c : cases) {
    SECTION(c.name) {
      const auto handle = BuildCluster(c.nodes);
      auto plugin = MakePlugin(c.resources, *handle);
      const Scored scored = ScoreAll(*plugin, RequestPod({c.pod}), *handle);
      INFO(scored.pre_score.ToString());
      REQUIRE(scored.pre_score.IsSuccess());
      CHECK(scored.raw == c.raw);
      CHECK(scored.normalized == c.normalized);
      // Enabled at Score only (the article's configuration): the same scores without PreScore.
      const Scored without = ScoreAll(*plugin, RequestPod({c.pod}), *handle, false);
      CHECK(without.raw == c.raw);
      CHECK(without.normalized == c.normalized);
    }
  }
}

TEST_CASE("Binpack: the pod's own request and its init containers count", "[plugins][binpack]") {
  Pod pod = RequestPod({{{"cpu", "1"}}});
  Pod init = RequestPod({{{"cpu", "3"}}});
  pod.spec.init_containers = init.spec.containers;  // effective request: max(1, 3) = 3 cores
  const auto handle = BuildCluster({{"a", {{"cpu", "4"}}}, {"b", {{"cpu", "8"}}}});
  auto plugin = MakePlugin({}, *handle);
  const Scored scored = ScoreAll(*plugin, pod, *handle);
  REQUIRE(scored.pre_score.IsSuccess());
  // a: 1 of 4 left, b: 5 of 8 left; scale 8: used 7/8 and 3/8.
  CHECK(scored.raw == std::vector<std::int64_t>{875'000'000, 375'000'000});
}

TEST_CASE("Binpack: PreScore skips when no configured resource counts", "[plugins][binpack]") {
  const auto gpu_cluster = BuildCluster({{"g", {{kGpu, "8"}, {"cpu", "8"}}}});
  auto gpu_only = MakePlugin({{kGpu, 1}}, *gpu_cluster);
  CHECK(ScoreAll(*gpu_only, RequestPod({{{"cpu", "1"}}}), *gpu_cluster).pre_score.code() ==
        Code::kSkip);
  CHECK(ScoreAll(*gpu_only, RequestPod({{{kGpu, "1"}}}), *gpu_cluster).pre_score.IsSuccess());
  // Without PreScore: every node 0 raw, 100 normalised (neutral).
  const Scored without = ScoreAll(*gpu_only, RequestPod({{{"cpu", "1"}}}), *gpu_cluster, false);
  CHECK(without.raw == std::vector<std::int64_t>{0});

  // Asked for, but no node has any: nothing to compare.
  const auto cpu_cluster = BuildCluster({{"c", {{"cpu", "8"}}}});
  auto on_cpu_nodes = MakePlugin({{kGpu, 1}}, *cpu_cluster);
  CHECK(ScoreAll(*on_cpu_nodes, RequestPod({{{kGpu, "1"}}}), *cpu_cluster).pre_score.code() ==
        Code::kSkip);
}

TEST_CASE("Binpack: the scale is the largest allocatable in the snapshot", "[plugins][binpack]") {
  // The scale is the largest allocatable in the snapshot: a bigger node joining changes the
  // measure (1 core left of 4 is 3/4 used against 4 cores, 7/8 against 8).
  const auto small = BuildCluster({{"a", {{"cpu", "4"}}, {{{"cpu", "2"}}}}});
  auto plugin = MakePlugin({}, *small);
  CHECK(ScoreAll(*plugin, RequestPod({{{"cpu", "1"}}}), *small).raw ==
        std::vector<std::int64_t>{750'000'000});
  const auto grown = BuildCluster({{"a", {{"cpu", "4"}}, {{{"cpu", "2"}}}}, {"b", {{"cpu", "8"}}}});
  auto same_args = MakePlugin({}, *grown);
  CHECK(ScoreAll(*same_args, RequestPod({{{"cpu", "1"}}}), *grown).raw ==
        std::vector<std::int64_t>{875'000'000, 125'000'000});
}

TEST_CASE("Binpack: min-max normalisation", "[plugins][binpack]") {
  constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  struct Case {
    std::string name;
    std::vector<std::int64_t> raw;
    std::vector<std::int64_t> want;
  };
  const std::vector<Case> cases = {
      {"no nodes", {}, {}},
      {"one node", {42}, {100}},
      {"all equal: 100 each (the article)", {7, 7, 7}, {100, 100, 100}},
      {"all zero", {0, 0}, {100, 100}},
      {"linear", {0, 50, 100}, {0, 50, 100}},
      {"truncated like the article", {0, 1, 3}, {0, 33, 100}},
      {"the article's negative -rest scores", {-3000, -1000, -500}, {0, 80, 100}},
      {"int64 extremes do not overflow", {kMin, kMax, 0}, {0, 100, 50}},
      {"adjacent extremes", {kMax - 1, kMax}, {0, 100}},
  };
  for (const Case& c : cases) {
    SECTION(c.name) {
      std::vector<NodeScore> scores;
      for (std::int64_t raw : c.raw) scores.push_back(NodeScore{nullptr, raw});
      MinMaxNormalize(scores);
      std::vector<std::int64_t> got;
      for (const NodeScore& score : scores) got.push_back(score.score);
      CHECK(got == c.want);
    }
  }
}

TEST_CASE("Binpack: args", "[plugins][binpack]") {
  struct Case {
    std::string json;
    std::vector<BinpackResource> want;  // when error is empty
    std::string error;
  };
  const std::vector<Case> cases = {
      {"", {{"cpu", 1}}, ""},
      {"{}", {{"cpu", 1}}, ""},
      {"null", {{"cpu", 1}}, ""},
      {R"({"resources":null})", {{"cpu", 1}}, ""},
      {R"({"resources":[]})", {{"cpu", 1}}, ""},
      {R"({"apiVersion":"kubescheduler.config.k8s.io/v1","kind":"BinpackArgs",)"
       R"("resources":[{"name":"nvidia.com/gpu","weight":5},{"name":"cpu"},)"
       R"({"name":"memory","weight":100},{"name":"ephemeral-storage","weight":null},)"
       R"({"name":"hugepages-2Mi","weight":2}]})",
       {{"nvidia.com/gpu", 5}, {"cpu", 1}, {"memory", 100}, {"ephemeral-storage", 1},
        {"hugepages-2Mi", 2}},
       ""},
      {R"({"resources":[{"name":"cpu","weight":1},{"name":"memory","weight":-1}]})", {},
       "Binpack args: resources[1].weight: Invalid value: -1: must be positive"},
      {R"({"resources":[{"name":"cpu","weight":0}]})", {},
       "Binpack args: resources[0].weight: Invalid value: 0: must be positive"},
      {R"({"resources":[{"name":"cpu","weight":101}]})", {},
       "Binpack args: resources[0].weight: Invalid value: 101: must not be greater than 100"},
      {R"({"resources":[{"name":"cpu","weight":"5"}]})", {},
       "Binpack args: resources[0].weight: Invalid value: \"5\": must be an integer"},
      {R"({"resources":[{"name":"cpu","weight":1.5}]})", {},
       "Binpack args: resources[0].weight: Invalid value: 1.5: must be an integer"},
      {R"({"resources":[{"weight":2}]})", {}, "Binpack args: resources[0].name: Required value"},
      {R"({"resources":[{"name":7}]})", {},
       "Binpack args: resources[0].name: Invalid value: 7: must be a string"},
      {R"({"resources":[{"name":"pods"}]})", {},
       "Binpack args: resources[0].name: Invalid value: \"pods\": must be cpu, memory, "
       "ephemeral-storage or a scalar resource (an extended resource such as nvidia.com/gpu, "
       "hugepages-*, attachable-volumes-*)"},
      {R"({"resources":[{"name":"gpu"}]})", {},
       "Binpack args: resources[0].name: Invalid value: \"gpu\": must be cpu, memory, "
       "ephemeral-storage or a scalar resource (an extended resource such as nvidia.com/gpu, "
       "hugepages-*, attachable-volumes-*)"},
      {R"({"resources":[{"name":"cpu"},{"name":"cpu","weight":2}]})", {},
       "Binpack args: resources[1].name: Duplicate value: \"cpu\""},
      {R"({"resources":[{"name":"cpu","weight":0},{"name":"memory","weight":-2}]})", {},
       "Binpack args: [resources[0].weight: Invalid value: 0: must be positive, "
       "resources[1].weight: Invalid value: -2: must be positive]"},
      {R"({"resource":[{"name":"cpu"}]})", {}, "Binpack args: unknown field \"resource\""},
      {R"({"resources":[{"name":"cpu","weigth":2}]})", {},
       "Binpack args: resources[0]: unknown field \"weigth\""},
      {R"({"resources":{"name":"cpu"}})", {},
       "Binpack args: resources: Invalid value: {\"name\":\"cpu\"}: must be a list"},
      {R"({"resources":["cpu"]})", {},
       "Binpack args: resources[0]: Invalid value: \"cpu\": must be an object"},
      {R"({"kind":"NodeResourcesFitArgs"})", {},
       "Binpack args: kind: Invalid value: \"NodeResourcesFitArgs\": must be \"BinpackArgs\""},
      {R"([1])", {}, "Binpack args: Invalid value: [1]: must be an object"},
  };
  FakeHandle handle;
  for (const Case& c : cases) {
    SECTION(c.json.empty() ? std::string("(empty)") : c.json) {
      RawPluginArgs raw;
      raw.json = c.json;
      auto built = New(&raw, handle);
      if (c.error.empty()) {
        INFO(built.status().message());
        REQUIRE(built.ok());
        auto* plugin = dynamic_cast<Binpack*>(built->get());
        REQUIRE(plugin != nullptr);
        CHECK(plugin->args().resources == c.want);
      } else {
        REQUIRE_FALSE(built.ok());
        CHECK(std::string(built.status().message()) == c.error);
      }
    }
  }

  SECTION("malformed JSON names the offset") {
    auto parsed = ParseBinpackArgs(R"({"resources": [)");
    REQUIRE_FALSE(parsed.ok());
    CHECK(std::string(parsed.status().message()).rfind("Binpack args: invalid JSON at offset", 0) == 0);
  }
  SECTION("no args: the defaults") {
    auto built = New(nullptr, handle);
    REQUIRE(built.ok());
    CHECK(dynamic_cast<Binpack*>(built->get())->args().resources ==
          std::vector<BinpackResource>{{"cpu", 1}});
  }
  SECTION("typed args are validated too") {
    BinpackArgs args;
    args.resources.clear();
    auto built = New(&args, handle);
    REQUIRE_FALSE(built.ok());
    CHECK(std::string(built.status().message()) ==
          "Binpack args: resources: Required value: at least one resource");
  }
  SECTION("args of another plugin's type") {
    ksched::plugins::node_resources::NodeResourcesFitArgs other;
    auto built = New(&other, handle);
    REQUIRE_FALSE(built.ok());
    CHECK(std::string(built.status().message()) ==
          "want args of the right type for plugin Binpack");
  }
}

// The in-tree registry knows "Binpack"; a profile with NodeResourcesFit's filter and Binpack's
// score places a GPU pod on the fullest node that still fits, and bad args fail the profile with
// the field named.
TEST_CASE("Binpack: in a framework runtime beside NodeResourcesFit", "[plugins][binpack]") {
  using ksched::framework::Framework;
  using ksched::framework::FrameworkServices;
  using ksched::framework::PluginRef;
  using ksched::framework::ProfileConfig;
  ksched::framework::Parallelizer parallelizer(1);
  ksched::plugins::testing::FakeClusterApi cluster_api;
  ksched::plugins::testing::DiscardingEventRecorder recorder;
  FrameworkServices services;
  services.parallelizer = &parallelizer;
  services.cluster_api = &cluster_api;
  services.event_recorder = &recorder;

  ProfileConfig profile;
  profile.plugins.queue_sort.enabled = {PluginRef{"PrioritySort", 0}};
  profile.plugins.pre_filter.enabled = {PluginRef{"NodeResourcesFit", 0}};
  profile.plugins.filter.enabled = {PluginRef{"NodeResourcesFit", 0}};
  profile.plugins.pre_score.enabled = {PluginRef{"Binpack", 0}};
  profile.plugins.score.enabled = {PluginRef{"Binpack", 1}};
  profile.plugins.bind.enabled = {PluginRef{"DefaultBinder", 0}};
  auto raw = std::make_shared<RawPluginArgs>();
  raw->json = R"({"resources":[{"name":"nvidia.com/gpu","weight":1}]})";
  profile.plugin_args["Binpack"] = raw;

  const auto registry = ksched::plugins::NewInTreeRegistry();
  auto framework = Framework::Create(registry, profile, services);
  INFO((framework.ok() ? "" : std::string(framework.status().message())));
  REQUIRE(framework.ok());

  std::vector<std::shared_ptr<const ksched::api::Node>> nodes{
      CapacityNode("empty", {{kGpu, "8"}}), CapacityNode("half", {{kGpu, "8"}}),
      CapacityNode("full", {{kGpu, "8"}})};
  Pod on_half = RequestPod({{{kGpu, "4"}}}, "half");
  on_half.metadata.name = on_half.metadata.uid = "on-half";
  Pod on_full = RequestPod({{{kGpu, "7"}}}, "full");
  on_full.metadata.name = on_full.metadata.uid = "on-full";
  auto snapshot = ksched::framework::Snapshot::FromObjects(
      nodes, ksched::plugins::testing::PodInfos({on_half, on_full}));
  (*framework)->SetSnapshot(snapshot.get());

  Pod pod = RequestPod({{{kGpu, "2"}}});
  pod.metadata.name = pod.metadata.uid = "incoming";
  CycleState state;
  std::set<std::string, std::less<>> narrowed;
  REQUIRE((*framework)->RunPreFilterPlugins(state, pod, narrowed).second.IsSuccess());
  std::vector<const NodeInfo*> feasible;
  for (const NodeInfo* node : snapshot->nodes()) {
    if ((*framework)->RunFilterPlugins(state, pod, *node).IsSuccess()) feasible.push_back(node);
  }
  REQUIRE(feasible.size() == 2);  // "full" has 1 GPU free
  REQUIRE((*framework)->RunPreScorePlugins(state, pod, feasible).IsSuccess());
  auto totals = (*framework)->RunScorePlugins(state, pod, feasible);
  REQUIRE(totals.ok());
  std::map<std::string, std::int64_t> by_node;
  for (const auto& total : *totals) by_node[total.node->name()] = total.total_score;
  CHECK(by_node == std::map<std::string, std::int64_t>{{"empty", 0}, {"half", 100}});

  raw->json = R"({"resources":[{"name":"nvidia.com/gpu","weight":-1}]})";
  auto refused = Framework::Create(registry, profile, services);
  REQUIRE_FALSE(refused.ok());
  CHECK(std::string(refused.status().message()) ==
        "initializing plugin \"Binpack\": Binpack args: resources[0].weight: Invalid value: -1: "
        "must be positive");
}

}  // namespace
