// Volume: core/v1 Volume reduced to the sources the scheduler's volume plugins read
// (VolumeBinding, VolumeRestrictions, VolumeZone, NodeVolumeLimits):
//   persistentVolumeClaim  claimName, readOnly
//   ephemeral              presence only (the claim is named <pod>-<volume>)
//   gcePersistentDisk      pdName, readOnly          (conflicts, in-tree migration counting)
//   awsElasticBlockStore   volumeID, readOnly        (conflicts, in-tree migration counting)
//   rbd                    monitors, pool, image, readOnly   (conflicts)
//   iscsi                  targetPortal, iqn, lun, readOnly  (conflicts)
//   csi                    driver, readOnly          (inline CSI volumes)
// Any other source (emptyDir, configMap, secret, hostPath, projected, ...) decodes to a Volume
// with only its name set.
//
// Thread-safety: plain value types.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

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

struct Volume {
  std::string name;
  std::optional<PersistentVolumeClaimVolumeSource> persistent_volume_claim;
  bool ephemeral = false;  // an `ephemeral` source is present
  std::optional<GcePersistentDiskVolumeSource> gce_persistent_disk;
  std::optional<AwsElasticBlockStoreVolumeSource> aws_elastic_block_store;
  std::optional<RbdVolumeSource> rbd;
  std::optional<IscsiVolumeSource> iscsi;
  std::optional<CsiVolumeSource> csi;

  friend bool operator==(const Volume&, const Volume&) = default;
};

}  // namespace ksched::api
