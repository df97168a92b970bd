// Namespace: core/v1 Namespace holding only its metadata, for the labels InterPodAffinity's
// namespaceSelector terms are matched against (upstream's namespace lister). The decoder clears
// annotations and ownerReferences (never read); spec and status are not kept.
//
// Thread-safety: a plain value type.
#pragma once

#include "api/object_meta.h"

namespace ksched::api {

struct Namespace {
  ObjectMeta metadata;

  friend bool operator==(const Namespace&, const Namespace&) = default;
};

}  // namespace ksched::api
