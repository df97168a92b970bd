// Lease: a coordination.k8s.io/v1 Lease, the object leader election locks (client-go's
// resourcelock.LeaseLock), with its JSON decoding and encoding.
//
// Kept: metadata (api::ObjectMeta: name, namespace, uid, resourceVersion, labels, ...) and the
// whole spec. Every spec field is a pointer in Go (omitempty): nullopt here is "absent", which
// differs from an empty string or zero (the API server keeps holderIdentity "" as "").
// Times are metav1.MicroTime, written "2006-01-02T15:04:05.000000Z07:00" in UTC (six fractional
// digits, truncated) and read as any RFC 3339 time (api/time.h).
//
// Writing: EncodeLease makes a fresh object for a POST. An update (PUT) must carry everything the
// server holds, or it would drop what this model does not keep (finalizers, ownerReferences'
// blockOwnerDeletion, fields of newer API versions...): ReplaceLeaseSpec takes the JSON the server
// returned and swaps in a new spec, keeping metadata.resourceVersion for optimistic concurrency.
//
// Ownership: plain value types. Thread-safety: the functions are pure.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "api/object_meta.h"
#include "api/time.h"

namespace ksched::api {

inline constexpr char kLeaseApiVersion[] = "coordination.k8s.io/v1";
inline constexpr char kLeaseKind[] = "Lease";

// coordinationv1.LeaseSpec (v1.34), fields in Go's order.
struct LeaseSpec {
  std::optional<std::string> holder_identity;
  std::optional<std::int32_t> lease_duration_seconds;
  std::optional<Time> acquire_time;
  std::optional<Time> renew_time;
  std::optional<std::int32_t> lease_transitions;
  std::optional<std::string> strategy;          // CoordinatedLeaseStrategy, e.g. "OldestEmulationVersion"
  std::optional<std::string> preferred_holder;

  friend bool operator==(const LeaseSpec&, const LeaseSpec&) = default;
};

struct Lease {
  ObjectMeta metadata;
  LeaseSpec spec;

  friend bool operator==(const Lease&, const Lease&) = default;
};

// Decodes a Lease. Errors are InvalidArgument naming the JSON path ("spec.renewTime: ..."); a
// `kind` other than "Lease" and an empty metadata.name are errors. Unknown fields are ignored.
absl::StatusOr<Lease> DecodeLease(std::string_view json);

// The spec as a JSON object ({"holderIdentity":"a",...}, absent fields omitted).
std::string EncodeLeaseSpec(const LeaseSpec& spec);

// A whole Lease for a create: apiVersion, kind, metadata (name, namespace, and labels,
// annotations and resourceVersion when set) and spec.
std::string EncodeLease(const Lease& lease);

// `lease_json` (a Lease as the server returned it) with its spec replaced by `spec`; every other
// field is kept as it was. InvalidArgument when `lease_json` is not a JSON object.
absl::StatusOr<std::string> ReplaceLeaseSpec(std::string_view lease_json, const LeaseSpec& spec);

}  // namespace ksched::api
