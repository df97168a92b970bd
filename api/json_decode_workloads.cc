// Decoding of the objects kept only for what selects pods or namespaces: api/workloads.h and
// api/namespace.h (see json_decode_internal.h and, for the rules, json_decode.h).
#include "api/json_decode_internal.h"

namespace ksched::api::json_internal {

// What the scheduler keeps of their metadata: annotations and ownerReferences are dropped once
// read (api/workloads.h says why), so a malformed one is still an error, as for every kind.
absl::Status ReadObjectMetaWithoutAnnotations(const JsonValue& v, DecodeContext& ctx, ObjectMeta& out) {
  absl::Status status = ReadObjectMeta(v, ctx, out);
  out.annotations = Annotations();
  out.owner_references.clear();
  return status;
}

namespace {

// {"metadata": ..., "spec": {"selector": ...}}, the selector read by `read_selector` into `out`.
template <typename Object, typename ReadSelector>
absl::Status ReadSelectingObject(const JsonValue& v, DecodeContext& ctx, Object& out,
                                 ReadSelector&& read_selector) {
  absl::Status status = ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "metadata") return ReadObjectMetaWithoutAnnotations(value, ctx, out.metadata);
    if (name == "spec") {
      return ForEachField(value, ctx, [&](std::string_view field, const JsonValue& selector) {
        if (field == "selector") return ReadOptional(selector, ctx, out.spec.selector, read_selector);
        return absl::OkStatus();
      });
    }
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return CheckName(out.metadata, ctx);
}

absl::Status ReadSelectorMap(const JsonValue& v, DecodeContext& ctx, Labels& out) {
  return ReadStringMap(v, ctx, out);
}

absl::Status ReadSelectorObject(const JsonValue& v, DecodeContext& ctx, LabelSelector& out) {
  return ReadLabelSelector(v, ctx, out);
}

}  // namespace

absl::Status ReadService(const JsonValue& v, DecodeContext& ctx, Service& out) {
  return ReadSelectingObject(v, ctx, out, ReadSelectorMap);
}

absl::Status ReadReplicationController(const JsonValue& v, DecodeContext& ctx,
                                       ReplicationController& out) {
  return ReadSelectingObject(v, ctx, out, ReadSelectorMap);
}

absl::Status ReadReplicaSet(const JsonValue& v, DecodeContext& ctx, ReplicaSet& out) {
  return ReadSelectingObject(v, ctx, out, ReadSelectorObject);
}

absl::Status ReadStatefulSet(const JsonValue& v, DecodeContext& ctx, StatefulSet& out) {
  return ReadSelectingObject(v, ctx, out, ReadSelectorObject);
}

absl::Status ReadNamespace(const JsonValue& v, DecodeContext& ctx, Namespace& out) {
  absl::Status status = ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "metadata") return ReadObjectMetaWithoutAnnotations(value, ctx, out.metadata);
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return CheckName(out.metadata, ctx);
}

}  // namespace ksched::api::json_internal
