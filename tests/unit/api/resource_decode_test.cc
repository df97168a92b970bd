// Decoding of the dynamic resource allocation objects of api/resource.h (ResourceSlice,
// DeviceClass, ResourceClaim) through DecodeList, DecodeWatchEvent and DecodeResourceClaim, as a
// v1.34 API server returns them (`kubectl get -o json`, trimmed); expected values are read off the
// JSON by hand. Also the writers of api/resource_json.h, checked against their text and by decoding
// what they write.
#include <catch2/catch.hpp>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/json_decode.h"
#include "api/resource.h"
#include "api/resource_json.h"

namespace {

using ksched::api::DecodeList;
using ksched::api::DecodeResourceClaim;
using ksched::api::DecodeWatchEvent;
using ksched::api::ResourceClaim;
using ksched::api::ResourceSlice;

// The message of decoding `json` as a watch event of T ("" when it decodes).
template <typename T>
std::string WatchError(std::string_view json) {
  return std::string(DecodeWatchEvent<T>(json).status().message());
}

constexpr std::string_view kSliceEvent = R"json({"type": "ADDED", "object": {
  "kind": "ResourceSlice", "apiVersion": "resource.k8s.io/v1",
  "metadata": {"name": "node-1-gpu.example.com-x7k2", "uid": "s-1", "resourceVersion": "12",
               "annotations": {"a": "b"},
               "ownerReferences": [{"apiVersion": "v1", "kind": "Node", "name": "node-1", "uid": "n"}]},
  "spec": {"driver": "gpu.example.com", "nodeName": "node-1",
           "pool": {"name": "node-1", "generation": 3, "resourceSliceCount": 2},
           "devices": [
             {"name": "gpu-0",
              "attributes": {"model": {"string": "a100"}, "gpu.example.com/index": {"int": 0},
                             "driverVersion": {"version": "1.2.3"}, "healthy": {"bool": true},
                             "model": {"string": "h100"}},
              "capacity": {"memory": {"value": "40Gi"},
                           "cores": {"value": "108", "requestPolicy": {"default": "1"}}}},
             {"name": "gpu-1", "consumesCounters": [{"counterSet": "s", "counters": {}}],
              "bindingConditions": ["attached"]},
             {"name": "gpu-2", "consumesCounters": [], "bindingConditions": []}]}
}})json";

TEST_CASE("DecodeWatchEvent<ResourceSlice>: pool and node and devices with sorted attributes and capacity",
          "[api][json]") {
  auto event = DecodeWatchEvent<ResourceSlice>(kSliceEvent);
  REQUIRE(event.ok());
  const ResourceSlice& slice = event->object;
  CHECK(slice.metadata.name == "node-1-gpu.example.com-x7k2");
  CHECK(slice.metadata.resource_version == "12");
  CHECK(slice.metadata.annotations.empty());
  CHECK(slice.metadata.owner_references.empty());
  CHECK(slice.driver == "gpu.example.com");
  CHECK(slice.pool == ksched::api::ResourcePool{"node-1", 3, 2});
  CHECK(slice.node_name == "node-1");
  CHECK_FALSE(slice.node_selector.has_value());
  CHECK_FALSE(slice.all_nodes);
  CHECK_FALSE(slice.per_device_node_selection.has_value());
  REQUIRE(slice.devices.size() == 3);

  const ksched::api::Device& gpu0 = slice.devices[0];
  CHECK(gpu0.name == "gpu-0");
  REQUIRE(gpu0.attributes.size() == 4);
  CHECK(gpu0.attributes[0].first == "driverVersion");
  CHECK(gpu0.attributes[0].second.kind == ksched::api::DeviceAttribute::Kind::kVersion);
  CHECK(gpu0.attributes[0].second.string_value == "1.2.3");
  CHECK(gpu0.attributes[1].first == "gpu.example.com/index");
  CHECK(gpu0.attributes[1].second.kind == ksched::api::DeviceAttribute::Kind::kInt);
  CHECK(gpu0.attributes[1].second.int_value == 0);
  CHECK(gpu0.attributes[2].first == "healthy");
  CHECK(gpu0.attributes[2].second.kind == ksched::api::DeviceAttribute::Kind::kBool);
  CHECK(gpu0.attributes[2].second.bool_value);
  // A repeated name keeps its last value, as a Go map.
  CHECK(gpu0.attributes[3].first == "model");
  CHECK(gpu0.attributes[3].second.kind == ksched::api::DeviceAttribute::Kind::kString);
  CHECK(gpu0.attributes[3].second.string_value == "h100");
  REQUIRE(gpu0.capacity.size() == 2);
  CHECK(gpu0.capacity[0].first == "cores");
  CHECK(gpu0.capacity[0].second.String() == "108");
  CHECK(gpu0.capacity[1].first == "memory");
  CHECK(gpu0.capacity[1].second.Value() == std::int64_t{40} << 30);
  CHECK_FALSE(gpu0.consumes_counters);
  CHECK_FALSE(gpu0.has_binding_conditions);

  CHECK(slice.devices[1].consumes_counters);
  CHECK(slice.devices[1].has_binding_conditions);
  CHECK(slice.devices[1].attributes.empty());
  CHECK_FALSE(slice.devices[2].consumes_counters);
  CHECK_FALSE(slice.devices[2].has_binding_conditions);

  std::string buffer(kSliceEvent);
  auto in_situ = ksched::api::DecodeWatchEventInSitu<ResourceSlice>(buffer);
  REQUIRE(in_situ.ok());
  CHECK(in_situ->object == slice);
}

