// PodDisruptionBudget decoding (see json_decode_internal.h and, for the rules, json_decode.h).
#include <algorithm>

#include "api/json_decode_internal.h"

namespace ksched::api::json_internal {

namespace {

absl::Status ReadPodDisruptionBudgetSpec(const JsonValue& v, DecodeContext& ctx,
                                         PodDisruptionBudgetSpec& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "selector") return ReadOptional(value, ctx, out.selector, ReadLabelSelector);
    return absl::OkStatus();
  });
}

// status.disruptedPods, a map from pod name to the time its eviction was admitted: the names are
// merged into `out` (kept sorted, without duplicates), the times checked and dropped. A null time
// is Go's zero time: the name is kept.
absl::Status ReadDisruptedPodNames(const JsonValue& v, DecodeContext& ctx,
                                   std::vector<std::string>& out) {
  if (!v.IsObject()) {
    return ctx.Error("expected an object, got " + std::string(JsonTypeName(v)));
  }
  out.reserve(out.size() + v.MemberCount());
  std::optional<Time> eviction_time;
  for (auto it = v.MemberBegin(); it != v.MemberEnd(); ++it) {
    const std::string_view pod_name = AsStringView(it->name);
    if (!it->value.IsNull()) {
      ctx.PushKey(pod_name);
      PathScope scope(ctx);
      absl::Status status = ReadTime(it->value, ctx, eviction_time);
      if (!status.ok()) return status;
    }
    out.emplace_back(pod_name);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return absl::OkStatus();
}

absl::Status ReadPodDisruptionBudgetStatus(const JsonValue& v, DecodeContext& ctx,
                                           PodDisruptionBudgetStatus& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "disruptionsAllowed") return ReadInt32(value, ctx, out.disruptions_allowed);
    if (name == "disruptedPods") return ReadDisruptedPodNames(value, ctx, out.disrupted_pods);
    return absl::OkStatus();
  });
}

}  // namespace

absl::Status ReadPodDisruptionBudget(const JsonValue& v, DecodeContext& ctx,
                                     PodDisruptionBudget& out) {
  absl::Status status = ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "metadata") return ReadObjectMeta(value, ctx, out.metadata);
    if (name == "spec") return ReadPodDisruptionBudgetSpec(value, ctx, out.spec);
    if (name == "status") return ReadPodDisruptionBudgetStatus(value, ctx, out.status);
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return CheckName(out.metadata, ctx);
}

}  // namespace ksched::api::json_internal
