// Taint and toleration matching as kube-scheduler v1.34 does it: core/v1 Toleration.ToleratesTaint,
// component-helpers' TolerationsTolerateTaint and FindMatchingUntoleratedTaint, and the scheduler's
// DoNotScheduleTaintsFilterFunc. Shared by TaintToleration, NodeUnschedulable and any plugin that
// honours taints (PodTopologySpread's nodeTaintsPolicy).
//
// Matching rules (ToleratesTaint), applied in this order:
//   - a non-empty toleration effect must equal the taint's effect (empty matches every effect);
//   - a non-empty toleration key must equal the taint's key (empty matches every key);
//   - operator "" or "Equal": the values must be equal (so an empty key with Equal matches any key
//     whose taint value equals the toleration's value); "Exists": any value; any other operator
//     tolerates nothing.
//
// Never allocates. Thread-safety: pure functions.
#pragma once

#include <span>
#include <string_view>

#include "api/taint.h"
#include "api/toleration.h"

namespace ksched::plugins::helper {

// core/v1 TaintNodeUnschedulable: the taint the node controller adds to cordoned nodes.
inline constexpr std::string_view kTaintNodeUnschedulable = "node.kubernetes.io/unschedulable";

bool ToleratesTaint(const api::Toleration& toleration, const api::Taint& taint) noexcept;

// Whether any of the tolerations tolerates the taint.
bool TolerationsTolerateTaint(std::span<const api::Toleration> tolerations,
                              const api::Taint& taint) noexcept;

// DoNotScheduleTaintsFilterFunc: the taints the Filter honours (NoSchedule and NoExecute).
bool IsDoNotScheduleTaint(const api::Taint& taint) noexcept;

// The first taint (in node order) accepted by `include` that no toleration tolerates; nullptr
// when every included taint is tolerated.
template <typename Include>
const api::Taint* FindMatchingUntoleratedTaint(std::span<const api::Taint> taints,
                                               std::span<const api::Toleration> tolerations,
                                               const Include& include) noexcept {
  for (const api::Taint& taint : taints) {
    if (include(taint) && !TolerationsTolerateTaint(tolerations, taint)) return &taint;
  }
  return nullptr;
}

}  // namespace ksched::plugins::helper