TEST_CASE("DecodeList<ResourceSlice>: node selector and all nodes and per-device node selection", "[api][json]") {
  auto list = DecodeList<ResourceSlice>(std::string_view(R"json({
    "kind": "ResourceSliceList", "apiVersion": "resource.k8s.io/v1", "metadata": {"resourceVersion": "7"},
    "items": [
      {"metadata": {"name": "zone-a"},
       "spec": {"driver": "net.example.com", "pool": {"name": "zone-a", "generation": 1, "resourceSliceCount": 1},
                "nodeSelector": {"nodeSelectorTerms": [{"matchExpressions": [
                  {"key": "topology.kubernetes.io/zone", "operator": "In", "values": ["a"]}]}]},
                "devices": []}},
      {"metadata": {"name": "everywhere"},
       "spec": {"driver": "net.example.com", "pool": {"name": "global", "generation": 1, "resourceSliceCount": 1},
                "allNodes": true, "devices": [{"name": "d"}]}},
      {"metadata": {"name": "per-device"},
       "spec": {"driver": "net.example.com", "pool": {"name": "p", "generation": 1, "resourceSliceCount": 1},
                "perDeviceNodeSelection": true,
                "devices": [{"name": "d", "nodeName": "node-1", "attributes": {"x": null}}]}}
    ]})json"));
  REQUIRE(list.ok());
  REQUIRE(list->items.size() == 3);
  const ResourceSlice& zone = list->items[0];
  CHECK(zone.node_name.empty());
  REQUIRE(zone.node_selector.has_value());
  REQUIRE(zone.node_selector->node_selector_terms.size() == 1);
  const auto& requirement = zone.node_selector->node_selector_terms[0].match_expressions.at(0);
  CHECK(requirement.key == "topology.kubernetes.io/zone");
  CHECK(requirement.op == "In");
  CHECK(requirement.values == std::vector<std::string>{"a"});
  CHECK(zone.devices.empty());
  CHECK(list->items[1].all_nodes);
  CHECK(list->items[2].per_device_node_selection == true);
  // A null map value is the zero value: an attribute of no type.
  REQUIRE(list->items[2].devices.at(0).attributes.size() == 1);
  CHECK(list->items[2].devices[0].attributes[0] == std::pair<std::string, ksched::api::DeviceAttribute>{"x", {}});
}

