// NodeVolumeLimits: cases after upstream nodevolumelimits/csi_test.go (v1.37.2): CSI volumes within
// and over a driver's limit, a volume shared with a pod on the node counted once, VolumeAttachments
// counted, unbound claims counted by their class's provisioner, in-tree volumes (bound and inline)
// counted as their CSI driver's when migration is on, a node without CSINode or limits, ephemeral
// volumes (missing, not owned), PreFilter's Skip, the hints, and VolumeLimitScaling's driver check
// (TestVolumeLimitScalingGate; the translation's own cases are in csi_translation_test.cc).
#include "plugins/node_volume_limits/node_volume_limits.h"

#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

#include "fake_handle.h"
#include "test_objects.h"

namespace {

using ksched::api::CSINode;
using ksched::api::Labels;
using ksched::api::PersistentVolume;
using ksched::api::PersistentVolumeClaim;
using ksched::api::Pod;
using ksched::api::StorageClass;
using ksched::api::Volume;
using ksched::framework::Code;
using ksched::framework::CycleState;
using ksched::framework::EventObjects;
using ksched::framework::QueueingHint;
using ksched::framework::Status;
namespace nvl = ksched::plugins::node_volume_limits;
using ksched::plugins::testing::FakeHandle;
using ksched::plugins::testing::MakeNode;
using ksched::plugins::testing::MakeNodeInfo;
using ksched::plugins::testing::MakePod;

constexpr const char* kDriver = "ebs.csi.aws.com";
constexpr const char* kOtherDriver = "hostpath.csi.example.com";

Volume ClaimVolume(const std::string& claim) {
  Volume volume;
  volume.name = claim;
  volume.persistent_volume_claim = ksched::api::PersistentVolumeClaimVolumeSource{claim, false};
  return volume;
}

Pod PodWith(std::string name, std::vector<Volume> volumes) {
  Pod pod = MakePod(std::move(name));
  pod.spec.volumes = std::move(volumes);
  return pod;
}

Pod PodWithClaims(std::string name, const std::vector<std::string>& claims) {
  std::vector<Volume> volumes;
  for (const std::string& claim : claims) volumes.push_back(ClaimVolume(claim));
  return PodWith(std::move(name), std::move(volumes));
}

PersistentVolumeClaim Claim(std::string name, std::string volume, std::optional<std::string> class_name = {}) {
  PersistentVolumeClaim claim;
  claim.metadata.name = std::move(name);
  claim.metadata.namespace_ = "default";
  claim.spec.volume_name = std::move(volume);
  claim.spec.storage_class_name = std::move(class_name);
  return claim;
}

PersistentVolume CsiVolume(std::string name, std::string driver, std::string handle) {
  PersistentVolume pv;
  pv.metadata.name = std::move(name);
  pv.spec.csi = ksched::api::CsiPersistentVolumeSource{std::move(driver), std::move(handle)};
  return pv;
}

CSINode Limits(std::string node, std::vector<std::pair<std::string, std::optional<std::int32_t>>> drivers) {
  CSINode csi_node;
  csi_node.metadata.name = std::move(node);
  for (auto& [name, count] : drivers) csi_node.drivers.push_back({name, count});
  return csi_node;
}

// Claims csi-0..csi-3 bound to CSI volumes of kDriver (handles h0..h3), other-0 to kOtherDriver,
// "pending" unbound of class "csi-class" (provisioner kDriver), "classless" unbound without class.
void AddStorage(FakeHandle& handle) {
  for (int i = 0; i < 4; ++i) {
    const std::string n = std::to_string(i);
    handle.storage().Add(CsiVolume("pv-" + n, kDriver, "h" + n));
    handle.storage().Add(Claim("csi-" + n, "pv-" + n));
  }
  handle.storage().Add(CsiVolume("pv-other", kOtherDriver, "o0"));
  handle.storage().Add(Claim("other-0", "pv-other"));
  StorageClass storage_class;
  storage_class.metadata.name = "csi-class";
  storage_class.provisioner = kDriver;
  handle.storage().Add(storage_class);
  handle.storage().Add(Claim("pending", "", "csi-class"));
  handle.storage().Add(Claim("pending-2", "", "csi-class"));
  handle.storage().Add(Claim("classless", ""));
}

Status Filter(FakeHandle& handle, const Pod& pod, const std::vector<Pod>& existing = {}) {
  nvl::NodeVolumeLimits plugin(handle, "prefix");
  CycleState state;
  auto [result, pre] = plugin.PreFilter(state, pod, {});
  if (pre.code() == Code::kSkip) return pre;
  return plugin.Filter(state, pod, MakeNodeInfo(MakeNode("node-1"), existing));
}

const Status kExceeded(Code::kUnschedulable, {"node(s) exceed max volume count"});

TEST_CASE("NodeVolumeLimits: CSI volumes within and over the driver's limit", "[plugins][node_volume_limits]") {
  FakeHandle handle;
  AddStorage(handle);
  handle.storage().Add(Limits("node-1", {{kDriver, 2}, {kOtherDriver, std::nullopt}}));
  const Pod two = PodWithClaims("two", {"csi-0", "csi-1"});
  CHECK(Filter(handle, two).IsSuccess());
  // One more volume of the driver on the node goes over.
  CHECK(Filter(handle, two, {PodWithClaims("on-node", {"csi-2"})}) == kExceeded);
  // A volume the node's pod already uses is not new.
  CHECK(Filter(handle, two, {PodWithClaims("on-node", {"csi-0"})}).IsSuccess());
  // A driver without a count is not limited.
  CHECK(Filter(handle, PodWithClaims("other", {"other-0"}), {PodWithClaims("on-node", {"csi-2", "csi-3"})})
            .IsSuccess());
  // Unbound claims count by their class's provisioner, each as a volume of its own; a claim
  // without class does not count.
  CHECK(Filter(handle, PodWithClaims("pending", {"pending", "pending-2"})).IsSuccess());
  CHECK(Filter(handle, PodWithClaims("pending", {"pending", "pending-2"}), {PodWithClaims("n", {"csi-3"})}) ==
        kExceeded);
  CHECK(Filter(handle, PodWithClaims("classless", {"classless", "csi-0"}), {PodWithClaims("n", {"csi-3"})})
            .IsSuccess());
}

TEST_CASE("NodeVolumeLimits: VolumeAttachments to the node count", "[plugins][node_volume_limits]") {
  FakeHandle handle;
  AddStorage(handle);
  handle.storage().Add(Limits("node-1", {{kDriver, 2}}));
  ksched::api::VolumeAttachment attachment;
  attachment.metadata.name = "va-3";
  attachment.attacher = kDriver;
  attachment.node_name = "node-1";
  attachment.persistent_volume_name = "pv-3";
  handle.storage().Add(attachment);
  ksched::api::VolumeAttachment elsewhere = attachment;
  elsewhere.metadata.name = "va-2";
  elsewhere.node_name = "node-2";
  elsewhere.persistent_volume_name = "pv-2";
  handle.storage().Add(elsewhere);
  CHECK(Filter(handle, PodWithClaims("one", {"csi-0"})).IsSuccess());
  CHECK(Filter(handle, PodWithClaims("two", {"csi-0", "csi-1"})) == kExceeded);
  // The attached volume used by a pod on the node counts once.
  CHECK(Filter(handle, PodWithClaims("one", {"csi-0"}), {PodWithClaims("n", {"csi-3"})}).IsSuccess());
}

TEST_CASE("NodeVolumeLimits: no CSINode, no limits, and claims that cannot be found", "[plugins][node_volume_limits]") {
  FakeHandle handle;
  AddStorage(handle);
  CHECK(Filter(handle, PodWithClaims("many", {"csi-0", "csi-1", "csi-2", "csi-3"})).IsSuccess());
  CHECK(Filter(handle, PodWithClaims("missing", {"nope"})) ==
        Status(Code::kUnschedulableAndUnresolvable,
               {"looking up PVC default/nope: persistentvolumeclaim \"nope\" not found"}));
  // A pod already on the node may name a claim that is gone.
  handle.storage().Add(Limits("node-1", {{kDriver, 4}}));
  CHECK(Filter(handle, PodWithClaims("p", {"csi-0"}), {PodWithClaims("n", {"gone"})}).IsSuccess());

  Pod ephemeral = MakePod("web-0");
  Volume scratch;
  scratch.name = "scratch";
  scratch.ephemeral = true;
  ephemeral.spec.volumes.push_back(scratch);
  CHECK(Filter(handle, ephemeral).code() == Code::kUnschedulableAndUnresolvable);
  handle.storage().Add(Claim("web-0-scratch", "pv-0"));
  const Status not_owned = Filter(handle, ephemeral);
  CHECK(not_owned.code() == Code::kError);
  CHECK(not_owned.Message() == "PVC default/web-0-scratch was not created for pod default/web-0 (pod is not owner)");
}

TEST_CASE("NodeVolumeLimits: in-tree volumes count as their CSI driver's once migration is on",
          "[plugins][node_volume_limits]") {
  FakeHandle handle;
  AddStorage(handle);
  PersistentVolume ebs;
  ebs.metadata.name = "pv-ebs";
  ebs.spec.in_tree = ksched::api::InTreeVolumeSource{"kubernetes.io/aws-ebs", "aws://us-east-1a/vol-1", std::nullopt};
  handle.storage().Add(ebs);
  handle.storage().Add(Claim("ebs", "pv-ebs"));
  Volume inline_ebs;
  inline_ebs.name = "disk";
  inline_ebs.aws_elastic_block_store = ksched::api::AwsElasticBlockStoreVolumeSource{"vol-2", false};
  Volume same_disk = inline_ebs;
  same_disk.aws_elastic_block_store->volume_id = "aws:///vol-1";  // the PV's disk, written another way

  // Without a CSINode migration is off: nothing counts.
  CHECK(Filter(handle, PodWith("p", {ClaimVolume("ebs"), inline_ebs})).IsSuccess());
  handle.storage().Add(Limits("node-1", {{kDriver, 2}}));
  CHECK(Filter(handle, PodWith("p", {ClaimVolume("ebs"), inline_ebs})).IsSuccess());
  CHECK(Filter(handle, PodWith("p", {ClaimVolume("ebs"), inline_ebs}), {PodWithClaims("n", {"csi-0"})}) ==
        kExceeded);
  // The same disk inline and through the PV is one volume.
  CHECK(Filter(handle, PodWith("p", {same_disk}), {PodWithClaims("n", {"ebs", "csi-0"})}).IsSuccess());

  Volume bad;
  bad.name = "bad";
  bad.aws_elastic_block_store = ksched::api::AwsElasticBlockStoreVolumeSource{"aws://zone/not-a-volume", false};
  const Status error = Filter(handle, PodWith("bad", {bad}));
  CHECK(error.code() == Code::kError);
  CHECK(error.Message() ==
        "converting volume(bad) from inline to csi: failed to translate Kubernetes ID to EBS Volume ID Invalid "
        "format for AWS volume (aws://zone/not-a-volume)");
}

ksched::api::CSIDriver Driver(std::string name, std::optional<bool> prevent_if_missing) {
  ksched::api::CSIDriver driver;
  driver.metadata.name = std::move(name);
  driver.prevent_pod_scheduling_if_missing = prevent_if_missing;
  return driver;
}

// upstream TestVolumeLimitScalingGate (the gate-enabled rows; VolumeLimitScaling is on in v1.37):
// a pod with a claim bound to a volume of kDriver; "no-csi-driver" is a CSINode listing no driver.
TEST_CASE("NodeVolumeLimits: VolumeLimitScaling's preventPodSchedulingIfMissing (TestVolumeLimitScalingGate)",
          "[plugins][node_volume_limits]") {
  struct Row {
    const char* name;
    bool csi_node_lists_driver;  // "csinode" (with the limit) or "no-csi-driver"
    std::int32_t limit;
    bool csi_driver_present;
    bool prevent_if_missing;
    Status want;
  };
  const Status not_installed(Code::kUnschedulable, {"ebs.csi.aws.com CSI driver is not installed on the node"});
  const std::vector<Row> rows = {
      {"allow scheduling when CSIDriver exists but PreventPodSchedulingIfMissing is not set", false, 0, true, false,
       Status()},
      {"fail when driver not installed and PreventPodSchedulingIfMissing is true", false, 0, true, true, not_installed},
      {"driver installed within limit", true, 2, true, true, Status()},
      {"allow scheduling when CSIDriver object missing", false, 0, false, false, Status()},
  };
  for (const Row& row : rows) {
    INFO(row.name);
    FakeHandle handle;
    AddStorage(handle);
    if (row.csi_node_lists_driver) {
      handle.storage().Add(Limits("node-1", {{kDriver, row.limit}}));
    } else {
      handle.storage().Add(Limits("node-1", {}));
    }
    if (row.csi_driver_present) handle.storage().Add(Driver(kDriver, row.prevent_if_missing));
    CHECK(Filter(handle, PodWithClaims("p", {"csi-0"})) == row.want);
  }
}

TEST_CASE("NodeVolumeLimits: without VolumeLimitScaling (--emulated-version 1.36) a missing driver is not checked",
          "[plugins][node_volume_limits]") {
  FakeHandle handle;
  AddStorage(handle);
  handle.storage().Add(Driver(kDriver, true));
  nvl::NodeVolumeLimits plugin(handle, "prefix", /*volume_limit_scaling=*/false);
  const Pod pod = PodWithClaims("p", {"csi-0"});
  CycleState state;
  REQUIRE(plugin.PreFilter(state, pod, {}).second.IsSuccess());
  CHECK(plugin.Filter(state, pod, MakeNodeInfo(MakeNode("node-1"))).IsSuccess());
}

TEST_CASE("NodeVolumeLimits: preventPodSchedulingIfMissing without CSINode, explicit false, other drivers",
          "[plugins][node_volume_limits]") {
  const Status not_installed(Code::kUnschedulable, {"ebs.csi.aws.com CSI driver is not installed on the node"});
  FakeHandle handle;
  AddStorage(handle);
  handle.storage().Add(Driver(kDriver, true));
  // No CSINode at all: the driver is not installed (checkCSIDriverOnNode with a nil CSINode).
  CHECK(Filter(handle, PodWithClaims("p", {"csi-0"})) == not_installed);
  // Unbound claims count by their class's provisioner: the same driver, the same verdict.
  CHECK(Filter(handle, PodWithClaims("p", {"pending"})) == not_installed);
  // A volume of another driver (its CSIDriver does not opt in) is not concerned.
  CHECK(Filter(handle, PodWithClaims("p", {"other-0"})).IsSuccess());
  // A volume the pod does not add (used by a pod on the node) is still checked: upstream checks
  // the new pod's volumes before removing those already attached.
  CHECK(Filter(handle, PodWithClaims("p", {"csi-0"}), {PodWithClaims("n", {"csi-0"})}) == not_installed);
  // The driver listed without a count: installed, and not limited.
  handle.storage().Add(Limits("node-1", {{kDriver, std::nullopt}}));
  CHECK(Filter(handle, PodWithClaims("p", {"csi-0", "csi-1", "csi-2"})).IsSuccess());

  FakeHandle opted_out;
  AddStorage(opted_out);
  opted_out.storage().Add(Driver(kDriver, false));
  CHECK(Filter(opted_out, PodWithClaims("p", {"csi-0"})).IsSuccess());
}

TEST_CASE("NodeVolumeLimits registers AssignedPod Delete, as v1.37", "[plugins][node_volume_limits]") {
  FakeHandle handle;
  nvl::NodeVolumeLimits plugin(handle, "prefix");
  bool assigned_pod_delete = false;
  for (const auto& registered : plugin.EventsToRegister()) {
    CHECK(registered.event.resource != ksched::framework::EventResource::kPod);
    if (registered.event.resource == ksched::framework::EventResource::kAssignedPod) {
      assigned_pod_delete = registered.event.action == ksched::framework::action::kDelete &&
                            registered.event.label == "AssignedPodDelete" && registered.hint != nullptr;
    }
  }
  CHECK(assigned_pod_delete);
}

TEST_CASE("NodeVolumeLimits PreFilter: skips pods without claims or migratable disks", "[plugins][node_volume_limits]") {
  FakeHandle handle;
  Volume config;
  config.name = "config";
  CHECK(Filter(handle, PodWith("p", {config})).code() == Code::kSkip);
  CHECK(Filter(handle, MakePod("none")).code() == Code::kSkip);
  Volume gce;
  gce.name = "gce";
  gce.gce_persistent_disk = ksched::api::GcePersistentDiskVolumeSource{"disk", false};
  CHECK(Filter(handle, PodWith("p", {gce})).IsSuccess());
}

TEST_CASE("NodeVolumeLimits queueing hints", "[plugins][node_volume_limits]") {
  const Pod pod = PodWithClaims("p", {"data"});
  EventObjects objects;
  CSINode before = Limits("node-1", {{kDriver, 2}});
  CSINode same = before;
  CSINode more = Limits("node-1", {{kDriver, 3}});
  objects.old_csi_node = &before;
  objects.new_csi_node = &same;
  CHECK(nvl::IsSchedulableAfterCSINodeUpdated(pod, objects).value() == QueueingHint::kQueueSkip);
  objects.new_csi_node = &more;
  CHECK(nvl::IsSchedulableAfterCSINodeUpdated(pod, objects).value() == QueueingHint::kQueue);

  EventObjects deleted;
  Pod gone = PodWithClaims("gone", {"x"});
  deleted.old_pod = &gone;
  CHECK(nvl::IsSchedulableAfterAssignedPodDeleted(pod, deleted).value() == QueueingHint::kQueueSkip);  // never scheduled
  gone.spec.node_name = "node-1";
  CHECK(nvl::IsSchedulableAfterAssignedPodDeleted(pod, deleted).value() == QueueingHint::kQueue);
  Pod plain = MakePod("plain");
  plain.spec.node_name = "node-1";
  deleted.old_pod = &plain;
  CHECK(nvl::IsSchedulableAfterAssignedPodDeleted(pod, deleted).value() == QueueingHint::kQueueSkip);

  EventObjects added;
  PersistentVolumeClaim data = Claim("data", "");
  added.new_pvc = &data;
  CHECK(nvl::IsSchedulableAfterPersistentVolumeClaimAdded(pod, added).value() == QueueingHint::kQueue);
  PersistentVolumeClaim other = Claim("other", "");
  added.new_pvc = &other;
  CHECK(nvl::IsSchedulableAfterPersistentVolumeClaimAdded(pod, added).value() == QueueingHint::kQueueSkip);

  EventObjects detached;
  ksched::api::VolumeAttachment attachment;
  attachment.attacher = "ebs.csi.aws.com";
  detached.old_volume_attachment = &attachment;
  CHECK(nvl::IsSchedulableAfterVolumeAttachmentDeleted(pod, detached).value() == QueueingHint::kQueue);
  Volume ebs;
  ebs.name = "ebs";
  ebs.aws_elastic_block_store = ksched::api::AwsElasticBlockStoreVolumeSource{"vol-1", false};
  Volume gce;
  gce.name = "gce";
  gce.gce_persistent_disk = ksched::api::GcePersistentDiskVolumeSource{"disk", false};
  CHECK(nvl::IsSchedulableAfterVolumeAttachmentDeleted(PodWith("e", {ebs}), detached).value() == QueueingHint::kQueue);
  CHECK(nvl::IsSchedulableAfterVolumeAttachmentDeleted(PodWith("g", {gce}), detached).value() ==
        QueueingHint::kQueueSkip);
  CHECK(nvl::IsSchedulableAfterVolumeAttachmentDeleted(MakePod("none"), detached).value() == QueueingHint::kQueueSkip);
}

}  // namespace
