// PodStatusPatch against patches made by the real strategicpatch.CreateTwoWayMergePatch
// (k8s.io/apimachinery v0.34.4, marshalling v1.Pod{Status: ...} as util.PatchPodStatus does);
// UpdatePodCondition's change rule and transition times.
#include "scheduler/pod_status_patch.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <string>
#include <vector>

namespace {

using ksched::api::PodCondition;
using ksched::api::PodStatus;
using ksched::api::Time;
using ksched::scheduler::PodStatusPatch;
using ksched::scheduler::UpdatePodCondition;
using namespace std::chrono_literals;

// 2026-11-30T12:00:00Z and 2026-11-30T13:00:00.5Z.
const Time kT0{std::chrono::seconds(1796040000)};
const Time kT1 = kT0 + 1h + 500ms;

PodCondition Condition(std::string type, std::string status, std::string reason = "", std::string message = "",
                       std::optional<Time> transition = kT0, std::int64_t observed_generation = 0) {
  PodCondition condition;
  condition.type = std::move(type);
  condition.status = std::move(status);
  condition.reason = std::move(reason);
  condition.message = std::move(message);
  condition.last_transition_time = transition;
  condition.observed_generation = observed_generation;
  return condition;
}

PodStatus Status(std::vector<PodCondition> conditions, std::string nominated = "") {
  PodStatus status;
  status.conditions = std::move(conditions);
  status.nominated_node_name = std::move(nominated);
  return status;
}

PodCondition Scheduled(std::string status, std::string reason, std::string message, Time transition = kT0,
                       std::int64_t observed_generation = 0) {
  return Condition("PodScheduled", std::move(status), std::move(reason), std::move(message), transition,
                   observed_generation);
}

}  // namespace

TEST_CASE("PodStatusPatch matches CreateTwoWayMergePatch", "[pod_status_patch]") {
  struct Case {
    const char* name;
    PodStatus before;
    PodStatus after;
    const char* patch;
  };
  PodCondition probed = Scheduled("False", "Unschedulable", "m", kT0, 2);
  probed.last_probe_time = kT1;
  const std::vector<Case> cases = {
      {"new condition, no conditions before", Status({}),
       Status({Scheduled("False", "Unschedulable", "0/3 nodes are available", kT1, 1)}),
       R"({"status":{"conditions":[{"lastProbeTime":null,"lastTransitionTime":"2026-11-30T13:00:00Z",)"
       R"("message":"0/3 nodes are available","observedGeneration":1,"reason":"Unschedulable","status":"False",)"
       R"("type":"PodScheduled"}]}})"},
      {"message changes", Status({Scheduled("False", "Unschedulable", "msg1", kT0, 1)}),
       Status({Scheduled("False", "Unschedulable", "msg2", kT0, 1)}),
       R"({"status":{"$setElementOrder/conditions":[{"type":"PodScheduled"}],)"
       R"("conditions":[{"message":"msg2","type":"PodScheduled"}]}})"},
      {"status changes, reason and message emptied", Status({Scheduled("False", "Unschedulable", "msg")}),
       Status({Scheduled("True", "", "", kT1)}),
       R"({"status":{"$setElementOrder/conditions":[{"type":"PodScheduled"}],"conditions":[{)"
       R"("lastTransitionTime":"2026-11-30T13:00:00Z","message":null,"reason":null,"status":"True",)"
       R"("type":"PodScheduled"}]}})"},
      {"appended after other conditions",
       Status({Condition("Ready", "False"), Condition("Initialized", "True")}),
       Status({Condition("Ready", "False"), Condition("Initialized", "True"),
               Scheduled("False", "SchedulerError", "boom", kT1, 2)}),
       R"({"status":{"$setElementOrder/conditions":[{"type":"Ready"},{"type":"Initialized"},)"
       R"({"type":"PodScheduled"}],"conditions":[{"lastProbeTime":null,"lastTransitionTime":"2026-11-30T13:00:00Z",)"
       R"("message":"boom","observedGeneration":2,"reason":"SchedulerError","status":"False","type":"PodScheduled"}]}})"},
      {"nominated node set", Status({}), Status({}, "node-1"), R"({"status":{"nominatedNodeName":"node-1"}})"},
      {"nominated node cleared", Status({}, "node-1"), Status({}), R"({"status":{"nominatedNodeName":null}})"},
      {"nominated node changed with condition", Status({Scheduled("False", "Unschedulable", "a")}, "node-1"),
       Status({Scheduled("False", "Unschedulable", "b")}, "node-2"),
       R"({"status":{"$setElementOrder/conditions":[{"type":"PodScheduled"}],)"
       R"("conditions":[{"message":"b","type":"PodScheduled"}],"nominatedNodeName":"node-2"}})"},
      {"identical", Status({Scheduled("False", "Unschedulable", "a")}, "n"),
       Status({Scheduled("False", "Unschedulable", "a")}, "n"), "{}"},
      {"a condition removed",
       Status({Condition("Ready", "False"), Condition("B", "True"), Condition("A", "True")}),
       Status({Condition("Ready", "False")}),
       R"({"status":{"$setElementOrder/conditions":[{"type":"Ready"}],)"
       R"("conditions":[{"$patch":"delete","type":"A"},{"$patch":"delete","type":"B"}]}})"},
      {"all conditions removed", Status({Condition("Ready", "False")}), Status({}),
       R"({"status":{"conditions":null}})"},
      {"order changed only", Status({Condition("A", "True"), Condition("B", "True")}),
       Status({Condition("B", "True"), Condition("A", "True")}),
       R"({"status":{"$setElementOrder/conditions":[{"type":"B"},{"type":"A"}]}})"},
      {"victim gets DisruptionTarget", Status({Scheduled("True", "", "")}),
       Status({Scheduled("True", "", ""),
               Condition("DisruptionTarget", "True", "PreemptionByScheduler",
                         "default-scheduler: preempting to accommodate a higher priority pod", kT1, 3)}),
       R"({"status":{"$setElementOrder/conditions":[{"type":"PodScheduled"},{"type":"DisruptionTarget"}],)"
       R"("conditions":[{"lastProbeTime":null,"lastTransitionTime":"2026-11-30T13:00:00Z",)"
       R"("message":"default-scheduler: preempting to accommodate a higher priority pod","observedGeneration":3,)"
       R"("reason":"PreemptionByScheduler","status":"True","type":"DisruptionTarget"}]}})"},
      {"observedGeneration and probe time", Status({Scheduled("False", "Unschedulable", "m", kT0, 1)}),
       Status({probed}),
       R"({"status":{"$setElementOrder/conditions":[{"type":"PodScheduled"}],)"
       R"("conditions":[{"lastProbeTime":"2026-11-30T13:00:00Z","observedGeneration":2,"type":"PodScheduled"}]}})"},
      {"sub-second transition time difference is invisible", Status({Scheduled("False", "Unschedulable", "m")}),
       Status({Scheduled("False", "Unschedulable", "m", kT0 + 300ms)}), "{}"},
      // Go additionally escapes <, > and & as \u003c, \u003e, \u0026: the same JSON string.
      {"special characters", Status({}),
       Status({Scheduled("False", "Unschedulable", "a \"quoted\" <b> & \xC3\xA9\n")}),
       R"({"status":{"conditions":[{"lastProbeTime":null,"lastTransitionTime":"2026-11-30T12:00:00Z",)"
       R"("message":"a \"quoted\" <b> & )"
       "\xC3\xA9"
       R"(\n","reason":"Unschedulable","status":"False","type":"PodScheduled"}]}})"},
  };
  for (const Case& c : cases) {
    SECTION(c.name) { CHECK(PodStatusPatch(c.before, c.after) == c.patch); }
  }
}

