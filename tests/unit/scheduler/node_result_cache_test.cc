// NodeResultCache through ScheduleAlgorithm: with every compiled-in default plugin, a run of pods
// that reuses per-node results takes exactly the decisions of a run that filters and scores every
// node for every pod (same seed, parallelism 1, so both see nodes in the same order and draw the
// same tie-breaks), while the cluster changes under them: pods assumed and deleted, nodes updated,
// added and removed, other pods in between, and pods the cache must not serve. And the checks of
// reuse: a node changed in the snapshot outside the cache's update is found, with the stale
// verdicts and raw scores it leaves.
#include "scheduler/node_result_cache.h"

#include <catch2/catch.hpp>
#include <csignal>
#include <functional>
#include <map>

#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "api/json_decode.h"
#include "config/default_plugins.h"
#include "framework/cycle_state.h"
#include "framework/debug_checks.h"
#include "framework/framework.h"
#include "framework/node_change_finder.h"
#include "framework/parallelizer.h"
#include "framework/pod_info.h"
#include "framework/snapshot.h"
#include "plugins/in_tree_registry.h"
#include "scheduler/cache.h"
#include "scheduler/schedule_algorithm.h"
#include "run_in_child.h"
#include "scheduling_loop_fakes.h"

namespace ksched::scheduler {
namespace {

std::shared_ptr<const api::Node> DecodeNodeOrDie(const std::string& json) {
  absl::StatusOr<api::Node> node = api::DecodeNode(json);
  REQUIRE(node.ok());
  return std::make_shared<const api::Node>(*std::move(node));
}

// Nodes of varied size; some tainted NoSchedule (infeasible for pods without tolerations), some
// PreferNoSchedule (scored down), some with the pause image, one in every 17 unschedulable.
std::shared_ptr<const api::Node> MakeNode(int index, int cpu_extra = 0) {
  const std::string name = "node-" + std::to_string(index);
  std::string json = R"({"metadata":{"name":")" + name + R"(","labels":{"kubernetes.io/hostname":")" +
                     name + R"(","zone":"z)" + std::to_string(index % 3) + R"("}},"spec":{)";
  if (index % 17 == 5) json += R"("unschedulable":true,)";
  if (index % 11 == 3) {
    json += R"("taints":[{"key":"dedicated","value":"x","effect":"NoSchedule"}])";
  } else if (index % 7 == 2) {
    json += R"("taints":[{"key":"soft","value":"y","effect":"PreferNoSchedule"}])";
  } else {
    json += R"("taints":[])";
  }
  const int cpu = 2 + index % 5 + cpu_extra;
  const int memory = 4 + (index * 3) % 13;
  json += R"(},"status":{"allocatable":{"pods":"20","cpu":")" + std::to_string(cpu) +
          R"(","memory":")" + std::to_string(memory) + R"(Gi"})";
  if (index % 4 == 0) {
    json += R"(,"images":[{"names":["registry.k8s.io/pause:3.10"],"sizeBytes":300000000}])";
  }
  json += "}}";
  return DecodeNodeOrDie(json);
}

// A pending pod of template `kind`: 0 and 1 are plain replicas of two sizes, 2 has a node
// selector, 3 has a required anti-affinity (InterPodAffinity filters and scores it anew every
// cycle), 4 prefers zone z2 (NodeAffinity scores, normalized to the column's largest raw score),
// 5 spreads over zones (DoNotSchedule, maxSkew 1) and hostnames (ScheduleAnyway): PodTopologySpread
// filters and scores it anew every cycle.
std::shared_ptr<api::Pod> MakePod(int serial, int kind) {
  std::string json = R"({"metadata":{"name":"p-)" + std::to_string(serial) +
                     R"(","namespace":"default","uid":"uid-)" + std::to_string(serial) +
                     R"(","labels":{"app":"a)" + std::to_string(kind) + R"("}},"spec":{)";
  if (kind == 2) json += R"("nodeSelector":{"zone":"z1"},)";
  if (kind == 4) {
    json += R"("affinity":{"nodeAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[)"
            R"({"weight":7,"preference":{"matchExpressions":[{"key":"zone","operator":"In","values":["z2"]}]}}]}},)";
  }
  if (kind == 5) {
    json += R"("topologySpreadConstraints":[)"
            R"({"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule","labelSelector":{"matchLabels":{"app":"a5"}}},)"
            R"({"maxSkew":2,"topologyKey":"kubernetes.io/hostname","whenUnsatisfiable":"ScheduleAnyway","labelSelector":{"matchLabels":{"app":"a5"}}}],)";
  }
  if (kind == 3) {
    json += R"("affinity":{"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[)"
            R"({"labelSelector":{"matchLabels":{"app":"a3"}},"topologyKey":"kubernetes.io/hostname"}]}},)";
  }
  const std::string cpu = kind == 1 ? "700m" : "250m";
  const std::string memory = kind == 1 ? "1Gi" : "300Mi";
  json += R"("containers":[{"name":"c","image":"registry.k8s.io/pause:3.10","resources":{"requests":{"cpu":")" +
          cpu + R"(","memory":")" + memory + R"("}}}]}})";
  absl::StatusOr<api::Pod> pod = api::DecodePod(json);
  REQUIRE(pod.ok());
  return std::make_shared<api::Pod>(*std::move(pod));
}

