// Private to the api layer's JSON decoder (json_decode*.cc): the decoding context that tracks the
// JSON path for error messages, readers for the primitive and shared types, and the per-kind
// decoders. Not part of the api layer's interface; include api/json_decode.h instead.
//
// Every reader takes the JSON value of one field, the context (whose path names that field) and the
// target, and returns OkStatus or an InvalidArgument error prefixed with the path. Readers are
// never given null: ForEachField skips null fields, and array/map readers turn null elements into
// zero values themselves.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "api/api_status.h"
#include "api/compact_vector.h"
#include "api/interned_string.h"
#include "api/label_selector.h"
#include "api/namespace.h"
#include "api/labels.h"
#include "api/node.h"
#include "api/node_selector.h"
#include "api/object_meta.h"
#include "api/pod.h"
#include "api/pod_disruption_budget.h"
#include "api/quantity.h"
#include "api/resource.h"
#include "api/resource_list.h"
#include "api/storage.h"
#include "api/time.h"
#include "api/workloads.h"
#include "rapidjson/document.h"

namespace ksched::api::json_internal {

using JsonValue = rapidjson::Value;

inline std::string_view AsStringView(const JsonValue& v) noexcept {
  return {v.GetString(), static_cast<std::size_t>(v.GetStringLength())};
}

// "null", "bool", "number", "string", "array", "object".
std::string_view JsonTypeName(const JsonValue& v) noexcept;

// The JSON path of the value being decoded, as a fixed stack of segments viewing the names in the
// document (no allocation until an error is rendered). The schema bounds the depth; segments past
// kMaxDepth are dropped from messages rather than failing.
class DecodeContext {
 public:
  static constexpr std::size_t kMaxDepth = 32;

  // "<path>: <message>", or just the message at the root.
  absl::Status Error(std::string_view message) const;
  // The same, with `cause.message()` as the message.
  absl::Status ErrorFrom(const absl::Status& cause) const {
    return Error(std::string_view(cause.message().data(), cause.message().size()));
  }
  std::string Path() const;

  void PushField(std::string_view name) noexcept { Push({Segment::kField, name, 0}); }
  void PushIndex(std::size_t index) noexcept { Push({Segment::kIndex, {}, index}); }
  void PushKey(std::string_view key) noexcept { Push({Segment::kKey, key, 0}); }
  void Pop() noexcept { --depth_; }

 private:
  struct Segment {
    enum Kind : std::uint8_t { kField, kIndex, kKey } kind;
    std::string_view name;
    std::size_t index;
  };
  void Push(Segment segment) noexcept {
    if (depth_ < kMaxDepth) segments_[depth_] = segment;
    ++depth_;
  }

  std::array<Segment, kMaxDepth> segments_{};
  std::size_t depth_ = 0;
};

// Pops the segment pushed before it on scope exit.
class PathScope {
 public:
  explicit PathScope(DecodeContext& ctx) noexcept : ctx_(ctx) {}
  ~PathScope() { ctx_.Pop(); }
  PathScope(const PathScope&) = delete;
  PathScope& operator=(const PathScope&) = delete;

