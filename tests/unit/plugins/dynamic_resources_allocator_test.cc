// The structured allocator (plugins/dynamic_resources/allocator.h), with cases ported from
// upstream's allocatortesting (k8s.io/dynamic-resource-allocation v0.34.4): same objects, same
// expected devices, node selectors and error texts.
#include "plugins/dynamic_resources/allocator.h"

#include <catch2/catch.hpp>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

using namespace ksched;  // NOLINT
using plugins::dynamic_resources::AllocatedDevices;
using plugins::dynamic_resources::Allocator;
using plugins::dynamic_resources::AllocatorFeatures;
using plugins::dynamic_resources::DeviceKey;
using plugins::dynamic_resources::SelectorCache;

constexpr const char* kDriverA = "driver-a";
constexpr const char* kDriverB = "driver-b";
constexpr const char* kClassA = "class-a";
constexpr const char* kClassB = "class-b";

std::shared_ptr<const api::DeviceClass> Class(std::string name, std::string driver) {
  auto device_class = std::make_shared<api::DeviceClass>();
  device_class->metadata.name = std::move(name);
  device_class->selectors.push_back(api::DeviceSelector{"device.driver == \"" + driver + "\""});
  return device_class;
}

api::Device Device(std::string name, std::map<std::string, std::string> capacity = {},
                   std::vector<std::pair<std::string, api::DeviceAttribute>> attributes = {}) {
  api::Device device;
  device.name = std::move(name);
  for (auto& [key, value] : capacity) device.capacity.emplace_back(key, *api::Quantity::Parse(value));
  std::sort(attributes.begin(), attributes.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  device.attributes = std::move(attributes);
  return device;
}

api::DeviceAttribute IntAttribute(std::int64_t value) {
  api::DeviceAttribute attribute;
  attribute.kind = api::DeviceAttribute::Kind::kInt;
  attribute.int_value = value;
  return attribute;
}

std::shared_ptr<api::ResourceSlice> Slice(std::string name, std::string node, std::string pool, std::string driver,
                                          std::vector<api::Device> devices) {
  auto slice = std::make_shared<api::ResourceSlice>();
  slice->metadata.name = std::move(name);
  slice->node_name = std::move(node);
  slice->driver = std::move(driver);
  slice->pool.name = std::move(pool);
  slice->pool.resource_slice_count = 1;
  slice->devices = std::move(devices);
  return slice;
}

api::DeviceRequest Request(std::string name, std::string device_class, std::int64_t count,
                           std::vector<std::string> selectors = {}) {
  api::DeviceRequest request;
  request.name = std::move(name);
  api::ExactDeviceRequest& exactly = request.exactly.emplace();
  exactly.device_class_name = std::move(device_class);
  exactly.allocation_mode = api::kDeviceAllocationModeExactCount;
  exactly.count = count;
  for (std::string& selector : selectors) exactly.selectors.push_back(api::DeviceSelector{std::move(selector)});
  return request;
}

api::DeviceRequest AllRequest(std::string name, std::string device_class) {
  api::DeviceRequest request = Request(std::move(name), std::move(device_class), 0);
  request.exactly->allocation_mode = api::kDeviceAllocationModeAll;
  return request;
}

api::DeviceSubRequest SubRequest(std::string name, std::string device_class, std::int64_t count) {
  api::DeviceSubRequest sub;
  sub.name = std::move(name);
  sub.device_class_name = std::move(device_class);
  sub.allocation_mode = api::kDeviceAllocationModeExactCount;
  sub.count = count;
  return sub;
}

api::ResourceClaim Claim(std::string name, std::vector<api::DeviceRequest> requests,
                         std::vector<api::DeviceConstraint> constraints = {}) {
  api::ResourceClaim claim;
  claim.metadata.name = std::move(name);
  claim.spec.requests = std::move(requests);
  claim.spec.constraints = std::move(constraints);
  return claim;
}

api::Node Node(std::string name, std::string region = "region-1") {
  api::Node node;
  node.metadata.name = std::move(name);
  node.metadata.labels = api::Labels{{"region", std::move(region)}};
  return node;
}

// One test's world: classes, slices, allocated devices; Allocate returns what the allocator does.
struct World {
  std::vector<std::shared_ptr<const api::DeviceClass>> classes{Class(kClassA, kDriverA), Class(kClassB, kDriverB)};
  std::vector<std::shared_ptr<const api::ResourceSlice>> slices;
  AllocatedDevices allocated;
  AllocatorFeatures features;
  SelectorCache cache{10};

  absl::StatusOr<std::optional<std::vector<api::AllocationResult>>> Allocate(
      const api::Node& node, const std::vector<api::ResourceClaim>& claims) {
    auto getter = [this](std::string_view name) -> std::shared_ptr<const api::DeviceClass> {
      for (const auto& c : classes) {
        if (c->metadata.name == name) return c;
      }
      return nullptr;
    };
    Allocator allocator(features, allocated, getter, slices, cache);
    std::vector<const api::ResourceClaim*> pointers;
    for (const api::ResourceClaim& claim : claims) pointers.push_back(&claim);
    return allocator.Allocate(node, pointers);
  }
};

// "request driver/pool/device" per device result.
std::vector<std::string> Devices(const api::AllocationResult& result) {
  std::vector<std::string> out;
  for (const auto& device : result.results) {
    out.push_back(device.request + " " + device.driver + "/" + device.pool + "/" + device.device +
                  (device.admin_access.value_or(false) ? " admin" : ""));
  }
  return out;
}

api::NodeSelector LocalNodeSelector(const std::string& node) {
  api::NodeSelector selector;
  api::NodeSelectorTerm term;
  term.match_fields.push_back(api::NodeSelectorRequirement{"metadata.name", "In", {node}});
  selector.node_selector_terms.push_back(term);
  return selector;
}

std::string Memory(const char* quantity) {
  return std::string("device.capacity[\"") + kDriverA + "\"].memory.compareTo(quantity(\"" + quantity + "\")) >= 0";
}

}  // namespace