TEST_CASE("DecodeList<DeviceClass>: CEL selectors and opaque configuration as JSON text", "[api][json]") {
  auto list = DecodeList<ksched::api::DeviceClass>(std::string_view(R"json({
    "kind": "DeviceClassList", "apiVersion": "resource.k8s.io/v1", "metadata": {"resourceVersion": "9"},
    "items": [
      {"metadata": {"name": "gpu.example.com", "labels": {"tier": "gold"}, "annotations": {"x": "y"}},
       "spec": {"selectors": [{"cel": {"expression": "device.driver == \"gpu.example.com\""}},
                              {"future": {"x": 1}},
                              {"cel": {}}],
                "config": [{"opaque": {"driver": "gpu.example.com",
                                       "parameters": {"kind": "GpuConfig", "sharing": {"strategy": "TimeSlicing"},
                                                      "list": [1, true, null, "s"]}}},
                           {}]}},
      {"metadata": {"name": "empty"}, "spec": {}}
    ]})json"));
  REQUIRE(list.ok());
  REQUIRE(list->items.size() == 2);
  const ksched::api::DeviceClass& gpu = list->items[0];
  CHECK(gpu.metadata.labels.Get("tier") == "gold");
  CHECK(gpu.metadata.annotations.empty());
  REQUIRE(gpu.selectors.size() == 3);
  CHECK(gpu.selectors[0].cel_expression == "device.driver == \"gpu.example.com\"");
  CHECK_FALSE(gpu.selectors[1].cel_expression.has_value());
  CHECK(gpu.selectors[2].cel_expression == "");
  REQUIRE(gpu.config.size() == 2);
  CHECK(gpu.config[0].opaque_json ==
        R"({"driver":"gpu.example.com","parameters":{"kind":"GpuConfig","sharing":{"strategy":"TimeSlicing"},)"
        R"("list":[1,true,null,"s"]}})");
  CHECK(gpu.config[1].opaque_json.empty());
  CHECK(list->items[1].selectors.empty());
  CHECK(list->items[1].config.empty());
}

constexpr std::string_view kClaim = R"json({
  "kind": "ResourceClaim", "apiVersion": "resource.k8s.io/v1",
  "metadata": {"name": "pod-1-gpu-abc", "namespace": "ml", "uid": "c-1", "resourceVersion": "44",
               "annotations": {"resource.kubernetes.io/pod-claim-name": "gpu"},
               "finalizers": ["resource.kubernetes.io/delete-protection"],
               "ownerReferences": [{"apiVersion": "v1", "kind": "Pod", "name": "pod-1", "uid": "p-1",
                                    "controller": true, "blockOwnerDeletion": true}]},
  "spec": {"devices": {
    "requests": [
      {"name": "gpu", "exactly": {"deviceClassName": "gpu.example.com", "allocationMode": "ExactCount", "count": 2,
                                  "selectors": [{"cel": {"expression": "device.capacity['gpu.example.com'].memory >= quantity('10Gi')"}}],
                                  "adminAccess": false, "tolerations": [{"operator": "Exists"}]}},
      {"name": "nic", "firstAvailable": [
        {"name": "fast", "deviceClassName": "nic.example.com", "allocationMode": "All"},
        {"name": "slow", "deviceClassName": "nic.example.com", "allocationMode": "ExactCount", "count": 1,
         "selectors": [{"cel": {"expression": "true"}}]}]}],
    "constraints": [{"requests": ["gpu", "nic"], "matchAttribute": "example.com/numa"},
                    {"distinctAttribute": "example.com/id"}],
    "config": [{"requests": ["gpu"], "opaque": {"driver": "gpu.example.com", "parameters": {"a": 1}}}]}},
  "status": {
    "allocation": {
      "devices": {
        "results": [{"request": "gpu", "driver": "gpu.example.com", "pool": "node-1", "device": "gpu-0"},
                    {"request": "nic/fast", "driver": "nic.example.com", "pool": "node-1", "device": "eth1",
                     "adminAccess": true}],
        "config": [{"source": "FromClass", "requests": ["gpu"],
                    "opaque": {"driver": "gpu.example.com", "parameters": {"b": [2]}}},
                   {"source": "FromClaim"}]},
      "nodeSelector": {"nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["node-1"]}]}]},
      "allocationTimestamp": "2025-10-01T12:00:00Z"},
    "reservedFor": [{"resource": "pods", "name": "pod-1", "uid": "p-1"},
                    {"apiGroup": "example.com", "resource": "things", "name": "t", "uid": "t-1"}],
    "devices": [{"driver": "nic.example.com", "pool": "node-1", "device": "eth1",
                 "conditions": null, "networkData": {"ips": ["10.0.0.1/24"]}}]}
})json";