struct Runtime {
  framework::Parallelizer parallelizer{1};
  testing::FakeClusterApi cluster_api;
  testing::FakeEventRecorder recorder;
  std::unique_ptr<framework::Framework> framework;

  explicit Runtime(std::int32_t percentage) {
    const framework::Registry registry = plugins::NewInTreeRegistry();
    std::vector<std::string> left_out;
    framework::ProfileConfig profile =
        config::DefaultProfile("default-scheduler", registry, {}, &left_out);
    profile.percentage_of_nodes_to_score = percentage;
    framework::FrameworkServices services;
    services.parallelizer = &parallelizer;
    services.cluster_api = &cluster_api;
    services.event_recorder = &recorder;
    absl::StatusOr<std::unique_ptr<framework::Framework>> built =
        framework::Framework::Create(registry, profile, services);
    REQUIRE(built.ok());
    framework = *std::move(built);
  }
};

// Runs `pods` pods through both algorithms on one cache; returns the reusing one's stats.
NodeResultCache::Stats RunBoth(int node_count, std::int32_t percentage, int pods,
                               std::uint64_t seed) {
  Runtime runtime(percentage);
  framework::Framework& framework = *runtime.framework;
  Cache cache;
  for (int i = 0; i < node_count; ++i) cache.AddNode(MakeNode(i));
  framework::Snapshot snapshot;
  ScheduleAlgorithm reusing(percentage, seed, /*reuse_node_results=*/true);
  ScheduleAlgorithm full(percentage, seed, /*reuse_node_results=*/false);
  std::mt19937 random(static_cast<std::uint32_t>(seed));
  std::vector<framework::PodInfoPtr> placed;
  int next_node = node_count;

  for (int serial = 0; serial < pods; ++serial) {
    // What changes between pods.
    const unsigned roll = random() % 100;
    if (roll < 4 && !placed.empty()) {
      const std::size_t victim = random() % placed.size();
      REQUIRE(cache.RemovePod(placed[victim]->pod()).ok());
      placed.erase(placed.begin() + static_cast<std::ptrdiff_t>(victim));
    } else if (roll < 7) {
      const int index = static_cast<int>(random() % static_cast<unsigned>(node_count));
      cache.UpdateNode(MakeNode(index), MakeNode(index, 1 + static_cast<int>(random() % 3)));
    } else if (roll < 8) {
      cache.AddNode(MakeNode(next_node++));
    } else if (roll < 9) {
      cache.RemoveNode(*MakeNode(static_cast<int>(random() % static_cast<unsigned>(node_count))));
    }
    const unsigned kind_roll = random() % 100;
    const int kind = kind_roll < 60   ? 0
                     : kind_roll < 70 ? 5
                     : kind_roll < 80 ? 4
                     : kind_roll < 88 ? 1
                     : kind_roll < 94 ? 2
                                      : 3;
    std::shared_ptr<api::Pod> pod = MakePod(serial, kind);

    REQUIRE(cache.UpdateSnapshot(snapshot).ok());
    framework.SetSnapshot(&snapshot);
    framework::CycleState reusing_state;
    framework::CycleState full_state;
    const ScheduleOutcome a = reusing.SchedulePod(framework, reusing_state, *pod, snapshot);
    const ScheduleOutcome b = full.SchedulePod(framework, full_state, *pod, snapshot);
    INFO("pod " << serial << " kind " << kind);
    REQUIRE(a.status.code() == b.status.code());
    REQUIRE(a.status.Message() == b.status.Message());
    REQUIRE(a.result.suggested_host == b.result.suggested_host);
    REQUIRE(a.result.evaluated_nodes == b.result.evaluated_nodes);
    REQUIRE(a.result.feasible_nodes == b.result.feasible_nodes);
    REQUIRE(reusing.next_start_node_index() == full.next_start_node_index());
    if (!a.status.IsSuccess()) continue;
    pod->spec.node_name = a.result.suggested_host;
    framework::PodInfoPtr info = framework::PodInfo::CreateOrDie(pod);
    REQUIRE(cache.AssumePod(info).ok());
    REQUIRE(cache.AddPod(info).ok());  // the informer confirms the binding
    placed.push_back(info);
  }
  return reusing.node_result_stats();
}