TEST_CASE("Allocator: one device on the node's local slice", "[plugins][dynamic_resources]") {
  World world;
  world.slices = {Slice("slice-1", "node-1", "pool-1", kDriverA, {Device("device-1")})};
  auto result = world.Allocate(Node("node-1"), {Claim("claim-0", {Request("req-0", kClassA, 1)})});
  REQUIRE(result.ok());
  REQUIRE(result->has_value());
  REQUIRE((*result)->size() == 1);
  CHECK(Devices((**result)[0]) == std::vector<std::string>{"req-0 driver-a/pool-1/device-1"});
  CHECK((**result)[0].node_selector == LocalNodeSelector("node-1"));
  CHECK((**result)[0].config.empty());
}

TEST_CASE("Allocator: another node's slice and another driver are not used", "[plugins][dynamic_resources]") {
  World world;
  world.slices = {Slice("slice-1", "node-1", "pool-1", kDriverB, {Device("device-1")}),
                  Slice("slice-2", "node-2", "pool-2", kDriverA, {Device("device-1")})};
  const std::vector<api::ResourceClaim> claims{Claim("claim-0", {Request("req-0", kClassA, 1)})};
  auto on_node2 = world.Allocate(Node("node-2", "region-2"), claims);
  REQUIRE(on_node2.ok());
  REQUIRE(on_node2->has_value());
  CHECK(Devices((**on_node2)[0]) == std::vector<std::string>{"req-0 driver-a/pool-2/device-1"});
  CHECK((**on_node2)[0].node_selector == LocalNodeSelector("node-2"));
  auto on_node1 = world.Allocate(Node("node-1"), claims);
  REQUIRE(on_node1.ok());
  CHECK_FALSE(on_node1->has_value());
}

