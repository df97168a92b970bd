// Storage objects kube-scheduler v1.37's volume plugins read through their listers, each reduced
// to the fields those plugins read (VolumeRestrictions: a claim's access modes; VolumeZone: a
// claim's volume and class, a volume's topology labels, a class's binding mode; VolumeBinding:
// what matching a claim to a volume, provisioning and binding read):
//   core/v1 PersistentVolumeClaim  metadata, spec.accessModes, spec.volumeName,
//                                  spec.storageClassName, spec.resources.requests.storage,
//                                  spec.selector, spec.volumeMode,
//                                  spec.volumeAttributesClassName, status.phase
//   core/v1 PersistentVolume       metadata (its labels carry the zone and region),
//                                  spec.capacity.storage, spec.accessModes, spec.claimRef,
//                                  spec.storageClassName, spec.volumeMode,
//                                  spec.volumeAttributesClassName, spec.nodeAffinity.required,
//                                  spec.csi (driver, volumeHandle), the in-tree disk sources CSI
//                                  migration translates (InTreeVolumeSource), status.phase
//   storage.k8s.io/v1 StorageClass metadata, provisioner, volumeBindingMode, allowedTopologies
//   storage.k8s.io/v1 CSINode      metadata (the migrated-plugins annotation), spec.drivers
//                                  (name, allocatable.count)          (NodeVolumeLimits)
//   storage.k8s.io/v1 VolumeAttachment  metadata, spec.attacher, spec.nodeName,
//                                  spec.source.persistentVolumeName   (NodeVolumeLimits)
//   storage.k8s.io/v1 CSIDriver    metadata, spec.storageCapacity     (VolumeBinding),
//                                  spec.preventPodSchedulingIfMissing (NodeVolumeLimits)
//   storage.k8s.io/v1 CSIStorageCapacity  metadata, storageClassName, capacity,
//                                  maximumVolumeSize, nodeTopology    (VolumeBinding)
// Every other field is dropped by the decoder (api/json_decode.h), as are the annotations and
// ownerReferences of StorageClasses (never read). A claim keeps its annotations (the beta class
// annotation `volume.beta.kubernetes.io/storage-class` still wins over spec.storageClassName,
// upstream storagehelpers.GetPersistentVolumeClaimClass; pv.kubernetes.io/bind-completed and
// volume.kubernetes.io/selected-node drive VolumeBinding) and its ownerReferences (a generic
// ephemeral volume's claim must be owned by its pod). A volume keeps its annotations (the beta
// class annotation, pv.kubernetes.io/bound-by-controller).
//
// Thread-safety: plain value types.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/label_selector.h"
#include "api/labels.h"
#include "api/node_selector.h"
#include "api/object_meta.h"
#include "api/volume.h"

namespace ksched::api {

inline constexpr std::string_view kReadWriteOncePod = "ReadWriteOncePod";
inline constexpr std::string_view kBetaStorageClassAnnotation = "volume.beta.kubernetes.io/storage-class";
inline constexpr std::string_view kVolumeBindingImmediate = "Immediate";
inline constexpr std::string_view kVolumeBindingWaitForFirstConsumer = "WaitForFirstConsumer";
inline constexpr std::string_view kClaimLost = "Lost";
inline constexpr std::string_view kVolumeAvailable = "Available";
inline constexpr std::string_view kVolumeModeFilesystem = "Filesystem";
// Annotations of the PersistentVolume controller's binding protocol (component-helpers
// storage/volume).
inline constexpr std::string_view kAnnBindCompleted = "pv.kubernetes.io/bind-completed";
inline constexpr std::string_view kAnnBoundByController = "pv.kubernetes.io/bound-by-controller";
inline constexpr std::string_view kAnnSelectedNode = "volume.kubernetes.io/selected-node";
inline constexpr std::string_view kNotSupportedProvisioner = "kubernetes.io/no-provisioner";

// A `storage` quantity: its value in bytes (resource.Quantity.Value()), or absent.
using StorageBytes = std::optional<std::int64_t>;

struct PersistentVolumeClaimSpec {
  std::vector<std::string> access_modes;
  std::string volume_name;  // "" while unbound
  // nullopt: absent or null (the API server's default class may be filled in later).
  std::optional<std::string> storage_class_name;
  StorageBytes storage_request;            // spec.resources.requests.storage
  std::optional<LabelSelector> selector;   // restricts the volumes it may bind to
  std::optional<std::string> volume_mode;  // nullopt reads as Filesystem
  std::optional<std::string> volume_attributes_class_name;

  friend bool operator==(const PersistentVolumeClaimSpec&, const PersistentVolumeClaimSpec&) = default;
};

struct PersistentVolumeClaim {
  ObjectMeta metadata;
  PersistentVolumeClaimSpec spec;
  std::string phase;  // status.phase: Pending, Bound, Lost

  friend bool operator==(const PersistentVolumeClaim&, const PersistentVolumeClaim&) = default;
};

// The claim's class: the beta annotation when present, else spec.storageClassName, else ""
// (upstream storagehelpers.GetPersistentVolumeClaimClass).
std::string PersistentVolumeClaimClass(const PersistentVolumeClaim& claim);

// Whether the claim asks for `mode` (upstream v1helper.ContainsAccessMode).
bool HasAccessMode(const PersistentVolumeClaim& claim, std::string_view mode);

// core/v1 ObjectReference as a volume's claimRef uses it.
struct ClaimReference {
  std::string namespace_;
  std::string name;
  std::string uid;  // "" for a volume pre-bound by name only

