#include "plugins/volume_binding/volume_matching.h"

#include <algorithm>
#include <string_view>

#include "api/json_writer.h"
#include "plugins/helper/csi_translation.h"

namespace ksched::plugins::volume_binding {
namespace {

std::string_view VolumeModeOr(const std::optional<std::string>& mode) {
  return mode.has_value() ? std::string_view(*mode) : api::kVolumeModeFilesystem;
}

std::string_view OrEmpty(const std::optional<std::string>& value) {
  return value.has_value() ? std::string_view(*value) : std::string_view();
}

// "metadata": {"resourceVersion": ..., "annotations": {key: value}} (no annotations when key is "").
void WriteMetadata(api::json::JsonWriter& writer, std::string_view resource_version, std::string_view key,
                   std::string_view value) {
  api::json::String(writer, "metadata");
  writer.StartObject();
  api::json::Field(writer, "resourceVersion", resource_version);
  if (!key.empty()) {
    api::json::String(writer, "annotations");
    writer.StartObject();
    api::json::Field(writer, key, value);
    writer.EndObject();
  }
  writer.EndObject();
}

}  // namespace

CandidateVolume::CandidateVolume(std::shared_ptr<const api::PersistentVolume> v) : volume(std::move(v)) {
  if (volume->spec.node_affinity.has_value()) {
    node_affinity = api::LazyErrorNodeSelector::Compile(*volume->spec.node_affinity);
  }
}

bool CandidateVolume::NodeAffinityMatches(const api::Labels& node_labels) const noexcept {
  if (!node_affinity.has_value()) return true;
  // The node is known by its labels only (upstream builds a Node with just them).
  absl::StatusOr<bool> matched = node_affinity->Match(node_labels, "");
  return matched.ok() && *matched;
}

BoundVolume::BoundVolume(std::shared_ptr<const api::PersistentVolume> v) : stored(std::move(v)) {
  const api::PersistentVolume& volume = *stored.volume;
  if (!volume.spec.in_tree.has_value()) return;
  // Only these plugins' migration is on (isCSIMigrationOnForPlugin); Azure File and vSphere
  // volumes are checked as they are.
  const std::string_view name = volume.spec.in_tree->plugin;
  if (name != api::kGcePdInTreePlugin && name != api::kAwsEbsInTreePlugin && name != api::kAzureDiskInTreePlugin &&
      name != api::kCinderInTreePlugin && name != api::kPortworxInTreePlugin) {
    return;
  }
  plugin = name;
  absl::StatusOr<std::optional<api::NodeSelector>> translated = helper::TranslatedNodeAffinity(volume);
  if (!translated.ok()) {
    translation_error = "could not translate pv: " + std::string(translated.status().message());
  } else if (translated->has_value()) {
    translated_affinity = api::LazyErrorNodeSelector::Compile(**translated);
  }
}

absl::StatusOr<bool> BoundVolume::NodeAffinityMatches(const api::Labels& node_labels,
                                                      const api::CSINode* csi_node) const {
  if (plugin.empty() || !helper::IsPluginMigratedToCSIOnNode(csi_node, plugin)) {
    return stored.NodeAffinityMatches(node_labels);
  }
  if (!translation_error.empty()) return absl::InvalidArgumentError(translation_error);
  if (!translated_affinity.has_value()) return true;
  absl::StatusOr<bool> matched = translated_affinity->Match(node_labels, "");
  return matched.ok() && *matched;
}

bool IsVolumeBoundToClaim(const api::PersistentVolume& volume, const api::PersistentVolumeClaim& claim) {
  if (!volume.spec.claim_ref.has_value()) return false;
  const api::ClaimReference& ref = *volume.spec.claim_ref;
  if (claim.metadata.name != ref.name || claim.metadata.namespace_ != ref.namespace_) return false;
  return ref.uid.empty() || claim.metadata.uid == ref.uid;
}

bool VolumeModeMismatches(const api::PersistentVolumeClaim& claim, const api::PersistentVolume& volume) {
  return VolumeModeOr(claim.spec.volume_mode) != VolumeModeOr(volume.spec.volume_mode);
}

bool AccessModesSatisfied(const api::PersistentVolumeClaim& claim, const api::PersistentVolume& volume) {
  const std::vector<std::string>& offered = volume.spec.access_modes;
  return std::all_of(claim.spec.access_modes.begin(), claim.spec.access_modes.end(), [&](const std::string& mode) {
    return std::find(offered.begin(), offered.end(), mode) != offered.end();
  });
}

std::optional<std::size_t> FindMatchingVolume(const api::PersistentVolumeClaim& claim,
                                              const api::CompiledLabelSelector* selector,
                                              std::span<const CandidateVolume> volumes,
                                              const api::Labels& node_labels,
                                              std::span<const api::PersistentVolume* const> excluded) {
  // A claim without a storage request asks for 0 bytes (upstream compares with a zero Quantity).
  const std::int64_t requested = claim.spec.storage_request.value_or(0);
  const std::string requested_class = api::PersistentVolumeClaimClass(claim);
  const std::string_view claim_vac = OrEmpty(claim.spec.volume_attributes_class_name);
  std::optional<std::size_t> smallest;
  std::int64_t smallest_size = 0;
  for (std::size_t i = 0; i < volumes.size(); ++i) {
    const api::PersistentVolume& volume = *volumes[i].volume;
    if (std::find(excluded.begin(), excluded.end(), &volume) != excluded.end()) continue;
    const bool bound_to_claim = IsVolumeBoundToClaim(volume, claim);
    if (volume.spec.claim_ref.has_value() && !bound_to_claim) continue;
    const std::int64_t size = volume.spec.capacity.value_or(0);
    if (size < requested) continue;
    if (VolumeModeMismatches(claim, volume)) continue;
    if (claim_vac != OrEmpty(volume.spec.volume_attributes_class_name)) continue;
    if (volume.metadata.deletion_timestamp.has_value()) continue;
    const bool node_affinity_valid = volumes[i].NodeAffinityMatches(node_labels);
    if (bound_to_claim) {
      // Pre-bound to this claim: this volume or none.
      if (!node_affinity_valid) return std::nullopt;
      return i;
    }
    if (volume.phase != api::kVolumeAvailable) continue;
    if (selector != nullptr && !selector->Matches(volume.metadata.labels)) continue;
    if (api::PersistentVolumeClass(volume) != requested_class) continue;
    if (!node_affinity_valid) continue;
    if (!AccessModesSatisfied(claim, volume)) continue;
    if (!smallest.has_value() || smallest_size > size) {
      smallest = i;
      smallest_size = size;
    }
  }
  return smallest;
}

std::optional<std::string> BindVolumeToClaimPatch(const api::PersistentVolume& volume,
                                                  const api::PersistentVolumeClaim& claim,
                                                  api::PersistentVolume* assumed) {
  const bool set_bound_by_controller =
      !IsVolumeBoundToClaim(volume, claim) && !volume.metadata.annotations.Has(api::kAnnBoundByController);
  const api::ClaimReference* ref = volume.spec.claim_ref.has_value() ? &*volume.spec.claim_ref : nullptr;
  const bool set_claim_ref = ref == nullptr || ref->name != claim.metadata.name ||
                             ref->namespace_ != claim.metadata.namespace_ || ref->uid != claim.metadata.uid;
  if (!set_claim_ref && !set_bound_by_controller) return std::nullopt;

  rapidjson::StringBuffer buffer;
  api::json::JsonWriter writer(buffer);
  writer.StartObject();
  WriteMetadata(writer, volume.metadata.resource_version,
                set_bound_by_controller ? api::kAnnBoundByController : std::string_view(), "yes");
  if (set_claim_ref) {
    // reference.GetReference(claim): the whole claimRef is replaced (fieldPath cleared).
    api::json::String(writer, "spec");
    writer.StartObject();
    api::json::String(writer, "claimRef");
    writer.StartObject();
    api::json::Field(writer, "kind", "PersistentVolumeClaim");
    api::json::Field(writer, "apiVersion", "v1");
    api::json::Field(writer, "namespace", claim.metadata.namespace_);
    api::json::Field(writer, "name", claim.metadata.name);
    api::json::Field(writer, "uid", claim.metadata.uid);
    api::json::Field(writer, "resourceVersion", claim.metadata.resource_version);
    api::json::String(writer, "fieldPath");
    writer.Null();
    writer.EndObject();
    writer.EndObject();
  }
  writer.EndObject();

  if (assumed != nullptr) {
    *assumed = volume;
    if (set_claim_ref) {
      assumed->spec.claim_ref = api::ClaimReference{std::string(std::string_view(claim.metadata.namespace_)),
                                                    claim.metadata.name, claim.metadata.uid};
    }
    if (set_bound_by_controller) {
      assumed->metadata.annotations.Set(api::InternedString(api::kAnnBoundByController), "yes");
    }
  }
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string SelectedNodePatch(const api::PersistentVolumeClaim& claim, const std::string& node_name) {
  rapidjson::StringBuffer buffer;
  api::json::JsonWriter writer(buffer);
  writer.StartObject();
  WriteMetadata(writer, claim.metadata.resource_version, api::kAnnSelectedNode, node_name);
  writer.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace ksched::plugins::volume_binding