TEST_CASE("Allocator: small and large devices backtrack across requests and claims", "[plugins][dynamic_resources]") {
  World world;
  // The large device first: the small request takes it, and the search has to undo that.
  world.slices = {Slice("slice-1", "node-1", "pool-1", kDriverA,
                        {Device("device-2", {{"memory", "2Gi"}}), Device("device-1", {{"memory", "1Gi"}})})};
  SECTION("requests of one claim") {
    auto result = world.Allocate(Node("node-1"), {Claim("claim-0", {Request("req-0", kClassA, 1, {Memory("1Gi")}),
                                                                   Request("req-1", kClassA, 1, {Memory("2Gi")})})});
    REQUIRE(result.ok());
    REQUIRE(result->has_value());
    CHECK(Devices((**result)[0]) ==
          std::vector<std::string>{"req-0 driver-a/pool-1/device-1", "req-1 driver-a/pool-1/device-2"});
  }
  SECTION("two claims") {
    auto result = world.Allocate(Node("node-1"), {Claim("claim-0", {Request("req-0", kClassA, 1, {Memory("1Gi")})}),
                                                  Claim("claim-1", {Request("req-1", kClassA, 1, {Memory("2Gi")})})});
    REQUIRE(result.ok());
    REQUIRE(result->has_value());
    CHECK(Devices((**result)[0]) == std::vector<std::string>{"req-0 driver-a/pool-1/device-1"});
    CHECK(Devices((**result)[1]) == std::vector<std::string>{"req-1 driver-a/pool-1/device-2"});
  }
}

TEST_CASE("Allocator: pools across slices and generations", "[plugins][dynamic_resources]") {
  World world;
  SECTION("devices split across two slices of one pool") {
    auto a = Slice("slice-1", "node-1", "pool-1", kDriverA, {Device("device-1")});
    auto b = Slice("slice-2", "node-1", "pool-1", kDriverA, {Device("device-2")});
    a->pool.resource_slice_count = b->pool.resource_slice_count = 2;
    world.slices = {a, b};
    auto result = world.Allocate(Node("node-1"), {Claim("claim-0", {Request("req-0", kClassA, 2)})});
    REQUIRE(result.ok());
    REQUIRE(result->has_value());
    CHECK(Devices((**result)[0]) ==
          std::vector<std::string>{"req-0 driver-a/pool-1/device-1", "req-0 driver-a/pool-1/device-2"});
  }
  SECTION("an obsolete slice of an older generation is ignored") {
    auto old_slice = Slice("slice-1", "node-1", "pool-1", kDriverA, {Device("device-1")});
    auto new_slice = Slice("slice-2", "node-1", "pool-1", kDriverA, {Device("device-2")});
    new_slice->pool.generation = 1;
    world.slices = {old_slice, new_slice};
    auto result = world.Allocate(Node("node-1"), {Claim("claim-0", {Request("req-0", kClassA, 1)})});
    REQUIRE(result.ok());
    REQUIRE(result->has_value());
    CHECK(Devices((**result)[0]) == std::vector<std::string>{"req-0 driver-a/pool-1/device-2"});
  }
  SECTION("a duplicate device name makes the pool invalid: skipped, and named only when nothing else fits") {
    auto a = Slice("slice-1", "node-1", "pool-1", kDriverA, {Device("device-1")});
    auto b = Slice("slice-2", "node-1", "pool-1", kDriverA, {Device("device-1")});
    a->pool.resource_slice_count = b->pool.resource_slice_count = 2;
    world.slices = {a, b};
    auto result = world.Allocate(Node("node-1"), {Claim("claim-0", {Request("req-0", kClassA, 1)})});
    REQUIRE_FALSE(result.ok());
    CHECK(absl::IsFailedPrecondition(result.status()));  // this node only (ErrFailedAllocationOnNode)
    CHECK(result.status().message() == "invalid resource pools were encountered");
    // A valid pool next to it serves the claim (v1.37; v1.34 failed on the invalid pool).
    world.slices.push_back(Slice("slice-3", "node-1", "pool-2", kDriverA, {Device("device-9")}));
    auto served = world.Allocate(Node("node-1"), {Claim("claim-0", {Request("req-0", kClassA, 1)})});
    REQUIRE(served.ok());
    REQUIRE(served->has_value());
    CHECK(Devices((**served)[0]) == std::vector<std::string>{"req-0 driver-a/pool-2/device-9"});
  }
  SECTION("a pool being updated (not all its slices seen) gives no device") {
    auto partial = Slice("slice-1", "node-1", "pool-1", kDriverA, {Device("device-1")});
    partial->pool.resource_slice_count = 2;
    world.slices = {partial};
    auto result = world.Allocate(Node("node-1"), {Claim("claim-0", {Request("req-0", kClassA, 1)})});
    REQUIRE(result.ok());
    CHECK_FALSE(result->has_value());
  }
  SECTION("no slices, or not enough devices") {
    auto none = world.Allocate(Node("node-1"), {Claim("claim-0", {Request("req-0", kClassA, 1)})});
    REQUIRE(none.ok());
    CHECK_FALSE(none->has_value());
    world.slices = {Slice("slice-1", "node-1", "pool-1", kDriverA, {Device("device-1")})};
    auto too_few = world.Allocate(Node("node-1"), {Claim("claim-0", {Request("req-0", kClassA, 2)})});
    REQUIRE(too_few.ok());
    CHECK_FALSE(too_few->has_value());
  }
}

