// Decoding of the storage objects of api/storage.h (see json_decode_internal.h and, for the rules,
// json_decode.h), and the two claim helpers declared there.
#include <algorithm>

#include "api/json_decode_internal.h"
#include "api/storage.h"

namespace ksched::api {

std::string PersistentVolumeClaimClass(const PersistentVolumeClaim& claim) {
  if (std::optional<std::string_view> beta = claim.metadata.annotations.Get(kBetaStorageClassAnnotation)) {
    return std::string(*beta);
  }
  return claim.spec.storage_class_name.value_or("");
}

bool HasAccessMode(const PersistentVolumeClaim& claim, std::string_view mode) {
  return std::find(claim.spec.access_modes.begin(), claim.spec.access_modes.end(), mode) !=
         claim.spec.access_modes.end();
}

namespace json_internal {

namespace {

absl::Status ReadOptionalString(const JsonValue& v, DecodeContext& ctx, std::optional<std::string>& out) {
  return ReadOptional(v, ctx, out, [](const JsonValue& value, DecodeContext& c, std::string& s) {
    return ReadString(value, c, s);
  });
}

absl::Status ReadClaimSpec(const JsonValue& v, DecodeContext& ctx, PersistentVolumeClaimSpec& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "accessModes") return ReadStringList(value, ctx, out.access_modes);
    if (name == "volumeName") return ReadString(value, ctx, out.volume_name);
    if (name == "storageClassName") return ReadOptionalString(value, ctx, out.storage_class_name);
    return absl::OkStatus();
  });
}

}  // namespace

absl::Status ReadPersistentVolumeClaim(const JsonValue& v, DecodeContext& ctx,
                                       PersistentVolumeClaim& out) {
  absl::Status status = ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "metadata") {
      absl::Status meta = ReadObjectMeta(value, ctx, out.metadata);
      out.metadata.owner_references.clear();
      return meta;
    }
    if (name == "spec") return ReadClaimSpec(value, ctx, out.spec);
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return CheckName(out.metadata, ctx);
}

absl::Status ReadPersistentVolume(const JsonValue& v, DecodeContext& ctx, PersistentVolume& out) {
  absl::Status status = ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "metadata") return ReadObjectMetaWithoutAnnotations(value, ctx, out.metadata);
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return CheckName(out.metadata, ctx);
}

absl::Status ReadStorageClass(const JsonValue& v, DecodeContext& ctx, StorageClass& out) {
  absl::Status status = ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "metadata") return ReadObjectMetaWithoutAnnotations(value, ctx, out.metadata);
    if (name == "provisioner") return ReadString(value, ctx, out.provisioner);
    if (name == "volumeBindingMode") return ReadOptionalString(value, ctx, out.volume_binding_mode);
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return CheckName(out.metadata, ctx);
}

}  // namespace json_internal

}  // namespace ksched::api
