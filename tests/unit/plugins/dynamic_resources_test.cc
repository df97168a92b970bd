// DynamicResources (plugins/dynamic_resources/dynamic_resources.h): upstream's cases of
// dynamicresources_test.go for the stable features - claims missing, being deleted, not owned,
// classes missing, allocation per node, Reserve's in-flight devices, PreBind's writes and its
// retry on a Conflict, Unreserve, PostFilter's deallocation and the queueing hints.
#include "plugins/dynamic_resources/dynamic_resources.h"

#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "fake_handle.h"
#include "test_objects.h"

namespace {

using ksched::api::Pod;
using ksched::api::ResourceClaim;
using ksched::framework::Code;
using ksched::framework::CycleState;
using ksched::framework::EventObjects;
using ksched::framework::NodeInfo;
using ksched::framework::QueueingHint;
using ksched::framework::Status;
namespace dra = ksched::plugins::dynamic_resources;
using ksched::plugins::testing::FakeHandle;
using ksched::plugins::testing::MakeNode;
using ksched::plugins::testing::MakeNodeInfo;
using ksched::plugins::testing::MakePod;

constexpr const char* kDriver = "gpu.example.com";

Status Unresolvable(std::string reason) { return Status(Code::kUnschedulableAndUnresolvable, {reason}); }

Pod PodWithClaim(std::string name, std::string claim) {
  Pod pod = MakePod(std::move(name));
  ksched::api::PodResourceClaim pod_claim;
  pod_claim.name = "gpu";
  pod_claim.resource_claim_name = std::move(claim);
  pod.spec.resource_claims.push_back(pod_claim);
  return pod;
}

ResourceClaim Claim(std::string name, std::string device_class = "gpu") {
  ResourceClaim claim;
  claim.metadata.name = std::move(name);
  claim.metadata.namespace_ = "default";
  claim.metadata.uid = claim.metadata.name + "-uid";
  claim.metadata.resource_version = "1";
  ksched::api::DeviceRequest request;
  request.name = "req-0";
  ksched::api::ExactDeviceRequest& exactly = request.exactly.emplace();
  exactly.device_class_name = std::move(device_class);
  exactly.allocation_mode = ksched::api::kDeviceAllocationModeExactCount;
  exactly.count = 1;
  claim.spec.requests.push_back(request);
  return claim;
}

// The claim as allocated on `node` (device gpu-0 of the node's pool) and reserved for `pods`.
ResourceClaim Allocated(ResourceClaim claim, const std::string& node, std::vector<std::string> reserved_for = {}) {
  ksched::api::AllocationResult allocation;
  allocation.results.push_back({"req-0", kDriver, node, "gpu-0", std::nullopt});
  ksched::api::NodeSelector selector;
  ksched::api::NodeSelectorTerm term;
  term.match_fields.push_back({"metadata.name", "In", {node}});
  selector.node_selector_terms.push_back(term);
  allocation.node_selector = selector;
  claim.status.allocation = allocation;
  for (std::string& pod : reserved_for) {
    claim.status.reserved_for.push_back({"", "pods", pod, pod + "-uid"});
  }
  return claim;
}

NodeInfo Node(const std::string& name) { return MakeNodeInfo(MakeNode(name)); }

struct Fixture {
  FakeHandle handle;
  std::unique_ptr<dra::DynamicResources> plugin;
  Fixture() {
    ksched::api::DeviceClass device_class;
    device_class.metadata.name = "gpu";
    device_class.selectors.push_back({std::string("device.driver == \"") + kDriver + "\""});
    handle.resources().AddDeviceClass(device_class);
    for (const char* node : {"node-a", "node-b"}) {
      ksched::api::ResourceSlice slice;
      slice.metadata.name = std::string(node) + "-slice";
      slice.driver = kDriver;
      slice.node_name = node;
      slice.pool = {node, 1, 1};
      slice.devices.push_back(ksched::api::Device{"gpu-0", {}, {}, false, false});
      handle.resources().AddResourceSlice(slice);
    }
    plugin = std::make_unique<dra::DynamicResources>(dra::DynamicResourcesArgs{}, handle);
  }
  Status PreFilter(CycleState& state, const Pod& pod) { return plugin->PreFilter(state, pod, {}).second; }
  void ReserveOn(CycleState& state, const Pod& pod, const std::string& node) {
    REQUIRE(PreFilter(state, pod).IsSuccess());
    REQUIRE(plugin->Filter(state, pod, Node(node)).IsSuccess());
    REQUIRE(plugin->Reserve(state, pod, node).IsSuccess());
  }
};

}  // namespace