TEST_CASE("Allocator: classes and requests that cannot be handled are errors", "[plugins][dynamic_resources]") {
  World world;
  world.slices = {Slice("slice-1", "node-1", "pool-1", kDriverA, {Device("device-1")})};
  auto error_of = [&](api::DeviceRequest request) {
    auto result = world.Allocate(Node("node-1"), {Claim("claim-0", {std::move(request)})});
    REQUIRE_FALSE(result.ok());
    return std::string(result.status().message());
  };
  CHECK_THAT(error_of(Request("req-0", "unknown-class", 1)),
             Catch::Contains("claim claim-0, request req-0: could not retrieve device class unknown-class"));
  CHECK(error_of(Request("req-0", "", 1)) ==
        "claim claim-0, request req-0: missing device class name (unsupported request type?)");
  api::DeviceRequest future = Request("req-0", kClassA, 1);
  future.exactly->allocation_mode = "future-mode";
  CHECK_THAT(error_of(future), Catch::Contains("unsupported count mode future-mode"));
  api::DeviceRequest unknown_selector = Request("req-0", kClassA, 1);
  unknown_selector.exactly->selectors.push_back(api::DeviceSelector{});
  CHECK_THAT(error_of(unknown_selector), Catch::Contains("CEL expression empty (unsupported selector type?)"));
  CHECK_THAT(error_of(Request("req-0", kClassA, 1, {"noSuchVar.driver == \"x\""})),
             Catch::Contains("claim claim-0: selector #0: CEL compile error: compilation failed"));
  CHECK(error_of(Request("req-0", kClassA, 33)) ==
        "claim claim-0, request req-0: adding 33 devices exceeds the claim limit of 32, with 0 already accounted for");
  {
    // The second request is the one that does not fit: it is named, with what was counted before it.
    auto result = world.Allocate(Node("node-1"),
                                 {Claim("claim-0", {Request("req-0", kClassA, 30), Request("req-1", kClassA, 3)})});
    REQUIRE_FALSE(result.ok());
    CHECK(std::string(result.status().message()) ==
          "claim claim-0, request req-1: adding 3 devices exceeds the claim limit of 32, with 30 already accounted for");
  }
  auto unknown_constraint = world.Allocate(
      Node("node-1"), {Claim("claim-0", {Request("req-0", kClassA, 1)}, {api::DeviceConstraint{}})});
  REQUIRE_FALSE(unknown_constraint.ok());
  CHECK_THAT(std::string(unknown_constraint.status().message()),
             Catch::Contains("empty constraint (unsupported constraint type?)"));
}

