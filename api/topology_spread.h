// TopologySpreadConstraint: core/v1 TopologySpreadConstraint (a pod's
// spec.topologySpreadConstraints).
//
// String-valued enums are kept as decoded. The API server does not default nodeAffinityPolicy and
// nodeTaintsPolicy; an empty string means absent, which the PodTopologySpread plugin reads as
// Honor and Ignore respectively.
//
// Thread-safety: plain value type.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/label_selector.h"

namespace ksched::api {

// core/v1 UnsatisfiableConstraintAction values.
inline constexpr std::string_view kDoNotSchedule = "DoNotSchedule";
inline constexpr std::string_view kScheduleAnyway = "ScheduleAnyway";
// core/v1 NodeInclusionPolicy values.
inline constexpr std::string_view kNodeInclusionPolicyIgnore = "Ignore";
inline constexpr std::string_view kNodeInclusionPolicyHonor = "Honor";

struct TopologySpreadConstraint {
  std::int32_t max_skew = 0;
  InternedString topology_key;
  std::string when_unsatisfiable;
  std::optional<LabelSelector> label_selector;  // null selects no pod
  std::optional<std::int32_t> min_domains;
  std::string node_affinity_policy;  // "" = absent (Honor)
  std::string node_taints_policy;    // "" = absent (Ignore)
  std::vector<std::string> match_label_keys;

  friend bool operator==(const TopologySpreadConstraint&,
                         const TopologySpreadConstraint&) = default;
};

}  // namespace ksched::api