TEST_CASE("NodeResultCache: reusing results decides exactly as filtering every node",
          "[node_result_cache]") {
  SECTION("every node scored (percentageOfNodesToScore 100)") {
    const NodeResultCache::Stats stats = RunBoth(60, 100, 400, 7);
    // A third of the cycles reuse; a cycle after a template switch or a node list change rebuilds.
    CHECK(stats.reused_cycles > 120);
    CHECK(stats.rebuilt > 10);
    CHECK(stats.refreshed_nodes >= stats.reused_cycles);
    // Every feasible node is scored: most reused cycles choose from the incremental totals.
    CHECK(stats.incremental_selections > 120);
  }
  SECTION("a share of 150 nodes (percentageOfNodesToScore 30: 100 feasible nodes looked for)") {
    const NodeResultCache::Stats stats = RunBoth(150, 30, 300, 11);
    CHECK(stats.reused_cycles > 100);
    // Spreading and anti-affinity pods ran their plugins on part of the nodes only.
    CHECK(stats.per_cycle_filtered_nodes > 0);
  }
  SECTION("the pods fill the cluster until some do not fit") {
    // 12 small nodes, 400 pods: later pods are rejected everywhere (FitError from the cache's
    // statuses must read like the full path's).
    const NodeResultCache::Stats stats = RunBoth(12, 100, 400, 3);
    CHECK(stats.reused_cycles > 100);
    CHECK(stats.incremental_selections > 50);
  }
}

TEST_CASE("Framework::KnownScoreShape: the default profile's Score plugins", "[node_result_cache]") {
  Runtime runtime(100);
  const framework::Framework& framework = *runtime.framework;
  const std::vector<std::string> names = framework.ListPlugins().at("ScorePlugin");
  std::map<std::string, std::optional<framework::Framework::ScoreShape>> shapes;
  for (std::size_t i = 0; i < names.size(); ++i) {
    shapes[names[i]] = framework.KnownScoreShape(static_cast<std::uint16_t>(i));
  }
  using framework::ScoreNormalization;
  REQUIRE(shapes.at("TaintToleration").has_value());
  CHECK(shapes.at("TaintToleration")->weight == 3);
  CHECK(shapes.at("TaintToleration")->normalization == ScoreNormalization::kScaleToMaxReversed);
  REQUIRE(shapes.at("NodeAffinity").has_value());
  CHECK(shapes.at("NodeAffinity")->weight == 2);
  CHECK(shapes.at("NodeAffinity")->normalization == ScoreNormalization::kScaleToMax);
  for (const char* raw : {"NodeResourcesFit", "NodeResourcesBalancedAllocation", "ImageLocality"}) {
    INFO(raw);
    REQUIRE(shapes.at(raw).has_value());
    CHECK(shapes.at(raw)->weight == 1);
    CHECK_FALSE(shapes.at(raw)->normalization.has_value());  // no NormalizeScore
  }
  // Their own normalizations: the totals never model them.
  CHECK_FALSE(shapes.at("InterPodAffinity").has_value());
  CHECK_FALSE(shapes.at("PodTopologySpread").has_value());
}