 private:
  DecodeContext& ctx_;
};

// Checks that `v` is an object, then calls f(name, value) for each non-null member with the
// member's name on the path; stops at the first error.
template <typename F>
absl::Status ForEachField(const JsonValue& v, DecodeContext& ctx, F&& f) {
  if (!v.IsObject()) {
    return ctx.Error(std::string("expected an object, got ") + std::string(JsonTypeName(v)));
  }
  for (auto it = v.MemberBegin(); it != v.MemberEnd(); ++it) {
    if (it->value.IsNull()) continue;
    const std::string_view name = AsStringView(it->name);
    ctx.PushField(name);
    PathScope scope(ctx);
    absl::Status status = f(name, it->value);
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

// Checks that `v` is an array, then replaces `out` with its elements, each decoded by
// decode(element, ctx, T&) with its index on the path (a null element stays T{}).
// `out` is a std::vector or an api::CompactVector.
template <typename List, typename F>
absl::Status ReadArray(const JsonValue& v, DecodeContext& ctx, List& out, F&& decode) {
  using T = typename List::value_type;
  if (!v.IsArray()) {
    return ctx.Error(std::string("expected an array, got ") + std::string(JsonTypeName(v)));
  }
  out.clear();
  out.reserve(v.Size());
  for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
    T& element = out.emplace_back();
    if (v[i].IsNull()) continue;
    ctx.PushIndex(i);
    PathScope scope(ctx);
    absl::Status status = decode(v[i], ctx, element);
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

// Decodes an object into an optional, creating it if absent.
template <typename T, typename F>
absl::Status ReadOptional(const JsonValue& v, DecodeContext& ctx, std::optional<T>& out,
                          F&& decode) {
  if (!out.has_value()) out.emplace();
  return decode(v, ctx, *out);
}

// Primitives.
absl::Status ReadString(const JsonValue& v, DecodeContext& ctx, std::string& out);
absl::Status ReadString(const JsonValue& v, DecodeContext& ctx, InternedString& out);
absl::Status ReadBool(const JsonValue& v, DecodeContext& ctx, bool& out);
absl::Status ReadInt32(const JsonValue& v, DecodeContext& ctx, std::int32_t& out);
absl::Status ReadInt64(const JsonValue& v, DecodeContext& ctx, std::int64_t& out);
// A string member into an optional (set even when the string is empty; unset when null/absent).
absl::Status ReadOptionalString(const JsonValue& v, DecodeContext& ctx, std::optional<std::string>& out);
absl::Status ReadOptionalInt32(const JsonValue& v, DecodeContext& ctx,
                               std::optional<std::int32_t>& out);
absl::Status ReadOptionalInt64(const JsonValue& v, DecodeContext& ctx,
                               std::optional<std::int64_t>& out);
absl::Status ReadTime(const JsonValue& v, DecodeContext& ctx, std::optional<Time>& out);
absl::Status ReadQuantity(const JsonValue& v, DecodeContext& ctx, Quantity& out);
absl::Status ReadStringList(const JsonValue& v, DecodeContext& ctx, std::vector<std::string>& out);
absl::Status ReadStringList(const JsonValue& v, DecodeContext& ctx,
                            CompactVector<std::string>& out);

// Maps: merged into `out` (a repeated key keeps its last value); entries under ["key"].
absl::Status ReadStringMap(const JsonValue& v, DecodeContext& ctx, Labels& out);
absl::Status ReadResourceList(const JsonValue& v, DecodeContext& ctx, ResourceList& out);
absl::Status ReadResourceRequirements(const JsonValue& v, DecodeContext& ctx,
                                      ResourceRequirements& out);

// Shared API types.
absl::Status ReadObjectMeta(const JsonValue& v, DecodeContext& ctx, ObjectMeta& out);
// ReadObjectMeta, then annotations and ownerReferences dropped (still checked): for the kinds that
// never read them (json_decode_workloads.cc).
absl::Status ReadObjectMetaWithoutAnnotations(const JsonValue& v, DecodeContext& ctx, ObjectMeta& out);
absl::Status ReadLabelSelector(const JsonValue& v, DecodeContext& ctx, LabelSelector& out);
absl::Status ReadNodeSelector(const JsonValue& v, DecodeContext& ctx, NodeSelector& out);
absl::Status ReadNodeSelectorTerm(const JsonValue& v, DecodeContext& ctx, NodeSelectorTerm& out);
absl::Status ReadPreferredSchedulingTerm(const JsonValue& v, DecodeContext& ctx,
                                         PreferredSchedulingTerm& out);

// `kind`, if present, non-null and non-empty, must equal `expected`.
absl::Status CheckKind(const JsonValue& object, DecodeContext& ctx, std::string_view expected);
// metadata.name must be non-empty.
absl::Status CheckName(const ObjectMeta& metadata, DecodeContext& ctx);

// Whole objects (their `kind` is not checked here). Decoding applies the defaults documented in
// api/json_decode.h and checks the required fields.
absl::Status ReadPod(const JsonValue& v, DecodeContext& ctx, Pod& out);
absl::Status ReadNode(const JsonValue& v, DecodeContext& ctx, Node& out);
absl::Status ReadPodDisruptionBudget(const JsonValue& v, DecodeContext& ctx,
                                     PodDisruptionBudget& out);
// api/workloads.h: metadata without annotations and ownerReferences, spec.selector.
absl::Status ReadService(const JsonValue& v, DecodeContext& ctx, Service& out);
absl::Status ReadReplicationController(const JsonValue& v, DecodeContext& ctx,
                                       ReplicationController& out);
absl::Status ReadReplicaSet(const JsonValue& v, DecodeContext& ctx, ReplicaSet& out);
absl::Status ReadStatefulSet(const JsonValue& v, DecodeContext& ctx, StatefulSet& out);
// api/namespace.h: metadata without annotations and ownerReferences.
absl::Status ReadNamespace(const JsonValue& v, DecodeContext& ctx, Namespace& out);
// api/storage.h: the fields the volume plugins read.
absl::Status ReadPersistentVolumeClaim(const JsonValue& v, DecodeContext& ctx,
                                       PersistentVolumeClaim& out);
absl::Status ReadPersistentVolume(const JsonValue& v, DecodeContext& ctx, PersistentVolume& out);
absl::Status ReadStorageClass(const JsonValue& v, DecodeContext& ctx, StorageClass& out);
absl::Status ReadCSINode(const JsonValue& v, DecodeContext& ctx, CSINode& out);
absl::Status ReadVolumeAttachment(const JsonValue& v, DecodeContext& ctx, VolumeAttachment& out);
absl::Status ReadCSIDriver(const JsonValue& v, DecodeContext& ctx, CSIDriver& out);
absl::Status ReadCSIStorageCapacity(const JsonValue& v, DecodeContext& ctx, CSIStorageCapacity& out);
// api/resource.h: the fields the DynamicResources plugin reads (json_decode_resource.cc).
absl::Status ReadResourceSlice(const JsonValue& v, DecodeContext& ctx, ResourceSlice& out);
absl::Status ReadDeviceClass(const JsonValue& v, DecodeContext& ctx, DeviceClass& out);
absl::Status ReadResourceClaim(const JsonValue& v, DecodeContext& ctx, ResourceClaim& out);
// {"<key>": id, ...} (a pod's or a volume's in-tree source) as an InTreeVolumeSource of `plugin`;
// "" for `key` keeps no id.
absl::Status ReadInTreeSource(const JsonValue& v, DecodeContext& ctx, std::string_view plugin,
                              std::string_view key, std::optional<InTreeVolumeSource>& out);
absl::Status ReadApiStatus(const JsonValue& v, DecodeContext& ctx, ApiStatus& out);

}  // namespace ksched::api::json_internal
