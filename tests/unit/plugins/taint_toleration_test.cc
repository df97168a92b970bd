// TaintToleration: ported from upstream tainttoleration/taint_toleration_test.go (v1.34.4).
#include "plugins/taint_toleration/taint_toleration.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fake_handle.h"
#include "test_objects.h"

namespace {

using ksched::api::Node;
using ksched::api::Pod;
using ksched::api::Taint;
using ksched::api::Toleration;
using ksched::framework::Code;
using ksched::framework::CycleState;
using ksched::framework::EnqueueExtensions;
using ksched::framework::EventObjects;
using ksched::framework::EventResource;
using ksched::framework::FilterPlugin;
using ksched::framework::NodeInfo;
using ksched::framework::NodeScore;
using ksched::framework::QueueingHint;
using ksched::framework::ScorePlugin;
using ksched::framework::Status;
namespace action = ksched::framework::action;
namespace taint_toleration = ksched::plugins::taint_toleration;
using ksched::plugins::testing::Build;
using ksched::plugins::testing::FakeHandle;
using ksched::plugins::testing::MakeNode;
using ksched::plugins::testing::MakeNodeInfo;
using ksched::plugins::testing::MakePod;

std::shared_ptr<Node> NodeWithTaints(std::string name, std::vector<Taint> taints) {
  auto node = MakeNode(std::move(name));
  node->spec.taints = std::move(taints);
  return node;
}

Pod PodWithTolerations(std::vector<Toleration> tolerations) {
  auto pod = MakePod("pod1");
  pod.spec.tolerations = std::move(tolerations);
  return pod;
}

// PreScore, Score every node, NormalizeScore: the final scores in node order.
std::vector<std::int64_t> Scores(const Pod& pod, const std::vector<std::shared_ptr<Node>>& nodes) {
  FakeHandle handle;
  auto plugin = Build<taint_toleration::TaintToleration>(taint_toleration::New, nullptr, handle);
  std::vector<NodeInfo> infos;
  for (const auto& node : nodes) infos.push_back(MakeNodeInfo(node));
  std::vector<const NodeInfo*> feasible;
  for (const NodeInfo& info : infos) feasible.push_back(&info);

  CycleState state;
  REQUIRE(plugin->PreScore(state, pod, feasible).IsSuccess());
  std::vector<NodeScore> scores;
  for (const NodeInfo* info : feasible) {
    auto [score, status] = plugin->Score(state, pod, *info);
    REQUIRE(status.IsSuccess());
    scores.push_back(NodeScore{info, score});
  }
  REQUIRE(plugin->GetScoreExtensions() != nullptr);
  REQUIRE(plugin->GetScoreExtensions()->NormalizeScore(state, pod, scores).IsSuccess());
  std::vector<std::int64_t> out;
  for (const NodeScore& score : scores) out.push_back(score.score);
  return out;
}

TEST_CASE("TaintToleration scores fewer intolerable PreferNoSchedule taints higher",
          "[plugins][taint_toleration]") {
  using V = std::vector<std::int64_t>;
  SECTION("a node whose taints are tolerated beats one with intolerable taints") {
    const auto pod = PodWithTolerations({{"foo", "Equal", "bar", "PreferNoSchedule", {}}});
    CHECK(Scores(pod, {NodeWithTaints("nodeA", {{"foo", "bar", "PreferNoSchedule", {}}}),
                       NodeWithTaints("nodeB", {{"foo", "blah", "PreferNoSchedule", {}}})}) ==
          V{100, 0});
  }
  SECTION("the number of tolerated taints does not matter") {
    const auto pod = PodWithTolerations({{"cpu-type", "Equal", "arm64", "PreferNoSchedule", {}},
                                         {"disk-type", "Equal", "ssd", "PreferNoSchedule", {}}});
    CHECK(Scores(pod, {NodeWithTaints("nodeA", {}),
                       NodeWithTaints("nodeB", {{"cpu-type", "arm64", "PreferNoSchedule", {}}}),
                       NodeWithTaints("nodeC", {{"cpu-type", "arm64", "PreferNoSchedule", {}},
                                                {"disk-type", "ssd", "PreferNoSchedule", {}}})}) ==
          V{100, 100, 100});
  }
  SECTION("the more intolerable taints, the lower the score") {
    const auto pod = PodWithTolerations({{"foo", "Equal", "bar", "PreferNoSchedule", {}}});
    CHECK(Scores(pod, {NodeWithTaints("nodeA", {}),
                       NodeWithTaints("nodeB", {{"cpu-type", "arm64", "PreferNoSchedule", {}}}),
                       NodeWithTaints("nodeC", {{"cpu-type", "arm64", "PreferNoSchedule", {}},
                                                {"disk-type", "ssd", "PreferNoSchedule", {}}})}) ==
          V{100, 50, 0});
  }
  SECTION("only PreferNoSchedule taints and tolerations count") {
    const auto pod = PodWithTolerations({{"cpu-type", "Equal", "arm64", "NoSchedule", {}},
                                         {"disk-type", "Equal", "ssd", "NoSchedule", {}}});
    CHECK(Scores(pod, {NodeWithTaints("nodeA", {}),
                       NodeWithTaints("nodeB", {{"cpu-type", "arm64", "NoSchedule", {}}}),
                       NodeWithTaints("nodeC", {{"cpu-type", "arm64", "PreferNoSchedule", {}},
                                                {"disk-type", "ssd", "PreferNoSchedule", {}}})}) ==
          V{100, 100, 0});
  }
  SECTION("no tolerations: the untainted node wins") {
    CHECK(Scores(PodWithTolerations({}),
                 {NodeWithTaints("nodeA", {}),
                  NodeWithTaints("nodeB", {{"cpu-type", "arm64", "PreferNoSchedule", {}}})}) ==
          V{100, 0});
  }
  SECTION("a toleration without effect tolerates PreferNoSchedule taints") {
    const auto pod = PodWithTolerations({{"cpu-type", "Exists", "", "", {}}});
    CHECK(Scores(pod, {NodeWithTaints("nodeA", {{"cpu-type", "arm64", "PreferNoSchedule", {}}}),
                       NodeWithTaints("nodeB", {{"other", "x", "PreferNoSchedule", {}}})}) ==
          V{100, 0});
  }
}

TEST_CASE("TaintToleration Score without PreScore is an error", "[plugins][taint_toleration]") {
  FakeHandle handle;
  auto plugin = Build<ScorePlugin>(taint_toleration::New, nullptr, handle);
  CycleState state;
  auto [score, status] = plugin->Score(state, MakePod("p"), MakeNodeInfo(MakeNode("n")));
  CHECK(score == 0);
  CHECK(status.code() == Code::kError);
  CHECK(status.Message() == "failed to read \"PreScoreTaintToleration\" from cycleState: not found");
}

TEST_CASE("TaintToleration filters nodes with untolerated NoSchedule/NoExecute taints",
          "[plugins][taint_toleration]") {
  FakeHandle handle;
  auto plugin = Build<FilterPlugin>(taint_toleration::New, nullptr, handle);
  CHECK(plugin->Name() == "TaintToleration");
  const Status rejected(Code::kUnschedulableAndUnresolvable, {"node(s) had untolerated taint(s)"});

  struct Row {
    const char* name;
    std::vector<Toleration> tolerations;
    std::vector<Taint> taints;
    bool fits;
  };
  const std::vector<Row> rows = {
      {"no tolerations, a NoSchedule taint", {}, {{"dedicated", "user1", "NoSchedule", {}}}, false},
      {"a matching toleration", {{"dedicated", "", "user1", "NoSchedule", {}}},
       {{"dedicated", "user1", "NoSchedule", {}}}, true},
      {"a toleration of another value", {{"dedicated", "Equal", "user2", "NoSchedule", {}}},
       {{"dedicated", "user1", "NoSchedule", {}}}, false},
      {"Exists tolerates any value", {{"foo", "Exists", "", "NoSchedule", {}}},
       {{"foo", "bar", "NoSchedule", {}}}, true},
      {"several tolerations cover several taints",
       {{"dedicated", "Equal", "user2", "NoSchedule", {}}, {"foo", "Exists", "", "NoSchedule", {}}},
       {{"dedicated", "user2", "NoSchedule", {}}, {"foo", "bar", "NoSchedule", {}}}, true},
      {"matching key and value, different effect",
       {{"foo", "Equal", "bar", "PreferNoSchedule", {}}}, {{"foo", "bar", "NoSchedule", {}}}, false},
      {"empty toleration effect matches NoSchedule", {{"foo", "Equal", "bar", "", {}}},
       {{"foo", "bar", "NoSchedule", {}}}, true},
      {"PreferNoSchedule taints never filter", {{"dedicated", "Equal", "user2", "NoSchedule", {}}},
       {{"dedicated", "user1", "PreferNoSchedule", {}}}, true},
      {"no tolerations, only a PreferNoSchedule taint", {},
       {{"dedicated", "user1", "PreferNoSchedule", {}}}, true},
      {"NoExecute taints filter too", {}, {{"evict", "", "NoExecute", {}}}, false},
  };
  CycleState state;
  for (const Row& row : rows) {
    CAPTURE(row.name);
    const Status status = plugin->Filter(state, PodWithTolerations(row.tolerations),
                                         MakeNodeInfo(NodeWithTaints("nodeA", row.taints)));
    if (row.fits) {
      CHECK(status.IsSuccess());
    } else {
      CHECK(status == rejected);
    }
  }
}

TEST_CASE("TaintToleration registers node taint changes and pod toleration updates",
          "[plugins][taint_toleration]") {
  FakeHandle handle;
  auto plugin = Build<EnqueueExtensions>(taint_toleration::New, nullptr, handle);
  const auto events = plugin->EventsToRegister();
  REQUIRE(events.size() == 2);
  CHECK(events[0].event.resource == EventResource::kNode);
  CHECK(events[0].event.action == (action::kAdd | action::kUpdateNodeTaint));
  CHECK(events[0].hint != nullptr);
  CHECK(events[1].event.resource == EventResource::kPod);
  CHECK(events[1].event.action == action::kUpdatePodToleration);
  CHECK(events[1].hint != nullptr);
}

TEST_CASE("TaintToleration node hint queues when the node stops having an untolerated taint",
          "[plugins][taint_toleration]") {
  const auto pod = PodWithTolerations({{"dedicated", "Equal", "user2", "NoSchedule", {}}});
  const auto user1 = NodeWithTaints("nodeA", {{"dedicated", "user1", "NoSchedule", {}}});
  const auto user2 = NodeWithTaints("nodeA", {{"dedicated", "user2", "NoSchedule", {}}});
  const auto user1_and_3 = NodeWithTaints(
      "nodeA", {{"dedicated", "user1", "NoSchedule", {}}, {"dedicated", "user3", "NoSchedule", {}}});

  struct Row {
    const char* name;
    const Node* old_node;
    const Node* new_node;
    QueueingHint want;
  };
  const Row rows[] = {
      {"skip a node added with an untolerated taint", nullptr, user1.get(),
       QueueingHint::kQueueSkip},
      {"queue a node added with tolerated taints", nullptr, user2.get(), QueueingHint::kQueue},
      {"skip an unrelated change", user1.get(), user1_and_3.get(), QueueingHint::kQueueSkip},
      {"queue a taint change that makes the node tolerated", user1.get(), user2.get(),
       QueueingHint::kQueue},
      {"skip a node that was already tolerated", user2.get(), user2.get(),
       QueueingHint::kQueueSkip},
  };
  for (const Row& row : rows) {
    CAPTURE(row.name);
    auto hint = taint_toleration::IsSchedulableAfterNodeChange(
        pod, EventObjects{nullptr, nullptr, row.old_node, row.new_node});
    REQUIRE(hint.ok());
    CHECK(*hint == row.want);
  }
  CHECK_FALSE(taint_toleration::IsSchedulableAfterNodeChange(pod, EventObjects{}).ok());
}

TEST_CASE("TaintToleration pod hint queues only the pod's own toleration change",
          "[plugins][taint_toleration]") {
  const auto pod = MakePod("pod-1", "uid0");
  auto other = MakePod("pod-2", "uid1");
  other.spec.tolerations = {{"foo", "", "", "NoSchedule", {}}};
  auto self = pod;
  self.spec.tolerations = {{"foo", "", "", "NoSchedule", {}}};

  auto skip = taint_toleration::IsSchedulableAfterPodTolerationChange(
      pod, EventObjects{&other, &other, nullptr, nullptr});
  REQUIRE(skip.ok());
  CHECK(*skip == QueueingHint::kQueueSkip);
  auto queue = taint_toleration::IsSchedulableAfterPodTolerationChange(
      pod, EventObjects{&pod, &self, nullptr, nullptr});
  REQUIRE(queue.ok());
  CHECK(*queue == QueueingHint::kQueue);
  CHECK_FALSE(taint_toleration::IsSchedulableAfterPodTolerationChange(pod, EventObjects{}).ok());
}

TEST_CASE("TaintToleration PreFilter is Success in v1.37.2, its deferred-resize Skip being alpha",
          "[plugins][taint_toleration]") {
  FakeHandle handle;
  auto plugin = Build<ksched::framework::PreFilterPlugin>(taint_toleration::New, nullptr, handle);
  ksched::framework::CycleState state;
  const auto [result, status] = plugin->PreFilter(state, MakePod("p"), {});
  CHECK(status.IsSuccess());
  CHECK(result.AllNodes());
}

}  // namespace
