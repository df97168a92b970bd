// VolumeZone: ported from upstream volumezone/volume_zone_test.go (v1.34.4): TestSingleZone,
// TestMultiZone, TestWithBinding and the queueing hints. The not-found messages are those of the
// real listers (`storageclass.storage.k8s.io "Class_0" not found`), not of upstream's fake ones.
#include "plugins/volume_zone/volume_zone.h"

#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

#include "fake_handle.h"
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
namespace vz = ksched::plugins::volume_zone;
using ksched::plugins::testing::Build;
using ksched::plugins::testing::FakeHandle;
using ksched::plugins::testing::MakeNode;
using ksched::plugins::testing::MakeNodeInfo;
using ksched::plugins::testing::MakePod;

constexpr const char* kBetaZone = "failure-domain.beta.kubernetes.io/zone";
constexpr const char* kBetaRegion = "failure-domain.beta.kubernetes.io/region";
constexpr const char* kZone = "topology.kubernetes.io/zone";
constexpr const char* kRegion = "topology.kubernetes.io/region";

Pod PodWithClaim(std::string claim) {
  Pod pod = MakePod("pod_1");
  ksched::api::Volume volume;
  volume.name = claim;
  volume.persistent_volume_claim = ksched::api::PersistentVolumeClaimVolumeSource{std::move(claim), false};
  pod.spec.volumes.push_back(volume);
  return pod;
}

PersistentVolume Volume(std::string name, Labels labels) {
  PersistentVolume pv;
  pv.metadata.name = std::move(name);
  pv.metadata.labels = std::move(labels);
  return pv;
}

PersistentVolumeClaim Claim(std::string name, std::string volume,
                            std::optional<std::string> class_name = std::nullopt) {
  PersistentVolumeClaim claim;
  claim.metadata.name = std::move(name);
  claim.metadata.namespace_ = "default";
  claim.spec.volume_name = std::move(volume);
  claim.spec.storage_class_name = std::move(class_name);
  return claim;
}

const Status kConflict(Code::kUnschedulableAndUnresolvable, {"node(s) had no available volume zone"});

struct Row {
  const char* name;
  Pod pod;
  Labels node_labels;
  Status pre_filter;
  Status filter;
};

void RunRows(FakeHandle& handle, const std::vector<Row>& rows) {
  auto plugin = Build<vz::VolumeZone>(vz::New, nullptr, handle);
  for (const Row& row : rows) {
    INFO(row.name);
    CycleState cycle;
    const NodeInfo node = MakeNodeInfo(MakeNode("host1", row.node_labels));
    const auto [result, status] = plugin->PreFilter(cycle, row.pod, {});
    CHECK(status == row.pre_filter);
    // Upstream runs Filter whatever PreFilter said: without its state, Filter computes it again.
    if (status.code() != Code::kSkip) CHECK(plugin->Filter(cycle, row.pod, node) == row.filter);
  }
}