TEST_CASE("DynamicResources PreEnqueue and PreFilter: claims must exist and be usable", "[plugins][dynamic_resources]") {
  Fixture f;
  CycleState state;
  CHECK(f.plugin->PreEnqueue(MakePod("no-claims")).IsSuccess());
  CHECK(f.PreFilter(state, MakePod("no-claims")).code() == Code::kSkip);
  CHECK(f.plugin->PreBindPreFlight(state, MakePod("no-claims"), "node-a").code() == Code::kSkip);

  CHECK(f.plugin->PreEnqueue(PodWithClaim("p", "missing")) ==
        Unresolvable("resourceclaim.resource.k8s.io \"missing\" not found"));
  CHECK(f.PreFilter(state, PodWithClaim("p", "missing")) ==
        Unresolvable("resourceclaim.resource.k8s.io \"missing\" not found"));

  ResourceClaim deleting = Claim("deleting");
  deleting.metadata.deletion_timestamp = ksched::api::Time{};
  f.handle.resources().AddResourceClaim(deleting);
  CHECK(f.plugin->PreEnqueue(PodWithClaim("p", "deleting")) == Unresolvable("resourceclaim \"deleting\" is being deleted"));

  // A template's claim: not created yet, then created but owned by another pod, then owned.
  Pod templated = MakePod("web-0");
  ksched::api::PodResourceClaim from_template;
  from_template.name = "gpu";
  from_template.resource_claim_template_name = "gpu-template";
  templated.spec.resource_claims.push_back(from_template);
  CHECK(f.plugin->PreEnqueue(templated) == Unresolvable("pod \"default/web-0\": ResourceClaim not created yet"));
  templated.status.resource_claim_statuses.push_back({"gpu", std::string("web-0-gpu-x")});
  ResourceClaim generated = Claim("web-0-gpu-x");
  f.handle.resources().AddResourceClaim(generated);
  CHECK(f.plugin->PreEnqueue(templated) ==
        Unresolvable("ResourceClaim default/web-0-gpu-x was not created for Pod default/web-0 (Pod is not owner)"));
  generated.metadata.owner_references.push_back({"v1", "Pod", "web-0", "web-0-uid", true});
  f.handle.resources().AddResourceClaim(generated);
  CHECK(f.plugin->PreEnqueue(templated).IsSuccess());
  // No claim needed for that entry: nothing to do.
  Pod none_needed = templated;
  none_needed.status.resource_claim_statuses[0].resource_claim_name.reset();
  CHECK(f.PreFilter(state, none_needed).code() == Code::kSkip);

  f.handle.resources().AddResourceClaim(Claim("no-class", "missing-class"));
  CHECK(f.PreFilter(state, PodWithClaim("p", "no-class")) ==
        Unresolvable("request req-0: device class missing-class does not exist"));
  ResourceClaim unknown = Claim("unknown");
  unknown.spec.requests[0].exactly.reset();
  f.handle.resources().AddResourceClaim(unknown);
  CHECK(f.PreFilter(state, PodWithClaim("p", "unknown")) ==
        Unresolvable("resource claim default/unknown, request req-0: unknown request type"));
}

