// RequiredNodeAffinity: a pod's hard node constraints, spec.nodeSelector AND
// spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution, compiled once
// (upstream component-helpers nodeaffinity.GetRequiredNodeAffinity / RequiredNodeAffinity, v0.34).
//
// The required node selector is compiled lazily-erroring (api::LazyErrorNodeSelector) for backwards
// compatibility: invalid terms never match, and their parse errors surface from Match() only when
// no valid term matched. Callers that filter (NodeAffinity, PodTopologySpread) ignore those errors;
// queueing hints report them.
//
// Thread-safety: immutable once built; Match() never allocates and may run on many threads.
#pragma once

#include <optional>

#include "absl/status/statusor.h"
#include "api/label_selector.h"
#include "api/node.h"
#include "api/node_selector.h"
#include "api/pod.h"

namespace ksched::plugins::helper {

class RequiredNodeAffinity {
 public:
  // Matches every node.
  RequiredNodeAffinity() = default;

  static RequiredNodeAffinity FromPod(const api::Pod& pod);

  // false when the nodeSelector does not match; otherwise the required selector's result (true
  // when there is none).
  absl::StatusOr<bool> Match(const api::Node& node) const noexcept;

 private:
  std::optional<api::CompiledLabelSelector> node_selector_;  // absent when spec.nodeSelector is empty
  std::optional<api::LazyErrorNodeSelector> required_;       // absent when the pod has none
};

}  // namespace ksched::plugins::helper
