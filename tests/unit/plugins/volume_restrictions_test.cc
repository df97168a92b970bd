// VolumeRestrictions: ported from upstream volumerestrictions/volume_restrictions_test.go (v1.34.4):
// the four inline-disk conflict tables, the ReadWriteOncePod table and the queueing hints, plus
// the PreFilter extensions' counts (nominated pods, victims).
#include "plugins/volume_restrictions/volume_restrictions.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "fake_handle.h"
#include "test_objects.h"

namespace {

using ksched::api::PersistentVolumeClaim;
using ksched::api::Pod;
using ksched::api::Volume;
using ksched::framework::Code;
using ksched::framework::CycleState;
using ksched::framework::EventObjects;
using ksched::framework::EventResource;
using ksched::framework::NodeInfo;
using ksched::framework::PodInfo;
using ksched::framework::QueueingHint;
using ksched::framework::Status;
namespace action = ksched::framework::action;
namespace vr = ksched::plugins::volume_restrictions;
using ksched::plugins::testing::Build;
using ksched::plugins::testing::FakeHandle;
using ksched::plugins::testing::MakeNode;
using ksched::plugins::testing::MakeNodeInfo;
using ksched::plugins::testing::MakePod;

Pod WithVolumes(std::string name, const std::vector<Volume>& volumes, std::string node = "") {
  Pod pod = MakePod(std::move(name));
  pod.spec.node_name = node;
  for (const Volume& v : volumes) pod.spec.volumes.push_back(v);
  return pod;
}

Volume ClaimVolume(std::string claim) {
  Volume v;
  v.name = claim;
  v.persistent_volume_claim = ksched::api::PersistentVolumeClaimVolumeSource{std::move(claim), false};
  return v;
}

Volume Gce(std::string pd, bool read_only = false) {
  Volume v;
  v.gce_persistent_disk = ksched::api::GcePersistentDiskVolumeSource{std::move(pd), read_only};
  return v;
}
Volume Aws(std::string id) {
  Volume v;
  v.aws_elastic_block_store = ksched::api::AwsElasticBlockStoreVolumeSource{std::move(id), false};
  return v;
}
Volume Rbd(std::vector<std::string> monitors, bool read_only = false) {
  Volume v;
  v.rbd = ksched::api::RbdVolumeSource{std::move(monitors), "foo", "bar", read_only};
  return v;
}
Volume Iscsi(std::string iqn, bool read_only = false) {
  Volume v;
  v.iscsi = ksched::api::IscsiVolumeSource{"127.0.0.1:3260", std::move(iqn), 0, read_only};
  return v;
}

PersistentVolumeClaim Claim(std::string name, std::string mode) {
  PersistentVolumeClaim claim;
  claim.metadata.name = std::move(name);
  claim.metadata.namespace_ = "default";
  claim.spec.access_modes = {std::move(mode)};
  return claim;
}

const Status kDiskConflict(Code::kUnschedulable, {"node(s) had no available disk"});

// Upstream's four disk tables share one shape: (pod, existing pod on the node) -> PreFilter, Filter.
void CheckDiskTable(const Volume& state, const Volume& other_state) {
  FakeHandle handle;
  auto plugin = Build<vr::VolumeRestrictions>(vr::New, nullptr, handle);
  struct Row {
    const char* name;
    Pod pod;
    std::vector<Pod> on_node;
    Code pre_filter;
    Status filter;
  };
  const std::vector<Row> rows = {
      {"nothing", MakePod("p"), {}, Code::kSkip, {}},
      {"one state", MakePod("p"), {WithVolumes("e", {state})}, Code::kSkip, {}},
      {"same state", WithVolumes("p", {state}), {WithVolumes("e", {state})}, Code::kSuccess, kDiskConflict},
      {"different state", WithVolumes("p", {other_state}), {WithVolumes("e", {state})}, Code::kSuccess, {}},
  };
  for (const Row& row : rows) {
    INFO(row.name);
    CycleState cycle;
    NodeInfo node = MakeNodeInfo(MakeNode("n"), row.on_node);
    const auto [result, status] = plugin->PreFilter(cycle, row.pod, {});
    CHECK(status.code() == row.pre_filter);
    if (status.code() == Code::kSuccess) CHECK(plugin->Filter(cycle, row.pod, node) == row.filter);
  }
}

TEST_CASE("VolumeRestrictions: a GCE disk in use on the node conflicts", "[plugins][volume_restrictions]") {
  CheckDiskTable(Gce("foo"), Gce("bar"));
  // Read-only on both sides does not conflict; read-only on one side does.
  CHECK_FALSE(vr::IsVolumeConflict(Gce("foo", true), WithVolumes("e", {Gce("foo", true)})));
  CHECK(vr::IsVolumeConflict(Gce("foo", true), WithVolumes("e", {Gce("foo")})));
}

TEST_CASE("VolumeRestrictions: an AWS EBS volume in use on the node conflicts", "[plugins][volume_restrictions]") {
  CheckDiskTable(Aws("foo"), Aws("bar"));
}

TEST_CASE("VolumeRestrictions: an RBD image sharing a monitor conflicts", "[plugins][volume_restrictions]") {
  CheckDiskTable(Rbd({"a", "b"}), Rbd({"c", "d"}));
  CHECK(vr::IsVolumeConflict(Rbd({"x", "b"}), WithVolumes("e", {Rbd({"a", "b"})})));
  CHECK_FALSE(vr::IsVolumeConflict(Rbd({"a"}, true), WithVolumes("e", {Rbd({"a"}, true)})));
}

TEST_CASE("VolumeRestrictions: an ISCSI volume with the same IQN conflicts", "[plugins][volume_restrictions]") {
  CheckDiskTable(Iscsi("iqn.2016-12.server:storage.target01"), Iscsi("iqn.2017-12.server:storage.target01"));
  CHECK_FALSE(vr::IsVolumeConflict(Iscsi("iqn", true), WithVolumes("e", {Iscsi("iqn", true)})));
}

TEST_CASE("VolumeRestrictions: a volume without restrictions is skipped", "[plugins][volume_restrictions]") {
  FakeHandle handle;
  auto plugin = Build<vr::VolumeRestrictions>(vr::New, nullptr, handle);
  Volume plain;
  plain.name = "volume with no restriction";
  CycleState cycle;
  CHECK(plugin->PreFilter(cycle, WithVolumes("p", {plain}), {}).second.code() == Code::kSkip);
}

TEST_CASE("VolumeRestrictions: ReadWriteOncePod claims in use reject every node", "[plugins][volume_restrictions]") {
  const Pod one = WithVolumes("pod-with-one-pvc", {ClaimVolume("claim-with-rwop-1")}, "node-1");
  const Pod two = WithVolumes("pod-with-two-pvcs",
                              {ClaimVolume("claim-with-rwop-1"), ClaimVolume("claim-with-rwop-2")}, "node-1");
  const Pod one_conflict = WithVolumes("pod-with-one-conflict", {ClaimVolume("claim-with-rwop-1")}, "node-1");
  const Pod two_conflicts = WithVolumes(
      "pod-with-two-conflicts", {ClaimVolume("claim-with-rwop-1"), ClaimVolume("claim-with-rwop-2")}, "node-1");
  const Pod rwx = WithVolumes("pod-with-rwx", {ClaimVolume("claim-with-rwx")}, "node-1");
  const Status rwop_conflict(Code::kUnschedulable, {std::string(vr::kErrReasonReadWriteOncePodConflict)});

  struct Row {
    const char* name;
    Pod pod;
    std::vector<Pod> existing;
    std::vector<PersistentVolumeClaim> claims;
    Status pre_filter;
    Status filter;
  };
  const std::vector<Row> rows = {
      {"nothing", MakePod("p"), {}, {}, Status(Code::kSkip), {}},
      {"failed to get PVC", one, {}, {},
       Status(Code::kUnschedulableAndUnresolvable, {"persistentvolumeclaim \"claim-with-rwop-1\" not found"}), {}},
      {"no access mode conflict", one, {rwx},
       {Claim("claim-with-rwop-1", "ReadWriteOncePod"), Claim("claim-with-rwx", "ReadWriteMany")},
       Status(Code::kSkip), {}},
      {"access mode conflict, unschedulable", one_conflict, {one, rwx},
       {Claim("claim-with-rwop-1", "ReadWriteOncePod"), Claim("claim-with-rwx", "ReadWriteMany")}, {},
       rwop_conflict},
      {"two conflicts, unschedulable", two_conflicts, {two, rwx},
       {Claim("claim-with-rwop-1", "ReadWriteOncePod"), Claim("claim-with-rwop-2", "ReadWriteOncePod"),
        Claim("claim-with-rwx", "ReadWriteMany")},
       {}, rwop_conflict},
  };
  for (const Row& row : rows) {
    INFO(row.name);
    std::vector<ksched::framework::PodInfoPtr> pods;
    for (const Pod& p : row.existing) pods.push_back(PodInfo::CreateOrDie(std::make_shared<const Pod>(p)));
    FakeHandle handle({MakeNode("node-1")}, pods);
    for (const PersistentVolumeClaim& claim : row.claims) handle.storage().Add(claim);
    auto plugin = Build<vr::VolumeRestrictions>(vr::New, nullptr, handle);
    CycleState cycle;
    const auto [result, status] = plugin->PreFilter(cycle, row.pod, {});
    CHECK(status == row.pre_filter);
    if (status.IsSuccess()) {
      CHECK(plugin->Filter(cycle, row.pod, *handle.snapshot().Get("node-1")) == row.filter);
    }
  }
}

TEST_CASE("VolumeRestrictions: AddPod and RemovePod keep the ReadWriteOncePod count", "[plugins][volume_restrictions]") {
  const Pod holder = WithVolumes("holder", {ClaimVolume("rwop")}, "node-1");
  FakeHandle handle({MakeNode("node-1")}, {PodInfo::CreateOrDie(std::make_shared<const Pod>(holder))});
  handle.storage().Add(Claim("rwop", "ReadWriteOncePod"));
  auto plugin = Build<vr::VolumeRestrictions>(vr::New, nullptr, handle);
  const Pod incoming = WithVolumes("incoming", {ClaimVolume("rwop")});
  const NodeInfo& node = *handle.snapshot().Get("node-1");
  CycleState cycle;
  REQUIRE(plugin->PreFilter(cycle, incoming, {}).second.IsSuccess());
  CHECK(plugin->Filter(cycle, incoming, node).code() == Code::kUnschedulable);
  // Preemption removes the holder: the claim is free on a cloned state only.
  std::unique_ptr<CycleState> victim_gone = cycle.Clone();
  const auto holder_info = PodInfo::CreateOrDie(std::make_shared<const Pod>(holder));
  REQUIRE(plugin->RemovePod(*victim_gone, incoming, holder_info, node).IsSuccess());
  CHECK(plugin->Filter(*victim_gone, incoming, node).IsSuccess());
  CHECK(plugin->Filter(cycle, incoming, node).code() == Code::kUnschedulable);
  REQUIRE(plugin->AddPod(*victim_gone, incoming, holder_info, node).IsSuccess());
  CHECK(plugin->Filter(*victim_gone, incoming, node).code() == Code::kUnschedulable);
}

TEST_CASE("VolumeRestrictions: queueing hints", "[plugins][volume_restrictions]") {
  const Pod pod = WithVolumes("pod1", {Gce("foo"), ClaimVolume("claim-rwop")});
  SECTION("pod delete") {
    Pod other_namespace = WithVolumes("x", {Gce("foo")}, "n");
    other_namespace.metadata.namespace_ = "other";
    struct Row {
      const char* name;
      Pod deleted;
      QueueingHint want;
    };
    const std::vector<Row> rows = {
        {"a pod in another namespace", other_namespace, QueueingHint::kQueueSkip},
        {"a pod with the same disk", WithVolumes("x", {Gce("foo")}, "n"), QueueingHint::kQueue},
        {"a pod with the same claim", WithVolumes("x", {ClaimVolume("claim-rwop")}, "n"), QueueingHint::kQueue},
        {"an unrelated pod", WithVolumes("x", {Gce("bar"), ClaimVolume("other")}, "n"), QueueingHint::kQueueSkip},
    };
    for (const Row& row : rows) {
      INFO(row.name);
      EventObjects objects;
      objects.old_pod = &row.deleted;
      auto hint = vr::IsSchedulableAfterPodDeleted(pod, objects);
      REQUIRE(hint.ok());
      CHECK(*hint == row.want);
    }
  }
  SECTION("claim add") {
    PersistentVolumeClaim mine = Claim("claim-rwop", "ReadWriteOncePod");
    PersistentVolumeClaim other = Claim("claim-other", "ReadWriteOncePod");
    PersistentVolumeClaim elsewhere = Claim("claim-rwop", "ReadWriteOncePod");
    elsewhere.metadata.namespace_ = "other";
    EventObjects objects;
    objects.new_pvc = &mine;
    CHECK(*vr::IsSchedulableAfterPersistentVolumeClaimAdded(pod, objects) == QueueingHint::kQueue);
    objects.new_pvc = &other;
    CHECK(*vr::IsSchedulableAfterPersistentVolumeClaimAdded(pod, objects) == QueueingHint::kQueueSkip);
    objects.new_pvc = &elsewhere;
    CHECK(*vr::IsSchedulableAfterPersistentVolumeClaimAdded(pod, objects) == QueueingHint::kQueueSkip);
    CHECK_FALSE(vr::IsSchedulableAfterPersistentVolumeClaimAdded(pod, EventObjects{}).ok());
  }
  SECTION("registered events") {
    FakeHandle handle;
    auto plugin = Build<vr::VolumeRestrictions>(vr::New, nullptr, handle);
    const auto events = plugin->EventsToRegister();
    REQUIRE(events.size() == 3);
    CHECK((events[0].event.resource == EventResource::kPod && events[0].event.action == action::kDelete));
    CHECK((events[1].event.resource == EventResource::kNode && events[1].event.action == action::kAdd));
    CHECK((events[2].event.resource == EventResource::kPersistentVolumeClaim &&
           events[2].event.action == action::kAdd));
  }
}

}  // namespace