TEST_CASE("DynamicResources Filter: allocation per node and the allocated claims' node selectors",
          "[plugins][dynamic_resources]") {
  Fixture f;
  f.handle.resources().AddResourceClaim(Claim("c"));
  CycleState state;
  const Pod pod = PodWithClaim("p", "c");
  REQUIRE(f.PreFilter(state, pod).IsSuccess());
  CHECK(f.plugin->Filter(state, pod, Node("node-a")).IsSuccess());
  CHECK(f.plugin->Filter(state, pod, Node("node-c")) == Unresolvable("cannot allocate all claims"));

  // Claim "d" is allocated on node-b: the pod may go there only; the device there is taken.
  f.handle.resources().AddResourceClaim(Allocated(Claim("d"), "node-b"));
  CycleState state2;
  const Pod other = PodWithClaim("q", "d");
  REQUIRE(f.PreFilter(state2, other).IsSuccess());
  CHECK(f.plugin->Filter(state2, other, Node("node-a")) == Unresolvable("resourceclaim not available on the node"));
  CHECK(f.plugin->Filter(state2, other, Node("node-b")).IsSuccess());
  CycleState state3;
  REQUIRE(f.PreFilter(state3, pod).IsSuccess());
  CHECK(f.plugin->Filter(state3, pod, Node("node-b")) == Unresolvable("cannot allocate all claims"));

  // A broken CEL selector is an error, not a rejection.
  ResourceClaim broken = Claim("broken");
  broken.spec.requests[0].exactly->selectors.push_back({std::string("device.attributes[\"x\"].y == 1")});
  f.handle.resources().AddResourceClaim(broken);
  CycleState state4;
  const Pod broken_pod = PodWithClaim("r", "broken");
  REQUIRE(f.PreFilter(state4, broken_pod).IsSuccess());
  const Status error = f.plugin->Filter(state4, broken_pod, Node("node-a"));
  CHECK(error.code() == Code::kError);
  // v1.37's words: the device named, and the hint after a missing key.
  CHECK_THAT(error.error(),
             Catch::Contains("claim default/broken: selector #0 on device gpu.example.com/node-a/gpu-0: CEL runtime error: "
                             "no such key: y. consider using CEL optional chaining (.? followed by orValue()) or guarding "
                             "the check with has() for optional fields"));
}

TEST_CASE("DynamicResources Reserve: an allocation in flight takes its device from the next pods",
          "[plugins][dynamic_resources]") {
  Fixture f;
  f.handle.resources().AddResourceClaim(Claim("c1"));
  f.handle.resources().AddResourceClaim(Claim("c2"));
  CycleState first;
  const Pod p1 = PodWithClaim("p1", "c1");
  f.ReserveOn(first, p1, "node-a");
  CHECK(f.plugin->claim_tracker().HasPendingAllocation("c1-uid"));
  // Another pod of the same claim waits for the allocation to finish.
  CycleState same;
  CHECK(f.PreFilter(same, PodWithClaim("p3", "c1")) ==
        Unresolvable("resource claim default/c1 is in the process of being allocated"));
  // Another claim cannot get node-a's device while it is in flight.
  CycleState second;
  const Pod p2 = PodWithClaim("p2", "c2");
  REQUIRE(f.PreFilter(second, p2).IsSuccess());
  CHECK(f.plugin->Filter(second, p2, Node("node-a")) == Unresolvable("cannot allocate all claims"));
  CHECK(f.plugin->Filter(second, p2, Node("node-b")).IsSuccess());
  // Unreserve drops it: the device is free again.
  f.plugin->Unreserve(first, p1, "node-a");
  CHECK_FALSE(f.plugin->claim_tracker().HasPendingAllocation("c1-uid"));
  CycleState third;
  REQUIRE(f.PreFilter(third, p2).IsSuccess());
  CHECK(f.plugin->Filter(third, p2, Node("node-a")).IsSuccess());
  CHECK(f.handle.fake_cluster_api().claim_patches().empty());  // nothing was reserved in the API
}