TEST_CASE("NodeResultCache: pods needing cross-node plugins reuse the node-local results",
          "[node_result_cache]") {
  const int kind = GENERATE(3, 5);  // InterPodAffinity, PodTopologySpread
  INFO("pod kind " << kind);
  Runtime runtime(100);
  Cache cache;
  for (int i = 0; i < 20; ++i) cache.AddNode(MakeNode(i));
  framework::Snapshot snapshot;
  ScheduleAlgorithm algorithm(100, 1, true);
  for (int serial = 0; serial < 5; ++serial) {
    REQUIRE(cache.UpdateSnapshot(snapshot).ok());
    runtime.framework->SetSnapshot(&snapshot);
    framework::CycleState state;
    std::shared_ptr<api::Pod> pod = MakePod(serial, kind);
    const ScheduleOutcome outcome = algorithm.SchedulePod(*runtime.framework, state, *pod, snapshot);
    REQUIRE(outcome.status.IsSuccess());
    pod->spec.node_name = outcome.result.suggested_host;
    REQUIRE(cache.AddPod(framework::PodInfo::CreateOrDie(pod)).ok());
  }
  const NodeResultCache::Stats& stats = algorithm.node_result_stats();
  CHECK(stats.rebuilt == 1);
  CHECK(stats.reused_cycles == 4);
  // Only the node each pod went to is filtered again by every plugin...
  CHECK(stats.refreshed_nodes == 4);
  // ...the cross-node plugin runs on every node in every cycle, and the totals are never kept.
  CHECK(stats.per_cycle_filtered_nodes == 5 * 20);
  CHECK(stats.incremental_selections == 0);
}

// One cycle of `pod` through `results` as ScheduleAlgorithm drives a reused one when it scores
// every feasible node: PreFilter, PrepareFilter over all nodes, PreScore, RawScores. Returns the
// Score plugins that ran, in `active`.
void RunCycle(framework::Framework& framework, NodeResultCache& results,
              const framework::Snapshot& snapshot, const api::Pod& pod,
              framework::CycleState& state, std::vector<std::uint16_t>& active) {
  std::set<std::string, std::less<>> narrowed;
  REQUIRE(framework.RunPreFilterPlugins(state, pod, narrowed).second.IsSuccess());
  REQUIRE(results.PrepareFilter(framework, state, pod, snapshot, 0, snapshot.size()));
  std::vector<const framework::NodeInfo*> feasible;
  std::vector<std::size_t> indexes;
  for (std::size_t i = 0; i < snapshot.size(); ++i) {
    REQUIRE(results.Evaluate(i).IsSuccess());
    if (!results.feasible(i)) continue;
    feasible.push_back(snapshot.nodes()[i]);
    indexes.push_back(i);
  }
  REQUIRE(framework.RunPreScorePlugins(state, pod, feasible).IsSuccess());
  active = framework.ActiveScorePlugins(state);
  std::vector<std::vector<framework::NodeScore>> scores;
  const absl::StatusOr<bool> scored =
      results.RawScores(framework, state, pod, indexes, std::nullopt, active, scores);
  REQUIRE(scored.ok());
  REQUIRE(*scored);
}