TEST_CASE("VolumeZone: single zone", "[plugins][volume_zone]") {
  FakeHandle handle;
  handle.storage().Add(Volume("Vol_1", {{kBetaZone, "us-west1-a"}}));
  handle.storage().Add(Volume("Vol_2", {{kBetaRegion, "us-west1"}, {"uselessLabel", "none"}}));
  handle.storage().Add(Volume("Vol_3", {{kBetaRegion, "us-west1"}}));
  handle.storage().Add(Volume("Vol_Stable_1", {{kZone, "us-west1-a"}}));
  handle.storage().Add(Volume("Vol_Stable_2", {{kRegion, "us-west1"}, {"uselessLabel", "none"}}));
  handle.storage().Add(Volume("Vol_Stable_3", {{kZone, "us-west1-a"}, {kRegion, "us-west1-a"}}));
  for (const char* n : {"1", "2", "3"}) handle.storage().Add(Claim(std::string("PVC_") + n, std::string("Vol_") + n));
  handle.storage().Add(Claim("PVC_4", "Vol_not_exist"));
  for (const char* n : {"1", "2", "3"}) {
    handle.storage().Add(Claim(std::string("PVC_Stable_") + n, std::string("Vol_Stable_") + n));
  }
  auto with = [&](Labels labels) {
    labels.Set(ksched::api::InternedString("uselessLabel"), "none");
    return labels;
  };
  RunRows(handle, {
      {"pod without volume", MakePod("pod_1"), {{kBetaZone, "us-west1-a"}}, Status(Code::kSkip), {}},
      {"node without labels", PodWithClaim("PVC_1"), {}, {}, {}},
      {"beta zone label matched", PodWithClaim("PVC_1"), with({{kBetaZone, "us-west1-a"}}), {}, {}},
      {"beta region label matched", PodWithClaim("PVC_2"), with({{kBetaRegion, "us-west1"}}), {}, {}},
      {"beta region label doesn't match", PodWithClaim("PVC_2"), with({{kBetaRegion, "no_us-west1"}}), {}, kConflict},
      {"beta zone label doesn't match", PodWithClaim("PVC_1"), with({{kBetaZone, "no_us-west1-a"}}), {}, kConflict},
      {"zone label matched", PodWithClaim("PVC_Stable_1"), with({{kZone, "us-west1-a"}}), {}, {}},
      {"region label matched", PodWithClaim("PVC_Stable_2"), with({{kRegion, "us-west1"}}), {}, {}},
      {"region label doesn't match", PodWithClaim("PVC_Stable_2"), with({{kRegion, "no_us-west1"}}), {}, kConflict},
      {"zone label doesn't match", PodWithClaim("PVC_Stable_1"), with({{kZone, "no_us-west1-a"}}), {}, kConflict},
      {"pv with zone and region, node with only zone", PodWithClaim("PVC_Stable_3"), {{kZone, "us-west1-a"}}, {},
       kConflict},
      {"pv with zone,node with beta zone", PodWithClaim("PVC_Stable_1"), {{kBetaZone, "us-west1-a"}}, {}, kConflict},
      {"pv with beta label,node with ga label, matched", PodWithClaim("PVC_1"), {{kZone, "us-west1-a"}}, {}, {}},
      {"pv with beta label,node with ga label, don't match", PodWithClaim("PVC_1"), {{kZone, "us-west1-b"}}, {},
       kConflict},
      // Not in upstream's table: a claim bound to a missing volume, a missing claim.
      {"volume not found", PodWithClaim("PVC_4"), {},
       Status(Code::kUnschedulableAndUnresolvable, {"persistentvolume \"Vol_not_exist\" not found"}),
       Status(Code::kUnschedulableAndUnresolvable, {"persistentvolume \"Vol_not_exist\" not found"})},
      {"claim not found", PodWithClaim("PVC_none"), {},
       Status(Code::kUnschedulableAndUnresolvable, {"persistentvolumeclaim \"PVC_none\" not found"}),
       Status(Code::kUnschedulableAndUnresolvable, {"persistentvolumeclaim \"PVC_none\" not found"})},
      {"claim without a name", PodWithClaim(""), {},
       Status(Code::kUnschedulableAndUnresolvable, {"PersistentVolumeClaim had no name"}),
       Status(Code::kUnschedulableAndUnresolvable, {"PersistentVolumeClaim had no name"})},
  });
}