TEST_CASE("DynamicResources PreBind: finalizer then allocation and reservation, retried on a Conflict",
          "[plugins][dynamic_resources]") {
  Fixture f;
  f.handle.resources().AddResourceClaim(Claim("c"));
  CycleState state;
  const Pod pod = PodWithClaim("p", "c");
  f.ReserveOn(state, pod, "node-a");
  REQUIRE(f.plugin->PreBindPreFlight(state, pod, "node-a").IsSuccess());

  ResourceClaim with_finalizer = Claim("c");
  with_finalizer.metadata.resource_version = "2";
  with_finalizer.finalizers = {"resource.kubernetes.io/delete-protection"};
  ResourceClaim written = Allocated(with_finalizer, "node-a", {"p"});
  written.metadata.resource_version = "3";
  Status conflict = Status::FromError("Operation cannot be fulfilled on resourceclaims.resource.k8s.io \"c\": the object has been modified");
  conflict.AppendReason(std::string(ksched::framework::kReasonConflict));
  // The finalizer patch succeeds, the status patch conflicts once, then succeeds after a GET.
  f.handle.fake_cluster_api().set_claim_patch_results(
      {{Status(), with_finalizer}, {conflict, std::nullopt}, {Status(), written}});
  f.handle.fake_cluster_api().set_claim_get_results({{Status(), with_finalizer}});
  REQUIRE(f.plugin->PreBind(state, pod, "node-a").IsSuccess());

  const auto patches = f.handle.fake_cluster_api().claim_patches();
  REQUIRE(patches.size() == 3);
  CHECK(patches[0].subresource.empty());
  CHECK(patches[0].content_type == "application/merge-patch+json");
  CHECK(patches[0].patch ==
        R"({"metadata":{"resourceVersion":"1","finalizers":["resource.kubernetes.io/delete-protection"]}})");
  CHECK(patches[1].subresource == "status");
  CHECK_THAT(patches[1].patch, Catch::StartsWith(R"({"metadata":{"resourceVersion":"2"},"status":{"allocation":{"devices":{"results":[{"request":"req-0","driver":"gpu.example.com","pool":"node-a","device":"gpu-0"}]})"));
  CHECK_THAT(patches[1].patch, Catch::EndsWith(R"("reservedFor":[{"resource":"pods","name":"p","uid":"p-uid"}]}})"));
  CHECK(patches[2].patch == patches[1].patch);
  // v1.37: the allocation carries its time (RFC 3339, whole seconds, UTC).
  CHECK_THAT(patches[1].patch, Catch::Matches(R"(.*"allocationTimestamp":"20[0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9:]{8}Z".*)"));
  CHECK(f.handle.fake_cluster_api().claim_gets().size() == 1);
  // No longer in flight; the written claim is assumed until the informer has it.
  CHECK_FALSE(f.plugin->claim_tracker().HasPendingAllocation("c-uid"));
  CHECK(f.plugin->claim_tracker().Get("default", "c")->status.allocation.has_value());

  // Unreserve after PreBind removes the pod from reservedFor with a strategic merge patch.
  f.plugin->Unreserve(state, pod, "node-a");
  const auto after = f.handle.fake_cluster_api().claim_patches();
  REQUIRE(after.size() == 4);
  CHECK(after[3].content_type == "application/strategic-merge-patch+json");
  CHECK(after[3].patch ==
        R"({"metadata":{"uid":"c-uid"},"status":{"reservedFor":[{"$patch":"delete","uid":"p-uid"}]}})");
}

TEST_CASE("DynamicResources PreBind: a claim allocated elsewhere meanwhile fails the pod", "[plugins][dynamic_resources]") {
  Fixture f;
  f.handle.resources().AddResourceClaim(Claim("c"));
  CycleState state;
  const Pod pod = PodWithClaim("p", "c");
  f.ReserveOn(state, pod, "node-a");
  Status conflict = Status::FromError("conflict");
  conflict.AppendReason(std::string(ksched::framework::kReasonConflict));
  f.handle.fake_cluster_api().set_claim_patch_results({{conflict, std::nullopt}});
  f.handle.fake_cluster_api().set_claim_get_results({{Status(), Allocated(Claim("c"), "node-b")}});
  const Status status = f.plugin->PreBind(state, pod, "node-a");
  CHECK(status.code() == Code::kError);
  CHECK(status.error() == "claim default/c got allocated elsewhere in the meantime");
  CHECK_FALSE(f.plugin->claim_tracker().HasPendingAllocation("c-uid"));
}

