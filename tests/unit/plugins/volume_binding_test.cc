// VolumeBinding: cases after upstream volumebinding/volume_binding_test.go and binder_test.go
// (v1.37.2): PreFilter's verdicts, Filter's reasons for bound claims (node affinity, missing
// volume), static binding (smallest match, class, mode, access modes, selector, pre-bound),
// dynamic provisioning (provisioner, allowedTopologies, selected-node), Reserve's assumptions seen
// by the next pod and undone by Unreserve, PreBind's writes and waits (bound, provisioning failed,
// timeout), the PreFlight, CSI migration of bound in-tree volumes (Filter and PreBind), the args,
// the queueing hints and StorageCapacityScoring's scores (on in v1.37). Messages are upstream's.
#include "plugins/volume_binding/volume_binding.h"

#include <catch2/catch.hpp>
#include <array>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "../framework/scoped_features.h"
#include "fake_handle.h"
#include "plugins/volume_binding/volume_matching.h"
#include "test_objects.h"

namespace {

using ksched::api::Labels;
using ksched::api::PersistentVolume;
using ksched::api::PersistentVolumeClaim;
using ksched::api::Pod;
using ksched::api::StorageClass;
using ksched::framework::Code;
using ksched::framework::CycleState;
using ksched::framework::EventObjects;
using ksched::framework::NodeInfo;
using ksched::framework::QueueingHint;
using ksched::framework::Status;
namespace vb = ksched::plugins::volume_binding;
using ksched::plugins::testing::Build;
using ksched::plugins::testing::FakeHandle;
using ksched::plugins::testing::MakeNode;
using ksched::plugins::testing::MakeNodeInfo;
using ksched::plugins::testing::MakePod;

constexpr const char* kHostname = "kubernetes.io/hostname";
constexpr std::int64_t kGi = std::int64_t{1} << 30;

Pod PodWithClaims(std::string name, const std::vector<std::string>& claims) {
  Pod pod = MakePod(std::move(name));
  for (const std::string& claim : claims) {
    ksched::api::Volume volume;
    volume.name = claim;
    volume.persistent_volume_claim = ksched::api::PersistentVolumeClaimVolumeSource{claim, false};
    pod.spec.volumes.push_back(volume);
  }
  return pod;
}

PersistentVolumeClaim Claim(std::string name, std::optional<std::string> class_name, std::int64_t request = kGi) {
  PersistentVolumeClaim claim;
  claim.metadata.name = std::move(name);
  claim.metadata.namespace_ = "default";
  claim.metadata.uid = claim.metadata.name + "-uid";
  claim.metadata.resource_version = "1";
  claim.spec.storage_class_name = std::move(class_name);
  claim.spec.storage_request = request;
  claim.spec.access_modes = {"ReadWriteOnce"};
  claim.phase = "Pending";
  return claim;
}

PersistentVolumeClaim BoundClaim(std::string name, std::string volume) {
  PersistentVolumeClaim claim = Claim(std::move(name), "wait");
  claim.spec.volume_name = std::move(volume);
  claim.metadata.annotations.Set("pv.kubernetes.io/bind-completed", "yes");
  claim.phase = "Bound";
  return claim;
}

// An Available volume of class `class_name`, optionally only on node `host`.
PersistentVolume Volume(std::string name, std::string class_name, std::int64_t capacity,
                        std::optional<std::string> host = std::nullopt) {
  PersistentVolume pv;
  pv.metadata.name = std::move(name);
  pv.metadata.resource_version = "1";
  pv.spec.storage_class_name = std::move(class_name);
  pv.spec.capacity = capacity;
  pv.spec.access_modes = {"ReadWriteOnce"};
  pv.phase = "Available";
  if (host.has_value()) {
    ksched::api::NodeSelectorTerm term;
    term.match_expressions.push_back({kHostname, "In", {*host}});
    pv.spec.node_affinity.emplace();
    pv.spec.node_affinity->node_selector_terms.push_back(term);
  }
  return pv;
}

StorageClass Class(std::string name, std::string mode, std::string provisioner) {
  StorageClass storage_class;
  storage_class.metadata.name = std::move(name);
  storage_class.volume_binding_mode = std::move(mode);
  storage_class.provisioner = std::move(provisioner);
  return storage_class;
}

// Classes: "wait" (WaitForFirstConsumer, no provisioner), "provision" (WaitForFirstConsumer,
// provisioner), "immediate".
void AddClasses(FakeHandle& handle) {
  handle.storage().Add(Class("wait", "WaitForFirstConsumer", "kubernetes.io/no-provisioner"));
  handle.storage().Add(Class("provision", "WaitForFirstConsumer", "example.com/csi"));
  handle.storage().Add(Class("immediate", "Immediate", "example.com/csi"));
}

NodeInfo Node(const std::string& name, Labels extra = {}) {
  Labels labels = std::move(extra);
  labels.Set(kHostname, name);
  return MakeNodeInfo(MakeNode(name, std::move(labels)));
}

Status Unresolvable(std::initializer_list<std::string_view> reasons) {
  return Status(Code::kUnschedulableAndUnresolvable, reasons);
}

// Counts scheduler_volume_scheduling_stage_error_total by operation.
class StageErrorCounter final : public ksched::plugins::testing::NullMetricsRecorder {
 public:
  void VolumeSchedulingStageFailed(VolumeStage stage) override { ++counts[static_cast<std::size_t>(stage)]; }
  std::array<int, 3> counts{};  // predicate, assume, bind
};

struct Fixture {
  FakeHandle handle;
  StageErrorCounter stage_errors;
  std::unique_ptr<vb::VolumeBinding> plugin;
  explicit Fixture(vb::VolumeBindingArgs args = {}) {
    handle.set_metrics_recorder(&stage_errors);
    AddClasses(handle);
    plugin = std::make_unique<vb::VolumeBinding>(args, handle);
    plugin->set_poll_interval(std::chrono::milliseconds(1));
  }
  Status PreFilter(CycleState& state, const Pod& pod) { return plugin->PreFilter(state, pod, {}).second; }
  // PreFilter, Filter on `node` and Reserve there, each required to succeed.
  void ReserveOn(CycleState& state, const Pod& pod, const std::string& node) {
    REQUIRE(PreFilter(state, pod).IsSuccess());
    REQUIRE(plugin->Filter(state, pod, Node(node)).IsSuccess());
    REQUIRE(plugin->Reserve(state, pod, node).IsSuccess());
  }
};

TEST_CASE("VolumeBinding PreFilter: skips pods without claims and stops pods whose claims cannot be used",
          "[plugins][volume_binding]") {
  Fixture f;
  CycleState state;
  CHECK(f.PreFilter(state, MakePod("no-volumes")).code() == Code::kSkip);
  CHECK(f.plugin->PreBindPreFlight(state, MakePod("no-volumes"), "node-a").code() == Code::kSkip);

  CHECK(f.PreFilter(state, PodWithClaims("p", {"missing"})) ==
        Unresolvable({"persistentvolumeclaim \"missing\" not found"}));

  Pod ephemeral = MakePod("web-0");
  ksched::api::Volume scratch;
  scratch.name = "scratch";
  scratch.ephemeral = true;
  ephemeral.spec.volumes.push_back(scratch);
  CHECK(f.PreFilter(state, ephemeral) ==
        Unresolvable({"waiting for ephemeral volume controller to create the persistentvolumeclaim \"web-0-scratch\""}));
  PersistentVolumeClaim foreign = Claim("web-0-scratch", "provision");
  f.handle.storage().Add(foreign);
  CHECK(f.PreFilter(state, ephemeral) ==
        Unresolvable({"PVC default/web-0-scratch was not created for pod default/web-0 (pod is not owner)"}));

  PersistentVolumeClaim lost = Claim("lost", "wait");
  lost.phase = "Lost";
  lost.spec.volume_name = "gone";
  f.handle.storage().Add(lost);
  CHECK(f.PreFilter(state, PodWithClaims("p", {"lost"})) ==
        Unresolvable({"persistentvolumeclaim \"lost\" bound to non-existent persistentvolume \"gone\""}));

  PersistentVolumeClaim deleting = Claim("deleting", "wait");
  deleting.metadata.deletion_timestamp = ksched::api::Time{};
  f.handle.storage().Add(deleting);
  CHECK(f.PreFilter(state, PodWithClaims("p", {"deleting"})) ==
        Unresolvable({"persistentvolumeclaim \"deleting\" is being deleted"}));

  // Unbound claims of an Immediate class, of no class, or pre-bound by volumeName wait for the
  // PersistentVolume controller.
  f.handle.storage().Add(Claim("immediate", "immediate"));
  f.handle.storage().Add(Claim("classless", std::nullopt));
  PersistentVolumeClaim prebound = Claim("prebound", "wait");
  prebound.spec.volume_name = "pv-x";
  f.handle.storage().Add(prebound);
  for (const char* name : {"immediate", "classless", "prebound"}) {
    INFO(name);
    CHECK(f.PreFilter(state, PodWithClaims("p", {name})) ==
          Unresolvable({"pod has unbound immediate PersistentVolumeClaims"}));
  }

  StorageClass unset = Class("unset", "", "p");
  unset.volume_binding_mode.reset();
  f.handle.storage().Add(unset);
  f.handle.storage().Add(Claim("unset-mode", "unset"));
  Status error = f.PreFilter(state, PodWithClaims("p", {"unset-mode"}));
  CHECK(error.code() == Code::kError);
  CHECK(error.Message() == "VolumeBindingMode not set for StorageClass \"unset\"");

  f.handle.storage().Add(BoundClaim("bound", "pv-bound"));
  f.handle.storage().Add(Volume("pv-bound", "wait", kGi));
  CycleState ok;
  CHECK(f.PreFilter(ok, PodWithClaims("p", {"bound"})).IsSuccess());
}

TEST_CASE("VolumeBinding Filter: a bound claim's volume must allow the node and must exist",
          "[plugins][volume_binding]") {
  Fixture f;
  f.handle.storage().Add(BoundClaim("data", "pv-a"));
  f.handle.storage().Add(Volume("pv-a", "wait", kGi, "node-a"));
  f.handle.storage().Add(BoundClaim("orphan", "pv-gone"));
  const Pod pod = PodWithClaims("p", {"data"});
  CycleState state;
  REQUIRE(f.PreFilter(state, pod).IsSuccess());
  CHECK(f.plugin->Filter(state, pod, Node("node-a")).IsSuccess());
  CHECK(f.plugin->Filter(state, pod, Node("node-b")) ==
        Unresolvable({"node(s) didn't match PersistentVolume's node affinity"}));

  const Pod orphan = PodWithClaims("q", {"orphan"});
  CycleState orphan_state;
  REQUIRE(f.PreFilter(orphan_state, orphan).IsSuccess());
  CHECK(f.plugin->Filter(orphan_state, orphan, Node("node-a")) ==
        Unresolvable({"node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)"}));

  // Without PreFilter's state Filter fails (upstream: reading the state errs).
  CycleState empty;
  CHECK(f.plugin->Filter(empty, pod, Node("node-a")).code() == Code::kError);
}

TEST_CASE("VolumeBinding Filter: an unbound claim gets the smallest matching available volume on the node",
          "[plugins][volume_binding]") {
  Fixture f;
  f.handle.storage().Add(Claim("data", "wait", 2 * kGi));
  f.handle.storage().Add(Volume("too-small", "wait", kGi, "node-a"));
  f.handle.storage().Add(Volume("large", "wait", 10 * kGi, "node-a"));
  f.handle.storage().Add(Volume("fits", "wait", 5 * kGi, "node-a"));
  f.handle.storage().Add(Volume("other-class", "provision", 2 * kGi, "node-b"));
  PersistentVolume block = Volume("block", "wait", 2 * kGi, "node-b");
  block.spec.volume_mode = "Block";
  f.handle.storage().Add(block);
  PersistentVolume many = Volume("rwx-only", "wait", 2 * kGi, "node-c");
  many.spec.access_modes = {"ReadWriteMany"};
  f.handle.storage().Add(many);
  PersistentVolume taken = Volume("taken", "wait", 2 * kGi, "node-d");
  taken.spec.claim_ref = ksched::api::ClaimReference{"default", "someone-else", "u"};
  taken.phase = "Bound";
  f.handle.storage().Add(taken);

  const Pod pod = PodWithClaims("p", {"data"});
  CycleState state;
  REQUIRE(f.PreFilter(state, pod).IsSuccess());
  CHECK(f.plugin->Filter(state, pod, Node("node-a")).IsSuccess());
  for (const char* node : {"node-b", "node-c", "node-d", "node-e"}) {
    INFO(node);
    CHECK(f.plugin->Filter(state, pod, Node(node)) ==
          Unresolvable({"node(s) didn't find available persistent volumes to bind"}));
  }
  // Reserve on node-a pre-binds "fits" (the smallest that fits), and PreBind will write it.
  REQUIRE(f.plugin->Reserve(state, pod, "node-a").IsSuccess());
  CHECK(f.plugin->PreBindPreFlight(state, pod, "node-a").IsSuccess());
  CHECK(f.plugin->assumed_volumes() == 1);
  f.handle.fake_cluster_api().set_patch_result(Status(), "7");
  // The PersistentVolume controller finishes the binding before PreBind looks.
  PersistentVolume fits = Volume("fits", "wait", 5 * kGi, "node-a");
  fits.metadata.resource_version = "7";
  fits.spec.claim_ref = ksched::api::ClaimReference{"default", "data", "data-uid"};
  fits.phase = "Bound";
  f.handle.storage().Update(fits);
  PersistentVolumeClaim bound = BoundClaim("data", "fits");
  f.handle.storage().Update(bound);
  CHECK(f.plugin->PreBind(state, pod, "node-a").IsSuccess());
  const auto patches = f.handle.fake_cluster_api().patches();
  REQUIRE(patches.size() == 1);
  CHECK(patches[0].first == "pv/fits");
  CHECK(patches[0].second ==
        R"({"metadata":{"resourceVersion":"1","annotations":{"pv.kubernetes.io/bound-by-controller":"yes"}},)"
        R"("spec":{"claimRef":{"kind":"PersistentVolumeClaim","apiVersion":"v1","namespace":"default",)"
        R"("name":"data","uid":"data-uid","resourceVersion":"1","fieldPath":null}}})");
  // The informer moved past the assumption.
  CHECK(f.plugin->PreBindPreFlight(state, pod, "node-a").IsSuccess());
}

TEST_CASE("VolumeBinding Filter: selector, pre-bound volume and two claims never share a volume",
          "[plugins][volume_binding]") {
  Fixture f;
  PersistentVolumeClaim gold = Claim("gold", "wait");
  gold.spec.selector.emplace();
  gold.spec.selector->match_labels = Labels{{"tier", "gold"}};
  f.handle.storage().Add(gold);
  f.handle.storage().Add(Claim("first", "wait"));
  f.handle.storage().Add(Claim("second", "wait"));
  f.handle.storage().Add(Claim("third", "wait"));
  PersistentVolume gold_pv = Volume("gold-pv", "wait", kGi, "node-a");
  gold_pv.metadata.labels = Labels{{"tier", "gold"}};
  f.handle.storage().Add(gold_pv);
  f.handle.storage().Add(Volume("plain-a", "wait", kGi, "node-a"));
  f.handle.storage().Add(Volume("plain-b", "wait", kGi, "node-b"));
  PersistentVolume reserved = Volume("reserved", "wait", kGi, "node-c");
  reserved.spec.claim_ref = ksched::api::ClaimReference{"default", "second", ""};  // pre-bound by name
  f.handle.storage().Add(reserved);

  const Pod selective = PodWithClaims("p", {"gold"});
  CycleState state;
  REQUIRE(f.PreFilter(state, selective).IsSuccess());
  CHECK(f.plugin->Filter(state, selective, Node("node-a")).IsSuccess());
  CHECK_FALSE(f.plugin->Filter(state, selective, Node("node-b")).IsSuccess());

  // node-a has two volumes for two claims (a claim without a selector takes a labelled volume
  // too); node-b has one: the other claim finds nothing.
  const Pod two = PodWithClaims("two", {"first", "third"});
  CycleState two_state;
  REQUIRE(f.PreFilter(two_state, two).IsSuccess());
  CHECK(f.plugin->Filter(two_state, two, Node("node-a")).IsSuccess());
  CHECK(f.plugin->Filter(two_state, two, Node("node-b")) ==
        Unresolvable({"node(s) didn't find available persistent volumes to bind"}));
  // The volume pre-bound to "second" is the only one it takes: on node-a, whose volumes are
  // free, it finds none (upstream returns nil at once when the pre-bound volume's node differs).
  const Pod only_second = PodWithClaims("s", {"second"});
  CycleState second_state;
  REQUIRE(f.PreFilter(second_state, only_second).IsSuccess());
  CHECK(f.plugin->Filter(second_state, only_second, Node("node-c")).IsSuccess());
  CHECK_FALSE(f.plugin->Filter(second_state, only_second, Node("node-a")).IsSuccess());
  CHECK(vb::IsVolumeBoundToClaim(reserved, Claim("second", "wait")));
  CHECK_FALSE(vb::IsVolumeBoundToClaim(reserved, Claim("first", "wait")));
}

TEST_CASE("VolumeBinding Filter: dynamic provisioning, allowed topologies and a selected node",
          "[plugins][volume_binding]") {
  Fixture f;
  StorageClass zonal = Class("zonal", "WaitForFirstConsumer", "example.com/csi");
  ksched::api::NodeSelectorTerm term;
  term.match_expressions.push_back({"topology.kubernetes.io/zone", "In", {"zone-1"}});
  zonal.allowed_topologies.push_back(term);
  f.handle.storage().Add(zonal);
  f.handle.storage().Add(Claim("dynamic", "provision"));
  f.handle.storage().Add(Claim("zoned", "zonal"));
  f.handle.storage().Add(Claim("static-only", "wait"));
  PersistentVolumeClaim selected = Claim("selected", "provision");
  selected.metadata.annotations.Set("volume.kubernetes.io/selected-node", "node-b");
  f.handle.storage().Add(selected);

  auto filter = [&](const char* claim, const NodeInfo& node) {
    const Pod pod = PodWithClaims("p", {claim});
    CycleState state;
    REQUIRE(f.PreFilter(state, pod).IsSuccess());
    return f.plugin->Filter(state, pod, node);
  };
  const Status conflict = Unresolvable({"node(s) didn't find available persistent volumes to bind"});
  CHECK(filter("dynamic", Node("node-a")).IsSuccess());
  CHECK(filter("zoned", Node("node-a", Labels{{"topology.kubernetes.io/zone", "zone-1"}})).IsSuccess());
  CHECK(filter("zoned", Node("node-a", Labels{{"topology.kubernetes.io/zone", "zone-2"}})) == conflict);
  CHECK(filter("static-only", Node("node-a")) == conflict);  // kubernetes.io/no-provisioner
  CHECK(filter("selected", Node("node-b")).IsSuccess());
  CHECK(filter("selected", Node("node-a")) == conflict);
}

TEST_CASE("VolumeBinding Filter: storage capacity of a CSI driver that publishes it", "[plugins][volume_binding]") {
  Fixture f;
  f.handle.storage().Add(Claim("big", "provision", 10 * kGi));
  auto capacity = [](std::string name, std::int64_t bytes, std::optional<std::string> host,
                     std::optional<std::int64_t> max_volume = std::nullopt) {
    ksched::api::CSIStorageCapacity c;
    c.metadata.name = std::move(name);
    c.metadata.namespace_ = "kube-system";
    c.storage_class_name = "provision";
    c.capacity = bytes;
    c.maximum_volume_size = max_volume;
    if (host.has_value()) {
      c.node_topology.emplace();
      c.node_topology->match_labels = Labels{{kHostname, *host}};
    }
    return c;
  };
  auto filter = [&](const char* claim, const char* node) {
    const Pod pod = PodWithClaims("p", {claim});
    CycleState state;
    REQUIRE(f.PreFilter(state, pod).IsSuccess());
    return f.plugin->Filter(state, pod, Node(node));
  };
  // Without a CSIDriver for the provisioner nothing is checked.
  CHECK(filter("big", "node-a").IsSuccess());
  ksched::api::CSIDriver driver;
  driver.metadata.name = "example.com/csi";
  driver.storage_capacity = true;
  f.handle.storage().Add(driver);
  f.handle.storage().Add(capacity("a-small", 5 * kGi, "node-a"));
  f.handle.storage().Add(capacity("b-large", 20 * kGi, "node-b"));
  f.handle.storage().Add(capacity("c-capped", 20 * kGi, "node-c", 8 * kGi));  // maximumVolumeSize wins
  f.handle.storage().Add(capacity("nowhere", 50 * kGi, std::nullopt));        // no topology: no node
  const Status not_enough = Unresolvable({"node(s) did not have enough free storage"});
  CHECK(filter("big", "node-a") == not_enough);
  CHECK(filter("big", "node-b").IsSuccess());
  CHECK(filter("big", "node-c") == not_enough);
  CHECK(filter("big", "node-d") == not_enough);
  // A claim without a storage request is not checked.
  PersistentVolumeClaim unsized = Claim("no-request", "provision");
  unsized.spec.storage_request.reset();
  f.handle.storage().Add(unsized);
  CHECK(filter("no-request", "node-d").IsSuccess());

  EventObjects objects;
  ksched::api::CSIStorageCapacity before = capacity("a-small", 5 * kGi, "node-a");
  ksched::api::CSIStorageCapacity after = capacity("a-small", 6 * kGi, "node-a");
  objects.new_csi_storage_capacity = &after;
  CHECK(vb::IsSchedulableAfterCSIStorageCapacityChange(MakePod("p"), objects).value() == QueueingHint::kQueue);
  objects.old_csi_storage_capacity = &before;
  CHECK(vb::IsSchedulableAfterCSIStorageCapacityChange(MakePod("p"), objects).value() == QueueingHint::kQueue);
  objects.old_csi_storage_capacity = &after;
  objects.new_csi_storage_capacity = &before;
  CHECK(vb::IsSchedulableAfterCSIStorageCapacityChange(MakePod("p"), objects).value() == QueueingHint::kQueueSkip);

  ksched::api::CSIDriver off = driver;
  off.storage_capacity = false;
  EventObjects driver_event;
  driver_event.old_csi_driver = &driver;
  driver_event.new_csi_driver = &off;
  Pod inline_csi = MakePod("inline");
  ksched::api::Volume csi_volume;
  csi_volume.name = "v";
  csi_volume.csi = ksched::api::CsiVolumeSource{"example.com/csi", false};
  inline_csi.spec.volumes.push_back(csi_volume);
  CHECK(vb::IsSchedulableAfterCSIDriverChange(inline_csi, driver_event).value() == QueueingHint::kQueue);
  CHECK(vb::IsSchedulableAfterCSIDriverChange(MakePod("p"), driver_event).value() == QueueingHint::kQueueSkip);
}

TEST_CASE("VolumeBinding Reserve: the next pod sees the assumed volume, Unreserve gives it back",
          "[plugins][volume_binding]") {
  Fixture f;
  f.handle.storage().Add(Claim("one", "wait"));
  f.handle.storage().Add(Claim("two", "wait"));
  f.handle.storage().Add(Volume("only", "wait", kGi, "node-a"));
  const Pod first = PodWithClaims("first", {"one"});
  const Pod second = PodWithClaims("second", {"two"});
  CycleState first_state;
  f.ReserveOn(first_state, first, "node-a");

  CycleState second_state;
  REQUIRE(f.PreFilter(second_state, second).IsSuccess());
  CHECK(f.plugin->Filter(second_state, second, Node("node-a")) ==
        Unresolvable({"node(s) didn't find available persistent volumes to bind"}));

  f.plugin->Unreserve(first_state, first, "node-a");
  CHECK(f.plugin->assumed_volumes() == 0);
  CycleState again;
  REQUIRE(f.PreFilter(again, second).IsSuccess());
  CHECK(f.plugin->Filter(again, second, Node("node-a")).IsSuccess());
}

TEST_CASE("VolumeBinding PreBind: provisioning is asked with selected-node and fails when it is removed",
          "[plugins][volume_binding]") {
  Fixture f;
  f.handle.storage().Add(Claim("dynamic", "provision"));
  const Pod pod = PodWithClaims("p", {"dynamic"});
  CycleState state;
  f.ReserveOn(state, pod, "node-a");
  CHECK(f.plugin->assumed_claims() == 1);
  f.handle.fake_cluster_api().set_patch_result(Status(), "5");
  // The provisioner gave up: it removed the annotation (the claim's version moved on).
  PersistentVolumeClaim given_up = Claim("dynamic", "provision");
  given_up.metadata.resource_version = "6";
  given_up.metadata.annotations.Set("volume.kubernetes.io/storage-provisioner", "example.com/csi");
  f.handle.storage().Update(given_up);
  CHECK(f.stage_errors.counts == std::array<int, 3>{0, 0, 0});
  const Status status = f.plugin->PreBind(state, pod, "node-a");
  CHECK(status.code() == Code::kError);
  CHECK(status.Message() == "binding volumes: provisioning failed for PVC \"dynamic\"");
  CHECK(f.stage_errors.counts == std::array<int, 3>{0, 0, 1});  // BindPodVolumes failed
  const auto patches = f.handle.fake_cluster_api().patches();
  REQUIRE(patches.size() == 1);
  CHECK(patches[0].first == "pvc/default/dynamic");
  CHECK(patches[0].second ==
        R"({"metadata":{"resourceVersion":"1","annotations":{"volume.kubernetes.io/selected-node":"node-a"}}})");
}

TEST_CASE("VolumeBinding PreBind: a failed write and the bind timeout fail the binding cycle",
          "[plugins][volume_binding]") {
  vb::VolumeBindingArgs args;
  args.bind_timeout = std::chrono::seconds(0);
  Fixture f(args);
  f.handle.storage().Add(Claim("dynamic", "provision"));
  const Pod pod = PodWithClaims("p", {"dynamic"});
  CycleState state;
  f.ReserveOn(state, pod, "node-a");
  const Status timed_out = f.plugin->PreBind(state, pod, "node-a");
  CHECK(timed_out.Message() == "binding volumes: context deadline exceeded");

  CycleState conflict_state;
  f.plugin->Unreserve(state, pod, "node-a");
  f.ReserveOn(conflict_state, pod, "node-a");
  f.handle.fake_cluster_api().set_patch_result(Status::FromError("the object has been modified"), "");
  const Status failed = f.plugin->PreBind(conflict_state, pod, "node-a");
  CHECK(failed.Message() == "the object has been modified");
  // What was not written is no longer assumed.
  CHECK(f.plugin->assumed_claims() == 0);
  CHECK(f.stage_errors.counts == std::array<int, 3>{0, 0, 2});
}

TEST_CASE("VolumeBinding PreBind: stops waiting when the pod is gone", "[plugins][volume_binding]") {
  Fixture f;
  f.handle.storage().Add(Claim("dynamic", "provision"));
  const Pod pod = PodWithClaims("p", {"dynamic"});
  CycleState state;
  f.ReserveOn(state, pod, "node-a");
  f.handle.set_pod_exists(false);
  CHECK(f.plugin->PreBind(state, pod, "node-a").Message() ==
        "binding volumes: pod does not exist any more: pod \"p\" not found");
}

// After upstream TestFindPodVolumesWithCSIMigration and TestCheckBindingsWithCSIMigration: a GCE
// PD volume without node affinity, zone us-east-1 by its beta label, seen by nodes whose CSINode
// lists kubernetes.io/gce-pd as migrated with the node affinity of its CSI translation
// (topology.gke.io/zone In [us-east-1]).
constexpr const char* kGkeZone = "topology.gke.io/zone";

PersistentVolume MigratableVolume(std::string name, std::string id = "test-disk") {
  PersistentVolume pv = Volume(std::move(name), "wait", kGi);
  pv.spec.in_tree = ksched::api::InTreeVolumeSource{"kubernetes.io/gce-pd", std::move(id), std::nullopt};
  pv.metadata.labels = Labels{{"failure-domain.beta.kubernetes.io/zone", "us-east-1"},
                              {"failure-domain.beta.kubernetes.io/region", "us-east-1a"}};
  return pv;
}

ksched::api::CSINode CSINodeOf(std::string node, std::optional<std::string> migrated) {
  ksched::api::CSINode csi_node;
  csi_node.metadata.name = std::move(node);
  if (migrated.has_value()) csi_node.metadata.annotations.Set("storage.alpha.kubernetes.io/migrated-plugins", *migrated);
  return csi_node;
}

// zone1 and zone2 (migrated), plain (a CSINode without the annotation), bare (no CSINode); all
// but zone1 carry the GKE zone us-east-2.
void AddMigrationNodes(FakeHandle& handle) {
  handle.storage().Add(CSINodeOf("zone1", "kubernetes.io/gce-pd"));
  handle.storage().Add(CSINodeOf("zone2", "kubernetes.io/aws-ebs,kubernetes.io/gce-pd"));
  handle.storage().Add(CSINodeOf("plain", std::nullopt));
}
NodeInfo ZoneNode(const std::string& name) {
  return Node(name, Labels{{kGkeZone, name == "zone1" ? "us-east-1" : "us-east-2"}});
}

TEST_CASE("VolumeBinding CSI migration: a bound in-tree volume is checked as translated where it migrated",
          "[plugins][volume_binding]") {
  Fixture f;
  AddMigrationNodes(f.handle);
  f.handle.storage().Add(BoundClaim("data", "pv-migration-bound"));
  PersistentVolume pv = MigratableVolume("pv-migration-bound");
  pv.spec.claim_ref = ksched::api::ClaimReference{"default", "data", "data-uid"};
  pv.phase = "Bound";
  f.handle.storage().Add(pv);
  const Pod pod = PodWithClaims("p", {"data"});
  CycleState state;
  REQUIRE(f.PreFilter(state, pod).IsSuccess());
  CHECK(f.plugin->Filter(state, pod, ZoneNode("zone1")).IsSuccess());  // pvc-bound
  CHECK(f.plugin->Filter(state, pod, ZoneNode("zone2")) ==             // pvc-bound,node-different-zone
        Unresolvable({"node(s) didn't match PersistentVolume's node affinity"}));
  CHECK(f.plugin->Filter(state, pod, ZoneNode("plain")).IsSuccess());  // csinode-not-migrated
  CHECK(f.plugin->Filter(state, pod, ZoneNode("bare")).IsSuccess());   // missing-csinode

  // A volume CSI migration cannot translate is an error where it migrated, fine elsewhere.
  f.handle.storage().Add(BoundClaim("ebs", "pv-bad-ebs"));
  PersistentVolume ebs = Volume("pv-bad-ebs", "wait", kGi);
  ebs.spec.in_tree = ksched::api::InTreeVolumeSource{"kubernetes.io/aws-ebs", "aws://us-east-1a/disk", std::nullopt};
  f.handle.storage().Add(ebs);
  const Pod ebs_pod = PodWithClaims("q", {"ebs"});
  CycleState ebs_state;
  REQUIRE(f.PreFilter(ebs_state, ebs_pod).IsSuccess());
  CHECK(f.plugin->Filter(ebs_state, ebs_pod, ZoneNode("zone1")).IsSuccess());
  const Status failed = f.plugin->Filter(ebs_state, ebs_pod, ZoneNode("zone2"));
  CHECK(failed.code() == Code::kError);
  CHECK(failed.Message() ==
        "could not translate pv: failed to translate Kubernetes ID to EBS Volume ID Invalid format for AWS volume "
        "(aws://us-east-1a/disk)");
}

TEST_CASE("VolumeBinding CSI migration: PreBind checks a bound volume's translated node affinity",
          "[plugins][volume_binding]") {
  // An unbound claim matched to the migratable volume (unbound volumes match untranslated, so
  // Filter lets every node through); once the volume is bound, checkBindings translates it.
  for (const std::string node : {"zone1", "zone2", "plain"}) {
    CAPTURE(node);
    Fixture f;
    AddMigrationNodes(f.handle);
    f.handle.storage().Add(Claim("data", "wait"));
    f.handle.storage().Add(MigratableVolume("pv-m"));
    const Pod pod = PodWithClaims("p", {"data"});
    CycleState state;
    REQUIRE(f.PreFilter(state, pod).IsSuccess());
    REQUIRE(f.plugin->Filter(state, pod, ZoneNode(node)).IsSuccess());
    REQUIRE(f.plugin->Reserve(state, pod, node).IsSuccess());
    f.handle.fake_cluster_api().set_patch_result(Status(), "5");
    // The PersistentVolume controller's work, as the informers see it.
    PersistentVolume bound = MigratableVolume("pv-m");
    bound.metadata.resource_version = "5";
    bound.spec.claim_ref = ksched::api::ClaimReference{"default", "data", "data-uid"};
    bound.phase = "Bound";
    f.handle.storage().Update(bound);
    f.handle.storage().Update(BoundClaim("data", "pv-m"));
    const Status status = f.plugin->PreBind(state, pod, node);
    if (node == "zone2") {  // binding-node-pv-in-different-zones
      CHECK(status.code() == Code::kError);
      CHECK(status.Message() ==
            "binding volumes: pv \"pv-m\" node affinity doesn't match node \"zone2\": no matching NodeSelectorTerms");
    } else {  // binding-node-pv-same-zone, binding-non-migrated-plugin
      CHECK(status.IsSuccess());
    }
  }
}

// Scores of every node (0 where Filter rejected it, as upstream's table reads them), after
// PreFilter, Filter on each node and PreScore, which must all run.
std::vector<std::int64_t> Scores(vb::VolumeBinding& plugin, const Pod& pod, const std::vector<NodeInfo>& nodes,
                                 std::vector<Status>* filter_statuses = nullptr) {
  CycleState state;
  auto [result, pre] = plugin.PreFilter(state, pod, {});
  REQUIRE(pre.IsSuccess());
  for (const NodeInfo& node : nodes) {
    Status status = plugin.Filter(state, pod, node);
    if (filter_statuses != nullptr) filter_statuses->push_back(status);
  }
  REQUIRE(plugin.PreScore(state, pod, {}).IsSuccess());
  std::vector<std::int64_t> scores;
  for (const NodeInfo& node : nodes) {
    auto [score, status] = plugin.Score(state, pod, node);
    REQUIRE(status.IsSuccess());
    scores.push_back(score);
  }
  return scores;
}

// upstream's classes: wait-sc and wait-hdd-sc (no provisioner), wait-sc-with-storage-capacity
// (provisioner driver-with-storage-capacity, whose CSIDriver tracks capacity).
void AddScoringClasses(FakeHandle& handle) {
  handle.storage().Add(Class("wait-sc", "WaitForFirstConsumer", ""));
  handle.storage().Add(Class("wait-hdd-sc", "WaitForFirstConsumer", ""));
  handle.storage().Add(Class("wait-sc-with-storage-capacity", "WaitForFirstConsumer", "driver-with-storage-capacity"));
  ksched::api::CSIDriver driver;
  driver.metadata.name = "driver-with-storage-capacity";
  driver.storage_capacity = true;
  handle.storage().Add(driver);
}

ksched::api::CSIStorageCapacity NodeCapacity(const std::string& node, std::int64_t bytes) {
  ksched::api::CSIStorageCapacity c;
  c.metadata.name = node;
  c.metadata.namespace_ = "kube-system";
  c.storage_class_name = "wait-sc-with-storage-capacity";
  c.capacity = bytes;
  c.node_topology.emplace();
  c.node_topology->match_labels = Labels{{kHostname, node}};
  return c;
}

vb::VolumeBindingArgs ShapeArgs(std::vector<ksched::plugins::helper::FunctionShapePoint> shape) {
  vb::VolumeBindingArgs args;
  args.bind_timeout = std::chrono::seconds(300);
  args.shape = std::move(shape);
  return args;
}

TEST_CASE("VolumeBinding Score: local volumes with close capacity are preferred (TestVolumeBinding)",
          "[plugins][volume_binding]") {
  Fixture f;
  AddScoringClasses(f.handle);
  const std::vector<NodeInfo> nodes = {Node("node-a"), Node("node-b"), Node("node-c")};
  SECTION("one claim") {
    f.handle.storage().Add(Claim("pvc-a", "wait-sc", 50 * kGi));
    for (const char* suffix : {"0", "1"}) {
      f.handle.storage().Add(Volume(std::string("pv-a-") + suffix, "wait-sc", 200 * kGi, "node-a"));
      f.handle.storage().Add(Volume(std::string("pv-b-") + suffix, "wait-sc", 100 * kGi, "node-b"));
    }
    std::vector<Status> filtered;
    CHECK(Scores(*f.plugin, PodWithClaims("pod-a", {"pvc-a"}), nodes, &filtered) == std::vector<std::int64_t>{75, 50, 0});
    CHECK(filtered[2] == Unresolvable({"node(s) didn't find available persistent volumes to bind"}));
  }
  SECTION("multiple pvcs") {
    f.handle.storage().Add(Claim("pvc-0", "wait-sc", 50 * kGi));
    f.handle.storage().Add(Claim("pvc-1", "wait-hdd-sc", 100 * kGi));
    for (int i = 0; i < 4; ++i) {
      const std::string class_name = i < 2 ? "wait-sc" : "wait-hdd-sc";
      f.handle.storage().Add(Volume("pv-a-" + std::to_string(i), class_name, 200 * kGi, "node-a"));
      f.handle.storage().Add(Volume("pv-b-" + std::to_string(i), class_name, 100 * kGi, "node-b"));
    }
    CHECK(Scores(*f.plugin, PodWithClaims("pod-a", {"pvc-0", "pvc-1"}), nodes) == std::vector<std::int64_t>{63, 25, 0});
  }
}

TEST_CASE("VolumeBinding Score: zonal volumes with close capacity, default and custom shape (TestVolumeBinding)",
          "[plugins][volume_binding]") {
  auto zonal = [](Fixture& f) {
    AddScoringClasses(f.handle);
    f.handle.storage().Add(Claim("pvc-a", "wait-sc", 50 * kGi));
    for (const auto& [zone, capacity] : {std::pair<std::string, std::int64_t>{"a", 200 * kGi}, {"b", 100 * kGi}}) {
      for (const char* suffix : {"0", "1"}) {
        PersistentVolume pv = Volume("pv-" + zone + "-" + suffix, "wait-sc", capacity);
        ksched::api::NodeSelectorTerm term;
        term.match_expressions.push_back({"topology.kubernetes.io/region", "In", {"region-" + zone}});
        term.match_expressions.push_back({"topology.kubernetes.io/zone", "In", {"zone-" + zone}});
        pv.spec.node_affinity.emplace();
        pv.spec.node_affinity->node_selector_terms.push_back(term);
        f.handle.storage().Add(pv);
      }
    }
    std::vector<NodeInfo> nodes;
    for (const char* zone : {"a", "b", "c"}) {
      for (const char* node : {"node-a", "node-b"}) {
        nodes.push_back(Node(std::string("zone-") + zone + "-" + node,
                             Labels{{"topology.kubernetes.io/region", std::string("region-") + zone},
                                    {"topology.kubernetes.io/zone", std::string("zone-") + zone}}));
      }
    }
    return nodes;
  };
  const Pod pod = PodWithClaims("pod-a", {"pvc-a"});
  {
    Fixture f;
    const std::vector<NodeInfo> nodes = zonal(f);
    CHECK(Scores(*f.plugin, pod, nodes) == std::vector<std::int64_t>{75, 75, 50, 50, 0, 0});
  }
  {
    Fixture f(ShapeArgs({{0, 0}, {50, 3}, {100, 5}}));
    const std::vector<NodeInfo> nodes = zonal(f);
    CHECK(Scores(*f.plugin, pod, nodes) == std::vector<std::int64_t>{15, 15, 30, 30, 0, 0});
  }
}

TEST_CASE("VolumeBinding Score: storage capacity of dynamically provisioned claims (TestVolumeBinding)",
          "[plugins][volume_binding]") {
  const std::vector<NodeInfo> nodes = {Node("node-a"), Node("node-b"), Node("node-c")};
  SECTION("storage capacity score") {
    Fixture f;
    AddScoringClasses(f.handle);
    f.handle.storage().Add(Claim("pvc-dynamic", "wait-sc-with-storage-capacity", 10 * kGi));
    f.handle.storage().Add(NodeCapacity("node-a", 100 * kGi));
    f.handle.storage().Add(NodeCapacity("node-b", 50 * kGi));
    f.handle.storage().Add(NodeCapacity("node-c", 10 * kGi));
    CHECK(Scores(*f.plugin, PodWithClaims("pod-a", {"pvc-dynamic"}), nodes) == std::vector<std::int64_t>{90, 80, 0});
  }
  SECTION("storage capacity score with static binds: the static bindings alone are scored") {
    Fixture f;
    AddScoringClasses(f.handle);
    f.handle.storage().Add(Claim("pvc-dynamic", "wait-sc-with-storage-capacity", 10 * kGi));
    f.handle.storage().Add(Claim("pvc-static", "wait-sc", 50 * kGi));
    for (const char* node : {"node-a", "node-b", "node-c"}) {
      f.handle.storage().Add(Volume(std::string("pv-static-") + node[5], "wait-sc", 100 * kGi, node));
    }
    f.handle.storage().Add(NodeCapacity("node-a", 100 * kGi));
    f.handle.storage().Add(NodeCapacity("node-b", 50 * kGi));
    f.handle.storage().Add(NodeCapacity("node-c", 10 * kGi));
    CHECK(Scores(*f.plugin, PodWithClaims("pod-a", {"pvc-dynamic", "pvc-static"}), nodes) ==
          std::vector<std::int64_t>{50, 50, 50});
  }
  SECTION("dynamic provisioning with multiple PVCs of the same StorageClass: capacity is not summed") {
    Fixture f;
    AddScoringClasses(f.handle);
    f.handle.storage().Add(Claim("pvc-dynamic-0", "wait-sc-with-storage-capacity", 50 * kGi));
    f.handle.storage().Add(Claim("pvc-dynamic-1", "wait-sc-with-storage-capacity", 50 * kGi));
    f.handle.storage().Add(NodeCapacity("node-a", 100 * kGi));
    CHECK(Scores(*f.plugin, PodWithClaims("pod-a", {"pvc-dynamic-0", "pvc-dynamic-1"}), {Node("node-a")}) ==
          std::vector<std::int64_t>{0});
  }
  SECTION("prefer node with least allocatable (shape [{0,0},{100,10}])") {
    Fixture f(ShapeArgs({{0, 0}, {100, 10}}));
    AddScoringClasses(f.handle);
    f.handle.storage().Add(Claim("pvc-dynamic", "wait-sc-with-storage-capacity", 10 * kGi));
    f.handle.storage().Add(NodeCapacity("node-a", 100 * kGi));
    f.handle.storage().Add(NodeCapacity("node-b", 20 * kGi));
    f.handle.storage().Add(NodeCapacity("node-c", 10 * kGi));
    CHECK(Scores(*f.plugin, PodWithClaims("pod-a", {"pvc-dynamic"}), nodes) == std::vector<std::int64_t>{10, 50, 100});
  }
  SECTION("prefer node with maximum allocatable (the default shape)") {
    Fixture f(ShapeArgs({{0, 10}, {100, 0}}));
    AddScoringClasses(f.handle);
    f.handle.storage().Add(Claim("pvc-dynamic", "wait-sc-with-storage-capacity", 10 * kGi));
    f.handle.storage().Add(NodeCapacity("node-a", 100 * kGi));
    f.handle.storage().Add(NodeCapacity("node-b", 20 * kGi));
    f.handle.storage().Add(NodeCapacity("node-c", 10 * kGi));
    CHECK(Scores(*f.plugin, PodWithClaims("pod-a", {"pvc-dynamic"}), nodes) == std::vector<std::int64_t>{90, 50, 0});
  }
  SECTION("a provisioner without capacity tracking and bound claims score 0; PreScore does not skip") {
    Fixture f;
    AddScoringClasses(f.handle);
    f.handle.storage().Add(Claim("dynamic", "provision"));
    CHECK(Scores(*f.plugin, PodWithClaims("pod-a", {"dynamic"}), nodes) == std::vector<std::int64_t>{0, 0, 0});
    f.handle.storage().Add(Volume("pv-bound", "wait", kGi));
    f.handle.storage().Add(BoundClaim("bound", "pv-bound"));
    CHECK(Scores(*f.plugin, PodWithClaims("pod-a", {"bound"}), nodes) == std::vector<std::int64_t>{0, 0, 0});
  }
}

TEST_CASE("VolumeBinding Score: without StorageCapacityScoring (--emulated-version 1.36) nothing is scored",
          "[plugins][volume_binding]") {
  // Upstream builds no scorer: PreScore skips every pod, Score gives 0, static bindings too.
  ksched::framework::Features off;
  off.storage_capacity_scoring = false;
  const ksched::framework::testing::ScopedProcessFeatures scoped(off);
  Fixture f;
  AddScoringClasses(f.handle);
  f.handle.storage().Add(Claim("pvc-dynamic", "wait-sc-with-storage-capacity", 10 * kGi));
  f.handle.storage().Add(NodeCapacity("node-a", 100 * kGi));
  f.handle.storage().Add(NodeCapacity("node-b", 50 * kGi));
  const Pod pod = PodWithClaims("pod-a", {"pvc-dynamic"});
  CycleState state;
  REQUIRE(f.plugin->PreFilter(state, pod, {}).second.IsSuccess());
  CHECK(f.plugin->Filter(state, pod, Node("node-a")).IsSuccess());
  CHECK(f.plugin->PreScore(state, pod, {}).code() == Code::kSkip);
  CHECK(f.plugin->Score(state, pod, Node("node-a")) == std::pair<std::int64_t, Status>{0, Status()});
}

TEST_CASE("VolumeBinding Score: a pod without claims skips PreFilter and PreScore, scoring 0 anyway",
          "[plugins][volume_binding]") {
  Fixture f;
  const Pod pod = MakePod("pod-a");
  CycleState state;
  CHECK(f.plugin->PreFilter(state, pod, {}).second.code() == Code::kSkip);
  // Upstream's PreScore succeeds and its Score gives 0 on every node; ours skips (same decision).
  CHECK(f.plugin->PreScore(state, pod, {}).code() == Code::kSkip);
  CHECK(f.plugin->Score(state, pod, Node("node-a")).first == 0);
  CycleState empty;
  CHECK(f.plugin->PreScore(empty, pod, {}).code() == Code::kError);
}

TEST_CASE("AssumedObjects: the passive flavour (v1.37 VolumeBinding) names the resource and compares versions",
          "[plugins][volume_binding]") {
  using Cache = ksched::plugins::helper::AssumedObjects<PersistentVolume>;
  Cache cache(Cache::Passive{"persistentvolumes"});
  auto api = std::make_shared<const PersistentVolume>(Volume("pv", "wait", kGi));
  auto assumed = std::make_shared<PersistentVolume>(*api);
  assumed->spec.claim_ref = ksched::api::ClaimReference{"default", "c", "u"};
  CHECK(cache.Assume("pv", assumed, nullptr).message() == "persistentvolumes \"pv\" not found");
  CHECK(cache.NotFoundMessage("ns/c") == "persistentvolumes \"ns/c\" not found");
  auto newer = std::make_shared<PersistentVolume>(*api);
  newer->metadata.resource_version = "2";
  // Any other resourceVersion than the informer's is out of sync, newer ones too.
  CHECK(cache.Assume("pv", newer, api).message() == "\"pv\" is out of sync (stored: 1, assume: 2)");
  REQUIRE(cache.Assume("pv", assumed, api).ok());
  CHECK(cache.Resolve("pv", api) == assumed);
  CHECK(cache.Resolve("pv", newer) == newer);
  CHECK(cache.size() == 0);
}

TEST_CASE("AssumedObjects: an assumption lasts until the informer's object is newer", "[plugins][volume_binding]") {
  ksched::plugins::helper::AssumedObjects<PersistentVolume> cache("v1.PersistentVolume");
  auto api = std::make_shared<const PersistentVolume>(Volume("pv", "wait", kGi));
  auto assumed = std::make_shared<PersistentVolume>(*api);
  assumed->spec.claim_ref = ksched::api::ClaimReference{"default", "c", "u"};
  CHECK(cache.Assume("pv", assumed, nullptr).message() == "could not find v1.PersistentVolume \"pv\"");
  REQUIRE(cache.Assume("pv", assumed, api).ok());
  CHECK(cache.Resolve("pv", api) == assumed);
  auto older = std::make_shared<PersistentVolume>(*api);
  older->metadata.resource_version = "0";
  auto newer = std::make_shared<PersistentVolume>(*api);
  newer->metadata.resource_version = "2";
  CHECK(cache.Assume("pv", older, api).message() ==
        "v1.PersistentVolume \"pv\" is out of sync (stored: 1, assume: 0)");
  CHECK(cache.Resolve("pv", newer) == newer);
  CHECK(cache.size() == 0);
  REQUIRE(cache.Assume("pv", assumed, api).ok());
  CHECK(cache.Resolve("pv", nullptr) == nullptr);  // deleted
  CHECK(ksched::plugins::helper::ResourceVersionNumber("18446744073709551615") == 18446744073709551615ULL);
  CHECK(ksched::plugins::helper::ResourceVersionNumber("12a") == 0);
}

TEST_CASE("VolumeBinding args and queueing hints", "[plugins][volume_binding]") {
  CHECK(vb::ParseVolumeBindingArgs("").value().bind_timeout == std::chrono::seconds(600));
  CHECK(vb::ParseVolumeBindingArgs(R"({"bindTimeoutSeconds": 30, "shape": []})").value().bind_timeout ==
        std::chrono::seconds(30));
  CHECK_FALSE(vb::ParseVolumeBindingArgs(R"({"bindTimeoutSeconds": "x"})").ok());
  // shape: v1.37's default [{0,10},{100,0}] unless given.
  const auto default_shape = vb::ParseVolumeBindingArgs("{}").value().shape;
  REQUIRE(default_shape.size() == 2);
  CHECK((default_shape[0].utilization == 0 && default_shape[0].score == 10));
  CHECK((default_shape[1].utilization == 100 && default_shape[1].score == 0));
  const auto shape =
      vb::ParseVolumeBindingArgs(R"({"shape": [{"utilization": 0, "score": 0}, {"utilization": 50, "score": 3}, {"utilization": 100, "score": 5}]})")
          .value()
          .shape;
  REQUIRE(shape.size() == 3);
  CHECK((shape[1].utilization == 50 && shape[1].score == 3));
  CHECK_FALSE(vb::ParseVolumeBindingArgs(R"({"shape": {"utilization": 0}})").ok());
  CHECK_FALSE(vb::ParseVolumeBindingArgs(R"({"shape": [{"utilization": "x"}]})").ok());

  const Pod pod = PodWithClaims("p", {"data"});
  PersistentVolumeClaim data = Claim("data", "wait");
  PersistentVolumeClaim other = Claim("other", "wait");
  EventObjects objects;
  objects.new_pvc = &data;
  CHECK(vb::IsSchedulableAfterPersistentVolumeClaimChange(pod, objects).value() == QueueingHint::kQueue);
  objects.new_pvc = &other;
  CHECK(vb::IsSchedulableAfterPersistentVolumeClaimChange(pod, objects).value() == QueueingHint::kQueueSkip);
  PersistentVolumeClaim elsewhere = Claim("data", "wait");
  elsewhere.metadata.namespace_ = "other";
  objects.new_pvc = &elsewhere;
  CHECK(vb::IsSchedulableAfterPersistentVolumeClaimChange(pod, objects).value() == QueueingHint::kQueueSkip);

  StorageClass before = Class("c", "WaitForFirstConsumer", "p");
  StorageClass after = before;
  EventObjects class_event;
  class_event.new_storage_class = &after;
  CHECK(vb::IsSchedulableAfterStorageClassChange(pod, class_event).value() == QueueingHint::kQueue);
  class_event.old_storage_class = &before;
  CHECK(vb::IsSchedulableAfterStorageClassChange(pod, class_event).value() == QueueingHint::kQueueSkip);
  after.allowed_topologies.emplace_back();
  CHECK(vb::IsSchedulableAfterStorageClassChange(pod, class_event).value() == QueueingHint::kQueue);

  // CSINode: created, or its migrated plugins changed (upstream isSchedulableAfterCSINodeChange).
  ksched::api::CSINode old_csi = CSINodeOf("node-a", std::nullopt);
  ksched::api::CSINode new_csi = CSINodeOf("node-a", std::nullopt);
  EventObjects csi_event;
  csi_event.new_csi_node = &new_csi;
  CHECK(vb::IsSchedulableAfterCSINodeChange(pod, csi_event).value() == QueueingHint::kQueue);
  csi_event.old_csi_node = &old_csi;
  CHECK(vb::IsSchedulableAfterCSINodeChange(pod, csi_event).value() == QueueingHint::kQueueSkip);
  new_csi.metadata.annotations.Set("storage.alpha.kubernetes.io/migrated-plugins", "");
  CHECK(vb::IsSchedulableAfterCSINodeChange(pod, csi_event).value() == QueueingHint::kQueueSkip);
  new_csi.metadata.annotations.Set("storage.alpha.kubernetes.io/migrated-plugins", "kubernetes.io/gce-pd");
  CHECK(vb::IsSchedulableAfterCSINodeChange(pod, csi_event).value() == QueueingHint::kQueue);
}

}  // namespace