TEST_CASE("VolumeZone: multiple zones in one label", "[plugins][volume_zone]") {
  FakeHandle handle;
  handle.storage().Add(Volume("Vol_1", {{kBetaZone, "us-west1-a"}}));
  handle.storage().Add(Volume("Vol_2", {{kBetaZone, "us-west1-b"}, {"uselessLabel", "none"}}));
  handle.storage().Add(Volume("Vol_3", {{kBetaZone, "us-west1-c__us-west1-a"}}));
  handle.storage().Add(Volume("Vol_Stable_1", {{kZone, "us-west1-a"}}));
  handle.storage().Add(Volume("Vol_Stable_2", {{kZone, "us-west1-c__us-west1-a"}}));
  for (const char* n : {"1", "2", "3"}) handle.storage().Add(Claim(std::string("PVC_") + n, std::string("Vol_") + n));
  for (const char* n : {"1", "2"}) {
    handle.storage().Add(Claim(std::string("PVC_Stable_") + n, std::string("Vol_Stable_") + n));
  }
  RunRows(handle, {
      {"node without labels", PodWithClaim("PVC_3"), {}, {}, {}},
      {"beta zone label matched", PodWithClaim("PVC_3"), {{kBetaZone, "us-west1-a"}, {"uselessLabel", "none"}}, {}, {}},
      {"beta zone label doesn't match", PodWithClaim("PVC_1"), {{kBetaZone, "us-west1-b"}, {"uselessLabel", "none"}},
       {}, kConflict},
      {"zone label matched", PodWithClaim("PVC_Stable_2"), {{kZone, "us-west1-a"}, {"uselessLabel", "none"}}, {}, {}},
      {"zone label doesn't match", PodWithClaim("PVC_Stable_2"), {{kZone, "us-west1-b"}, {"uselessLabel", "none"}},
       {}, kConflict},
  });
}

TEST_CASE("VolumeZone: unbound claims and their classes", "[plugins][volume_zone]") {
  FakeHandle handle;
  StorageClass immediate;
  immediate.metadata.name = "Class_Immediate";
  StorageClass wait;
  wait.metadata.name = "Class_Wait";
  wait.volume_binding_mode = "WaitForFirstConsumer";
  handle.storage().Add(immediate);
  handle.storage().Add(wait);
  handle.storage().Add(Volume("Vol_1", {{kBetaZone, "us-west1-a"}}));
  handle.storage().Add(Claim("PVC_1", "Vol_1"));
  handle.storage().Add(Claim("PVC_NoSC", "", "Class_0"));
  handle.storage().Add(Claim("PVC_EmptySC", ""));
  handle.storage().Add(Claim("PVC_WaitSC", "", "Class_Wait"));
  handle.storage().Add(Claim("PVC_ImmediateSC", "", "Class_Immediate"));
  PersistentVolumeClaim beta = Claim("PVC_BetaAnnotation", "", "Class_Immediate");
  beta.metadata.annotations.Set(ksched::api::InternedString("volume.beta.kubernetes.io/storage-class"), "Class_Wait");
  handle.storage().Add(beta);
  auto unresolvable = [](std::string message) {
    return Status(Code::kUnschedulableAndUnresolvable, {std::move(message)});
  };
  const Labels node = {{kBetaZone, "us-west1-a"}, {"uselessLabel", "none"}};
  RunRows(handle, {
      {"label zone failure domain matched", PodWithClaim("PVC_1"), node, {}, {}},
      {"unbound volume empty storage class", PodWithClaim("PVC_EmptySC"), node,
       unresolvable("PersistentVolumeClaim had no pv name and storageClass name"),
       unresolvable("PersistentVolumeClaim had no pv name and storageClass name")},
      {"unbound volume no storage class", PodWithClaim("PVC_NoSC"), node,
       unresolvable("storageclass.storage.k8s.io \"Class_0\" not found"),
       unresolvable("storageclass.storage.k8s.io \"Class_0\" not found")},
      {"unbound volume immediate binding mode", PodWithClaim("PVC_ImmediateSC"), node,
       unresolvable("VolumeBindingMode not set for StorageClass \"Class_Immediate\""),
       unresolvable("VolumeBindingMode not set for StorageClass \"Class_Immediate\"")},
      {"unbound volume wait binding mode", PodWithClaim("PVC_WaitSC"), node, Status(Code::kSkip), {}},
      // The beta annotation wins over spec.storageClassName.
      {"beta class annotation", PodWithClaim("PVC_BetaAnnotation"), node, Status(Code::kSkip), {}},
  });
  // An Immediate class: the claim should have been bound already.
  StorageClass set;
  set.metadata.name = "Class_Set";
  set.volume_binding_mode = "Immediate";
  handle.storage().Add(set);
  handle.storage().Add(Claim("PVC_SetSC", "", "Class_Set"));
  RunRows(handle, {{"unbound volume of an Immediate class", PodWithClaim("PVC_SetSC"), node,
                    unresolvable("PersistentVolume had no name"), unresolvable("PersistentVolume had no name")}});
}

