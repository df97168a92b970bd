// Volume: core/v1 Volume reduced to the sources the scheduler's volume plugins read
// (VolumeBinding, VolumeRestrictions, VolumeZone, NodeVolumeLimits):
//   persistentVolumeClaim  claimName, readOnly
//   ephemeral              presence only (the claim is named <pod>-<volume>)
//   gcePersistentDisk      pdName, readOnly          (conflicts, in-tree migration counting)
//   awsElasticBlockStore   volumeID, readOnly        (conflicts, in-tree migration counting)
//   rbd                    monitors, pool, image, readOnly   (conflicts)
//   iscsi                  targetPortal, iqn, lun, readOnly  (conflicts)
//   csi                    driver, readOnly          (inline CSI volumes)
//   azureDisk, cinder, portworxVolume  as an InTreeVolumeSource (CSI migration counting)
//   image                  reference                 (ImageLocality counts image volumes)
// Any other source (emptyDir, configMap, secret, hostPath, projected, ...) decodes to a Volume
// with only its name set.
//
// Thread-safety: plain value types.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/interned_string.h"

namespace ksched::api {

struct PersistentVolumeClaimVolumeSource {
  std::string claim_name;
  bool read_only = false;
  friend bool operator==(const PersistentVolumeClaimVolumeSource&,
                         const PersistentVolumeClaimVolumeSource&) = default;
};

struct GcePersistentDiskVolumeSource {
  std::string pd_name;
  bool read_only = false;
  friend bool operator==(const GcePersistentDiskVolumeSource&,
                         const GcePersistentDiskVolumeSource&) = default;
};

struct AwsElasticBlockStoreVolumeSource {
  std::string volume_id;  // `volumeID`
  bool read_only = false;
  friend bool operator==(const AwsElasticBlockStoreVolumeSource&,
                         const AwsElasticBlockStoreVolumeSource&) = default;
};

struct RbdVolumeSource {
  std::vector<std::string> monitors;
  std::string pool;  // "rbd" when absent (the API server's default)
  std::string image;
  bool read_only = false;
  friend bool operator==(const RbdVolumeSource&, const RbdVolumeSource&) = default;
};

struct IscsiVolumeSource {
  std::string target_portal;
  std::string iqn;
  std::int32_t lun = 0;
  bool read_only = false;
  friend bool operator==(const IscsiVolumeSource&, const IscsiVolumeSource&) = default;
};

struct CsiVolumeSource {
  std::string driver;
  bool read_only = false;
  friend bool operator==(const CsiVolumeSource&, const CsiVolumeSource&) = default;
};

// In-tree volume plugins that CSI migration translates (csi-translation-lib), and their drivers.
inline constexpr std::string_view kGcePdInTreePlugin = "kubernetes.io/gce-pd";
inline constexpr std::string_view kAwsEbsInTreePlugin = "kubernetes.io/aws-ebs";
inline constexpr std::string_view kAzureDiskInTreePlugin = "kubernetes.io/azure-disk";
inline constexpr std::string_view kAzureFileInTreePlugin = "kubernetes.io/azure-file";
inline constexpr std::string_view kCinderInTreePlugin = "kubernetes.io/cinder";
inline constexpr std::string_view kVsphereInTreePlugin = "kubernetes.io/vsphere-volume";
inline constexpr std::string_view kPortworxInTreePlugin = "kubernetes.io/portworx-volume";

// An in-tree volume source that CSI migration can translate, reduced to its plugin and the id its
// CSI volume handle is made of (GCE pdName, AWS volumeID, Azure diskURI, Cinder and Portworx
// volumeID; "" for Azure File and vSphere, which the scheduler never counts).
struct InTreeVolumeSource {
  std::string plugin;
  std::string id;
  std::optional<std::string> kind;  // azureDisk's kind (migration translates only "Managed")
  friend bool operator==(const InTreeVolumeSource&, const InTreeVolumeSource&) = default;
};

struct Volume {
  std::string name;
  std::optional<PersistentVolumeClaimVolumeSource> persistent_volume_claim;
  bool ephemeral = false;  // an `ephemeral` source is present
  bool image = false;      // an `image` source is present (its reference: image_reference)
  std::optional<GcePersistentDiskVolumeSource> gce_persistent_disk;
  std::optional<AwsElasticBlockStoreVolumeSource> aws_elastic_block_store;
  std::optional<RbdVolumeSource> rbd;
  std::optional<IscsiVolumeSource> iscsi;
  std::optional<CsiVolumeSource> csi;
  // azureDisk, cinder or portworxVolume (GCE and AWS disks have their fields above).
  std::optional<InTreeVolumeSource> other_in_tree;
  // The `image` source's reference (interned: the same images recur across pods); "" without
  // one. A flag and a plain string rather than an optional: 8 bytes less per volume.
  InternedString image_reference;

  friend bool operator==(const Volume&, const Volume&) = default;
};

}  // namespace ksched::api