  friend bool operator==(const ClaimReference&, const ClaimReference&) = default;
};

struct CsiPersistentVolumeSource {
  std::string driver;
  std::string volume_handle;

  friend bool operator==(const CsiPersistentVolumeSource&, const CsiPersistentVolumeSource&) = default;
};

struct PersistentVolumeSpec {
  StorageBytes capacity;  // spec.capacity.storage
  std::optional<CsiPersistentVolumeSource> csi;
  // gcePersistentDisk, awsElasticBlockStore, azureDisk, azureFile, cinder, vsphereVolume or
  // portworxVolume.
  std::optional<InTreeVolumeSource> in_tree;
  std::vector<std::string> access_modes;
  std::optional<ClaimReference> claim_ref;
  std::string storage_class_name;
  std::optional<std::string> volume_mode;  // nullopt reads as Filesystem
  std::optional<std::string> volume_attributes_class_name;
  std::optional<NodeSelector> node_affinity;  // spec.nodeAffinity.required

  friend bool operator==(const PersistentVolumeSpec&, const PersistentVolumeSpec&) = default;
};

struct PersistentVolume {
  ObjectMeta metadata;
  PersistentVolumeSpec spec;
  std::string phase;  // status.phase: Pending, Available, Bound, Released, Failed

  friend bool operator==(const PersistentVolume&, const PersistentVolume&) = default;
};

struct StorageClass {
  ObjectMeta metadata;
  std::string provisioner;
  // nullopt: absent or null (the API server defaults it to Immediate; an object stored before
  // that default existed may still lack it, which VolumeZone reports).
  std::optional<std::string> volume_binding_mode;
  // allowedTopologies: each term's matchLabelExpressions as node selector requirements (operator
  // In); empty allows every node.
  std::vector<NodeSelectorTerm> allowed_topologies;

  friend bool operator==(const StorageClass&, const StorageClass&) = default;
};

// The annotation of a CSINode listing the in-tree plugins migrated to CSI on that node.
inline constexpr std::string_view kMigratedPluginsAnnotation = "storage.alpha.kubernetes.io/migrated-plugins";

struct CSINodeDriver {
  std::string name;
  std::optional<std::int32_t> allocatable_count;  // spec.drivers[].allocatable.count

  friend bool operator==(const CSINodeDriver&, const CSINodeDriver&) = default;
};

struct CSINode {
  ObjectMeta metadata;  // named after its node
  std::vector<CSINodeDriver> drivers;

  friend bool operator==(const CSINode&, const CSINode&) = default;
};

struct VolumeAttachment {
  ObjectMeta metadata;
  std::string attacher;  // the CSI driver
  std::string node_name;
  std::optional<std::string> persistent_volume_name;  // spec.source.persistentVolumeName

  friend bool operator==(const VolumeAttachment&, const VolumeAttachment&) = default;
};

struct CSIDriver {
  ObjectMeta metadata;  // named after the driver
  std::optional<bool> storage_capacity;  // spec.storageCapacity: the driver publishes capacities
  // spec.preventPodSchedulingIfMissing (VolumeLimitScaling, beta and on in v1.37): pods with its
  // volumes go only to nodes whose CSINode lists the driver.
  std::optional<bool> prevent_pod_scheduling_if_missing;

  friend bool operator==(const CSIDriver&, const CSIDriver&) = default;
};

struct CSIStorageCapacity {
  ObjectMeta metadata;
  std::string storage_class_name;
  StorageBytes capacity;
  StorageBytes maximum_volume_size;
  std::optional<LabelSelector> node_topology;  // the nodes that can reach this storage

  friend bool operator==(const CSIStorageCapacity&, const CSIStorageCapacity&) = default;
};

// The largest volume a capacity allows: maximumVolumeSize when set, else capacity (upstream
// volumebinding volumeLimit).
inline StorageBytes VolumeLimit(const CSIStorageCapacity& capacity) {
  return capacity.maximum_volume_size.has_value() ? capacity.maximum_volume_size : capacity.capacity;
}

// The volume's class: the beta annotation when present, else spec.storageClassName (upstream
// storagehelpers.GetPersistentVolumeClass).
std::string PersistentVolumeClass(const PersistentVolume& volume);

// Whether the node's labels satisfy the volume's spec.nodeAffinity.required (upstream
// volume.CheckNodeAffinity: no affinity matches every node; terms are ORed; an invalid term
// matches nothing). Only labels are known, so matchFields compare against an empty node name.
bool VolumeNodeAffinityMatches(const PersistentVolume& volume, const Labels& node_labels);

// upstream v1helper.MatchTopologySelectorTerms: no terms match every node; a term matches when
// every expression's key is among the node's labels with one of its values.
bool MatchTopologySelectorTerms(const std::vector<NodeSelectorTerm>& terms, const Labels& node_labels);

}  // namespace ksched::api
