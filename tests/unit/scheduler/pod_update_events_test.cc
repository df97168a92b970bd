// PodSchedulingPropertiesChange (upstream pkg/scheduler/framework/events_test.go
// TestPodSchedulingPropertiesChange, v1.37).
#include "scheduler/pod_update_events.h"

#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

#include "queue_test_support.h"

namespace ksched::scheduler {
namespace {

namespace action = framework::action;
using framework::EventResource;
using testing::PodBuilder;

std::vector<std::string> Labels(const std::vector<framework::ClusterEvent>& events) {
  std::vector<std::string> labels;
  for (const framework::ClusterEvent& event : events) labels.push_back(event.label);
  return labels;
}

TEST_CASE("PodSchedulingPropertiesChange: one event per scheduling-relevant change",
          "[pod_update_events]") {
  using V = std::vector<std::string>;
  struct Case {
    const char* name;
    api::Pod old_pod;
    api::Pod new_pod;
    V want;
  };
  const PodBuilder base = PodBuilder("p").Label("app", "web").Container("cpu", "500m");
  const std::vector<Case> cases = {
      {"nothing relevant: a generic update", base.Obj(),
       PodBuilder(base).Annotation("a", "b").Obj(), V{"UnscheduledPodUpdate"}},
      {"label added", base.Obj(), PodBuilder(base).Label("tier", "1").Obj(),
       V{"UnscheduledPodUpdatePodLabel"}},
      {"cpu request lowered", base.Obj(),
       PodBuilder("p").Label("app", "web").Container("cpu", "200m").Obj(),
       V{"UnscheduledPodUpdatePodScaleDown"}},
      {"cpu request raised: a scale-up (v1.37)", base.Obj(),
       PodBuilder("p").Label("app", "web").Container("cpu", "900m").Obj(),
       V{"UnscheduledPodUpdatePodScaleUp"}},
      {"request added: a scale-up", PodBuilder("p").Obj(), PodBuilder("p").Container("nvidia.com/gpu", "1").Obj(),
       V{"UnscheduledPodUpdatePodScaleUp"}},
      {"request removed", base.Obj(), PodBuilder("p").Label("app", "web").Container("", "").Obj(),
       V{"UnscheduledPodUpdatePodScaleDown"}},
      {"extended resource lowered", PodBuilder("p").Container("nvidia.com/gpu", "2").Obj(),
       PodBuilder("p").Container("nvidia.com/gpu", "1").Obj(),
       V{"UnscheduledPodUpdatePodScaleDown"}},
      {"last gate removed", PodBuilder("p").Gates({"g"}).Obj(), PodBuilder("p").Obj(),
       V{"UnscheduledPodUpdatePodSchedulingGatesEliminated"}},
      {"one of two gates removed: generic", PodBuilder("p").Gates({"a", "b"}).Obj(),
       PodBuilder("p").Gates({"b"}).Obj(), V{"UnscheduledPodUpdate"}},
      {"toleration added", base.Obj(), PodBuilder(base).Toleration("k").Obj(),
       V{"UnscheduledPodUpdatePodToleration"}},
      {"several changes, in upstream's order", base.Obj(),
       PodBuilder("p").Label("app", "db").Container("cpu", "100m").Toleration("k").Obj(),
       V{"UnscheduledPodUpdatePodLabel", "UnscheduledPodUpdatePodScaleDown",
         "UnscheduledPodUpdatePodToleration"}},
      {"cpu raised from 1 to 2: only a scale-up", PodBuilder("p").Container("cpu", "1").Obj(),
       PodBuilder("p").Container("cpu", "2").Obj(), V{"UnscheduledPodUpdatePodScaleUp"}},
      {"assigned pod", PodBuilder("p").Node("n1").Obj(),
       PodBuilder("p").Node("n1").Label("x", "y").Obj(), V{"AssignedPodUpdatePodLabel"}},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    CHECK(Labels(PodSchedulingPropertiesChange(c.new_pod, c.old_pod, false)) == c.want);
  }
}

TEST_CASE("PodSchedulingPropertiesChange: the pod's own update is on TargetPod (v1.37)", "[pod_update_events]") {
  using V = std::vector<std::string>;
  const api::Pod old_pod = PodBuilder("p").Label("app", "web").Obj();
  const api::Pod new_pod = PodBuilder("p").Label("app", "db").Obj();
  CHECK(Labels(PodSchedulingPropertiesChange(new_pod, old_pod, true)) == V{"TargetPodUpdatePodLabel"});
  CHECK(Labels(PodSchedulingPropertiesChange(old_pod, old_pod, true)) == V{"TargetPodUpdate"});
  // An assigned pod is never a target.
  CHECK(Labels(PodSchedulingPropertiesChange(PodBuilder("p").Label("app", "db").Node("n").Obj(),
                                             PodBuilder("p").Label("app", "web").Node("n").Obj(), true)) ==
        V{"AssignedPodUpdatePodLabel"});
  // A Pod registration hears TargetPod events; an UnscheduledPod one does not.
  const framework::ClusterEvent target = PodSchedulingPropertiesChange(new_pod, old_pod, true)[0];
  CHECK(framework::ClusterEvent{EventResource::kPod, action::kUpdatePodLabel, ""}.Match(target));
  CHECK(framework::ClusterEvent{EventResource::kTargetPod, action::kUpdate, ""}.Match(target));
  CHECK_FALSE(framework::ClusterEvent{EventResource::kUnscheduledPod, action::kUpdate, ""}.Match(target));
}

TEST_CASE("PodSchedulingPropertiesChange: a change of status.resourceClaimStatuses is UpdatePodGeneratedResourceClaim",
          "[pod_update_events]") {
  using V = std::vector<std::string>;
  auto with_statuses = [](api::Pod pod, std::vector<api::PodResourceClaimStatus> statuses) {
    pod.status.resource_claim_statuses = std::move(statuses);
    return pod;
  };
  const api::Pod none = PodBuilder("p").Obj();
  const api::Pod generated = with_statuses(none, {{"gpu", "p-gpu-x7k2"}});
  // The ResourceClaim controller records the claim it made from the template.
  CHECK(Labels(PodSchedulingPropertiesChange(generated, none, false)) == V{"UnscheduledPodUpdatePodGeneratedResourceClaim"});
  CHECK(Labels(PodSchedulingPropertiesChange(generated, generated, false)) == V{"UnscheduledPodUpdate"});
  // No claim needed (resourceClaimName unset) differs from a claim, and the claim's name counts.
  CHECK(Labels(PodSchedulingPropertiesChange(with_statuses(none, {{"gpu", std::nullopt}}), generated, false)) ==
        V{"UnscheduledPodUpdatePodGeneratedResourceClaim"});
  CHECK(Labels(PodSchedulingPropertiesChange(with_statuses(none, {{"gpu", "other"}}), generated, false)) ==
        V{"UnscheduledPodUpdatePodGeneratedResourceClaim"});
  // Last in upstream's extractor order; on AssignedPod for a pod with a node.
  api::Pod labelled = PodBuilder("p").Label("x", "y").Node("n").Obj();
  CHECK(Labels(PodSchedulingPropertiesChange(with_statuses(labelled, {{"gpu", "c"}}), PodBuilder("p").Node("n").Obj(), false)) ==
        V{"AssignedPodUpdatePodLabel", "AssignedPodUpdatePodGeneratedResourceClaim"});
  const std::vector<framework::ClusterEvent> events = PodSchedulingPropertiesChange(generated, none, false);
  REQUIRE(events.size() == 1);
  CHECK(events[0].resource == EventResource::kUnscheduledPod);
  CHECK(events[0].action == action::kUpdatePodGeneratedResourceClaim);
}

TEST_CASE("PodSchedulingPropertiesChange: events carry resource and action",
          "[pod_update_events]") {
  const std::vector<framework::ClusterEvent> events = PodSchedulingPropertiesChange(
      PodBuilder("p").Obj(), PodBuilder("p").Gates({"g"}).Obj(), false);
  REQUIRE(events.size() == 1);
  CHECK(events[0].resource == EventResource::kUnscheduledPod);
  CHECK(events[0].action == action::kUpdatePodSchedulingGatesEliminated);
  const api::Pod assigned = PodBuilder("p").Node("n").Obj();
  const std::vector<framework::ClusterEvent> generic =
      PodSchedulingPropertiesChange(assigned, assigned, false);
  REQUIRE(generic.size() == 1);
  CHECK(generic[0].resource == EventResource::kAssignedPod);
  CHECK(generic[0].action == action::kUpdate);
}

}  // namespace
}  // namespace ksched::scheduler
