#include "plugins/volume_zone/volume_zone.h"

#include <algorithm>
#include <array>
#include <optional>
#include <tuple>


namespace ksched::plugins::volume_zone {
namespace {

constexpr std::string_view kBetaZone = "failure-domain.beta.kubernetes.io/zone";
constexpr std::string_view kBetaRegion = "failure-domain.beta.kubernetes.io/region";
constexpr std::string_view kZone = "topology.kubernetes.io/zone";
constexpr std::string_view kRegion = "topology.kubernetes.io/region";
constexpr std::array<std::string_view, 4> kTopologyLabels = {kBetaZone, kBetaRegion, kZone, kRegion};

std::string_view ToGaLabel(std::string_view label) {
  if (label == kBetaRegion) return kRegion;
  if (label == kBetaZone) return kZone;
  return label;
}

// A "__"-separated list of zones (upstream volumehelpers.LabelZonesToSet); nullopt when an entry
// is empty after trimming.
std::optional<std::vector<std::string>> LabelZonesToSet(std::string_view value) {
  constexpr std::string_view kDelimiter = "__";
  constexpr std::string_view kSpace = " \t\n\v\f\r";
  std::vector<std::string> zones;
  while (true) {
    const std::size_t end = value.find(kDelimiter);
    std::string_view zone = value.substr(0, end);
    const std::size_t first = zone.find_first_not_of(kSpace);
    if (first == std::string_view::npos) return std::nullopt;  // empty after trimming
    zone = zone.substr(first, zone.find_last_not_of(kSpace) - first + 1);
    zones.emplace_back(zone);
    if (end == std::string_view::npos) break;
    value.remove_prefix(end + kDelimiter.size());
  }
  std::sort(zones.begin(), zones.end());
  zones.erase(std::unique(zones.begin(), zones.end()), zones.end());
  return zones;
}

class PreFilterState final : public framework::StateData {
 public:
  explicit PreFilterState(std::shared_ptr<const std::vector<VolumeTopology>> topologies)
      : topologies_(std::move(topologies)) {}
  std::unique_ptr<framework::StateData> Clone() const override {
    return std::make_unique<PreFilterState>(topologies_);
  }
  const std::vector<VolumeTopology>& topologies() const { return *topologies_; }