TEST_CASE("VolumeZone: volume topologies parse upstream's zone lists", "[plugins][volume_zone]") {
  const auto topologies = vz::VolumeTopologies(
      Volume("v", {{kZone, " b__a "}, {kRegion, "r1____r2"}, {kBetaZone, "z"}, {"other", "x"}}));
  // Label order as upstream's topologyLabels; the unparsable region (an empty entry) is ignored.
  REQUIRE(topologies.size() == 2);
  CHECK(topologies[0] == vz::VolumeTopology{"v", kBetaZone, {"z"}});
  CHECK(topologies[1] == vz::VolumeTopology{"v", kZone, {"a", "b"}});
}

TEST_CASE("VolumeZone: queueing hints", "[plugins][volume_zone]") {
  const Pod pod = PodWithClaim("PVC_1");
  SECTION("storage class add") {
    StorageClass wait;
    wait.volume_binding_mode = "WaitForFirstConsumer";
    StorageClass immediate;
    immediate.volume_binding_mode = "Immediate";
    StorageClass unset;
    EventObjects objects;
    objects.new_storage_class = &wait;
    CHECK(*vz::IsSchedulableAfterStorageClassAdded(pod, objects) == QueueingHint::kQueue);
    objects.new_storage_class = &immediate;
    CHECK(*vz::IsSchedulableAfterStorageClassAdded(pod, objects) == QueueingHint::kQueueSkip);
    objects.new_storage_class = &unset;
    CHECK(*vz::IsSchedulableAfterStorageClassAdded(pod, objects) == QueueingHint::kQueueSkip);
  }
  SECTION("claim add or update") {
    PersistentVolumeClaim mine = Claim("PVC_1", "");
    PersistentVolumeClaim other = Claim("PVC_2", "");
    PersistentVolumeClaim elsewhere = Claim("PVC_1", "");
    elsewhere.metadata.namespace_ = "other";
    EventObjects objects;
    objects.new_pvc = &mine;
    CHECK(*vz::IsSchedulableAfterPersistentVolumeClaimChange(pod, objects) == QueueingHint::kQueue);
    objects.new_pvc = &other;
    CHECK(*vz::IsSchedulableAfterPersistentVolumeClaimChange(pod, objects) == QueueingHint::kQueueSkip);
    objects.new_pvc = &elsewhere;
    CHECK(*vz::IsSchedulableAfterPersistentVolumeClaimChange(pod, objects) == QueueingHint::kQueueSkip);
  }
  SECTION("volume add or update") {
    const PersistentVolume a = Volume("v", {{kZone, "a"}});
    const PersistentVolume a_relabelled = Volume("v", {{kZone, "a"}, {"team", "x"}});
    const PersistentVolume b = Volume("v", {{kZone, "b"}});
    EventObjects objects;
    objects.new_pv = &a;
    CHECK(*vz::IsSchedulableAfterPersistentVolumeChange(pod, objects) == QueueingHint::kQueue);
    objects.old_pv = &a;
    objects.new_pv = &a_relabelled;
    CHECK(*vz::IsSchedulableAfterPersistentVolumeChange(pod, objects) == QueueingHint::kQueueSkip);
    objects.new_pv = &b;
    CHECK(*vz::IsSchedulableAfterPersistentVolumeChange(pod, objects) == QueueingHint::kQueue);
  }
}

}  // namespace