TEST_CASE("DynamicResources PostFilter: deallocates a claim that kept the pod off a node", "[plugins][dynamic_resources]") {
  Fixture f;
  f.handle.resources().AddResourceClaim(Allocated(Claim("c"), "node-b"));
  CycleState state;
  const Pod pod = PodWithClaim("p", "c");
  REQUIRE(f.PreFilter(state, pod).IsSuccess());
  CHECK(f.plugin->Filter(state, pod, Node("node-a")) == Unresolvable("resourceclaim not available on the node"));
  auto [result, status] = f.plugin->PostFilter(state, pod, {});
  CHECK(status == Status(Code::kUnschedulable, {"deallocation of ResourceClaim completed"}));
  const auto patches = f.handle.fake_cluster_api().claim_patches();
  REQUIRE(patches.size() == 1);
  CHECK(patches[0].patch ==
        R"({"metadata":{"resourceVersion":"1"},"status":{"reservedFor":null,"allocation":null,"devices":null}})");

  // Reserved for another pod: left alone.
  Fixture g;
  g.handle.resources().AddResourceClaim(Allocated(Claim("c"), "node-b", {"other"}));
  CycleState state2;
  REQUIRE(g.PreFilter(state2, pod).IsSuccess());
  CHECK_FALSE(g.plugin->Filter(state2, pod, Node("node-a")).IsSuccess());
  CHECK(g.plugin->PostFilter(state2, pod, {}).second == Status(Code::kUnschedulable));
  CHECK(g.handle.fake_cluster_api().claim_patches().empty());
}

TEST_CASE("DynamicResources queueing hints", "[plugins][dynamic_resources]") {
  Fixture f;
  const Pod pod = PodWithClaim("p", "c");
  ResourceClaim claim = Claim("c");
  ResourceClaim unrelated = Claim("other");
  EventObjects objects;
  // The pod's claim does not exist yet: nothing but its creation helps.
  objects.new_resource_claim = &unrelated;
  CHECK(*f.plugin->IsSchedulableAfterClaimChange(pod, objects) == QueueingHint::kQueueSkip);
  f.handle.resources().AddResourceClaim(claim);
  f.handle.resources().AddResourceClaim(unrelated);
  objects.new_resource_claim = &claim;
  CHECK(*f.plugin->IsSchedulableAfterClaimChange(pod, objects) == QueueingHint::kQueue);  // created
  ResourceClaim same = claim;
  same.metadata.resource_version = "2";
  objects.old_resource_claim = &claim;
  objects.new_resource_claim = &same;
  CHECK(*f.plugin->IsSchedulableAfterClaimChange(pod, objects) == QueueingHint::kQueueSkip);  // status unchanged
  ResourceClaim allocated_other = Allocated(Claim("other"), "node-a");
  objects.old_resource_claim = &allocated_other;
  objects.new_resource_claim = &unrelated;
  CHECK(*f.plugin->IsSchedulableAfterClaimChange(pod, objects) == QueueingHint::kQueue);  // deallocated
  // v1.37: deletions. Only a claim deleted while still allocated frees devices.
  objects.new_resource_claim = nullptr;
  objects.old_resource_claim = &allocated_other;
  CHECK(*f.plugin->IsSchedulableAfterClaimChange(pod, objects) == QueueingHint::kQueue);
  objects.old_resource_claim = &unrelated;
  CHECK(*f.plugin->IsSchedulableAfterClaimChange(pod, objects) == QueueingHint::kQueueSkip);
  objects.old_resource_claim = &allocated_other;
  objects.new_resource_claim = &unrelated;

  Pod templated = MakePod("web-0");
  ksched::api::PodResourceClaim from_template;
  from_template.name = "gpu";
  from_template.resource_claim_template_name = "t";
  templated.spec.resource_claims.push_back(from_template);
  EventObjects pod_update;
  pod_update.new_pod = &templated;
  CHECK(*f.plugin->IsSchedulableAfterPodChange(templated, pod_update) == QueueingHint::kQueueSkip);
  Pod named = templated;
  named.status.resource_claim_statuses.push_back({"gpu", std::string("c")});
  ResourceClaim owned = Claim("c");
  owned.metadata.owner_references.push_back({"v1", "Pod", "web-0", "web-0-uid", true});
  f.handle.resources().AddResourceClaim(owned);
  pod_update.new_pod = &named;
  CHECK(*f.plugin->IsSchedulableAfterPodChange(templated, pod_update) == QueueingHint::kQueue);
  CHECK(*f.plugin->IsSchedulableAfterPodChange(MakePod("someone-else"), pod_update) == QueueingHint::kQueueSkip);
}

