// Node decoding (see json_decode_internal.h and, for the rules, json_decode.h).
#include "api/json_decode_internal.h"

namespace ksched::api::json_internal {

namespace {

absl::Status ReadTaint(const JsonValue& v, DecodeContext& ctx, Taint& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "key") return ReadString(value, ctx, out.key);
    if (name == "value") return ReadString(value, ctx, out.value);
    if (name == "effect") return ReadString(value, ctx, out.effect);
    if (name == "timeAdded") return ReadTime(value, ctx, out.time_added);
    return absl::OkStatus();
  });
}

absl::Status ReadNodeSpec(const JsonValue& v, DecodeContext& ctx, NodeSpec& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "unschedulable") return ReadBool(value, ctx, out.unschedulable);
    if (name == "taints") return ReadArray(value, ctx, out.taints, ReadTaint);
    return absl::OkStatus();
  });
}

absl::Status ReadContainerImage(const JsonValue& v, DecodeContext& ctx, ContainerImage& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "names") return ReadStringList(value, ctx, out.names);
    if (name == "sizeBytes") return ReadInt64(value, ctx, out.size_bytes);
    return absl::OkStatus();
  });
}

absl::Status ReadNodeCondition(const JsonValue& v, DecodeContext& ctx, NodeCondition& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "type") return ReadString(value, ctx, out.type);
    if (name == "status") return ReadString(value, ctx, out.status);
    return absl::OkStatus();
  });
}

absl::Status ReadNodeStatus(const JsonValue& v, DecodeContext& ctx, NodeStatus& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "capacity") return ReadResourceList(value, ctx, out.capacity);
    if (name == "allocatable") return ReadResourceList(value, ctx, out.allocatable);
    if (name == "images") return ReadArray(value, ctx, out.images, ReadContainerImage);
    if (name == "conditions") return ReadArray(value, ctx, out.conditions, ReadNodeCondition);
    if (name == "declaredFeatures") return ReadStringList(value, ctx, out.declared_features);
    return absl::OkStatus();
  });
}

}  // namespace

absl::Status ReadNode(const JsonValue& v, DecodeContext& ctx, Node& out) {
  absl::Status status = ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "metadata") return ReadObjectMeta(value, ctx, out.metadata);
    if (name == "spec") return ReadNodeSpec(value, ctx, out.spec);
    if (name == "status") return ReadNodeStatus(value, ctx, out.status);
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return CheckName(out.metadata, ctx);
}

}  // namespace ksched::api::json_internal
