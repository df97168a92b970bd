// PodDisruptionBudget: policy/v1 PodDisruptionBudget holding only what kube-scheduler v1.34's
// preemption reads (plugins/defaultpreemption filterPodsWithPDBViolation): metadata,
// spec.selector, status.disruptionsAllowed and the pod names of status.disruptedPods.
// spec.minAvailable / maxUnavailable and the other status counters are not kept: the disruption
// controller folds them into disruptionsAllowed.
//
// Thread-safety: plain value types.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "api/label_selector.h"
#include "api/object_meta.h"

namespace ksched::api {

struct PodDisruptionBudgetSpec {
  // nullopt: no selector (upstream: a nil selector matches no pod).
  std::optional<LabelSelector> selector;

  friend bool operator==(const PodDisruptionBudgetSpec&, const PodDisruptionBudgetSpec&) = default;
};

struct PodDisruptionBudgetStatus {
  std::int32_t disruptions_allowed = 0;
  // The keys of status.disruptedPods (pod names; the eviction times are not kept), sorted.
  std::vector<std::string> disrupted_pods;

  friend bool operator==(const PodDisruptionBudgetStatus&,
                         const PodDisruptionBudgetStatus&) = default;
};

struct PodDisruptionBudget {
  ObjectMeta metadata;
  PodDisruptionBudgetSpec spec;
  PodDisruptionBudgetStatus status;

  friend bool operator==(const PodDisruptionBudget&, const PodDisruptionBudget&) = default;
};

}  // namespace ksched::api