TEST_CASE("NodeResultCache: a node changed in the snapshot outside the cache's update is caught",
          "[node_result_cache]") {
  // node-0: 2 cpu; node-1: 3 cpu; node-2: 4 cpu (PreferNoSchedule). Pods of kind 1 ask 700m.
  Runtime runtime(100);
  framework::Framework& framework = *runtime.framework;
  Cache cache;
  for (int i = 0; i < 3; ++i) cache.AddNode(MakeNode(i));
  framework::Snapshot snapshot;
  REQUIRE(cache.UpdateSnapshot(snapshot).ok());
  framework.SetSnapshot(&snapshot);
  NodeResultCache results;
  // The state is made stale on purpose below: query it instead of aborting (debug builds).
  results.set_verify_reuse(false);
  framework::CycleState first_state;
  std::vector<std::uint16_t> active;
  RunCycle(framework, results, snapshot, *MakePod(0, 1), first_state, active);
  REQUIRE(results.feasible(0));
  const std::int64_t seen_generation = snapshot.generation();
  std::vector<std::int64_t> seen_generations;
  for (const framework::NodeInfo* node : snapshot.nodes()) {
    seen_generations.push_back(node->generation());
  }

  // Three more kind-1 pods fill node-0 past its 2 cpu; one small pod changes node-2's score only.
  std::vector<framework::PodInfoPtr> added;
  for (int serial = 10; serial < 13; ++serial) {
    std::shared_ptr<api::Pod> pod = MakePod(serial, 1);
    pod->spec.node_name = "node-0";
    added.push_back(framework::PodInfo::CreateOrDie(pod));
  }
  std::shared_ptr<api::Pod> small = MakePod(13, 0);
  small->spec.node_name = "node-2";
  added.push_back(framework::PodInfo::CreateOrDie(small));

  framework::CycleState state;
  const std::shared_ptr<api::Pod> identical = MakePod(1, 1);
  SECTION("through the cache: the reused verdicts and scores are fresh") {
    for (const framework::PodInfoPtr& pod : added) REQUIRE(cache.AddPod(pod).ok());
    REQUIRE(cache.UpdateSnapshot(snapshot).ok());
    CHECK_FALSE(
        framework::FindUnrecordedChange(snapshot, seen_generation, seen_generations).has_value());
    RunCycle(framework, results, snapshot, *identical, state, active);
    CHECK(results.stats().reused_cycles == 1);
    CHECK_FALSE(results.feasible(0));
    CHECK(results.FindStaleVerdict(1, 0) == std::nullopt);
    const auto stale_score = results.FindStaleScore(framework, state, *identical, active, 1, 0);
    REQUIRE(stale_score.ok());
    CHECK(*stale_score == std::nullopt);
  }
  SECTION("straight into the snapshot: the checks name the stale node") {
    for (const framework::PodInfoPtr& pod : added) {
      snapshot.GetMutable(pod->pod().spec.node_name)->AddPod(pod);
    }
    // What debug builds assert before reusing anything.
    CHECK(framework::FindUnrecordedChange(snapshot, seen_generation, seen_generations) ==
          std::optional<std::size_t>(0));
    RunCycle(framework, results, snapshot, *identical, state, active);
    CHECK(results.stats().reused_cycles == 1);
    CHECK(results.feasible(0));  // the stale verdict: node-0 would be overcommitted
    const std::optional<std::string> stale_verdict = results.FindStaleVerdict(1, 0);
    REQUIRE(stale_verdict.has_value());
    CHECK_THAT(*stale_verdict, Catch::Contains("node-0") && Catch::Contains("Insufficient cpu"));
    // The sampled check: node 0 is in the sample from offset 0, not in the one from offset 1.
    CHECK(results.FindStaleVerdict(2, 1) == std::nullopt);
    const auto stale_score = results.FindStaleScore(framework, state, *identical, active, 1, 0);
    REQUIRE(stale_score.ok());
    REQUIRE(stale_score->has_value());
    // node-0 and node-2 changed; node-0's cached raw scores are the first found stale.
    CHECK_THAT(**stale_score, Catch::Contains("node-0"));
    const auto node_2 = results.FindStaleScore(framework, state, *identical, active, 2, 2);
    REQUIRE(node_2.ok());
    REQUIRE(node_2->has_value());
    CHECK_THAT(**node_2, Catch::Contains("node-2"));
  }
  SECTION("straight into the snapshot, checks on: debug builds abort before reusing") {
    results.set_verify_reuse(true);
    for (const framework::PodInfoPtr& pod : added) {
      snapshot.GetMutable(pod->pod().spec.node_name)->AddPod(pod);
    }
    const testing::ChildEnd end = testing::RunInChild([&] {
      std::set<std::string, std::less<>> narrowed;
      (void)framework.RunPreFilterPlugins(state, *identical, narrowed);
      (void)results.PrepareFilter(framework, state, *identical, snapshot, 0, snapshot.size());
    });
    if constexpr (framework::kDebugChecks) {
      CHECK(end.signaled);
      CHECK(end.signal == SIGABRT);
      CHECK_THAT(end.stderr_text,
                 Catch::Contains("broken invariant: NodeResultCache: node \"node-0\" changed in "
                                 "the snapshot"));
    } else {
      // Release builds compile the checks out: the stale verdict is reused silently.
      CHECK(end.exited);
      CHECK(end.exit_code == 0);
    }
  }
}

TEST_CASE("SameForScheduling: identity differs, anything plugins read does not",
          "[node_result_cache]") {
  const std::shared_ptr<api::Pod> a = MakePod(1, 0);
  std::shared_ptr<api::Pod> b = MakePod(2, 0);
  CHECK(SameForScheduling(*a, *b));
  b->metadata.labels.Set("extra", "1");
  CHECK_FALSE(SameForScheduling(*a, *b));
  b = MakePod(2, 0);
  b->metadata.namespace_ = "other";
  CHECK_FALSE(SameForScheduling(*a, *b));
  b = MakePod(2, 0);
  b->spec.priority = 5;
  CHECK_FALSE(SameForScheduling(*a, *b));
  CHECK_FALSE(SameForScheduling(*a, *MakePod(2, 1)));
}

}  // namespace
}  // namespace ksched::scheduler