TEST_CASE("DecodeResourceClaim: requests and constraints and config and allocation and reservations and device status",
          "[api][json]") {
  auto decoded = DecodeResourceClaim(kClaim);
  REQUIRE(decoded.ok());
  const ResourceClaim& claim = *decoded;
  CHECK(claim.metadata.name == "pod-1-gpu-abc");
  CHECK(claim.metadata.namespace_ == "ml");
  CHECK(claim.metadata.uid == "c-1");
  CHECK(claim.metadata.resource_version == "44");
  CHECK(claim.metadata.annotations.Get("resource.kubernetes.io/pod-claim-name") == "gpu");
  REQUIRE(claim.metadata.ControllerRef() != nullptr);
  CHECK(claim.metadata.ControllerRef()->uid == "p-1");
  CHECK(claim.finalizers == std::vector<std::string>{std::string(ksched::api::kResourceClaimFinalizer)});

  const ksched::api::ResourceClaimSpec& spec = claim.spec;
  REQUIRE(spec.requests.size() == 2);
  CHECK(spec.requests[0].name == "gpu");
  REQUIRE(spec.requests[0].exactly.has_value());
  const ksched::api::ExactDeviceRequest& exact = *spec.requests[0].exactly;
  CHECK(exact.device_class_name == "gpu.example.com");
  CHECK(exact.allocation_mode == "ExactCount");
  CHECK(exact.count == 2);
  REQUIRE(exact.selectors.size() == 1);
  CHECK(exact.selectors[0].cel_expression == "device.capacity['gpu.example.com'].memory >= quantity('10Gi')");
  CHECK(exact.admin_access == false);
  CHECK(spec.requests[0].first_available.empty());
  CHECK_FALSE(spec.requests[1].exactly.has_value());
  REQUIRE(spec.requests[1].first_available.size() == 2);
  CHECK(spec.requests[1].first_available[0] ==
        ksched::api::DeviceSubRequest{"fast", "nic.example.com", {}, "All", 0});
  CHECK(spec.requests[1].first_available[1].name == "slow");
  CHECK(spec.requests[1].first_available[1].count == 1);
  CHECK(spec.requests[1].first_available[1].selectors.at(0).cel_expression == "true");
  REQUIRE(spec.constraints.size() == 2);
  CHECK(spec.constraints[0].requests == std::vector<std::string>{"gpu", "nic"});
  CHECK(spec.constraints[0].match_attribute == "example.com/numa");
  CHECK(spec.constraints[1].requests.empty());
  CHECK_FALSE(spec.constraints[1].match_attribute.has_value());
  REQUIRE(spec.config.size() == 1);
  CHECK(spec.config[0].requests == std::vector<std::string>{"gpu"});
  CHECK(spec.config[0].configuration.opaque_json == R"({"driver":"gpu.example.com","parameters":{"a":1}})");

  REQUIRE(claim.status.allocation.has_value());
  const ksched::api::AllocationResult& allocation = *claim.status.allocation;
  REQUIRE(allocation.results.size() == 2);
  CHECK(allocation.results[0] ==
        ksched::api::DeviceRequestAllocationResult{"gpu", "gpu.example.com", "node-1", "gpu-0", std::nullopt});
  CHECK(allocation.results[1].request == "nic/fast");
  CHECK(allocation.results[1].admin_access == true);
  REQUIRE(allocation.config.size() == 2);
  CHECK(allocation.config[0].source == "FromClass");
  CHECK(allocation.config[0].requests == std::vector<std::string>{"gpu"});
  CHECK(allocation.config[0].configuration.opaque_json == R"({"driver":"gpu.example.com","parameters":{"b":[2]}})");
  CHECK(allocation.config[1].source == "FromClaim");
  CHECK(allocation.config[1].configuration.opaque_json.empty());
  REQUIRE(allocation.node_selector.has_value());
  const auto& field = allocation.node_selector->node_selector_terms.at(0).match_fields.at(0);
  CHECK(field.key == "metadata.name");
  CHECK(field.values == std::vector<std::string>{"node-1"});
  CHECK(allocation.allocation_timestamp == "2025-10-01T12:00:00Z");

  REQUIRE(claim.status.reserved_for.size() == 2);
  CHECK(claim.status.reserved_for[0] == ksched::api::ResourceClaimConsumerReference{"", "pods", "pod-1", "p-1"});
  CHECK(claim.status.reserved_for[1].api_group == "example.com");
  CHECK(claim.status.devices_json ==
        R"([{"driver":"nic.example.com","pool":"node-1","device":"eth1","conditions":null,)"
        R"("networkData":{"ips":["10.0.0.1/24"]}}])");

  // The same claim through a list and a watch event.
  auto list = DecodeList<ResourceClaim>(std::string(R"({"kind":"ResourceClaimList","items":[)") +
                                        std::string(kClaim) + "]}");
  REQUIRE(list.ok());
  CHECK(list->items.at(0) == claim);
  std::string event = std::string(R"({"type":"MODIFIED","object":)") + std::string(kClaim) + "}";
  auto in_situ = ksched::api::DecodeWatchEventInSitu<ResourceClaim>(event);
  REQUIRE(in_situ.ok());
  CHECK(in_situ->object == claim);
}

