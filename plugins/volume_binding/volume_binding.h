// VolumeBinding (upstream plugins/volumebinding, v1.37, with its SchedulerVolumeBinder): a pod's
// PersistentVolumeClaims decide where it can run, and a claim of a WaitForFirstConsumer class is
// bound (to a matching volume) or provisioned (on the chosen node) before the pod is.
//   - PreFilter: Skip for a pod without claims (persistentVolumeClaim or generic ephemeral
//     volumes). UnschedulableAndUnresolvable with upstream's words when a claim is missing
//     (`persistentvolumeclaim "data" not found`; for an ephemeral volume `waiting for ephemeral
//     volume controller to create the persistentvolumeclaim "web-0-scratch"`), Lost, being
//     deleted, not owned by the pod (ephemeral), or unbound with an Immediate class ("pod has
//     unbound immediate PersistentVolumeClaims"). Sorts the claims into bound and unbound with
//     delayed binding, and lists the volumes of the delayed claims' classes (node affinity
//     compiled once).
//   - Filter, per node: each bound claim's volume must allow the node ("node(s) didn't match
//     PersistentVolume's node affinity"; a missing volume: "node(s) unavailable due to one or more
//     pvc(s) bound to non-existent pv(s)"); each unbound delayed claim needs the smallest available
//     matching volume allowed on the node (FindMatchingVolume), or else dynamic provisioning: a
//     class with a provisioner other than kubernetes.io/no-provisioner whose allowedTopologies
//     admit the node ("node(s) didn't find available persistent volumes to bind" otherwise) and,
//     when the provisioner's CSIDriver publishes capacities (spec.storageCapacity), a
//     CSIStorageCapacity of the class large enough for the claim whose nodeTopology selects the
//     node ("node(s) did not have enough free storage" otherwise). A
//     claim already annotated volume.kubernetes.io/selected-node fits only that node. All reasons
//     are UnschedulableAndUnresolvable; what a node would need is kept for Reserve.
//   - Reserve assumes the chosen node's bindings (AssumedObjects: the volume pre-bound to its
//     claim, the claim with selected-node) so the next pods see them; Unreserve restores them.
//   - PreBind writes them (merge PATCH with the object's resourceVersion, upstream's Update) and
//     polls every second, up to bindTimeoutSeconds (default 600), until the PersistentVolume
//     controller (or the external provisioner) has bound every claim (spec.volumeName set,
//     pv.kubernetes.io/bind-completed) - or fails: the claimRef was reset, the selected-node
//     annotation was removed (provisioning failed), a volume no longer allows the node, timeout
//     ("binding volumes: context deadline exceeded"). A pod whose claims are all bound already
//     skips PreBind (PreBindPreFlight), so it binds without a blocked thread.
//   - Events (queueing hints on, as v1.34): StorageClass Add (queued) and Update (queued when
//     allowedTopologies changed), PersistentVolumeClaim Add/Update (queued for a claim the pod
//     names), PersistentVolume Add/Update and Node Add/label updates (no hint), CSIStorageCapacity
//     Add (queued) and Update (queued when its volume limit grew), CSIDriver Update (queued when
//     capacity tracking was turned off for a driver of the pod's inline CSI volumes), CSINode Add
//     (queued) and Update (queued when its migrated-plugins annotation changed).
//   - CSI migration (tryTranslatePVToCSI): a bound claim's in-tree GCE PD, AWS EBS, Azure Disk,
//     Cinder or Portworx volume is checked, on a node whose CSINode lists its plugin in
//     storage.alpha.kubernetes.io/migrated-plugins, with the node affinity of its CSI translation
//     (zone key -> topology.gke.io/zone, topology.ebs.csi.aws.com/zone,
//     topology.cinder.csi.openstack.org/zone; see helper/csi_translation.h), in Filter and in
//     PreBind's checks alike; a volume that does not translate is an error ("could not translate
//     pv: ..."). Unbound volumes are matched untranslated, as upstream does.
//   - PreScore/Score (StorageCapacityScoring, beta and on in v1.37; with it off, as before v1.37,
//     PreScore skips every pod): PreScore no longer skips a pod with claims. (Upstream runs Score for a pod without claims too, scoring 0 on every node;
//     here PreScore skips it, which changes no decision, only the Score count of
//     scheduler_plugin_evaluation_total, and keeps the per-node totals of identical pods
//     reusable: scheduler/node_result_cache.h.) A node's score groups
//     what Filter found it would need by class: with static bindings (matched volumes), each
//     volume's class (spec.storageClassName) sums the claims' requests and the volumes'
//     capacities; otherwise each dynamically provisioned claim whose driver tracks capacity adds
//     its request to its class (spec.storageClassName), whose capacity is the `capacity` of the
//     CSIStorageCapacity that admitted the claim on the node (the last such claim's; not summed).
//     Each class scores shape(requested * 100 / capacity) (shape(100) when the capacity is 0 or
//     exceeded), the node the rounded mean of its classes, 0 without classes. The shape is
//     VolumeBindingArgs.shape with its 0..10 scores scaled to 0..100 (default [{0,10},{100,0}]:
//     the emptier the storage, the higher the score). Not weighed or normalised further.
//   - Errors of the v1.37 passive assume caches: `persistentvolumeclaims "ns/c" not found`,
//     `"pv-1" is out of sync (stored: 7, assume: 5)`.
//
// PreBind stops waiting when the pod informer no longer has the pod ("binding volumes: pod does
// not exist any more: pod "p" not found").
//
// Thread-safety: Filter runs on parallel workers (the per-node results are locked); PreBind on a
// binding thread. The assumed objects are locked (AssumedObjects).
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "base/mutex.h"
#include "framework/handle.h"
#include "framework/interface.h"
#include "framework/metrics_recorder.h"
#include "framework/registry.h"
#include "plugins/helper/assumed_objects.h"
#include "plugins/helper/shape_score.h"

