// ScheduleAlgorithm: the placement decision of one cycle (upstream schedule_one_test.go, v1.34:
// TestNumFeasibleNodesToFind, TestFairEvaluationForNodes, TestPreferNominatedNodeFilterCallCounts,
// TestSchedulerSchedulePod's PreFilter cases, TestSelectHost), run on real framework runtimes built
// from fake plugins and snapshots built from objects.
#include "scheduler/schedule_algorithm.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "framework/parallelizer.h"
#include "framework/snapshot.h"
#include "queue_test_support.h"
#include "schedule_algorithm_support.h"
#include "scheduling_loop_fakes.h"

namespace ksched::scheduler {
namespace {

using framework::Code;
using framework::NodeInfo;
using framework::PreFilterResult;
using framework::Status;
using testing::Numbered;
using testing::PodBuilder;
using testing::ProfileBuilder;
using NodeNames = std::set<std::string, std::less<>>;
using FakeFilterFn = testing::FakeFilter::Fn;

using Services = testing::AlgorithmServices;
using testing::Schedule;
using testing::SnapshotOf;

Status TrueFilter(const api::Pod&, const NodeInfo&) { return Status(); }
std::int64_t EqualScore(const api::Pod&, const NodeInfo&) { return 1; }

// upstream FakeFilterPlugin's rejection text.
Status Injected(Code code, const api::Pod& pod) {
  return Status(code, {"injecting failure for pod " + pod.metadata.name});
}

// A filter counting its calls (the parallelizer's workers call it concurrently).
FakeFilterFn CountingFilter(std::atomic<int>& calls, std::set<std::string> reject = {}) {
  return [&calls, reject](const api::Pod& pod, const NodeInfo& node) {
    calls.fetch_add(1, std::memory_order_relaxed);
    return reject.count(node.name()) > 0 ? Injected(Code::kUnschedulable, pod) : Status();
  };
}

TEST_CASE("NumFeasibleNodesToFind: upstream TestNumFeasibleNodesToFind", "[schedule_algorithm]") {
  struct Case {
    const char* name;
    std::int32_t global;
    std::optional<std::int32_t> profile;
    std::int32_t num_all_nodes;
    std::int32_t want;
  };
  const std::vector<Case> cases = {
      {"not set percentageOfNodesToScore and nodes number not more than 50", 0, std::nullopt, 10, 10},
      {"set profile percentageOfNodesToScore and nodes number not more than 50", 0, 40, 10, 10},
      {"not set percentageOfNodesToScore and nodes number more than 50", 0, std::nullopt, 1000, 420},
      {"set profile percentageOfNodesToScore and nodes number more than 50", 0, 40, 1000, 400},
      {"set global and profile percentageOfNodesToScore and nodes number more than 50", 100, 40,
       1000, 400},
      {"set global percentageOfNodesToScore and nodes number more than 50", 40, std::nullopt, 1000,
       400},
      {"not set profile percentageOfNodesToScore and nodes number more than 50*125", 0,
       std::nullopt, 6000, 300},
      {"set profile percentageOfNodesToScore and nodes number more than 50*125", 0, 40, 6000, 2400},
      // Below the minimum of 100 every node is searched; above it, never fewer than 100.
      {"99 nodes", 10, std::nullopt, 99, 99},
      {"100 nodes at 10%", 10, std::nullopt, 100, 100},
      {"adaptive floor of 5%", 0, std::nullopt, 100000, 5000},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    // The profile's percentage wins over the global one (as the algorithm resolves it).
    CHECK(NumFeasibleNodesToFind(c.profile.value_or(c.global), c.num_all_nodes) == c.want);
  }
}

TEST_CASE("SchedulePod: Filter stops once enough feasible nodes are found (adaptive sampling)",
          "[schedule_algorithm]") {
  Services services;
  std::atomic<int> calls{0};
  const auto snapshot = SnapshotOf(1000);
  const api::Pod pod = PodBuilder("p").Obj();

  struct Case {
    const char* name;
    std::int32_t global;
    std::optional<std::int32_t> profile;
    int want;
  };
  for (const Case& c : {Case{"adaptive: 50 - 1000/125 = 42%", 0, std::nullopt, 420},
                        Case{"the profile's 40% over the global 100%", 100, 40, 400},
                        Case{"the global 30%", 30, std::nullopt, 300}}) {
    INFO(c.name);
    calls = 0;
    ProfileBuilder builder;
    builder.Filter("TrueFilter", CountingFilter(calls)).Score("EqualScore", EqualScore);
    if (c.profile) builder.PercentageOfNodesToScore(*c.profile);
    auto framework = builder.Build(services.Get());
    ScheduleAlgorithm algorithm(c.global, 1);
    const ScheduleOutcome outcome = Schedule(algorithm, *framework, *snapshot, pod);
    REQUIRE(outcome.status.IsSuccess());
    CHECK(outcome.result.feasible_nodes == c.want);
    CHECK(outcome.result.evaluated_nodes == c.want);
    CHECK(algorithm.next_start_node_index() == static_cast<std::size_t>(c.want));
    // Workers finish the chunks they started, but the rest of the nodes is never filtered.
    CHECK(calls >= c.want);
    CHECK(calls < 1000);
  }
}

TEST_CASE("SchedulePod: the search starts where the previous one stopped (upstream "
          "TestFairEvaluationForNodes)",
          "[schedule_algorithm]") {
  Services services;
  const int num_all_nodes = 500;
  const auto snapshot = SnapshotOf(num_all_nodes, "");
  auto framework = ProfileBuilder()
                       .Filter("TrueFilter", TrueFilter)
                       .Score("EqualScore", EqualScore)
                       .Build(services.Get());
  // 30% so that numAllNodes % nodesToFind != 0 and the index wraps.
  ScheduleAlgorithm algorithm(30, 1);
  const int nodes_to_find = NumFeasibleNodesToFind(30, num_all_nodes);
  REQUIRE(nodes_to_find == 150);
  for (int i = 0; i < 2 * (num_all_nodes / nodes_to_find + 1); ++i) {
    INFO("iteration " << i);
    const ScheduleOutcome outcome = Schedule(algorithm, *framework, *snapshot, api::Pod{});
    REQUIRE(outcome.status.IsSuccess());
    CHECK(outcome.result.feasible_nodes == nodes_to_find);
    CHECK(algorithm.next_start_node_index() ==
          static_cast<std::size_t>((i + 1) * nodes_to_find % num_all_nodes));
  }
}

TEST_CASE("SchedulePod: rejected nodes count as processed for the next start index",
          "[schedule_algorithm]") {
  Services services;
  const auto snapshot = SnapshotOf(200, "");
  // Every third node is rejected; 50% of 200 = 100 feasible nodes are wanted.
  auto framework = ProfileBuilder()
                       .Filter("FakeFilter",
                               [](const api::Pod& pod, const NodeInfo& node) {
                                 return std::stoi(node.name()) % 3 == 0
                                            ? Injected(Code::kUnschedulable, pod)
                                            : Status();
                               })
                       .Score("EqualScore", EqualScore)
                       .Build(services.Get());
  ScheduleAlgorithm algorithm(50, 1);
  std::size_t start = 0;
  for (int i = 0; i < 4; ++i) {
    const ScheduleOutcome outcome = Schedule(algorithm, *framework, *snapshot, api::Pod{});
    REQUIRE(outcome.status.IsSuccess());
    CHECK(outcome.result.feasible_nodes == 100);
    // Finding 100 feasible nodes in (nearly) contiguous runs meant passing ~50 rejected ones.
    CHECK(outcome.result.evaluated_nodes > 130);
    start = (start + static_cast<std::size_t>(outcome.result.evaluated_nodes)) % 200;
    CHECK(algorithm.next_start_node_index() == start);
  }
}

TEST_CASE("SchedulePod: the highest total score wins, ties are broken uniformly",
          "[schedule_algorithm]") {
  Services services;
  const auto snapshot = SnapshotOf(3);
  const api::Pod pod = PodBuilder("p").Obj();
  auto run = [&](std::map<std::string, std::int64_t> scores, int runs) {
    auto framework = ProfileBuilder()
                         .Filter("TrueFilter", TrueFilter)
                         .Score("FakeScore",
                                [scores](const api::Pod&, const NodeInfo& node) {
                                  return scores.at(node.name());
                                })
                         .Build(services.Get());
    ScheduleAlgorithm algorithm(0, 42);
    std::map<std::string, int> picked;
    for (int i = 0; i < runs; ++i) {
      const ScheduleOutcome outcome = Schedule(algorithm, *framework, *snapshot, pod);
      REQUIRE(outcome.status.IsSuccess());
      ++picked[outcome.result.suggested_host];
    }
    return picked;
  };

  SECTION("one maximum") {
    CHECK(run({{"node1", 10}, {"node2", 50}, {"node3", 30}}, 100) ==
          std::map<std::string, int>{{"node2", 100}});
  }
  SECTION("three tied nodes: each about a third of 3000 picks") {
    const std::map<std::string, int> picked = run({{"node1", 7}, {"node2", 7}, {"node3", 7}}, 3000);
    REQUIRE(picked.size() == 3);
    for (const auto& [node, count] : picked) {
      INFO(node);
      // Expected 1000, standard deviation ~26: a biased tie-break (always first, or last) fails.
      CHECK(count > 850);
      CHECK(count < 1150);
    }
  }
  SECTION("two tied maxima: the lower node never, the tied ones about half each") {
    const std::map<std::string, int> picked = run({{"node1", 70}, {"node2", 20}, {"node3", 70}}, 3000);
    CHECK(picked.count("node2") == 0);
    CHECK(picked.at("node1") > 1350);
    CHECK(picked.at("node3") > 1350);
  }
}

TEST_CASE("SchedulePod: a PreFilter rejection is a FitError with the PreFilter message",
          "[schedule_algorithm]") {
  Services services;
  std::atomic<int> calls{0};
  const auto snapshot = SnapshotOf(3);
  const api::Pod pod = PodBuilder("test-prefilter").Obj();
  const std::string message = "Node(s) failed PreFilter plugin FalsePreFilter";

  for (Code code : {Code::kUnschedulable, Code::kUnschedulableAndUnresolvable}) {
    INFO(framework::CodeName(code));
    auto framework = ProfileBuilder()
                         .PreFilter("FakePreFilter",
                                    [&](const api::Pod&) {
                                      return std::make_pair(PreFilterResult{}, Status(code, {message}));
                                    })
                         .Filter("FakeFilter", CountingFilter(calls))
                         .Build(services.Get());
    ScheduleAlgorithm algorithm(0, 1);
    const ScheduleOutcome outcome = Schedule(algorithm, *framework, *snapshot, pod);
    CHECK(outcome.status.code() == Code::kUnschedulable);
    REQUIRE(outcome.fit_error.has_value());
    const Diagnosis& diagnosis = outcome.fit_error->diagnosis;
    CHECK(outcome.fit_error->num_all_nodes == 3);
    CHECK(diagnosis.pre_filter_msg == message);
    CHECK(diagnosis.unschedulable_plugins == NodeNames{"FakePreFilter"});
    // Every node has the PreFilter's status (for preemption).
    CHECK(diagnosis.node_to_status.size() == 0);
    CHECK(diagnosis.node_to_status.absent_status() == Status(code, {message}));
    CHECK(outcome.fit_error->Message() ==
          "0/3 nodes are available: Node(s) failed PreFilter plugin FalsePreFilter.");
    CHECK(outcome.status.Message() == outcome.fit_error->Message());
    CHECK(calls == 0);
  }
}

TEST_CASE("SchedulePod: PreFilter errors and empty intersections", "[schedule_algorithm]") {
  Services services;
  const api::Pod pod = PodBuilder("test-prefilter").Obj();
  auto narrowing = [](NodeNames names) {
    return [names](const api::Pod&) {
      return std::make_pair(PreFilterResult{names}, Status());
    };
  };

  SECTION("an error is an error, not a FitError") {
    const auto snapshot = SnapshotOf(3);
    auto framework = ProfileBuilder()
                         .PreFilter("FakePreFilter",
                                    [](const api::Pod&) {
                                      return std::make_pair(PreFilterResult{},
                                                            Status::FromError("injected error status"));
                                    })
                         .Build(services.Get());
    ScheduleAlgorithm algorithm(0, 1);
    const ScheduleOutcome outcome = Schedule(algorithm, *framework, *snapshot, pod);
    CHECK(outcome.status.code() == Code::kError);
    CHECK(outcome.status.Message() ==
          "running PreFilter plugin \"FakePreFilter\": injected error status");
    CHECK_FALSE(outcome.fit_error.has_value());
  }
  SECTION("plugins returning non-intersecting nodes") {
    const auto snapshot = SnapshotOf(3);
    auto framework = ProfileBuilder()
                         .PreFilter("FakePreFilter1",
                                    [](const api::Pod&) {
                                      return std::make_pair(PreFilterResult{}, Status());
                                    })
                         .PreFilter("FakePreFilter2", narrowing({"node2"}))
                         .PreFilter("FakePreFilter3", narrowing({"node1"}))
                         .Build(services.Get());
    ScheduleAlgorithm algorithm(0, 1);
    const ScheduleOutcome outcome = Schedule(algorithm, *framework, *snapshot, pod);
    REQUIRE(outcome.fit_error.has_value());
    CHECK(outcome.fit_error->diagnosis.unschedulable_plugins ==
          NodeNames{"FakePreFilter2", "FakePreFilter3"});
    CHECK(outcome.status.Message() ==
          "0/3 nodes are available: node(s) didn't satisfy plugin(s) [FakePreFilter2 "
          "FakePreFilter3] simultaneously.");
  }
  SECTION("one plugin returning no node") {
    const auto snapshot = SnapshotOf(1);
    auto framework =
        ProfileBuilder().PreFilter("FakePreFilter2", narrowing({})).Build(services.Get());
    ScheduleAlgorithm algorithm(0, 1);
    const ScheduleOutcome outcome = Schedule(algorithm, *framework, *snapshot, pod);
    REQUIRE(outcome.fit_error.has_value());
    CHECK(outcome.fit_error->diagnosis.unschedulable_plugins == NodeNames{"FakePreFilter2"});
    CHECK(outcome.status.Message() ==
          "0/1 nodes are available: node(s) didn't satisfy plugin FakePreFilter2.");
  }
}

TEST_CASE("SchedulePod: nodes a PreFilter left out count under \"node(s) didn't satisfy plugin(s)\"",
          "[schedule_algorithm]") {
  Services services;
  const api::Pod pod = PodBuilder("test-prefilter").Obj();
  auto narrowing = [](NodeNames names) {
    return [names](const api::Pod&) {
      return std::make_pair(PreFilterResult{names}, Status());
    };
  };

  SECTION("only unknown nodes") {
    const auto snapshot = SnapshotOf(2);
    auto framework = ProfileBuilder()
                         .PreFilter("FakePreFilter", narrowing({"invalid-node"}))
                         .Filter("TrueFilter", TrueFilter)
                         .Build(services.Get());
    ScheduleAlgorithm algorithm(0, 1);
    const ScheduleOutcome outcome = Schedule(algorithm, *framework, *snapshot, pod);
    CHECK(outcome.status.code() == Code::kUnschedulable);
    REQUIRE(outcome.fit_error.has_value());
    const Diagnosis& diagnosis = outcome.fit_error->diagnosis;
    CHECK(diagnosis.pre_filter_msg.empty());
    CHECK(diagnosis.unschedulable_plugins == NodeNames{"FakePreFilter"});
    CHECK(diagnosis.node_to_status.absent_status() ==
          Status(Code::kUnschedulableAndUnresolvable,
                 {"node(s) didn't satisfy plugin(s) [FakePreFilter]"}));
    CHECK(outcome.status.Message() ==
          "0/2 nodes are available: 2 node(s) didn't satisfy plugin(s) [FakePreFilter].");
  }
  SECTION("some nodes left out by PreFilter, the others rejected by Filter") {
    const auto snapshot = SnapshotOf(2);
    auto framework = ProfileBuilder()
                         .PreFilter("FakePreFilter", narrowing({"node2"}))
                         .Filter("FakeFilter",
                                 [](const api::Pod& p, const NodeInfo& node) {
                                   return node.name() == "node2" ? Injected(Code::kUnschedulable, p)
                                                                 : Status();
                                 })
                         .Build(services.Get());
    ScheduleAlgorithm algorithm(0, 1);
    const ScheduleOutcome outcome = Schedule(algorithm, *framework, *snapshot, pod);
    REQUIRE(outcome.fit_error.has_value());
    CHECK(outcome.fit_error->diagnosis.unschedulable_plugins ==
          NodeNames{"FakeFilter", "FakePreFilter"});
    CHECK(outcome.status.Message() ==
          "0/2 nodes are available: 1 injecting failure for pod test-prefilter, 1 node(s) didn't "
          "satisfy plugin(s) [FakePreFilter].");
  }
  SECTION("only the narrowed nodes are filtered and scored") {
    const auto snapshot = SnapshotOf(3);
    std::atomic<int> calls{0};
    auto framework = ProfileBuilder()
                         .PreFilter("FakePreFilter", narrowing({"node1", "node2"}))
                         .Filter("TrueFilter", CountingFilter(calls))
                         .Score("EqualScore", EqualScore)
                         .Build(services.Get());
    ScheduleAlgorithm algorithm(0, 1);
    for (int i = 0; i < 20; ++i) {
      const ScheduleOutcome outcome = Schedule(algorithm, *framework, *snapshot, pod);
      REQUIRE(outcome.status.IsSuccess());
      CHECK(outcome.result.suggested_host != "node3");
      CHECK(outcome.result.evaluated_nodes == 2);
    }
    CHECK(calls == 40);
  }
}

TEST_CASE("SchedulePod: the nominated node is filtered first (upstream "
          "TestPreferNominatedNodeFilterCallCounts)",
          "[schedule_algorithm]") {
  Services services;
  const auto snapshot = SnapshotOf(3);
  struct Case {
    const char* name;
    std::string nominated;
    std::set<std::string> rejected;
    int want_calls;
    std::set<std::string> want_hosts;
  };
  const std::vector<Case> cases = {
      {"pod has the nominated node set, filter is called only once", "node1", {}, 1, {"node1"}},
      {"pod without the nominated pod, filter is called for each node", "", {}, 3,
       {"node1", "node2", "node3"}},
      {"nominated pod cannot pass the filter, filter is called for each node", "node1", {"node1"},
       4, {"node2", "node3"}},
      {"nominated node unknown: the normal search", "gone", {}, 3, {"node1", "node2", "node3"}},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    std::atomic<int> calls{0};
    auto framework = ProfileBuilder()
                         .Filter("FakeFilter", CountingFilter(calls, c.rejected))
                         .Score("EqualScore", EqualScore)
                         .Build(services.Get());
    ScheduleAlgorithm algorithm(0, 1);
    const ScheduleOutcome outcome =
        Schedule(algorithm, *framework, *snapshot, PodBuilder("p").NominatedNode(c.nominated).Obj());
    REQUIRE(outcome.status.IsSuccess());
    CHECK(calls == c.want_calls);
    CHECK(c.want_hosts.count(outcome.result.suggested_host) == 1);
  }
}

TEST_CASE("SchedulePod: no nodes at all", "[schedule_algorithm]") {
  Services services;
  const auto snapshot = SnapshotOf(0);
  auto framework = ProfileBuilder().Filter("TrueFilter", TrueFilter).Build(services.Get());
  ScheduleAlgorithm algorithm(0, 1);
  const ScheduleOutcome outcome = Schedule(algorithm, *framework, *snapshot, PodBuilder("p").Obj());
  CHECK(outcome.status.code() == Code::kUnschedulableAndUnresolvable);
  CHECK(outcome.status.Message() == "no nodes available to schedule pods");
  CHECK_FALSE(outcome.fit_error.has_value());
  REQUIRE(outcome.result.nominating_info.has_value());
  CHECK(outcome.result.nominating_info->mode == framework::NominatingMode::kOverride);
  CHECK(outcome.result.nominating_info->nominated_node_name.empty());
}

TEST_CASE("SchedulePod: without Score plugins one feasible node is enough", "[schedule_algorithm]") {
  Services services;
  const auto snapshot = SnapshotOf(3);
  const api::Pod pod = PodBuilder("p").Obj();

  SECTION("with a Filter plugin") {
    auto framework = ProfileBuilder().Filter("TrueFilter", TrueFilter).Build(services.Get());
    ScheduleAlgorithm algorithm(0, 1);
    const ScheduleOutcome outcome = Schedule(algorithm, *framework, *snapshot, pod);
    REQUIRE(outcome.status.IsSuccess());
    CHECK(outcome.result.feasible_nodes == 1);
    CHECK(outcome.result.evaluated_nodes == 1);
  }
  SECTION("without Filter plugins, PreFilter narrowing to 2 nodes: the round-robin picks") {
    auto framework = ProfileBuilder()
                         .PreFilter("FakePreFilter",
                                    [](const api::Pod&) {
                                      return std::make_pair(
                                          PreFilterResult{NodeNames{"node1", "node2"}}, Status());
                                    })
                         .Build(services.Get());
    ScheduleAlgorithm algorithm(0, 1);
    std::vector<std::string> hosts;
    for (int i = 0; i < 3; ++i) {
      const ScheduleOutcome outcome = Schedule(algorithm, *framework, *snapshot, pod);
      REQUIRE(outcome.status.IsSuccess());
      CHECK(outcome.result.evaluated_nodes == 1);
      hosts.push_back(outcome.result.suggested_host);
    }
    CHECK(hosts == std::vector<std::string>{"node1", "node2", "node1"});
  }
}

TEST_CASE("SchedulePod: a single feasible node is taken without scoring", "[schedule_algorithm]") {
  Services services;
  const auto snapshot = SnapshotOf(3);
  std::atomic<int> filter_calls{0};
  std::atomic<int> score_calls{0};
  auto framework = ProfileBuilder()
                       .Filter("FakeFilter", CountingFilter(filter_calls, {"node1", "node3"}))
                       .Score("FakeScore",
                              [&](const api::Pod&, const NodeInfo&) {
                                score_calls.fetch_add(1);
                                return std::int64_t{1};
                              })
                       .Build(services.Get());
  ScheduleAlgorithm algorithm(0, 1);
  const ScheduleOutcome outcome = Schedule(algorithm, *framework, *snapshot, PodBuilder("p").Obj());
  REQUIRE(outcome.status.IsSuccess());
  CHECK(outcome.result.suggested_host == "node2");
  CHECK(outcome.result.feasible_nodes == 1);
  CHECK(outcome.result.evaluated_nodes == 3);
  CHECK(score_calls == 0);
}

TEST_CASE("SchedulePod: Filter and PreScore errors", "[schedule_algorithm]") {
  Services services;
  const auto snapshot = SnapshotOf(3);
  const api::Pod pod = PodBuilder("p").Obj();

  SECTION("Filter") {
    auto framework = ProfileBuilder()
                         .Filter("FakeFilter",
                                 [](const api::Pod&, const NodeInfo&) {
                                   return Status::FromError("injected filter error");
                                 })
                         .Build(services.Get());
    ScheduleAlgorithm algorithm(0, 1);
    const ScheduleOutcome outcome = Schedule(algorithm, *framework, *snapshot, pod);
    CHECK(outcome.status.code() == Code::kError);
    CHECK(outcome.status.Message() == "running \"FakeFilter\" filter plugin: injected filter error");
    CHECK_FALSE(outcome.fit_error.has_value());
  }
  SECTION("PreScore") {
    auto framework = ProfileBuilder()
                         .Filter("TrueFilter", TrueFilter)
                         .PreScore("FakePreScore",
                                   [](const api::Pod&) { return Status::FromError("boom"); })
                         .Score("EqualScore", EqualScore)
                         .Build(services.Get());
    ScheduleAlgorithm algorithm(0, 1);
    const ScheduleOutcome outcome = Schedule(algorithm, *framework, *snapshot, pod);
    CHECK(outcome.status.code() == Code::kError);
    CHECK(outcome.status.Message() == "running PreScore plugin \"FakePreScore\": boom");
  }
}

}  // namespace
}  // namespace ksched::scheduler