TEST_CASE("DecodeResourceClaim: an unallocated claim has no allocation and no device status", "[api][json]") {
  auto claim = DecodeResourceClaim(std::string_view(R"json({
    "metadata": {"name": "c", "namespace": "default"},
    "spec": {"devices": {"requests": [{"name": "r", "exactly": {"deviceClassName": "d"}}]}},
    "status": {}})json"));
  REQUIRE(claim.ok());
  CHECK(claim->finalizers.empty());
  CHECK_FALSE(claim->status.allocation.has_value());
  CHECK(claim->status.reserved_for.empty());
  CHECK(claim->status.devices_json.empty());
  REQUIRE(claim->spec.requests.size() == 1);
  CHECK(claim->spec.requests[0].exactly->allocation_mode.empty());
  CHECK(claim->spec.requests[0].exactly->count == 0);
  CHECK_FALSE(claim->spec.requests[0].exactly->admin_access.has_value());
}

TEST_CASE("Decoding the resource objects: errors name the field's path and the kind", "[api][json]") {
  CHECK(WatchError<ResourceSlice>(
            R"({"type":"ADDED","object":{"metadata":{"name":"s"},"spec":{"pool":{"generation":"1"}}}})") ==
        "object.spec.pool.generation: expected an integer, got string");
  CHECK(WatchError<ResourceSlice>(
            R"({"type":"ADDED","object":{"metadata":{"name":"s"},"spec":{"devices":[{"name":"d","attributes":{"a":{"int":1.5}}}]}}})") ==
        R"(object.spec.devices[0].attributes["a"].int: expected an integer, got 1.5)");
  CHECK(WatchError<ResourceSlice>(
            R"({"type":"ADDED","object":{"metadata":{"name":"s"},"spec":{"devices":[{"name":"d","capacity":{"m":{"value":"1x"}}}]}}})")
            .starts_with(R"(object.spec.devices[0].capacity["m"].value: )"));
  CHECK(WatchError<ResourceSlice>(
            R"({"type":"ADDED","object":{"metadata":{"name":"s"},"spec":{"devices":[{"name":"d","consumesCounters":{}}]}}})") ==
        "object.spec.devices[0].consumesCounters: expected an array, got object");
  CHECK(WatchError<ResourceSlice>(
            R"({"type":"ADDED","object":{"metadata":{"name":"s"},"spec":{"nodeSelector":{"nodeSelectorTerms":{}}}}})") ==
        "object.spec.nodeSelector.nodeSelectorTerms: expected an array, got object");
  CHECK(WatchError<ResourceSlice>(R"({"type":"ADDED","object":{"kind":"DeviceClass","metadata":{"name":"s"}}})") ==
        R"(object.kind: expected "ResourceSlice", got "DeviceClass")");
  CHECK(WatchError<ksched::api::DeviceClass>(R"({"type":"ADDED","object":{"metadata":{"name":"c"},"spec":{"selectors":[{"cel":{"expression":1}}]}}})") ==
        "object.spec.selectors[0].cel.expression: expected a string, got number");
  CHECK(WatchError<ksched::api::DeviceClass>(R"({"type":"ADDED","object":{"metadata":{"name":"c"},"spec":{"config":[{"opaque":"x"}]}}})") ==
        "object.spec.config[0].opaque: expected an object, got string");
  CHECK(WatchError<ksched::api::DeviceClass>(R"({"type":"ADDED","object":{"metadata":{"name":"c"},"spec":{"config":[{"opaque":{"driver":2}}]}}})") ==
        "object.spec.config[0].opaque.driver: expected a string, got number");
  CHECK(WatchError<ksched::api::DeviceClass>(R"({"type":"ADDED","object":{"metadata":{}}})") ==
        "object.metadata.name: required field is missing or empty");
  CHECK(WatchError<ResourceClaim>(
            R"({"type":"ADDED","object":{"metadata":{"name":"c","finalizers":"x"}}})") ==
        "object.metadata.finalizers: expected an array, got string");
  CHECK(WatchError<ResourceClaim>(
            R"({"type":"ADDED","object":{"metadata":{"name":"c"},"spec":{"devices":{"requests":[{"name":"r","exactly":{"count":"2"}}]}}}})") ==
        "object.spec.devices.requests[0].exactly.count: expected an integer, got string");
  CHECK(WatchError<ResourceClaim>(
            R"({"type":"ADDED","object":{"metadata":{"name":"c"},"spec":{"devices":{"requests":[{"name":"r","firstAvailable":[{"name":"s","selectors":[{"cel":[]}]}]}]}}}})") ==
        "object.spec.devices.requests[0].firstAvailable[0].selectors[0].cel: expected an object, got array");
  CHECK(WatchError<ResourceClaim>(
            R"({"type":"ADDED","object":{"metadata":{"name":"c"},"status":{"allocation":{"devices":{"results":[{"adminAccess":"yes"}]}}}}})") ==
        "object.status.allocation.devices.results[0].adminAccess: expected a bool, got string");
  CHECK(WatchError<ResourceClaim>(
            R"({"type":"ADDED","object":{"metadata":{"name":"c"},"status":{"allocation":{"allocationTimestamp":"yesterday"}}}})")
            .starts_with("object.status.allocation.allocationTimestamp: "));
  CHECK(WatchError<ResourceClaim>(
            R"({"type":"ADDED","object":{"metadata":{"name":"c"},"status":{"reservedFor":[{"uid":7}]}}})") ==
        "object.status.reservedFor[0].uid: expected a string, got number");
  CHECK(WatchError<ResourceClaim>(R"({"type":"ADDED","object":{"metadata":{"name":"c"},"status":{"devices":{}}}})") ==
        "object.status.devices: expected an array, got object");
  auto bad = DecodeResourceClaim(std::string_view(R"({"kind":"Pod","metadata":{"name":"c"}})"));
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().message() == R"(kind: expected "ResourceClaim", got "Pod")");
}

