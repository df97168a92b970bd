// Event labels, and the matching rule the queue relies on (framework::ClusterEvent::Match must be
// upstream's MatchClusterEvents, pkg/scheduler/framework/types_test.go, v1.34).
#include "scheduler/cluster_events.h"

#include <catch2/catch.hpp>

#include <vector>

namespace ksched::scheduler {
namespace {

namespace action = framework::action;
using framework::ClusterEvent;
using framework::EventResource;

ClusterEvent E(EventResource resource, framework::ActionType a) {
  return ClusterEvent{resource, a, ""};
}

TEST_CASE("cluster events: labels as upstream's ClusterEvent.Label()", "[cluster_events]") {
  CHECK(UnscheduledPodAddEvent().label == "UnscheduledPodAdd");
  CHECK(UnscheduledPodUpdateEvent().label == "UnscheduledPodUpdate");
  CHECK(AssignedPodAddEvent().label == "AssignedPodAdd");
  CHECK(MakeClusterEvent(EventResource::kNode, action::kUpdateNodeTaint).label ==
        "NodeUpdateNodeTaint");
  CHECK(MakeClusterEvent(EventResource::kAssignedPod, action::kUpdatePodLabel).label ==
        "AssignedPodUpdatePodLabel");
  CHECK(MakeClusterEvent(EventResource::kCSINode, action::kAdd).label ==
        "storage.k8s.io/CSINodeAdd");
  CHECK(ActionTypeName(action::kAll) == "All");
  CHECK(ActionTypeName(action::kAdd | action::kDelete).empty());
  CHECK(framework::UnschedulableTimeoutEvent().IsWildCard());
  CHECK_FALSE(E(EventResource::kWildCard, action::kAdd).IsWildCard());
}

TEST_CASE("cluster events: registered.Match(incoming) as upstream's MatchClusterEvents",
          "[cluster_events]") {
  struct Case {
    const char* name;
    ClusterEvent registered;
    ClusterEvent incoming;
    bool want;
  };
  const std::vector<Case> cases = {
      {"same event", E(EventResource::kNode, action::kAdd), E(EventResource::kNode, action::kAdd),
       true},
      {"other resource", E(EventResource::kNode, action::kAdd),
       E(EventResource::kPersistentVolume, action::kAdd), false},
      {"other action", E(EventResource::kNode, action::kAdd),
       E(EventResource::kNode, action::kDelete), false},
      {"registered Update covers a specific update", E(EventResource::kNode, action::kUpdate),
       E(EventResource::kNode, action::kUpdateNodeLabel), true},
      {"a specific registration ignores a generic update",
       E(EventResource::kNode, action::kUpdateNodeLabel), E(EventResource::kNode, action::kUpdate),
       false},
      {"Pod covers AssignedPod", E(EventResource::kPod, action::kAdd),
       E(EventResource::kAssignedPod, action::kAdd), true},
      {"Pod covers UnscheduledPod", E(EventResource::kPod, action::kUpdatePodLabel),
       E(EventResource::kUnscheduledPod, action::kUpdatePodLabel), true},
      {"AssignedPod does not cover UnscheduledPod", E(EventResource::kAssignedPod, action::kAdd),
       E(EventResource::kUnscheduledPod, action::kAdd), false},
      {"wildcard resource registration", E(EventResource::kWildCard, action::kAdd),
       E(EventResource::kNode, action::kAdd), true},
      {"wildcard registration matches everything", E(EventResource::kWildCard, action::kAll),
       E(EventResource::kCSIDriver, action::kUpdate), true},
      {"a wildcard incoming event matches only a wildcard registration",
       E(EventResource::kNode, action::kAll), framework::UnschedulableTimeoutEvent(), false},
      {"combined registration, one of its actions",
       E(EventResource::kPod, action::kDelete | action::kUpdatePodScaleDown),
       E(EventResource::kAssignedPod, action::kUpdatePodScaleDown), true},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    CHECK(c.registered.Match(c.incoming) == c.want);
  }
  CHECK(MatchAnyClusterEvent(E(EventResource::kNode, action::kAdd),
                             {E(EventResource::kPod, action::kAdd),
                              E(EventResource::kNode, action::kAdd | action::kDelete)}));
  CHECK_FALSE(MatchAnyClusterEvent(E(EventResource::kNode, action::kAdd), {}));
}

}  // namespace
}  // namespace ksched::scheduler
