// NodeVolumeLimits (upstream plugins/nodevolumelimits CSILimits, v1.37): a node takes no more
// volumes of a CSI driver than its CSINode allows (spec.drivers[].allocatable.count), and, with
// VolumeLimitScaling (beta, on in v1.37), no volume of a driver that asks for it where that driver
// is missing.
//   - PreFilter: Skip unless the pod has a claim (persistentVolumeClaim or generic ephemeral) or
//     an inline in-tree disk CSI migration translates (GCE PD, AWS EBS, Azure Disk, Cinder,
//     Portworx).
//   - Filter: the pod's new volumes per driver - a bound claim's CSI volume (or its in-tree volume
//     translated, where migration is on for the node), an unbound claim's class provisioner with a
//     handle unique to the claim, an inline disk translated. First, each of their drivers whose
//     CSIDriver sets spec.preventPodSchedulingIfMissing must be listed in the node's CSINode (no
//     CSINode: not installed), else Unschedulable "<driver> CSI driver is not installed on the
//     node" (a driver without a CSIDriver object passes). Then, less those already used by the
//     node's pods, plus the node's pods' volumes and the VolumeAttachments to the node (CSI
//     volumes), they must stay within each driver's limit: Unschedulable "node(s) exceed max
//     volume count". A node without CSINode or limits takes anything else. A new pod's missing
//     claim is UnschedulableAndUnresolvable (`looking up PVC default/data: persistentvolumeclaim
//     "data" not found`); an inline disk that does not translate is an error.
//   - In-tree volumes: migration is on for GCE PD, AWS EBS, Azure Disk, Cinder and Portworx on
//     every node with a CSINode (v1.37 reads no migrated-plugins annotation here).
//   - Events (upstream's): CSINode Add (no hint) and Update (queued when a driver's limit grew;
//     a driver newly listed without a count does not requeue, as upstream), AssignedPod Delete
//     (queued for a pod with volumes on or nominated to a node), PersistentVolumeClaim Add (queued
//     for a claim the pod names), VolumeAttachment Delete (queued for a pod with claims, or an
//     inline disk of the attacher's driver).
//
// Allocation: Filter builds small maps per node, only for pods with such volumes (PreFilter skips
// every other pod), as upstream does.
//
// Thread-safety: immutable after construction; the objects come from the Handle's StorageLister.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "framework/handle.h"
#include "framework/interface.h"
#include "framework/registry.h"

namespace ksched::plugins::node_volume_limits {

inline constexpr std::string_view kName = "NodeVolumeLimits";
inline constexpr std::string_view kErrReasonMaxVolumeCountExceeded = "node(s) exceed max volume count";

class NodeVolumeLimits final : public framework::PreFilterPlugin,
                               public framework::FilterPlugin,
                               public framework::EnqueueExtensions {
 public:
  // `volume_id_prefix`: the random prefix of the handles made up for unbound claims (upstream:
  // 32 random characters per plugin instance).
  // `volume_limit_scaling`: the VolumeLimitScaling gate (framework/features.h); without it a
  // driver missing from the node's CSINode is not checked.
  NodeVolumeLimits(const framework::Handle& handle, std::string volume_id_prefix,
                   bool volume_limit_scaling = true)
      : handle_(handle), volume_id_prefix_(std::move(volume_id_prefix)), volume_limit_scaling_(volume_limit_scaling) {}

  std::string_view Name() const override { return kName; }
  std::pair<framework::PreFilterResult, framework::Status> PreFilter(
      framework::CycleState& state, const api::Pod& pod,
      const std::vector<framework::NodeInfo*>& nodes) override;
  framework::Status Filter(const framework::CycleState& state, const api::Pod& pod,
                           const framework::NodeInfo& node) override;
  std::vector<framework::ClusterEventWithHint> EventsToRegister() const override;

 private:
  // Volume unique name ("driver/handle") -> driver.
  using VolumeDrivers = std::map<std::string, std::string, std::less<>>;
  // filterAttachableVolumes: adds the pod's countable volumes to `out`; an error status for a new
  // pod's missing claim (UnschedulableAndUnresolvable) or anything that cannot be resolved.
  framework::Status AttachableVolumes(const api::Pod& pod, const api::CSINode* csi_node, bool new_pod,
                                      VolumeDrivers& out) const;
  // getCSIDriverInfo: (driver, handle) of a claim, ("", "") when it is not counted.
  std::pair<std::string, std::string> DriverOfClaim(const api::CSINode* csi_node,
                                                    const api::PersistentVolumeClaim& claim) const;
  // checkCSIDriverOnNode: false when the driver's CSIDriver sets preventPodSchedulingIfMissing
  // and the node's CSINode (nullptr: none) does not list the driver.
  bool DriverInstalled(std::string_view driver, const api::CSINode* csi_node) const;
  std::pair<std::string, std::string> DriverOfClass(const api::CSINode* csi_node,
                                                    const api::PersistentVolumeClaim& claim) const;

  const framework::Handle& handle_;
  const std::string volume_id_prefix_;
  const bool volume_limit_scaling_;
};

absl::StatusOr<framework::QueueingHint> IsSchedulableAfterCSINodeUpdated(const api::Pod& pod,
                                                                         const framework::EventObjects& objects);
absl::StatusOr<framework::QueueingHint> IsSchedulableAfterAssignedPodDeleted(const api::Pod& pod,
                                                                             const framework::EventObjects& objects);
absl::StatusOr<framework::QueueingHint> IsSchedulableAfterPersistentVolumeClaimAdded(
    const api::Pod& pod, const framework::EventObjects& objects);
absl::StatusOr<framework::QueueingHint> IsSchedulableAfterVolumeAttachmentDeleted(
    const api::Pod& pod, const framework::EventObjects& objects);

absl::StatusOr<std::unique_ptr<framework::Plugin>> New(const framework::PluginArgs* args,
                                                       framework::Handle& handle);

}  // namespace ksched::plugins::node_volume_limits
