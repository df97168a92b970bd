#include "plugins/node_volume_limits/node_volume_limits.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <random>

#include "framework/features.h"
#include "plugins/helper/csi_translation.h"
#include "plugins/helper/pod_claims.h"

namespace ksched::plugins::node_volume_limits {
namespace {

using helper::CSIDriverOf;
using helper::InlineMigratablePlugin;
using helper::InlineVolumeHandle;
using helper::IsCSIMigrationOn;
using helper::PersistentVolumeHandle;

std::string UniqueName(std::string_view driver, std::string_view handle) {
  return std::string(driver) + "/" + std::string(handle);
}

bool CountsForLimits(const api::Volume& volume) {
  return volume.persistent_volume_claim.has_value() || volume.ephemeral || !InlineMigratablePlugin(volume).empty();
}

// rand.String(32): lower-case letters and digits without vowels (k8s.io/apimachinery's alphabet).
std::string RandomPrefix() {
  constexpr std::string_view kAlphabet = "bcdfghjklmnpqrstvwxz2456789";
  std::random_device device;
  std::mt19937_64 engine(device());
  std::uniform_int_distribution<std::size_t> pick(0, kAlphabet.size() - 1);
  std::string prefix(32, ' ');
  for (char& c : prefix) c = kAlphabet[pick(engine)];
  return prefix;
}

}  // namespace

std::pair<framework::PreFilterResult, framework::Status> NodeVolumeLimits::PreFilter(
    framework::CycleState& /*state*/, const api::Pod& pod, const std::vector<framework::NodeInfo*>& /*nodes*/) {
  for (const api::Volume& volume : pod.spec.volumes) {
    if (CountsForLimits(volume)) return {{}, {}};
  }
  return {{}, framework::Status(framework::Code::kSkip)};
}

std::pair<std::string, std::string> NodeVolumeLimits::DriverOfClass(const api::CSINode* csi_node,
                                                                    const api::PersistentVolumeClaim& claim) const {
  const std::string class_name = api::PersistentVolumeClaimClass(claim);
  if (class_name.empty()) return {};
  const framework::StorageLister* lister = handle_.storage_lister();
  auto storage_class = lister == nullptr ? nullptr : lister->GetStorageClass(class_name);
  if (storage_class == nullptr) return {};
  // A handle of its own per claim: each unbound claim will be one new volume.
  std::string handle = volume_id_prefix_ + "-" + std::string(std::string_view(claim.metadata.namespace_)) + "/" +
                       claim.metadata.name;
  const std::string& provisioner = storage_class->provisioner;
  if (!CSIDriverOf(provisioner).empty()) {  // an in-tree provisioner that migrates
    if (!IsCSIMigrationOn(csi_node, provisioner)) return {};
    return {std::string(CSIDriverOf(provisioner)), std::move(handle)};
  }
  return {provisioner, std::move(handle)};
}

std::pair<std::string, std::string> NodeVolumeLimits::DriverOfClaim(const api::CSINode* csi_node,
                                                                    const api::PersistentVolumeClaim& claim) const {
  if (claim.spec.volume_name.empty()) return DriverOfClass(csi_node, claim);
  const framework::StorageLister* lister = handle_.storage_lister();
  auto volume = lister == nullptr ? nullptr : lister->GetPersistentVolume(claim.spec.volume_name);
  if (volume == nullptr) return DriverOfClass(csi_node, claim);
  if (volume->spec.csi.has_value()) return {volume->spec.csi->driver, volume->spec.csi->volume_handle};
  if (!volume->spec.in_tree.has_value()) return {};
  const std::string& plugin = volume->spec.in_tree->plugin;
  if (!IsCSIMigrationOn(csi_node, plugin)) return {};
  absl::StatusOr<std::string> handle = PersistentVolumeHandle(*volume);
  if (!handle.ok()) {
    SPDLOG_DEBUG("Unable to translate in-tree volume to CSI err=\"{}\"", std::string(handle.status().message()));
    return {};
  }
  return {std::string(CSIDriverOf(plugin)), *std::move(handle)};
}

framework::Status NodeVolumeLimits::AttachableVolumes(const api::Pod& pod, const api::CSINode* csi_node,
                                                      bool new_pod, VolumeDrivers& out) const {
  const framework::StorageLister* lister = handle_.storage_lister();
  for (const api::Volume& volume : pod.spec.volumes) {
    bool ephemeral = false;
    std::optional<std::string> claim_name = helper::ClaimNameOf(pod, volume, ephemeral);
    if (!claim_name.has_value()) {
      // checkAttachableInlineVolume.
      const std::string_view plugin = InlineMigratablePlugin(volume);
      if (plugin.empty() || !IsCSIMigrationOn(csi_node, plugin)) continue;
      absl::StatusOr<std::string> handle = InlineVolumeHandle(volume);
      if (!handle.ok()) {
        return framework::Status::FromError("converting volume(" + volume.name + ") from inline to csi: " +
                                            std::string(handle.status().message()));
      }
      out.insert_or_assign(UniqueName(CSIDriverOf(plugin), *handle), std::string(CSIDriverOf(plugin)));
      continue;
    }
    if (claim_name->empty()) return framework::Status::FromError("PersistentVolumeClaim had no name");
    auto claim = lister == nullptr ? nullptr : lister->GetPersistentVolumeClaim(pod.metadata.namespace_, *claim_name);
    if (claim == nullptr) {
      if (new_pod) {
        return framework::Status(framework::Code::kUnschedulableAndUnresolvable,
                                 {"looking up PVC " + std::string(std::string_view(pod.metadata.namespace_)) + "/" +
                                  *claim_name + ": persistentvolumeclaim \"" + *claim_name + "\" not found"});
      }
      continue;  // an existing pod's claim may be gone
    }
    if (ephemeral) {
      if (std::optional<std::string> error = helper::EphemeralOwnerError(pod, *claim)) {
        return framework::Status::FromError(*error);
      }
    }
    auto [driver, handle] = DriverOfClaim(csi_node, *claim);
    if (driver.empty() || handle.empty()) continue;
    out.insert_or_assign(UniqueName(driver, handle), driver);
  }
  return {};
}

bool NodeVolumeLimits::DriverInstalled(std::string_view driver, const api::CSINode* csi_node) const {
  // A driver without a CSIDriver object may not be a CSI driver at all: allowed.
  const framework::StorageLister* lister = handle_.storage_lister();
  auto csi_driver = lister == nullptr ? nullptr : lister->GetCSIDriver(driver);
  if (csi_driver == nullptr || !csi_driver->prevent_pod_scheduling_if_missing.value_or(false)) return true;
  if (csi_node == nullptr) return false;
  return std::any_of(csi_node->drivers.begin(), csi_node->drivers.end(),
                     [&](const api::CSINodeDriver& installed) { return installed.name == driver; });
}

framework::Status NodeVolumeLimits::Filter(const framework::CycleState& /*state*/, const api::Pod& pod,
                                           const framework::NodeInfo& node_info) {
  if (pod.spec.volumes.empty()) return {};
  const api::Node& node = *node_info.node();
  const framework::StorageLister* lister = handle_.storage_lister();
  std::shared_ptr<const api::CSINode> csi_node = lister == nullptr ? nullptr : lister->GetCSINode(node.metadata.name);

  VolumeDrivers new_volumes;
  if (framework::Status status = AttachableVolumes(pod, csi_node.get(), true, new_volumes); !status.IsSuccess()) {
    return status;
  }
  if (new_volumes.empty()) return {};
  // VolumeLimitScaling (beta, on in v1.37): a driver whose CSIDriver sets
  // preventPodSchedulingIfMissing must be installed on the node (listed in its CSINode). Upstream
  // walks a map, so with several such drivers missing it names any one; this names the first
  // volume's in unique-name order.
  for (const auto& [unique_name, driver] : new_volumes) {
    if (volume_limit_scaling_ && !DriverInstalled(driver, csi_node.get())) {
      return framework::Status(framework::Code::kUnschedulable, {driver + " CSI driver is not installed on the node"});
    }
  }
  // getVolumeLimits.
  std::map<std::string, std::int64_t, std::less<>> limits;
  if (csi_node != nullptr) {
    for (const api::CSINodeDriver& driver : csi_node->drivers) {
      if (driver.allocatable_count.has_value()) limits[driver.name] = *driver.allocatable_count;
    }
  }
  if (limits.empty()) return {};

  VolumeDrivers attached;
  for (const framework::PodInfoPtr& existing : node_info.pods()) {
    if (framework::Status status = AttachableVolumes(existing->pod(), csi_node.get(), false, attached);
        !status.IsSuccess()) {
      return status;
    }
  }
  std::map<std::string, int, std::less<>> attached_count;
  for (const auto& [unique_name, driver] : attached) {
    new_volumes.erase(unique_name);  // already on the node: not new
    ++attached_count[driver];
  }
  // getNodeVolumeAttachmentInfo: CSI volumes attached to the node but used by no pod here.
  VolumeDrivers attachments;
  lister->ForEachVolumeAttachment([&](const api::VolumeAttachment& attachment) {
    if (attachment.node_name != node.metadata.name || attachment.attacher.empty() ||
        !attachment.persistent_volume_name.has_value()) {
      return;
    }
    auto volume = lister->GetPersistentVolume(*attachment.persistent_volume_name);
    if (volume == nullptr || !volume->spec.csi.has_value()) return;
    attachments.insert_or_assign(UniqueName(attachment.attacher, volume->spec.csi->volume_handle), attachment.attacher);
  });
  for (const auto& [unique_name, driver] : attachments) {
    if (!attached.contains(unique_name)) ++attached_count[driver];
  }
  std::map<std::string, int, std::less<>> new_count;
  for (const auto& [unique_name, driver] : new_volumes) ++new_count[driver];
  for (const auto& [driver, count] : new_count) {
    auto limit = limits.find(driver);
    if (limit == limits.end()) continue;
    if (attached_count[driver] + count > limit->second) {
      static const framework::Status kExceeded =
          framework::Status(framework::Code::kUnschedulable, {kErrReasonMaxVolumeCountExceeded}).WithPlugin(kName);
      return kExceeded;
    }
  }
  return {};
}

std::vector<framework::ClusterEventWithHint> NodeVolumeLimits::EventsToRegister() const {
  using framework::ClusterEvent;
  using framework::EventResource;
  namespace action = framework::action;
  return {
      {ClusterEvent{EventResource::kCSINode, action::kAdd, "CSINodeAdd"}, nullptr},
      {ClusterEvent{EventResource::kCSINode, action::kUpdate, "CSINodeUpdate"}, IsSchedulableAfterCSINodeUpdated},
      {ClusterEvent{EventResource::kAssignedPod, action::kDelete, "AssignedPodDelete"},
       IsSchedulableAfterAssignedPodDeleted},
      {ClusterEvent{EventResource::kPersistentVolumeClaim, action::kAdd, "PersistentVolumeClaimAdd"},
       IsSchedulableAfterPersistentVolumeClaimAdded},
      {ClusterEvent{EventResource::kVolumeAttachment, action::kDelete, "VolumeAttachmentDelete"},
       IsSchedulableAfterVolumeAttachmentDeleted},
  };
}

absl::StatusOr<framework::QueueingHint> IsSchedulableAfterCSINodeUpdated(const api::Pod& /*pod*/,
                                                                         const framework::EventObjects& objects) {
  if (objects.old_csi_node == nullptr || objects.new_csi_node == nullptr) {
    return absl::InvalidArgumentError("NodeVolumeLimits: CSINode update event without both objects");
  }
  auto limit_of = [](const api::CSINode& csi_node, std::string_view name) -> std::int32_t {
    for (const api::CSINodeDriver& driver : csi_node.drivers) {
      if (driver.name == name) return driver.allocatable_count.value_or(0);
    }
    return 0;
  };
  for (const api::CSINodeDriver& driver : objects.new_csi_node->drivers) {
    if (driver.allocatable_count.value_or(0) > limit_of(*objects.old_csi_node, driver.name)) {
      return framework::QueueingHint::kQueue;
    }
  }
  return framework::QueueingHint::kQueueSkip;
}

absl::StatusOr<framework::QueueingHint> IsSchedulableAfterAssignedPodDeleted(const api::Pod& /*pod*/,
                                                                             const framework::EventObjects& objects) {
  const api::Pod* deleted = objects.old_pod;
  if (deleted == nullptr) return absl::InvalidArgumentError("NodeVolumeLimits: pod delete event without the pod");
  if (deleted->spec.volumes.empty()) return framework::QueueingHint::kQueueSkip;
  if (deleted->spec.node_name.empty() && deleted->status.nominated_node_name.empty()) {
    return framework::QueueingHint::kQueueSkip;
  }
  for (const api::Volume& volume : deleted->spec.volumes) {
    if (CountsForLimits(volume)) return framework::QueueingHint::kQueue;
  }
  return framework::QueueingHint::kQueueSkip;
}

absl::StatusOr<framework::QueueingHint> IsSchedulableAfterPersistentVolumeClaimAdded(
    const api::Pod& pod, const framework::EventObjects& objects) {
  const api::PersistentVolumeClaim* claim = objects.new_pvc;
  if (claim == nullptr) return absl::InvalidArgumentError("NodeVolumeLimits: claim add event without the claim");
  return helper::PodUsesClaim(pod, *claim) ? framework::QueueingHint::kQueue : framework::QueueingHint::kQueueSkip;
}

absl::StatusOr<framework::QueueingHint> IsSchedulableAfterVolumeAttachmentDeleted(
    const api::Pod& pod, const framework::EventObjects& objects) {
  const api::VolumeAttachment* deleted = objects.old_volume_attachment;
  if (deleted == nullptr) {
    return absl::InvalidArgumentError("NodeVolumeLimits: volume attachment delete event without the attachment");
  }
  for (const api::Volume& volume : pod.spec.volumes) {
    if (volume.persistent_volume_claim.has_value()) return framework::QueueingHint::kQueue;
    const std::string_view plugin = InlineMigratablePlugin(volume);
    if (plugin.empty()) continue;
    absl::StatusOr<std::string> handle = InlineVolumeHandle(volume);
    if (!handle.ok()) {
      return absl::InvalidArgumentError("converting volume(" + volume.name + ") from inline to csi: " +
                                        std::string(handle.status().message()));
    }
    if (CSIDriverOf(plugin) == deleted->attacher) return framework::QueueingHint::kQueue;
  }
  return framework::QueueingHint::kQueueSkip;
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> New(const framework::PluginArgs* /*args*/,
                                                       framework::Handle& handle) {
  return std::make_unique<NodeVolumeLimits>(handle, RandomPrefix(),
                                            framework::ProcessFeatures().volume_limit_scaling);
}

}  // namespace ksched::plugins::node_volume_limits
