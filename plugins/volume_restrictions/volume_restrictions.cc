#include "plugins/volume_restrictions/volume_restrictions.h"

#include <algorithm>
#include <string>

namespace ksched::plugins::volume_restrictions {
namespace {

// The names of the pod's ReadWriteOncePod claims and how many references to them the pods of the
// cluster hold (upstream preFilterState). The names are shared on Clone.
class PreFilterState final : public framework::StateData {
 public:
  PreFilterState(std::shared_ptr<const std::vector<std::string>> read_write_once_pod_claims,
                 int conflicting_refs)
      : claims_(std::move(read_write_once_pod_claims)), conflicting_refs_(conflicting_refs) {}
  std::unique_ptr<framework::StateData> Clone() const override {
    return std::make_unique<PreFilterState>(claims_, conflicting_refs_);
  }

  int conflicting_refs() const { return conflicting_refs_; }
  // Adds `multiplier` per volume of `pod` naming one of the claims (by claim name, as upstream).
  void UpdateWithPod(const api::Pod& pod, int multiplier) {
    for (const api::Volume& volume : pod.spec.volumes) {
      if (!volume.persistent_volume_claim.has_value()) continue;
      if (std::find(claims_->begin(), claims_->end(), volume.persistent_volume_claim->claim_name) !=
          claims_->end()) {
        conflicting_refs_ += multiplier;
      }
    }
  }