TEST_CASE("Allocator: allocation mode All", "[plugins][dynamic_resources]") {
  World world;
  world.slices = {Slice("slice-1", "node-1", "pool-1", kDriverA, {Device("device-1"), Device("device-2")})};
  SECTION("takes every matching device") {
    auto result = world.Allocate(Node("node-1"), {Claim("claim-0", {AllRequest("req-0", kClassA)})});
    REQUIRE(result.ok());
    REQUIRE(result->has_value());
    CHECK(Devices((**result)[0]) ==
          std::vector<std::string>{"req-0 driver-a/pool-1/device-1", "req-0 driver-a/pool-1/device-2"});
  }
  SECTION("fails when one of them is allocated already") {
    world.allocated.insert(DeviceKey(kDriverA, "pool-1", "device-2"));
    auto result = world.Allocate(Node("node-1"), {Claim("claim-0", {AllRequest("req-0", kClassA)})});
    REQUIRE(result.ok());
    CHECK_FALSE(result->has_value());
  }
  SECTION("admin access takes allocated devices too") {
    world.allocated.insert(DeviceKey(kDriverA, "pool-1", "device-2"));
    api::DeviceRequest request = AllRequest("req-0", kClassA);
    request.exactly->admin_access = true;
    auto result = world.Allocate(Node("node-1"), {Claim("claim-0", {request})});
    REQUIRE(result.ok());
    REQUIRE(result->has_value());
    CHECK(Devices((**result)[0]) ==
          std::vector<std::string>{"req-0 driver-a/pool-1/device-1 admin", "req-0 driver-a/pool-1/device-2 admin"});
  }
  SECTION("an incomplete pool is an error") {
    auto incomplete = Slice("slice-1", "node-1", "pool-1", kDriverA, {Device("device-1")});
    incomplete->pool.resource_slice_count = 2;
    world.slices = {incomplete};
    auto result = world.Allocate(Node("node-1"), {Claim("claim-0", {AllRequest("req-0", kClassA)})});
    REQUIRE_FALSE(result.ok());
    CHECK(std::string(result.status().message()) ==
          "claim claim-0, request req-0: asks for all devices, but resource pool driver-a/pool-1 is currently being updated");
  }
  SECTION("no matching device: no allocation") {
    world.slices = {Slice("slice-1", "node-1", "pool-1", kDriverB, {Device("device-1")})};
    auto result = world.Allocate(Node("node-1"), {Claim("claim-0", {AllRequest("req-0", kClassA)})});
    REQUIRE(result.ok());
    CHECK_FALSE(result->has_value());
  }
}

TEST_CASE("Allocator: allocated devices and admin access", "[plugins][dynamic_resources]") {
  World world;
  world.slices = {Slice("slice-1", "node-1", "pool-1", kDriverA, {Device("device-1")})};
  world.allocated.insert(DeviceKey(kDriverA, "pool-1", "device-1"));
  auto taken = world.Allocate(Node("node-1"), {Claim("claim-0", {Request("req-0", kClassA, 1)})});
  REQUIRE(taken.ok());
  CHECK_FALSE(taken->has_value());
  api::DeviceRequest admin = Request("req-0", kClassA, 1);
  admin.exactly->admin_access = true;
  auto with_admin = world.Allocate(Node("node-1"), {Claim("claim-0", {admin})});
  REQUIRE(with_admin.ok());
  REQUIRE(with_admin->has_value());
  CHECK(Devices((**with_admin)[0]) == std::vector<std::string>{"req-0 driver-a/pool-1/device-1 admin"});
  world.features.admin_access = false;
  auto disabled = world.Allocate(Node("node-1"), {Claim("claim-0", {admin})});
  REQUIRE_FALSE(disabled.ok());
  CHECK_THAT(std::string(disabled.status().message()),
             Catch::Contains("claim claim-0, request req-0: admin access is requested, but the feature is disabled"));
}

