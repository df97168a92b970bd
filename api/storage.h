// Storage objects kube-scheduler v1.34's volume plugins read through their listers, each reduced
// to the fields those plugins read (VolumeRestrictions: a claim's access modes; VolumeZone: a
// claim's volume and class, a volume's topology labels, a class's binding mode):
//   core/v1 PersistentVolumeClaim  metadata, spec.accessModes, spec.volumeName,
//                                  spec.storageClassName
//   core/v1 PersistentVolume       metadata (its labels carry the zone and region)
//   storage.k8s.io/v1 StorageClass metadata, provisioner, volumeBindingMode
// Every other field is dropped by the decoder (api/json_decode.h), as are the annotations and
// ownerReferences of PersistentVolumes and StorageClasses (never read). A claim keeps its
// annotations: the beta class annotation `volume.beta.kubernetes.io/storage-class` still wins over
// spec.storageClassName (upstream storagehelpers.GetPersistentVolumeClaimClass).
//
// Thread-safety: plain value types.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/object_meta.h"

namespace ksched::api {

inline constexpr std::string_view kReadWriteOncePod = "ReadWriteOncePod";
inline constexpr std::string_view kBetaStorageClassAnnotation = "volume.beta.kubernetes.io/storage-class";
inline constexpr std::string_view kVolumeBindingImmediate = "Immediate";
inline constexpr std::string_view kVolumeBindingWaitForFirstConsumer = "WaitForFirstConsumer";

struct PersistentVolumeClaimSpec {
  std::vector<std::string> access_modes;
  std::string volume_name;  // "" while unbound
  // nullopt: absent or null (the API server's default class may be filled in later).
  std::optional<std::string> storage_class_name;

  friend bool operator==(const PersistentVolumeClaimSpec&, const PersistentVolumeClaimSpec&) = default;
};

struct PersistentVolumeClaim {
  ObjectMeta metadata;
  PersistentVolumeClaimSpec spec;

  friend bool operator==(const PersistentVolumeClaim&, const PersistentVolumeClaim&) = default;
};

// The claim's class: the beta annotation when present, else spec.storageClassName, else ""
// (upstream storagehelpers.GetPersistentVolumeClaimClass).
std::string PersistentVolumeClaimClass(const PersistentVolumeClaim& claim);

// Whether the claim asks for `mode` (upstream v1helper.ContainsAccessMode).
bool HasAccessMode(const PersistentVolumeClaim& claim, std::string_view mode);

struct PersistentVolume {
  ObjectMeta metadata;

  friend bool operator==(const PersistentVolume&, const PersistentVolume&) = default;
};

struct StorageClass {
  ObjectMeta metadata;
  std::string provisioner;
  // nullopt: absent or null (the API server defaults it to Immediate; an object stored before
  // that default existed may still lack it, which VolumeZone reports).
  std::optional<std::string> volume_binding_mode;

  friend bool operator==(const StorageClass&, const StorageClass&) = default;
};

}  // namespace ksched::api