// A claim whose status is the writers' output.
ResourceClaim DecodeWritten(const ksched::api::AllocationResult& allocation,
                            const std::vector<ksched::api::ResourceClaimConsumerReference>& reserved_for) {
  std::string json = R"({"metadata":{"name":"c"},"status":{"allocation":)" + ksched::api::AllocationResultJson(allocation) +
                     R"(,"reservedFor":[)";
  for (std::size_t i = 0; i < reserved_for.size(); ++i) {
    if (i > 0) json += ",";
    json += ksched::api::ConsumerReferenceJson(reserved_for[i]);
  }
  json += "]}}";
  auto claim = DecodeResourceClaim(json);
  REQUIRE(claim.ok());
  return *claim;
}

TEST_CASE("AllocationResultJson and ConsumerReferenceJson: Go's field order and omitempty", "[api][json]") {
  ksched::api::AllocationResult empty;
  CHECK(ksched::api::AllocationResultJson(empty) == R"({"devices":{}})");

  ksched::api::AllocationResult allocation;
  allocation.results.push_back({"gpu", "gpu.example.com", "node-1", "gpu-0", std::nullopt});
  allocation.results.push_back({"nic/fast", "nic.example.com", "node-1", "eth1", true});
  allocation.config.push_back({"FromClass", {"gpu"}, {R"({"driver":"gpu.example.com","parameters":{"b":[2]}})"}});
  allocation.config.push_back({"FromClaim", {}, {}});
  ksched::api::NodeSelectorTerm term;
  term.match_fields.push_back({"metadata.name", "In", {"node-1"}});
  term.match_expressions.push_back({"zone", "Exists", {}});
  allocation.node_selector.emplace();
  allocation.node_selector->node_selector_terms.push_back(term);
  CHECK(ksched::api::AllocationResultJson(allocation) ==
        R"({"devices":{"results":[{"request":"gpu","driver":"gpu.example.com","pool":"node-1","device":"gpu-0"},)"
        R"({"request":"nic/fast","driver":"nic.example.com","pool":"node-1","device":"eth1","adminAccess":true}],)"
        R"("config":[{"source":"FromClass","requests":["gpu"],"opaque":{"driver":"gpu.example.com","parameters":{"b":[2]}}},)"
        R"({"source":"FromClaim"}]},)"
        R"("nodeSelector":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"zone","operator":"Exists"}],)"
        R"("matchFields":[{"key":"metadata.name","operator":"In","values":["node-1"]}]}]}})");
  allocation.allocation_timestamp = "2025-10-01T12:00:00Z";
  CHECK(ksched::api::AllocationResultJson(allocation).ends_with(R"(,"allocationTimestamp":"2025-10-01T12:00:00Z"})"));

  CHECK(ksched::api::ConsumerReferenceJson({"", "pods", "pod-1", "p-1"}) ==
        R"({"resource":"pods","name":"pod-1","uid":"p-1"})");
  CHECK(ksched::api::ConsumerReferenceJson({"example.com", "things", "t", "t-1"}) ==
        R"({"apiGroup":"example.com","resource":"things","name":"t","uid":"t-1"})");
}