 private:
  std::shared_ptr<const std::vector<VolumeTopology>> topologies_;
};

framework::Status Unresolvable(std::string message) {
  return framework::Status(framework::Code::kUnschedulableAndUnresolvable, {std::move(message)});
}

bool NamesClaim(const api::Pod& pod, const api::PersistentVolumeClaim& claim) {
  if (claim.metadata.namespace_ != pod.metadata.namespace_) return false;
  return std::any_of(pod.spec.volumes.begin(), pod.spec.volumes.end(), [&](const api::Volume& v) {
    return v.persistent_volume_claim.has_value() &&
           v.persistent_volume_claim->claim_name == claim.metadata.name;
  });
}

}  // namespace

std::vector<VolumeTopology> VolumeTopologies(const api::PersistentVolume& volume) {
  std::vector<VolumeTopology> topologies;
  for (std::string_view key : kTopologyLabels) {
    std::optional<std::string_view> value = volume.metadata.labels.Get(key);
    if (!value.has_value()) continue;
    // An unparsable value is ignored, as upstream does (it logs it at V(5)).
    std::optional<std::vector<std::string>> zones = LabelZonesToSet(*value);
    if (!zones.has_value()) continue;
    topologies.push_back(VolumeTopology{volume.metadata.name, std::string(key), *std::move(zones)});
  }
  return topologies;
}

std::pair<std::vector<VolumeTopology>, framework::Status> VolumeZone::TopologiesOf(
    const api::Pod& pod) const {
  std::vector<VolumeTopology> topologies;
  const framework::StorageLister* lister = handle_.storage_lister();
  const std::string_view ns = pod.metadata.namespace_;
  for (const api::Volume& volume : pod.spec.volumes) {
    if (!volume.persistent_volume_claim.has_value()) continue;
    const std::string& claim_name = volume.persistent_volume_claim->claim_name;
    if (claim_name.empty()) return {{}, Unresolvable("PersistentVolumeClaim had no name")};
    auto claim = lister == nullptr ? nullptr : lister->GetPersistentVolumeClaim(ns, claim_name);
    if (claim == nullptr) {
      return {{}, Unresolvable("persistentvolumeclaim \"" + claim_name + "\" not found")};
    }
    const std::string& pv_name = claim->spec.volume_name;
    if (pv_name.empty()) {
      const std::string class_name = api::PersistentVolumeClaimClass(*claim);
      if (class_name.empty()) {
        return {{}, Unresolvable("PersistentVolumeClaim had no pv name and storageClass name")};
      }
      auto storage_class = lister->GetStorageClass(class_name);
      if (storage_class == nullptr) {
        return {{}, Unresolvable("storageclass.storage.k8s.io \"" + class_name + "\" not found")};
      }
      if (!storage_class->volume_binding_mode.has_value()) {
        return {{}, Unresolvable("VolumeBindingMode not set for StorageClass \"" + class_name + "\"")};
      }
      // Unbound claims of a delayed-binding class are VolumeBinding's.
      if (*storage_class->volume_binding_mode == api::kVolumeBindingWaitForFirstConsumer) continue;
      return {{}, Unresolvable("PersistentVolume had no name")};
    }
    auto pv = lister->GetPersistentVolume(pv_name);
    if (pv == nullptr) return {{}, Unresolvable("persistentvolume \"" + pv_name + "\" not found")};
    std::vector<VolumeTopology> more = VolumeTopologies(*pv);
    topologies.insert(topologies.end(), std::make_move_iterator(more.begin()),
                      std::make_move_iterator(more.end()));
  }
  return {std::move(topologies), {}};
}

std::pair<framework::PreFilterResult, framework::Status> VolumeZone::PreFilter(
    framework::CycleState& state, const api::Pod& pod,
    const std::vector<framework::NodeInfo*>& /*nodes*/) {
  auto [topologies, status] = TopologiesOf(pod);
  if (!status.IsSuccess()) return {{}, std::move(status)};
  if (topologies.empty()) return {{}, framework::Status(framework::Code::kSkip)};
  state.Write(kPreFilterStateKey,
              std::make_unique<PreFilterState>(
                  std::make_shared<const std::vector<VolumeTopology>>(std::move(topologies))));
  return {{}, {}};
}

framework::Status VolumeZone::Filter(const framework::CycleState& state, const api::Pod& pod,
                                     const framework::NodeInfo& node) {
  if (pod.spec.volumes.empty()) return {};
  std::vector<VolumeTopology> recomputed;
  const std::vector<VolumeTopology>* topologies = nullptr;
  if (const auto* pre_filter = state.ReadAs<PreFilterState>(kPreFilterStateKey)) {
    topologies = &pre_filter->topologies();
  } else {
    // Without PreFilter's state, compute it here (upstream's fallback).
    framework::Status status;
    std::tie(recomputed, status) = TopologiesOf(pod);
    if (!status.IsSuccess()) return status;
    topologies = &recomputed;
  }
  const api::Labels& labels = node.node()->metadata.labels;
  // A node without any zone or region label is fine (single-zone clusters).
  if (std::none_of(kTopologyLabels.begin(), kTopologyLabels.end(),
                   [&](std::string_view key) { return labels.Has(key); })) {
    return {};
  }
  for (const VolumeTopology& topology : *topologies) {
    std::optional<std::string_view> value = labels.Get(topology.key);
    if (!value.has_value()) value = labels.Get(ToGaLabel(topology.key));
    if (!value.has_value() ||
        !std::binary_search(topology.values.begin(), topology.values.end(), *value)) {
      static const framework::Status kConflict =
          framework::Status(framework::Code::kUnschedulableAndUnresolvable, {kErrReasonConflict})
              .WithPlugin(kName);
      return kConflict;
    }
  }
  return {};
}

std::vector<framework::ClusterEventWithHint> VolumeZone::EventsToRegister() const {
  using framework::ClusterEvent;
  using framework::EventResource;
  namespace action = framework::action;
  return {
      // A new WaitForFirstConsumer class lets an unbound claim through (volumeBindingMode is
      // immutable: class updates are not registered).
      {ClusterEvent{EventResource::kStorageClass, action::kAdd, "StorageClassAdd"},
       IsSchedulableAfterStorageClassAdded},
      // No hint: a new node, or new zone labels, are always worth a retry.
      {ClusterEvent{EventResource::kNode, action::kAdd | action::kUpdateNodeLabel, "Node"}, nullptr},
      {ClusterEvent{EventResource::kPersistentVolumeClaim, action::kAdd | action::kUpdate,
                    "PersistentVolumeClaim"},
       IsSchedulableAfterPersistentVolumeClaimChange},
      {ClusterEvent{EventResource::kPersistentVolume, action::kAdd | action::kUpdate, "PersistentVolume"},
       IsSchedulableAfterPersistentVolumeChange},
  };
}

absl::StatusOr<framework::QueueingHint> IsSchedulableAfterStorageClassAdded(
    const api::Pod& /*pod*/, const framework::EventObjects& objects) {
  const api::StorageClass* added = objects.new_storage_class;
  if (added == nullptr) {
    return absl::InvalidArgumentError("VolumeZone: storage class add event without the class");
  }
  const bool delayed = added->volume_binding_mode.has_value() &&
                       *added->volume_binding_mode == api::kVolumeBindingWaitForFirstConsumer;
  return delayed ? framework::QueueingHint::kQueue : framework::QueueingHint::kQueueSkip;
}

absl::StatusOr<framework::QueueingHint> IsSchedulableAfterPersistentVolumeClaimChange(
    const api::Pod& pod, const framework::EventObjects& objects) {
  const api::PersistentVolumeClaim* claim = objects.new_pvc;
  if (claim == nullptr) {
    return absl::InvalidArgumentError("VolumeZone: claim event without the claim");
  }
  return NamesClaim(pod, *claim) ? framework::QueueingHint::kQueue : framework::QueueingHint::kQueueSkip;
}

absl::StatusOr<framework::QueueingHint> IsSchedulableAfterPersistentVolumeChange(
    const api::Pod& /*pod*/, const framework::EventObjects& objects) {
  if (objects.new_pv == nullptr) {
    return absl::InvalidArgumentError("VolumeZone: volume event without the volume");
  }
  if (objects.old_pv == nullptr) return framework::QueueingHint::kQueue;  // a new volume
  return VolumeTopologies(*objects.old_pv) == VolumeTopologies(*objects.new_pv)
             ? framework::QueueingHint::kQueueSkip
             : framework::QueueingHint::kQueue;
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> New(const framework::PluginArgs* /*args*/,
                                                       framework::Handle& handle) {
  return std::make_unique<VolumeZone>(handle);
}

}  // namespace ksched::plugins::volume_zone
