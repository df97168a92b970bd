// SchedulingGates: ported from upstream schedulinggates/scheduling_gates_test.go (v1.34.4).
#include "plugins/scheduling_gates/scheduling_gates.h"

#include <catch2/catch.hpp>

#include "fake_handle.h"
#include "test_objects.h"

namespace {

using ksched::framework::ClusterEvent;
using ksched::framework::Code;
using ksched::framework::EventObjects;
using ksched::framework::EventResource;
using ksched::framework::PreEnqueuePlugin;
using ksched::framework::QueueingHint;
using ksched::framework::Status;
namespace action = ksched::framework::action;
namespace scheduling_gates = ksched::plugins::scheduling_gates;
using ksched::plugins::testing::Build;
using ksched::plugins::testing::FakeHandle;
using ksched::plugins::testing::MakePod;

TEST_CASE("SchedulingGates PreEnqueue lets ungated pods in and names the gates of gated ones",
          "[plugins][scheduling_gates]") {
  FakeHandle handle;
  auto plugin = Build<PreEnqueuePlugin>(scheduling_gates::New, nullptr, handle);
  CHECK(plugin->Name() == "SchedulingGates");

  CHECK(plugin->PreEnqueue(MakePod("p")).IsSuccess());

  auto gated = MakePod("p");
  gated.spec.scheduling_gates = {"foo", "bar"};
  CHECK(plugin->PreEnqueue(gated) ==
        Status(Code::kUnschedulableAndUnresolvable, {"waiting for scheduling gates: [foo bar]"}));

  gated.spec.scheduling_gates = {"example.com/one"};
  CHECK(plugin->PreEnqueue(gated).Message() == "waiting for scheduling gates: [example.com/one]");
}

TEST_CASE("SchedulingGates registers for its own pod losing its gates",
          "[plugins][scheduling_gates]") {
  FakeHandle handle;
  auto plugin = Build<ksched::framework::EnqueueExtensions>(scheduling_gates::New, nullptr, handle);
  const auto events = plugin->EventsToRegister();
  REQUIRE(events.size() == 1);
  CHECK(events[0].event.resource == EventResource::kPod);
  CHECK(events[0].event.action == action::kUpdatePodSchedulingGatesEliminated);
  CHECK(events[0].hint != nullptr);
}

TEST_CASE("SchedulingGates hint queues only the updated pod itself", "[plugins][scheduling_gates]") {
  auto pod = MakePod("p", "uid0");
  pod.spec.scheduling_gates = {"foo", "bar"};

  SECTION("another pod's update is skipped") {
    auto old_other = MakePod("p1", "uid1");
    old_other.spec.scheduling_gates = {"foo", "bar"};
    auto new_other = MakePod("p1", "uid1");
    new_other.spec.scheduling_gates = {"foo"};
    auto hint = scheduling_gates::IsSchedulableAfterSchedulingGatesEliminated(
        pod, EventObjects{&old_other, &new_other, nullptr, nullptr});
    REQUIRE(hint.ok());
    CHECK(*hint == QueueingHint::kQueueSkip);
  }
  SECTION("the pod's own update is queued") {
    auto updated = pod;
    updated.spec.scheduling_gates.clear();
    auto hint = scheduling_gates::IsSchedulableAfterSchedulingGatesEliminated(
        pod, EventObjects{&pod, &updated, nullptr, nullptr});
    REQUIRE(hint.ok());
    CHECK(*hint == QueueingHint::kQueue);
  }
  SECTION("an event without the new pod is an error (which queues)") {
    auto hint = scheduling_gates::IsSchedulableAfterSchedulingGatesEliminated(pod, EventObjects{});
    CHECK_FALSE(hint.ok());
  }
}

}  // namespace
