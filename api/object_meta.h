// ObjectMeta: the part of metav1.ObjectMeta that scheduling reads, shared by every object kind.
//
// Kept: name, namespace, uid, resourceVersion, generation, creationTimestamp, deletionTimestamp,
// labels, annotations and ownerReferences. Dropped: generateName, selfLink, finalizers,
// managedFields, deletionGracePeriodSeconds (the scheduler never reads them).
//
// Timestamps are api::Time (nanoseconds since the epoch, see api/time.h); a timestamp that is
// absent or null in the JSON, or Go's zero time, is std::nullopt.
//
// Memory: namespace_ is an InternedString (namespaces repeat across objects; see
// api/interned_string.h) and owner_references a CompactVector (8 bytes, nothing allocated when
// empty): every cached pod and node carries an ObjectMeta.
//
// Ownership: plain value types owning their strings (interned characters are shared, pool-owned).
// Thread-safety: like any struct; concurrent const use is safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "api/labels.h"
#include "api/time.h"
#include "api/compact_vector.h"
#include "api/interned_string.h"

namespace ksched::api {

// Annotations are a string -> string map like labels and are kept in the same flat sorted vector
// of pairs (see api/labels.h). Values can be large (kubectl's last-applied-configuration).
using Annotations = Labels;

// metav1.OwnerReference, without blockOwnerDeletion.
struct OwnerReference {
  std::string api_version;
  std::string kind;
  std::string name;
  std::string uid;
  // `controller: true`; absent or false reads as false (upstream GetControllerOf needs both
  // non-nil and true).
  bool controller = false;

  friend bool operator==(const OwnerReference&, const OwnerReference&) = default;
};

struct ObjectMeta {
  std::string name;
  InternedString namespace_;  // `namespace`; empty for cluster-scoped objects such as nodes
  std::string uid;
  std::string resource_version;
  std::int64_t generation = 0;
  std::optional<Time> creation_timestamp;
  std::optional<Time> deletion_timestamp;
  Labels labels;
  Annotations annotations;
  CompactVector<OwnerReference> owner_references;

  // The controlling owner (metav1.GetControllerOf), or nullptr.
  const OwnerReference* ControllerRef() const noexcept {
    for (const OwnerReference& ref : owner_references) {
      if (ref.controller) return &ref;
    }
    return nullptr;
  }

  friend bool operator==(const ObjectMeta&, const ObjectMeta&) = default;
};

}  // namespace ksched::api