TEST_CASE("UpdatePodCondition: new, unchanged, and changed conditions", "[pod_status_patch]") {
  PodStatus status = Status({Condition("Ready", "True")});

  SECTION("a new condition is appended with lastTransitionTime now") {
    CHECK(UpdatePodCondition(status, Scheduled("False", "Unschedulable", "m", kT0), kT1));
    REQUIRE(status.conditions.size() == 2);
    CHECK(status.conditions[1].type == "PodScheduled");
    CHECK(status.conditions[1].last_transition_time == kT1);
  }

  status.conditions.push_back(Scheduled("False", "Unschedulable", "m", kT0, 1));

  SECTION("the same condition is no change and keeps its transition time") {
    CHECK_FALSE(UpdatePodCondition(status, Scheduled("False", "Unschedulable", "m", kT1, 1), kT1));
    CHECK(status.conditions[1].last_transition_time == kT0);
  }
  SECTION("observedGeneration alone is no change, but is stored") {
    CHECK_FALSE(UpdatePodCondition(status, Scheduled("False", "Unschedulable", "m", kT1, 7), kT1));
    CHECK(status.conditions[1].observed_generation == 7);
  }
  SECTION("a new message is a change; the status did not change, so neither does the transition time") {
    CHECK(UpdatePodCondition(status, Scheduled("False", "Unschedulable", "other"), kT1));
    CHECK(status.conditions[1].message == "other");
    CHECK(status.conditions[1].last_transition_time == kT0);
  }
  SECTION("a new reason is a change") {
    CHECK(UpdatePodCondition(status, Scheduled("False", "SchedulerError", "m"), kT1));
  }
  SECTION("a probe time is a change") {
    PodCondition probed = Scheduled("False", "Unschedulable", "m");
    probed.last_probe_time = kT1;
    CHECK(UpdatePodCondition(status, probed, kT1));
  }
  SECTION("a new status is a change and moves the transition time") {
    CHECK(UpdatePodCondition(status, Scheduled("True", "", ""), kT1));
    CHECK(status.conditions[1].status == "True");
    CHECK(status.conditions[1].last_transition_time == kT1);
  }
  CHECK(status.conditions[0].type == "Ready");
}