 private:
  std::shared_ptr<const std::vector<std::string>> claims_;
  int conflicting_refs_ = 0;
};

bool NeedsRestrictionsCheck(const api::Volume& volume) {
  return volume.gce_persistent_disk.has_value() || volume.aws_elastic_block_store.has_value() ||
         volume.rbd.has_value() || volume.iscsi.has_value();
}

bool HaveOverlap(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  for (const std::string& value : a) {
    if (std::find(b.begin(), b.end(), value) != b.end()) return true;
  }
  return false;
}

framework::Status MissingPreFilterState() {
  return framework::Status::FromError("cannot read \"" + std::string(kPreFilterStateKey.name()) +
                                      "\" from cycleState");
}

}  // namespace

bool IsVolumeConflict(const api::Volume& volume, const api::Pod& existing) {
  for (const api::Volume& other : existing.spec.volumes) {
    // The same GCE disk conflicts unless every pod mounts it read-only.
    if (volume.gce_persistent_disk && other.gce_persistent_disk &&
        volume.gce_persistent_disk->pd_name == other.gce_persistent_disk->pd_name &&
        !(volume.gce_persistent_disk->read_only && other.gce_persistent_disk->read_only)) {
      return true;
    }
    // The same EBS volume always conflicts.
    if (volume.aws_elastic_block_store && other.aws_elastic_block_store &&
        volume.aws_elastic_block_store->volume_id == other.aws_elastic_block_store->volume_id) {
      return true;
    }
    // ISCSI volumes are the same when they share the IQN; one read-write mount only.
    if (volume.iscsi && other.iscsi && volume.iscsi->iqn == other.iscsi->iqn &&
        !(volume.iscsi->read_only && other.iscsi->read_only)) {
      return true;
    }
    // RBD images are the same with a monitor in common, the same pool and the same image.
    if (volume.rbd && other.rbd && HaveOverlap(volume.rbd->monitors, other.rbd->monitors) &&
        volume.rbd->pool == other.rbd->pool && volume.rbd->image == other.rbd->image &&
        !(volume.rbd->read_only && other.rbd->read_only)) {
      return true;
    }
  }
  return false;
}

bool SatisfiesVolumeConflicts(const api::Pod& pod, std::span<const framework::PodInfoPtr> pods) {
  for (const api::Volume& volume : pod.spec.volumes) {
    if (!NeedsRestrictionsCheck(volume)) continue;
    for (const framework::PodInfoPtr& existing : pods) {
      if (IsVolumeConflict(volume, existing->pod())) return false;
    }
  }
  return true;
}

std::pair<framework::PreFilterResult, framework::Status> VolumeRestrictions::PreFilter(
    framework::CycleState& state, const api::Pod& pod,
    const std::vector<framework::NodeInfo*>& /*nodes*/) {
  // Most pods have no volume: skip them before building any state.
  if (pod.spec.volumes.empty()) return {{}, framework::Status(framework::Code::kSkip)};
  const bool needs_check = std::any_of(pod.spec.volumes.begin(), pod.spec.volumes.end(),
                                       [](const api::Volume& v) { return NeedsRestrictionsCheck(v); });
  // Every claim the pod names must exist (upstream readWriteOncePodPVCsForPod).
  const framework::StorageLister* lister = handle_.storage_lister();
  auto claims = std::make_shared<std::vector<std::string>>();
  for (const api::Volume& volume : pod.spec.volumes) {
    if (!volume.persistent_volume_claim.has_value()) continue;
    const std::string& claim_name = volume.persistent_volume_claim->claim_name;
    std::shared_ptr<const api::PersistentVolumeClaim> claim =
        lister == nullptr ? nullptr : lister->GetPersistentVolumeClaim(pod.metadata.namespace_, claim_name);
    if (claim == nullptr) {
      return {{},
              framework::Status(framework::Code::kUnschedulableAndUnresolvable,
                                {"persistentvolumeclaim \"" + claim_name + "\" not found"})};
    }
    if (!api::HasAccessMode(*claim, api::kReadWriteOncePod)) continue;
    if (std::find(claims->begin(), claims->end(), claim->metadata.name) == claims->end()) {
      claims->push_back(claim->metadata.name);
    }
  }
  // At most one pod can use a ReadWriteOncePod claim: one reference per claim in use.
  int conflicting_refs = 0;
  const std::string ns(pod.metadata.namespace_.view());
  for (const std::string& claim : *claims) {
    if (handle_.snapshot().IsPVCUsedByPods(ns + "/" + claim)) ++conflicting_refs;
  }
  if (!needs_check && conflicting_refs == 0) return {{}, framework::Status(framework::Code::kSkip)};
  state.Write(kPreFilterStateKey, std::make_unique<PreFilterState>(std::move(claims), conflicting_refs));
  return {{}, {}};
}

framework::Status VolumeRestrictions::UpdateWithPod(framework::CycleState& state, const api::Pod& pod,
                                                    int multiplier) {
  auto* pre_filter = state.ReadAs<PreFilterState>(kPreFilterStateKey);
  if (pre_filter == nullptr) return MissingPreFilterState();
  pre_filter->UpdateWithPod(pod, multiplier);
  return {};
}

framework::Status VolumeRestrictions::AddPod(framework::CycleState& state,
                                             const api::Pod& /*pod_to_schedule*/,
                                             const framework::PodInfoPtr& pod_to_add,
                                             const framework::NodeInfo& /*node_info*/) {
  return UpdateWithPod(state, pod_to_add->pod(), 1);
}

framework::Status VolumeRestrictions::RemovePod(framework::CycleState& state,
                                                const api::Pod& /*pod_to_schedule*/,
                                                const framework::PodInfoPtr& pod_to_remove,
                                                const framework::NodeInfo& /*node_info*/) {
  return UpdateWithPod(state, pod_to_remove->pod(), -1);
}

framework::Status VolumeRestrictions::Filter(const framework::CycleState& state, const api::Pod& pod,
                                             const framework::NodeInfo& node) {
  if (!SatisfiesVolumeConflicts(pod, node.pods())) {
    static const framework::Status kDiskConflict =
        framework::Status(framework::Code::kUnschedulable, {kErrReasonDiskConflict}).WithPlugin(kName);
    return kDiskConflict;
  }
  const auto* pre_filter = state.ReadAs<PreFilterState>(kPreFilterStateKey);
  if (pre_filter == nullptr) return MissingPreFilterState();
  if (pre_filter->conflicting_refs() > 0) {
    static const framework::Status kClaimInUse =
        framework::Status(framework::Code::kUnschedulable, {kErrReasonReadWriteOncePodConflict})
            .WithPlugin(kName);
    return kClaimInUse;
  }
  return {};
}

std::vector<framework::ClusterEventWithHint> VolumeRestrictions::EventsToRegister() const {
  using framework::ClusterEvent;
  using framework::EventResource;
  namespace action = framework::action;
  return {
      // A deleted pod may release a disk or a claim; spec.volumes is immutable, so pod updates
      // never do.
      {ClusterEvent{EventResource::kPod, action::kDelete, "PodDelete"}, IsSchedulableAfterPodDeleted},
      // No hint: a new node is always worth a retry (queueing hints on: Add only).
      {ClusterEvent{EventResource::kNode, action::kAdd, "NodeAdd"}, nullptr},
      // The claim PreFilter did not find may be created.
      {ClusterEvent{EventResource::kPersistentVolumeClaim, action::kAdd, "PersistentVolumeClaimAdd"},
       IsSchedulableAfterPersistentVolumeClaimAdded},
  };
}

absl::StatusOr<framework::QueueingHint> IsSchedulableAfterPodDeleted(
    const api::Pod& pod, const framework::EventObjects& objects) {
  const api::Pod* deleted = objects.old_pod;
  if (deleted == nullptr) {
    return absl::InvalidArgumentError("VolumeRestrictions: pod delete event without the deleted pod");
  }
  if (deleted->metadata.namespace_ != pod.metadata.namespace_) return framework::QueueingHint::kQueueSkip;
  // The deleted pod held a disk this pod conflicts with.
  for (const api::Volume& volume : pod.spec.volumes) {
    if (NeedsRestrictionsCheck(volume) && IsVolumeConflict(volume, *deleted)) {
      return framework::QueueingHint::kQueue;
    }
  }
  // The deleted pod used a claim this pod names (its access mode is not looked up, as upstream).
  for (const api::Volume& mine : pod.spec.volumes) {
    if (!mine.persistent_volume_claim.has_value()) continue;
    for (const api::Volume& theirs : deleted->spec.volumes) {
      if (theirs.persistent_volume_claim.has_value() &&
          theirs.persistent_volume_claim->claim_name == mine.persistent_volume_claim->claim_name) {
        return framework::QueueingHint::kQueue;
      }
    }
  }
  return framework::QueueingHint::kQueueSkip;
}

absl::StatusOr<framework::QueueingHint> IsSchedulableAfterPersistentVolumeClaimAdded(
    const api::Pod& pod, const framework::EventObjects& objects) {
  const api::PersistentVolumeClaim* claim = objects.new_pvc;
  if (claim == nullptr) {
    return absl::InvalidArgumentError("VolumeRestrictions: claim add event without the claim");
  }
  if (claim->metadata.namespace_ != pod.metadata.namespace_) return framework::QueueingHint::kQueueSkip;
  for (const api::Volume& volume : pod.spec.volumes) {
    if (volume.persistent_volume_claim.has_value() &&
        volume.persistent_volume_claim->claim_name == claim->metadata.name) {
      return framework::QueueingHint::kQueue;
    }
  }
  return framework::QueueingHint::kQueueSkip;
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> New(const framework::PluginArgs* /*args*/,
                                                       framework::Handle& handle) {
  return std::make_unique<VolumeRestrictions>(handle);
}

}  // namespace ksched::plugins::volume_restrictions