TEST_CASE("Allocator: network-attached devices get the slice's node selector", "[plugins][dynamic_resources]") {
  World world;
  auto network = Slice("slice-1", "", "pool-1", kDriverA, {Device("device-1")});
  api::NodeSelector selector;
  api::NodeSelectorTerm term;
  term.match_expressions.push_back(api::NodeSelectorRequirement{"region", "In", {"region-1"}});
  selector.node_selector_terms.push_back(term);
  network->node_selector = selector;
  world.slices = {network};
  const std::vector<api::ResourceClaim> claims{Claim("claim-0", {Request("req-0", kClassA, 1)})};
  auto result = world.Allocate(Node("node-1"), claims);
  REQUIRE(result.ok());
  REQUIRE(result->has_value());
  CHECK((**result)[0].node_selector == selector);
  auto elsewhere = world.Allocate(Node("node-2", "region-2"), claims);
  REQUIRE(elsewhere.ok());
  CHECK_FALSE(elsewhere->has_value());
  SECTION("allNodes: no node selector at all") {
    network->node_selector.reset();
    network->all_nodes = true;
    auto anywhere = world.Allocate(Node("node-2", "region-2"), claims);
    REQUIRE(anywhere.ok());
    REQUIRE(anywhere->has_value());
    CHECK_FALSE((**anywhere)[0].node_selector.has_value());
  }
}

TEST_CASE("Allocator: matchAttribute constraints", "[plugins][dynamic_resources]") {
  World world;
  const std::string numa = std::string(kDriverA) + "/numa";
  SECTION("satisfied by two devices with the same value") {
    world.slices = {Slice("slice-1", "node-1", "pool-1", kDriverA,
                          {Device("device-1", {}, {{"numa", IntAttribute(1)}}),
                           Device("device-2", {}, {{"numa", IntAttribute(1)}})})};
    auto result = world.Allocate(Node("node-1"), {Claim("claim-0", {Request("req-0", kClassA, 1), Request("req-1", kClassA, 1)},
                                                        {api::DeviceConstraint{{}, numa}})});
    REQUIRE(result.ok());
    REQUIRE(result->has_value());
    CHECK(Devices((**result)[0]) ==
          std::vector<std::string>{"req-0 driver-a/pool-1/device-1", "req-1 driver-a/pool-1/device-2"});
  }
  SECTION("different values or a missing attribute: no allocation") {
    world.slices = {Slice("slice-1", "node-1", "pool-1", kDriverA,
                          {Device("device-1", {}, {{"numa", IntAttribute(1)}}),
                           Device("device-2", {}, {{"numa", IntAttribute(2)}})})};
    auto different = world.Allocate(Node("node-1"), {Claim("claim-0", {Request("req-0", kClassA, 2)}, {api::DeviceConstraint{{}, numa}})});
    REQUIRE(different.ok());
    CHECK_FALSE(different->has_value());
    auto missing = world.Allocate(Node("node-1"), {Claim("claim-0", {Request("req-0", kClassA, 1)},
                                                         {api::DeviceConstraint{{}, "driver-a/non-existent"}})});
    REQUIRE(missing.ok());
    CHECK_FALSE(missing->has_value());
  }
  SECTION("All mode with a constraint that fails is an error") {
    world.slices = {Slice("slice-1", "node-1", "pool-1", kDriverA,
                          {Device("device-1", {}, {{"numa", IntAttribute(1)}}),
                           Device("device-2", {}, {{"numa", IntAttribute(2)}})})};
    auto result = world.Allocate(Node("node-1"), {Claim("claim-0", {AllRequest("req-0", kClassA)}, {api::DeviceConstraint{{}, numa}})});
    REQUIRE_FALSE(result.ok());
    CHECK_THAT(std::string(result.status().message()),
               Catch::Contains("claim claim-0, request req-0: cannot add device driver-a/pool-1/device-2 because a claim constraint would not be satisfied"));
  }
  SECTION("a constraint for one request retries the other request's devices") {
    world.slices = {Slice("slice-1", "node-1", "pool-1", kDriverA,
                          {Device("device-1", {}, {{"numa", IntAttribute(1)}}),
                           Device("device-2", {}, {{"numa", IntAttribute(2)}}),
                           Device("device-3", {}, {{"numa", IntAttribute(2)}})})};
    auto result = world.Allocate(Node("node-1"), {Claim("claim-0", {Request("req-0", kClassA, 2)},
                                                        {api::DeviceConstraint{{"req-0"}, numa}})});
    REQUIRE(result.ok());
    REQUIRE(result->has_value());
    CHECK(Devices((**result)[0]) ==
          std::vector<std::string>{"req-0 driver-a/pool-1/device-2", "req-0 driver-a/pool-1/device-3"});
  }
}