TEST_CASE("DynamicResources PostFilter: without PreFilter's state the error is upstream's not found",
          "[plugins][dynamic_resources]") {
  Fixture f;
  CycleState state;  // another plugin's PreFilter rejected the pod first
  const Status status = f.plugin->PostFilter(state, MakePod("p"), {}).second;
  CHECK(status.code() == Code::kError);
  CHECK(status.Message() == "not found");
}

TEST_CASE("DynamicResourcesArgs: bindingTimeout (v1.37), default 600s", "[plugins][dynamic_resources]") {
  CHECK(dra::ParseDynamicResourcesArgs("").value().binding_timeout == std::chrono::seconds(600));
  const auto both = dra::ParseDynamicResourcesArgs(R"({"filterTimeout":"2s","bindingTimeout":"5m0s"})");
  REQUIRE(both.ok());
  CHECK(both->filter_timeout == std::chrono::seconds(2));
  CHECK(both->binding_timeout == std::chrono::minutes(5));
  CHECK(dra::ParseDynamicResourcesArgs(R"({"bindingTimeout":"-1s"})").status().message() ==
        "DynamicResourcesArgs: bindingTimeout: must be zero or positive");
  CHECK(dra::ParseDynamicResourcesArgs(R"({"bindingTimeout":7})").status().message() ==
        "DynamicResourcesArgs: bindingTimeout: must be a duration string");
}

TEST_CASE("DynamicResourcesArgs: filterTimeout", "[plugins][dynamic_resources]") {
  CHECK(dra::ParseDynamicResourcesArgs("").value().filter_timeout == std::chrono::seconds(10));
  CHECK(dra::ParseDynamicResourcesArgs(R"({"filterTimeout":"2s"})").value().filter_timeout == std::chrono::seconds(2));
  CHECK(dra::ParseDynamicResourcesArgs(R"({"filterTimeout":"0s"})").value().filter_timeout.count() == 0);
  CHECK_FALSE(dra::ParseDynamicResourcesArgs(R"({"filterTimeout":3})").ok());
  // Every form the config layer writes (Go's Duration.String), sub-millisecond ones included.
  CHECK(dra::ParseDynamicResourcesArgs(R"({"filterTimeout":"500µs"})").value().filter_timeout ==
        std::chrono::microseconds(500));
  CHECK(dra::ParseDynamicResourcesArgs(R"({"filterTimeout":"1h0m0.5s"})").value().filter_timeout ==
        std::chrono::milliseconds(3'600'500));
  CHECK(dra::ParseDynamicResourcesArgs(R"({"filterTimeout":"1ns"})").value().filter_timeout.count() == 1);
  // Go's own errors: no unit, negative.
  CHECK(dra::ParseDynamicResourcesArgs(R"({"filterTimeout":"10"})").status().message() ==
        "DynamicResourcesArgs: filterTimeout: time: missing unit in duration \"10\"");
  CHECK(dra::ParseDynamicResourcesArgs(R"({"filterTimeout":"-1s"})").status().message() ==
        "DynamicResourcesArgs: filterTimeout: must be zero or positive");
}

