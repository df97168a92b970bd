// VolumeRestrictions (upstream plugins/volumerestrictions, v1.34): volumes that two pods may not
// share.
//   - Inline disks: a GCE persistent disk (same pdName, unless both read-only), an AWS EBS volume
//     (same volumeID), an ISCSI volume (same IQN, unless both read-only) or a Ceph RBD image (a
//     monitor in common, same pool and image, unless both read-only) already used by a pod on the
//     node: Unschedulable "node(s) had no available disk".
//   - ReadWriteOncePod claims: when a pod anywhere (assumed pods included) already uses one of the
//     pod's ReadWriteOncePod PersistentVolumeClaims, every node is Unschedulable "node(s)
//     unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode already in-use by
//     another pod" (preemption may free it; AddPod/RemovePod keep the count for nominated pods and
//     victims).
//   - PreFilter reads every claim the pod names: a missing one is UnschedulableAndUnresolvable
//     `persistentvolumeclaim "<name>" not found`. Skip when the pod has no inline disk and no
//     claim in use.
//   - Events (queueing hints on, as v1.34): Pod Delete, queued when the deleted pod shared a disk
//     or a claim with the pod; Node Add, without a hint; PersistentVolumeClaim Add, queued when the
//     new claim is one the pod names.
//
// Thread-safety: the plugin holds no mutable state; the claims come from the Handle's
// StorageLister (framework/storage_lister.h), which is safe from any thread.
#pragma once

#include <memory>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "framework/handle.h"
#include "framework/interface.h"
#include "framework/registry.h"

namespace ksched::plugins::volume_restrictions {

inline constexpr std::string_view kName = "VolumeRestrictions";
inline constexpr framework::StateKey kPreFilterStateKey{"PreFilterVolumeRestrictions"};
inline constexpr std::string_view kErrReasonDiskConflict = "node(s) had no available disk";
inline constexpr std::string_view kErrReasonReadWriteOncePodConflict =
    "node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode already "
    "in-use by another pod";

// Whether `volume` of a pod conflicts with a volume of `existing` (upstream isVolumeConflict).
bool IsVolumeConflict(const api::Volume& volume, const api::Pod& existing);
// Whether none of the pod's inline disks conflicts with those of `pods` (upstream
// satisfyVolumeConflicts over a node's pods).
bool SatisfiesVolumeConflicts(const api::Pod& pod, std::span<const framework::PodInfoPtr> pods);

class VolumeRestrictions final : public framework::PreFilterPlugin,
                                 public framework::PreFilterExtensions,
                                 public framework::FilterPlugin,
                                 public framework::EnqueueExtensions {
 public:
  explicit VolumeRestrictions(const framework::Handle& handle) : handle_(handle) {}

  std::string_view Name() const override { return kName; }
  std::pair<framework::PreFilterResult, framework::Status> PreFilter(
      framework::CycleState& state, const api::Pod& pod,
      const std::vector<framework::NodeInfo*>& nodes) override;
  framework::PreFilterExtensions* GetPreFilterExtensions() override { return this; }
  framework::Status AddPod(framework::CycleState& state, const api::Pod& pod_to_schedule,
                           const framework::PodInfoPtr& pod_to_add,
                           const framework::NodeInfo& node_info) override;
  framework::Status RemovePod(framework::CycleState& state, const api::Pod& pod_to_schedule,
                              const framework::PodInfoPtr& pod_to_remove,
                              const framework::NodeInfo& node_info) override;
  framework::Status Filter(const framework::CycleState& state, const api::Pod& pod,
                           const framework::NodeInfo& node) override;
  std::vector<framework::ClusterEventWithHint> EventsToRegister() const override;

 private:
  framework::Status UpdateWithPod(framework::CycleState& state, const api::Pod& pod, int multiplier);

  const framework::Handle& handle_;
};

// Pod Delete hint.
absl::StatusOr<framework::QueueingHint> IsSchedulableAfterPodDeleted(
    const api::Pod& pod, const framework::EventObjects& objects);
// PersistentVolumeClaim Add hint.
absl::StatusOr<framework::QueueingHint> IsSchedulableAfterPersistentVolumeClaimAdded(
    const api::Pod& pod, const framework::EventObjects& objects);

absl::StatusOr<std::unique_ptr<framework::Plugin>> New(const framework::PluginArgs* args,
                                                       framework::Handle& handle);

}  // namespace ksched::plugins::volume_restrictions