TEST_CASE("Allocator: class and claim configs are copied into the result", "[plugins][dynamic_resources]") {
  World world;
  auto with_config = std::make_shared<api::DeviceClass>(*Class(kClassA, kDriverA));
  with_config->config.push_back(api::DeviceConfiguration{R"({"driver":"driver-a","parameters":{"a":1}})"});
  world.classes = {with_config};
  world.slices = {Slice("slice-1", "node-1", "pool-1", kDriverA, {Device("device-1"), Device("device-2")})};
  api::ResourceClaim claim = Claim("claim-0", {Request("req-0", kClassA, 1), Request("req-1", kClassA, 1)});
  claim.spec.config.push_back(api::DeviceClaimConfiguration{{"req-1"}, api::DeviceConfiguration{R"({"driver":"driver-a"})"}});
  claim.spec.config.push_back(api::DeviceClaimConfiguration{{}, api::DeviceConfiguration{R"({"driver":"driver-b"})"}});
  claim.spec.config.push_back(
      api::DeviceClaimConfiguration{{"req-0", "req-1"}, api::DeviceConfiguration{R"({"driver":"driver-c"})"}});
  auto result = world.Allocate(Node("node-1"), {claim});
  REQUIRE(result.ok());
  REQUIRE(result->has_value());
  const std::vector<api::DeviceAllocationConfiguration>& config = (**result)[0].config;
  // v1.37: a claim config naming several requests is there once (v1.34: once per request), and a
  // config covering every request has no `requests`.
  REQUIRE(config.size() == 4);
  CHECK(config[0].source == "FromClass");
  CHECK(config[0].requests.empty());  // the class serves req-0 and req-1: all of them
  CHECK(config[0].configuration.opaque_json == R"({"driver":"driver-a","parameters":{"a":1}})");
  CHECK(config[1].source == "FromClaim");
  CHECK(config[1].requests == std::vector<std::string>{"req-1"});
  CHECK(config[2].requests.empty());
  CHECK(config[3].configuration.opaque_json == R"({"driver":"driver-c"})");
  CHECK(config[3].requests.empty());
}

