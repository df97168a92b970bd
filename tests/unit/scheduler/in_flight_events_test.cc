// InFlightEvents (upstream scheduling_queue_test.go Test_InFlightPods, v1.34).
#include "scheduler/in_flight_events.h"

#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "queue_test_support.h"

namespace ksched::scheduler {
namespace {

using testing::NodeAdd;
using testing::PodBuilder;
using testing::PvAdd;

std::shared_ptr<const api::Pod> Pod(const std::string& name) {
  return std::make_shared<const api::Pod>(PodBuilder(name).Obj());
}

std::vector<std::string> Labels(const std::optional<std::vector<const InFlightEvent*>>& events) {
  std::vector<std::string> labels;
  if (events.has_value()) {
    for (const InFlightEvent* event : *events) labels.push_back(event->event.label);
  }
  return labels;
}

TEST_CASE("InFlightEvents: events are recorded only while a pod is in flight",
          "[in_flight_events]") {
  InFlightEvents in_flight;
  CHECK_FALSE(in_flight.AddEventIfAnyInFlight(PvAdd(), {}));
  CHECK(in_flight.EventCount() == 0);
  REQUIRE(in_flight.AddPod(Pod("a")));
  CHECK_FALSE(in_flight.AddPod(Pod("a")));  // tracked once
  CHECK(in_flight.AddEventIfAnyInFlight(PvAdd(), {}));
  CHECK(in_flight.EventCount() == 1);
  CHECK(Labels(in_flight.EventsSince("ns1-a-uid")) ==
        std::vector<std::string>{"PersistentVolumeAdd"});
  CHECK_FALSE(in_flight.EventsSince("ns1-unknown-uid").has_value());
}

TEST_CASE("InFlightEvents: each pod sees the events after its own pop, Done prunes",
          "[in_flight_events]") {
  InFlightEvents in_flight;
  in_flight.AddPod(Pod("a"));
  in_flight.AddEventIfAnyInFlight(PvAdd(), {});
  in_flight.AddPod(Pod("b"));
  in_flight.AddEventIfAnyInFlight(NodeAdd(), {});
  CHECK(Labels(in_flight.EventsSince("ns1-a-uid")) ==
        std::vector<std::string>{"PersistentVolumeAdd", "NodeAdd"});
  CHECK(Labels(in_flight.EventsSince("ns1-b-uid")) == std::vector<std::string>{"NodeAdd"});

  // b is done: a still needs both events.
  in_flight.Done("ns1-b-uid");
  CHECK(in_flight.EventCount() == 2);
  CHECK(in_flight.Pods().size() == 1);
  // a is done: nobody needs anything.
  in_flight.Done("ns1-a-uid");
  CHECK(in_flight.EventCount() == 0);
  CHECK_FALSE(in_flight.AnyInFlight());
  in_flight.Done("ns1-a-uid");  // no-op
}

TEST_CASE("InFlightEvents: the oldest pod done drops the events before the next pod",
          "[in_flight_events]") {
  InFlightEvents in_flight;
  in_flight.AddPod(Pod("a"));
  in_flight.AddEventIfAnyInFlight(PvAdd(), {});
  in_flight.AddPod(Pod("b"));
  in_flight.AddEventIfAnyInFlight(NodeAdd(), {});
  in_flight.Done("ns1-a-uid");
  CHECK(in_flight.EventCount() == 1);  // PvAdd dropped, NodeAdd kept for b
  CHECK(Labels(in_flight.EventsSince("ns1-b-uid")) == std::vector<std::string>{"NodeAdd"});
}

TEST_CASE("InFlightEvents: events for one pod and the objects they keep", "[in_flight_events]") {
  InFlightEvents in_flight;
  in_flight.AddPod(Pod("a"));
  SharedEventObjects objects;
  objects.new_pod = Pod("a");
  CHECK_FALSE(in_flight.AddEventsIfPodInFlight("ns1-b-uid", {PvAdd()}, objects));
  CHECK(in_flight.AddEventsIfPodInFlight("ns1-a-uid", {PvAdd(), NodeAdd()}, objects));
  auto events = in_flight.EventsSince("ns1-a-uid");
  REQUIRE(events.has_value());
  REQUIRE(events->size() == 2);
  CHECK((*events)[1]->objects.View().new_pod->metadata.name == "a");

  api::Node node;
  node.metadata.name = "n";
  framework::EventObjects view;
  view.new_node = &node;
  const SharedEventObjects copy = SharedEventObjects::CopyOf(view);
  node.metadata.name = "changed";
  REQUIRE(copy.new_node != nullptr);
  CHECK(copy.new_node->metadata.name == "n");
  CHECK(copy.old_pod == nullptr);

  in_flight.Clear();
  CHECK(in_flight.EventCount() == 0);
  CHECK_FALSE(in_flight.IsInFlight("ns1-a-uid"));
}

TEST_CASE("SharedEventObjects: the dynamic resource objects reach the view and are copied", "[in_flight_events]") {
  api::ResourceClaim claim;
  claim.metadata.name = "c";
  api::ResourceSlice slice;
  slice.metadata.name = "s";
  api::DeviceClass device_class;
  device_class.metadata.name = "d";
  framework::EventObjects view;
  view.old_resource_claim = &claim;
  view.new_resource_slice = &slice;
  view.old_device_class = &device_class;
  const SharedEventObjects copy = SharedEventObjects::CopyOf(view);
  claim.metadata.name = "changed";
  REQUIRE(copy.resource.old_resource_claim != nullptr);
  CHECK(copy.resource.old_resource_claim->metadata.name == "c");
  CHECK(copy.resource.new_resource_claim == nullptr);
  CHECK(copy.resource.old_resource_slice == nullptr);
  REQUIRE(copy.resource.new_resource_slice != nullptr);
  CHECK(copy.resource.new_resource_slice->metadata.name == "s");
  CHECK(copy.resource.new_device_class == nullptr);

  const framework::EventObjects again = copy.View();
  CHECK(again.old_resource_claim == copy.resource.old_resource_claim.get());
  CHECK(again.new_resource_claim == nullptr);
  CHECK(again.new_resource_slice == copy.resource.new_resource_slice.get());
  CHECK(again.old_device_class == copy.resource.old_device_class.get());
  CHECK(again.new_device_class == nullptr);
  CHECK(again.old_csi_storage_capacity == nullptr);
}

}  // namespace
}  // namespace ksched::scheduler
