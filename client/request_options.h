// Options and bodies of the typed REST calls (metav1.ListOptions, metav1.DeleteOptions, patch
// types, v1.Binding), encoded as the API server expects them.
//
// Query strings list parameters in key order (as Go's url.Values.Encode) with values escaped by
// QueryEscape; JSON bodies are written with RapidJSON's Writer, fields in a fixed order, absent
// options omitted.
//
// Thread-safety: plain value types; pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ksched::client {

struct ListOptions {
  std::string label_selector;
  std::string field_selector;
  std::int64_t limit = 0;                // 0: no limit
  std::string continue_token;
  std::string resource_version;
  std::string resource_version_match;    // "NotOlderThan" | "Exact"
  std::int64_t timeout_seconds = 0;      // 0: unset
};

// "?a=1&b=2" (empty when nothing is set). `watch` adds allowWatchBookmarks=true and watch=1.
std::string ListQuery(const ListOptions& options, bool watch = false);

struct DeleteOptions {
  std::optional<std::int64_t> grace_period_seconds;
  std::string precondition_uid;
  std::string precondition_resource_version;
  std::string propagation_policy;        // "Orphan" | "Background" | "Foreground"; "" = unset
};

// {"apiVersion":"v1","kind":"DeleteOptions",...}; empty when no option is set (no body sent).
std::string DeleteOptionsJson(const DeleteOptions& options);

enum class PatchType { kMerge, kStrategic, kJson };

// "application/merge-patch+json", "application/strategic-merge-patch+json",
// "application/json-patch+json".
std::string_view PatchContentType(PatchType type);

// A v1 Binding of pod namespace/name (uid, when non-empty, as the API server's precondition) to
// a node, as kube-scheduler's DefaultBinder posts it:
// {"apiVersion":"v1","kind":"Binding","metadata":{"name":..,"namespace":..,"uid":..},
//  "target":{"kind":"Node","name":..}}
std::string BindingJson(std::string_view namespace_name, std::string_view pod_name,
                        std::string_view pod_uid, std::string_view node_name);
// The same Binding in Kubernetes protobuf (api/protobuf_wire.h), the envelope included:
// Binding{metadata(1): ObjectMeta{name(1), namespace(3), uid(5)}, target(2): ObjectReference{kind(1),
// name(3)}}, an empty uid left out.
std::string BindingProtobuf(std::string_view namespace_name, std::string_view pod_name,
                            std::string_view pod_uid, std::string_view node_name);

}  // namespace ksched::client