// upstream TestPlugin's prioritized-list scoring (v1.35+): 8 - i for the i-th subrequest a node's
// allocation used, 0 for a pod without claims; normalized by scaling to the highest.
TEST_CASE("DynamicResources Score: firstAvailable subrequests, earlier ones score higher",
          "[plugins][dynamic_resources]") {
  Fixture f;
  // Class "fast" matches only the device on node-b (another driver's slice there).
  ksched::api::DeviceClass fast;
  fast.metadata.name = "fast";
  fast.selectors.push_back({std::string("device.driver == \"fast.example.com\"")});
  f.handle.resources().AddDeviceClass(fast);
  ksched::api::ResourceSlice slice;
  slice.metadata.name = "node-b-fast";
  slice.driver = "fast.example.com";
  slice.node_name = "node-b";
  slice.pool = {"node-b-fast", 1, 1};
  slice.devices.push_back(ksched::api::Device{"fast-0", {}, {}, false, false});
  f.handle.resources().AddResourceSlice(slice);

  ResourceClaim claim = Claim("c");
  claim.spec.requests[0].exactly.reset();
  claim.spec.requests[0].first_available = {{"fast", "fast", {}, std::string(ksched::api::kDeviceAllocationModeExactCount), 1},
                                            {"any", "gpu", {}, std::string(ksched::api::kDeviceAllocationModeExactCount), 1}};
  f.handle.resources().AddResourceClaim(claim);
  const Pod pod = PodWithClaim("p", "c");
  CycleState state;
  REQUIRE(f.PreFilter(state, pod).IsSuccess());
  REQUIRE(f.plugin->Filter(state, pod, Node("node-a")).IsSuccess());
  REQUIRE(f.plugin->Filter(state, pod, Node("node-b")).IsSuccess());
  const auto [on_a, status_a] = f.plugin->Score(state, pod, Node("node-a"));
  const auto [on_b, status_b] = f.plugin->Score(state, pod, Node("node-b"));
  CHECK(status_a.IsSuccess());
  CHECK(status_b.IsSuccess());
  CHECK(on_a == 7);  // the second subrequest
  CHECK(on_b == 8);  // the first
  // A node Filter never allocated on scores 0.
  CHECK(f.plugin->Score(state, pod, Node("node-c")).first == 0);

  const NodeInfo node_a = Node("node-a");
  const NodeInfo node_b = Node("node-b");
  std::vector<ksched::framework::NodeScore> scores{{&node_a, on_a}, {&node_b, on_b}};
  REQUIRE(f.plugin->GetScoreExtensions() != nullptr);
  REQUIRE(f.plugin->GetScoreExtensions()->NormalizeScore(state, pod, scores).IsSuccess());
  CHECK(scores[0].score == 87);
  CHECK(scores[1].score == 100);

  // Without claims: 0, with PreFilter's Skip.
  const Pod plain = MakePod("plain");
  CycleState plain_state;
  CHECK(f.PreFilter(plain_state, plain).code() == Code::kSkip);
  const auto [plain_score, plain_status] = f.plugin->Score(plain_state, plain, Node("node-a"));
  CHECK(plain_score == 0);
  CHECK(plain_status.IsSuccess());
}

TEST_CASE("DynamicResources Filter: a search past filterTimeout is an error naming the node (v1.37: backoff)",
          "[plugins][dynamic_resources]") {
  Fixture f;
  f.plugin = std::make_unique<dra::DynamicResources>(dra::DynamicResourcesArgs{std::chrono::nanoseconds(1)}, f.handle);
  f.handle.resources().AddResourceClaim(Claim("slow"));
  CycleState state;
  const Pod pod = PodWithClaim("p", "slow");
  REQUIRE(f.PreFilter(state, pod).IsSuccess());
  const Status status = f.plugin->Filter(state, pod, Node("node-a"));
  CHECK(status.code() == Code::kError);
  CHECK(status.Message() == "node node-a: timed out trying to allocate devices");
}