TEST_CASE("AllocationResultJson and ConsumerReferenceJson: decoding what they write gives the value back",
          "[api][json]") {
  const std::vector<ksched::api::ResourceClaimConsumerReference> references = {
      {"", "pods", "pod-1", "p-1"}, {"example.com", "things", "t \"quoted\"", "t-1"}};

  ksched::api::AllocationResult empty;
  ResourceClaim claim = DecodeWritten(empty, references);
  CHECK(claim.status.allocation == empty);
  CHECK(claim.status.reserved_for == references);

  ksched::api::AllocationResult full;
  full.results.push_back({"gpu", "gpu.example.com", "node-1", "gpu-0", std::nullopt});
  full.results.push_back({"nic/fast", "nic.example.com", "pool-\u00e9", "eth1", false});
  full.config.push_back({"FromClass", {"gpu", "nic"}, {R"({"driver":"gpu.example.com","parameters":{"x":"y"}})"}});
  full.config.push_back({"FromClaim", {}, {}});
  ksched::api::NodeSelectorTerm term;
  term.match_expressions.push_back({"zone", "In", {"a", "b"}});
  full.node_selector.emplace();
  full.node_selector->node_selector_terms.push_back(term);
  full.node_selector->node_selector_terms.push_back({});
  full.allocation_timestamp = "2025-10-01T12:00:00.5Z";
  claim = DecodeWritten(full, {});
  CHECK(claim.status.allocation == full);
  CHECK(claim.status.reserved_for.empty());
}

}  // namespace
