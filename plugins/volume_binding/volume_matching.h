// The PersistentVolume controller's matching and binding rules that VolumeBinding applies
// (k8s.io/component-helpers/storage/volume, v0.34): which available volume an unbound claim of a
// WaitForFirstConsumer class would get on a node, and the write that pre-binds it.
//
// CandidateVolume carries a volume with its node affinity compiled once per scheduling cycle, so
// that the per-node checks (Filter) allocate nothing; BoundVolume adds the affinity CSI migration
// gives an in-tree volume.
//
// Thread-safety: free functions over immutable inputs.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "api/label_selector.h"
#include "api/node_selector.h"
#include "api/storage.h"

namespace ksched::plugins::volume_binding {

// A volume with its spec.nodeAffinity.required compiled (upstream volume.CheckNodeAffinity goes
// through nodeaffinity.NewLazyErrorNodeSelector: an invalid term never matches).
struct CandidateVolume {
  std::shared_ptr<const api::PersistentVolume> volume;
  std::optional<api::LazyErrorNodeSelector> node_affinity;

  explicit CandidateVolume(std::shared_ptr<const api::PersistentVolume> v);
  // CheckNodeAffinity(volume, node labels) == nil.
  bool NodeAffinityMatches(const api::Labels& node_labels) const noexcept;
};

// A bound claim's volume as checkBoundClaims (Filter) and checkBindings (PreBind) see it
// (tryTranslatePVToCSI): on a node whose CSINode lists the volume's in-tree plugin as migrated, its
// node affinity is the CSI translation's (the zone key renamed to the driver's topology key, see
// helper/csi_translation.h), or the translation's error; elsewhere, the volume's own.
struct BoundVolume {
  CandidateVolume stored;
  std::string_view plugin;  // the in-tree plugin CSI migration could translate; "" for others
  std::optional<api::LazyErrorNodeSelector> translated_affinity;  // nullopt: none (matches)
  std::string translation_error;  // "could not translate pv: ..." when translating fails

  explicit BoundVolume(std::shared_ptr<const api::PersistentVolume> v);
  // CheckNodeAffinity of the volume as translated for the node (csi_node may be null): whether
  // it matches, or the translation's error. Allocates nothing unless it errs.
  absl::StatusOr<bool> NodeAffinityMatches(const api::Labels& node_labels, const api::CSINode* csi_node) const;
};

// IsVolumeBoundToClaim: the volume's claimRef names the claim (and its UID, when set).
bool IsVolumeBoundToClaim(const api::PersistentVolume& volume, const api::PersistentVolumeClaim& claim);

// CheckVolumeModeMismatches: the modes differ (absent reads as Filesystem).
bool VolumeModeMismatches(const api::PersistentVolumeClaim& claim, const api::PersistentVolume& volume);

// CheckAccessModes: every mode the claim asks for is one the volume offers.
bool AccessModesSatisfied(const api::PersistentVolumeClaim& claim, const api::PersistentVolume& volume);

// FindMatchingVolume with delayBinding and VolumeAttributesClass on (v1.34's defaults), for a
// node (never nil in the scheduler): the smallest volume of the claim's class that is Available,
// large enough, of the same volume mode and attributes class, not being deleted, selected by the
// claim's selector, allowed on the node and offering the claim's access modes, skipping
// `excluded` (the volumes already chosen for the pod's other claims). A volume already
// pre-bound to the claim wins at once (or, when the node does not suit it, nothing does).
// `selector` is the claim's spec.selector compiled (nullopt: none). Returns the index in
// `volumes`, or nullopt. Errors as upstream: a claim with a volumeAttributesClassName never errs
// (the feature is GA), so only a selector that does not compile does, which the caller reports.
std::optional<std::size_t> FindMatchingVolume(const api::PersistentVolumeClaim& claim,
                                              const api::CompiledLabelSelector* selector,
                                              std::span<const CandidateVolume> volumes,
                                              const api::Labels& node_labels,
                                              std::span<const api::PersistentVolume* const> excluded);

// GetBindVolumeToClaim as a JSON merge patch of the volume: its claimRef set to the claim (kind,
// apiVersion, namespace, name, uid, resourceVersion) and, when it was not bound to the claim yet
// and lacks it, the annotation pv.kubernetes.io/bound-by-controller=yes; metadata.resourceVersion
// is the volume's, so a concurrent change conflicts. nullopt when nothing would change ("dirty"
// false). `assumed` (optional) receives the volume as the patch leaves it.
std::optional<std::string> BindVolumeToClaimPatch(const api::PersistentVolume& volume,
                                                  const api::PersistentVolumeClaim& claim,
                                                  api::PersistentVolume* assumed);

// The claim annotated with volume.kubernetes.io/selected-node=`node_name` as a JSON merge patch
// (with the claim's resourceVersion).
std::string SelectedNodePatch(const api::PersistentVolumeClaim& claim, const std::string& node_name);

}  // namespace ksched::plugins::volume_binding
