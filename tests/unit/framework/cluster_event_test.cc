// Cluster event names and the queue's own events (framework/cluster_event.h), as upstream's
// fwk.EventResource strings and framework/events.go (v1.34).
#include <catch2/catch.hpp>

#include "framework/cluster_event.h"

namespace {

using ksched::framework::AssignedPodDeleteEvent;
using ksched::framework::ClusterEvent;
using ksched::framework::EventResource;
using ksched::framework::EventResourceName;
using ksched::framework::ForceActivateEvent;
using ksched::framework::UnschedulableTimeoutEvent;
namespace action = ksched::framework::action;

TEST_CASE("event resource names are upstream's", "[framework][cluster_event]") {
  struct Row {
    EventResource resource;
    const char* name;
  };
  const Row rows[] = {
      {EventResource::kPod, "Pod"},
      {EventResource::kAssignedPod, "AssignedPod"},
      {EventResource::kUnscheduledPod, "UnscheduledPod"},
      {EventResource::kNode, "Node"},
      {EventResource::kPersistentVolume, "PersistentVolume"},
      {EventResource::kPersistentVolumeClaim, "PersistentVolumeClaim"},
      {EventResource::kStorageClass, "storage.k8s.io/StorageClass"},
      {EventResource::kCSINode, "storage.k8s.io/CSINode"},
      {EventResource::kCSIDriver, "storage.k8s.io/CSIDriver"},
      {EventResource::kCSIStorageCapacity, "storage.k8s.io/CSIStorageCapacity"},
      {EventResource::kWildCard, "*"},
  };
  for (const Row& row : rows) {
    CAPTURE(row.name);
    CHECK(EventResourceName(row.resource) == row.name);
  }
}

TEST_CASE("the queue's own events", "[framework][cluster_event]") {
  const ClusterEvent timeout = UnschedulableTimeoutEvent();
  CHECK(timeout.resource == EventResource::kWildCard);
  CHECK(timeout.action == action::kAll);
  CHECK(timeout.label == "UnschedulableTimeout");
  CHECK(timeout.IsWildCard());

  const ClusterEvent force = ForceActivateEvent();
  CHECK(force.IsWildCard());
  CHECK(force.label == "ForceActivate");

  const ClusterEvent deleted = AssignedPodDeleteEvent();
  CHECK(deleted.resource == EventResource::kAssignedPod);
  CHECK(deleted.action == action::kDelete);
  CHECK(deleted.label == "AssignedPodDelete");
  CHECK_FALSE(deleted.IsWildCard());
  // A plugin registered for Pod/Delete is interested; one for Node/All or Pod/Add is not.
  CHECK(ClusterEvent{EventResource::kPod, action::kDelete, ""}.Match(deleted));
  CHECK_FALSE(ClusterEvent{EventResource::kNode, action::kAll, ""}.Match(deleted));
  CHECK_FALSE(ClusterEvent{EventResource::kPod, action::kAdd, ""}.Match(deleted));
}

}  // namespace
