// NodeUnschedulable: ported from upstream nodeunschedulable/node_unschedulable_test.go (v1.34.4).
#include "plugins/node_unschedulable/node_unschedulable.h"

#include <catch2/catch.hpp>
#include <memory>

#include "fake_handle.h"
#include "test_objects.h"

namespace {

using ksched::api::Node;
using ksched::api::Taint;
using ksched::api::Toleration;
using ksched::framework::Code;
using ksched::framework::CycleState;
using ksched::framework::EnqueueExtensions;
using ksched::framework::EventObjects;
using ksched::framework::EventResource;
using ksched::framework::FilterPlugin;
using ksched::framework::NodeInfo;
using ksched::framework::QueueingHint;
using ksched::framework::Status;
namespace action = ksched::framework::action;
namespace node_unschedulable = ksched::plugins::node_unschedulable;
using ksched::plugins::testing::Build;
using ksched::plugins::testing::FakeHandle;
using ksched::plugins::testing::MakeNode;
using ksched::plugins::testing::MakeNodeInfo;
using ksched::plugins::testing::MakePod;

const Toleration kToleratesUnschedulable{"node.kubernetes.io/unschedulable", "Exists", "",
                                         "NoSchedule", {}};

std::shared_ptr<Node> Cordoned(bool unschedulable) {
  auto node = MakeNode("n");
  node->spec.unschedulable = unschedulable;
  return node;
}

TEST_CASE("NodeUnschedulable filters cordoned nodes unless the pod tolerates the taint",
          "[plugins][node_unschedulable]") {
  FakeHandle handle;
  auto plugin = Build<FilterPlugin>(node_unschedulable::New, nullptr, handle);
  CHECK(plugin->Name() == "NodeUnschedulable");
  CycleState state;

  const Status rejected(Code::kUnschedulableAndUnresolvable, {"node(s) were unschedulable"});
  CHECK(plugin->Filter(state, MakePod("p"), MakeNodeInfo(Cordoned(true))) == rejected);
  CHECK(plugin->Filter(state, MakePod("p"), MakeNodeInfo(Cordoned(false))).IsSuccess());

  auto tolerant = MakePod("p");
  tolerant.spec.tolerations = {kToleratesUnschedulable};
  CHECK(plugin->Filter(state, tolerant, MakeNodeInfo(Cordoned(true))).IsSuccess());

  // A toleration of every taint also tolerates cordoning; one of another effect does not.
  tolerant.spec.tolerations = {Toleration{"", "Exists", "", "", {}}};
  CHECK(plugin->Filter(state, tolerant, MakeNodeInfo(Cordoned(true))).IsSuccess());
  tolerant.spec.tolerations = {
      Toleration{"node.kubernetes.io/unschedulable", "Exists", "", "NoExecute", {}}};
  CHECK(plugin->Filter(state, tolerant, MakeNodeInfo(Cordoned(true))) == rejected);

  CHECK(plugin->Filter(state, MakePod("p"), NodeInfo()) ==
        Status(Code::kUnschedulableAndUnresolvable, {"node(s) had unknown conditions"}));
}

TEST_CASE("NodeUnschedulable registers node adds and taint updates, and pod toleration updates",
          "[plugins][node_unschedulable]") {
  FakeHandle handle;
  auto plugin = Build<EnqueueExtensions>(node_unschedulable::New, nullptr, handle);
  const auto events = plugin->EventsToRegister();
  REQUIRE(events.size() == 2);
  CHECK(events[0].event.resource == EventResource::kNode);
  CHECK(events[0].event.action == (action::kAdd | action::kUpdateNodeTaint));
  CHECK(events[0].hint != nullptr);
  CHECK(events[1].event.resource == EventResource::kPod);
  CHECK(events[1].event.action == action::kUpdatePodToleration);
  CHECK(events[1].hint != nullptr);
}

TEST_CASE("NodeUnschedulable node hint queues nodes that are or become schedulable",
          "[plugins][node_unschedulable]") {
  const auto pod = MakePod("p");
  auto unschedulable_with_taint = Cordoned(true);
  unschedulable_with_taint->spec.taints = {Taint{"node.kubernetes.io/not-ready", "", "NoExecute", {}}};
  auto schedulable_with_taint = Cordoned(false);
  schedulable_with_taint->spec.taints = unschedulable_with_taint->spec.taints;
  const auto unschedulable = Cordoned(true);
  const auto schedulable = Cordoned(false);

  struct Row {
    const char* name;
    const Node* old_node;
    const Node* new_node;
    QueueingHint want;
  };
  const Row rows[] = {
      {"skip an unschedulable node added", nullptr, unschedulable.get(), QueueingHint::kQueueSkip},
      {"queue a schedulable node added", nullptr, schedulable.get(), QueueingHint::kQueue},
      {"skip an unrelated change of an unschedulable node", unschedulable.get(),
       unschedulable_with_taint.get(), QueueingHint::kQueueSkip},
      {"skip an unrelated change of a schedulable node", schedulable.get(),
       schedulable_with_taint.get(), QueueingHint::kQueueSkip},
      {"queue a node uncordoned", unschedulable.get(), schedulable.get(), QueueingHint::kQueue},
      {"skip a node cordoned", schedulable.get(), unschedulable.get(), QueueingHint::kQueueSkip},
  };
  for (const Row& row : rows) {
    CAPTURE(row.name);
    auto hint = node_unschedulable::IsSchedulableAfterNodeChange(
        pod, EventObjects{nullptr, nullptr, row.old_node, row.new_node});
    REQUIRE(hint.ok());
    CHECK(*hint == row.want);
  }
  CHECK_FALSE(node_unschedulable::IsSchedulableAfterNodeChange(pod, EventObjects{}).ok());
}

TEST_CASE("NodeUnschedulable pod hint queues the pod once it tolerates the unschedulable taint",
          "[plugins][node_unschedulable]") {
  const auto pod = MakePod("p", "uid0");
  auto tolerant = pod;
  tolerant.spec.tolerations = {kToleratesUnschedulable};
  auto unrelated = pod;
  unrelated.spec.tolerations = {Toleration{"foo", "Exists", "", "NoSchedule", {}}};
  auto other_tolerant = MakePod("q", "uid1");
  other_tolerant.spec.tolerations = {kToleratesUnschedulable};

  struct Row {
    const char* name;
    const ksched::api::Pod* new_pod;
    QueueingHint want;
  };
  const Row rows[] = {
      {"the pod now tolerates the taint", &tolerant, QueueingHint::kQueue},
      {"the pod gained an unrelated toleration", &unrelated, QueueingHint::kQueueSkip},
      {"another pod tolerates the taint", &other_tolerant, QueueingHint::kQueueSkip},
  };
  for (const Row& row : rows) {
    CAPTURE(row.name);
    auto hint = node_unschedulable::IsSchedulableAfterPodTolerationChange(
        pod, EventObjects{&pod, row.new_pod, nullptr, nullptr});
    REQUIRE(hint.ok());
    CHECK(*hint == row.want);
  }
  CHECK_FALSE(node_unschedulable::IsSchedulableAfterPodTolerationChange(pod, EventObjects{}).ok());
}

TEST_CASE("NodeUnschedulable PreFilter is Success in v1.37.2, its deferred-resize Skip being alpha",
          "[plugins][node_unschedulable]") {
  FakeHandle handle;
  auto plugin = Build<ksched::framework::PreFilterPlugin>(node_unschedulable::New, nullptr, handle);
  ksched::framework::CycleState state;
  const auto [result, status] = plugin->PreFilter(state, MakePod("p"), {});
  CHECK(status.IsSuccess());
  CHECK(result.AllNodes());
}

}  // namespace