TEST_CASE("Allocator: firstAvailable subrequests", "[plugins][dynamic_resources]") {
  World world;
  auto prioritized = [](std::vector<api::DeviceSubRequest> subs) {
    api::DeviceRequest request;
    request.name = "req-0";
    request.first_available = std::move(subs);
    return request;
  };
  SECTION("the first subrequest that can be satisfied wins") {
    world.slices = {Slice("slice-1", "node-1", "pool-1", kDriverA, {Device("device-1")})};
    auto result = world.Allocate(Node("node-1"), {Claim("claim-0", {prioritized({SubRequest("subreq-0", kClassB, 1),
                                                                                   SubRequest("subreq-1", kClassA, 1)})})});
    REQUIRE(result.ok());
    REQUIRE(result->has_value());
    CHECK(Devices((**result)[0]) == std::vector<std::string>{"req-0/subreq-1 driver-a/pool-1/device-1"});
  }
  SECTION("none available") {
    world.slices = {Slice("slice-1", "node-1", "pool-1", kDriverA, {Device("device-1")}),
                    Slice("slice-2", "node-1", "pool-2", kDriverB, {Device("device-1")})};
    auto result = world.Allocate(Node("node-1"), {Claim("claim-0", {prioritized({SubRequest("subreq-0", kClassB, 2),
                                                                                   SubRequest("subreq-1", kClassA, 2)})})});
    REQUIRE(result.ok());
    CHECK_FALSE(result->has_value());
  }
  SECTION("backtracking into an earlier request's subrequests") {
    // req-0 prefers two devices; req-1 then needs one more than is left, so req-0 falls back.
    world.slices = {Slice("slice-1", "node-1", "pool-1", kDriverA, {Device("device-1"), Device("device-2")})};
    auto result = world.Allocate(
        Node("node-1"), {Claim("claim-0", {prioritized({SubRequest("subreq-0", kClassA, 2), SubRequest("subreq-1", kClassA, 1)}),
                                           Request("req-1", kClassA, 1)})});
    REQUIRE(result.ok());
    REQUIRE(result->has_value());
    CHECK(Devices((**result)[0]) ==
          std::vector<std::string>{"req-0/subreq-1 driver-a/pool-1/device-1", "req-1 driver-a/pool-1/device-2"});
  }
  SECTION("the feature off is an error") {
    world.features.prioritized_list = false;
    world.slices = {Slice("slice-1", "node-1", "pool-1", kDriverA, {Device("device-1")})};
    auto result = world.Allocate(Node("node-1"), {Claim("claim-0", {prioritized({SubRequest("subreq-0", kClassA, 1)})})});
    REQUIRE_FALSE(result.ok());
    CHECK(std::string(result.status().message()) ==
          "claim claim-0, request req-0: has subrequests, but the DRAPrioritizedList feature is disabled");
  }
}

TEST_CASE("Allocator: devices of features that are off are never allocated", "[plugins][dynamic_resources]") {
  World world;
  api::Device counters = Device("device-1");
  counters.consumes_counters = true;
  api::Device conditions = Device("device-2");
  conditions.has_binding_conditions = true;
  world.slices = {Slice("slice-1", "node-1", "pool-1", kDriverA, {counters, conditions})};
  auto result = world.Allocate(Node("node-1"), {Claim("claim-0", {Request("req-0", kClassA, 1)})});
  REQUIRE(result.ok());
  CHECK_FALSE(result->has_value());
  SECTION("a slice with perDeviceNodeSelection is skipped") {
    auto per_device = Slice("slice-2", "node-1", "pool-2", kDriverA, {Device("device-3")});
    per_device->per_device_node_selection = false;
    world.slices.push_back(per_device);
    auto skipped = world.Allocate(Node("node-1"), {Claim("claim-0", {Request("req-0", kClassA, 1)})});
    REQUIRE(skipped.ok());
    CHECK_FALSE(skipped->has_value());
  }
}

TEST_CASE("Allocator: a search past its deadline stops", "[plugins][dynamic_resources]") {
  World world;
  world.slices = {Slice("slice-1", "node-1", "pool-1", kDriverA, {Device("device-1")})};
  Allocator allocator(world.features, {}, [&](std::string_view name) { return name == kClassA ? world.classes[0] : nullptr; },
                      world.slices, world.cache);
  const api::ResourceClaim claim = Claim("claim-0", {Request("req-0", kClassA, 1)});
  const api::ResourceClaim* claims[] = {&claim};
  auto result = allocator.Allocate(Node("node-1"), claims, std::chrono::steady_clock::now() - std::chrono::seconds(1));
  REQUIRE_FALSE(result.ok());
  CHECK(absl::IsDeadlineExceeded(result.status()));
}