namespace ksched::plugins::volume_binding {

inline constexpr std::string_view kName = "VolumeBinding";
inline constexpr framework::StateKey kStateKey{"VolumeBinding"};
inline constexpr std::string_view kErrReasonBindConflict = "node(s) didn't find available persistent volumes to bind";
inline constexpr std::string_view kErrReasonNodeConflict = "node(s) didn't match PersistentVolume's node affinity";
inline constexpr std::string_view kErrReasonNotEnoughSpace = "node(s) did not have enough free storage";
inline constexpr std::string_view kErrReasonPVNotExist =
    "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)";
inline constexpr std::string_view kErrUnboundImmediate = "pod has unbound immediate PersistentVolumeClaims";

struct VolumeBindingArgs {
  std::chrono::seconds bind_timeout{600};
  // shape: (utilization 0..100, score 0..10) points, sorted by utilization (validated by the
  // config layer). v1.37's default with StorageCapacityScoring on.
  std::vector<helper::FunctionShapePoint> shape{{0, 10}, {100, 0}};
};

// The pluginConfig args (v1 VolumeBindingArgs as JSON; defaulted and validated by the config
// layer): bindTimeoutSeconds and shape ([{"utilization": 0, "score": 10}, ...]); an absent or
// null field keeps the default above.
absl::StatusOr<VolumeBindingArgs> ParseVolumeBindingArgs(std::string_view json);

class VolumeBinding final : public framework::PreFilterPlugin,
                            public framework::FilterPlugin,
                            public framework::PreScorePlugin,
                            public framework::ScorePlugin,
                            public framework::ReservePlugin,
                            public framework::PreBindPlugin,
                            public framework::EnqueueExtensions {
 public:
  VolumeBinding(VolumeBindingArgs args, framework::Handle& handle);
  ~VolumeBinding() override;

  std::string_view Name() const override { return kName; }
  std::pair<framework::PreFilterResult, framework::Status> PreFilter(
      framework::CycleState& state, const api::Pod& pod,
      const std::vector<framework::NodeInfo*>& nodes) override;
  framework::Status Filter(const framework::CycleState& state, const api::Pod& pod,
                           const framework::NodeInfo& node) override;
  // StorageCapacityScoring is on (v1.37): PreScore checks that PreFilter left its state, and
  // skips a pod without claims (see the header).
  framework::Status PreScore(framework::CycleState& state, const api::Pod& pod,
                             const std::vector<const framework::NodeInfo*>& nodes) override;
  std::pair<std::int64_t, framework::Status> Score(const framework::CycleState& state, const api::Pod& pod,
                                                   const framework::NodeInfo& node) override;
  framework::Status Reserve(framework::CycleState& state, const api::Pod& pod,
                            const std::string& node_name) override;
  void Unreserve(framework::CycleState& state, const api::Pod& pod, const std::string& node_name) override;
  bool HasPreBindPreFlight() const override { return true; }
  framework::Status PreBindPreFlight(framework::CycleState& state, const api::Pod& pod,
                                     const std::string& node_name) override;
  framework::Status PreBind(framework::CycleState& state, const api::Pod& pod,
                            const std::string& node_name) override;
  std::vector<framework::ClusterEventWithHint> EventsToRegister() const override;

  // The assumptions outstanding (tests).
  std::size_t assumed_volumes() const { return volumes_.size(); }
  std::size_t assumed_claims() const { return claims_.size(); }
  // How often PreBind looks at the claims again (tests shorten it).
  void set_poll_interval(std::chrono::milliseconds interval) { poll_interval_ = interval; }

 private:
  struct Impl;
  // Counts `stage` in scheduler_volume_scheduling_stage_error_total and returns `status`.
  framework::Status StageFailed(framework::MetricsRecorder::VolumeStage stage, framework::Status status) const;

  VolumeBindingArgs args_;
  // StorageCapacityScoring (framework/features.h): without it upstream builds no scorer, and
  // PreScore skips every pod.
  bool scores_;
  // args_.shape with the scores scaled to 0..100 (MaxNodeScore / MaxCustomPriorityScore).
  std::vector<helper::FunctionShapePoint> score_shape_;
  framework::Handle& handle_;
  // v1.37's passive assume caches (their NotFound errors name the API resource).
  helper::AssumedObjects<api::PersistentVolume> volumes_{helper::AssumedObjects<api::PersistentVolume>::Passive{"persistentvolumes"}};
  helper::AssumedObjects<api::PersistentVolumeClaim> claims_{
      helper::AssumedObjects<api::PersistentVolumeClaim>::Passive{"persistentvolumeclaims"}};
  std::chrono::milliseconds poll_interval_{1000};
  // Wakes PreBind's waits at destruction.
  base::Mutex stop_mu_;
  base::CondVar stop_cv_;
  bool stopping_ ABSL_GUARDED_BY(stop_mu_) = false;
};

absl::StatusOr<framework::QueueingHint> IsSchedulableAfterStorageClassChange(
    const api::Pod& pod, const framework::EventObjects& objects);
absl::StatusOr<framework::QueueingHint> IsSchedulableAfterPersistentVolumeClaimChange(
    const api::Pod& pod, const framework::EventObjects& objects);
absl::StatusOr<framework::QueueingHint> IsSchedulableAfterCSIStorageCapacityChange(
    const api::Pod& pod, const framework::EventObjects& objects);
absl::StatusOr<framework::QueueingHint> IsSchedulableAfterCSIDriverChange(const api::Pod& pod,
                                                                         const framework::EventObjects& objects);
// A new CSINode, or one whose migrated-plugins annotation changed, may translate the pod's in-tree
// volumes differently.
absl::StatusOr<framework::QueueingHint> IsSchedulableAfterCSINodeChange(const api::Pod& pod,
                                                                       const framework::EventObjects& objects);

absl::StatusOr<std::unique_ptr<framework::Plugin>> New(const framework::PluginArgs* args,
                                                       framework::Handle& handle);

}  // namespace ksched::plugins::volume_binding
