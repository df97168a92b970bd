// VolumeZone (upstream plugins/volumezone, v1.34): a pod whose bound PersistentVolumes carry zone
// or region labels goes only to nodes in those zones and regions.
//   - PreFilter follows each PersistentVolumeClaim the pod names to its bound PersistentVolume and
//     keeps the volume's labels failure-domain.beta.kubernetes.io/{zone,region} and
//     topology.kubernetes.io/{zone,region} (a value may list several zones separated by "__"; an
//     unparsable one is ignored). Skip when no volume has such a label. UnschedulableAndUnresolvable
//     with upstream's words when a claim has no name, a claim, volume or class is missing
//     (`persistentvolumeclaim "data" not found`), a claim is unbound without a class, or unbound
//     with an Immediate class ("PersistentVolume had no name"); unbound claims of a
//     WaitForFirstConsumer class are left to VolumeBinding.
//   - Filter: a node with none of the four labels passes (single-zone clusters); otherwise each
//     volume label must match the node's label of the same key (a beta volume label may match the
//     node's GA one): UnschedulableAndUnresolvable "node(s) had no available volume zone".
//   - Events (queueing hints on, as v1.34): StorageClass Add (queued for WaitForFirstConsumer
//     classes), Node Add and label updates (no hint), PersistentVolumeClaim Add/Update (queued for
//     a claim the pod names), PersistentVolume Add/Update (queued on add, or when the volume's
//     zone labels changed).
//
// Thread-safety: the plugin holds no mutable state; the objects come from the Handle's
// StorageLister (framework/storage_lister.h), which is safe from any thread.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "framework/handle.h"
#include "framework/interface.h"
#include "framework/registry.h"

namespace ksched::plugins::volume_zone {

inline constexpr std::string_view kName = "VolumeZone";
inline constexpr framework::StateKey kPreFilterStateKey{"PreFilterVolumeZone"};
inline constexpr std::string_view kErrReasonConflict = "node(s) had no available volume zone";

// One zone or region label of a bound volume (upstream pvTopology).
struct VolumeTopology {
  std::string pv_name;
  std::string key;
  std::vector<std::string> values;  // sorted, unique
  friend bool operator==(const VolumeTopology&, const VolumeTopology&) = default;
};

// The zone and region labels of a volume, in upstream's label order.
std::vector<VolumeTopology> VolumeTopologies(const api::PersistentVolume& volume);

class VolumeZone final : public framework::PreFilterPlugin,
                         public framework::FilterPlugin,
                         public framework::EnqueueExtensions {
 public:
  explicit VolumeZone(const framework::Handle& handle) : handle_(handle) {}

  std::string_view Name() const override { return kName; }
  std::pair<framework::PreFilterResult, framework::Status> PreFilter(
      framework::CycleState& state, const api::Pod& pod,
      const std::vector<framework::NodeInfo*>& nodes) override;
  framework::Status Filter(const framework::CycleState& state, const api::Pod& pod,
                           const framework::NodeInfo& node) override;
  std::vector<framework::ClusterEventWithHint> EventsToRegister() const override;

 private:
  // The topologies of the pod's bound volumes, or the status that stops the pod.
  std::pair<std::vector<VolumeTopology>, framework::Status> TopologiesOf(const api::Pod& pod) const;

  const framework::Handle& handle_;
};

absl::StatusOr<framework::QueueingHint> IsSchedulableAfterStorageClassAdded(
    const api::Pod& pod, const framework::EventObjects& objects);
absl::StatusOr<framework::QueueingHint> IsSchedulableAfterPersistentVolumeClaimChange(
    const api::Pod& pod, const framework::EventObjects& objects);
absl::StatusOr<framework::QueueingHint> IsSchedulableAfterPersistentVolumeChange(
    const api::Pod& pod, const framework::EventObjects& objects);

absl::StatusOr<std::unique_ptr<framework::Plugin>> New(const framework::PluginArgs* args,
                                                       framework::Handle& handle);

}  // namespace ksched::plugins::volume_zone
