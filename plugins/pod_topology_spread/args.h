// PodTopologySpreadArgs: the PodTopologySpread plugin's configuration (upstream
// config.PodTopologySpreadArgs, v1.34), its defaults (upstream v1 SetDefaults_PodTopologySpreadArgs)
// and its validation (upstream validation.ValidatePodTopologySpreadArgs).
//
// Contract: a default-constructed args value is upstream's defaulted value (defaultingType
// "System", no listed constraints: the plugin then uses the system defaults, {hostname maxSkew 3,
// zone maxSkew 5}, both ScheduleAnyway). The config layer fills the fields from the file as written
// (an absent defaultingType stays empty), then calls SetDefaults, then Validate; the factory
// validates again but never applies defaults.
//
// Errors: ValidatePodTopologySpreadArgs returns OkStatus or InvalidArgument whose message is
// upstream's field-error aggregate with paths under `path`, e.g.
//   defaultConstraints[0].maxSkew: Invalid value: -1: not in valid range (0, inf)
//   defaultingType: Invalid value: "System": when .defaultConstraints are not empty
//
// Thread-safety: value types.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "api/field_errors.h"
#include "api/topology_spread.h"
#include "framework/registry.h"

namespace ksched::plugins::pod_topology_spread {

// upstream config.PodTopologySpreadConstraintsDefaulting values.
inline constexpr std::string_view kSystemDefaulting = "System";
inline constexpr std::string_view kListDefaulting = "List";

struct PodTopologySpreadArgs final : public framework::PluginArgs {
  // Constraints for pods that define none; labelSelector must be absent (the selector is deduced
  // per pod from its Services and controller). Only used with defaulting_type "List".
  std::vector<api::TopologySpreadConstraint> default_constraints;
  // "System" or "List".
  std::string defaulting_type{kSystemDefaulting};
};

// upstream SetDefaults_PodTopologySpreadArgs: an empty defaultingType means "System".
void SetDefaults(PodTopologySpreadArgs& args);

absl::Status ValidatePodTopologySpreadArgs(const api::FieldPath& path,
                                           const PodTopologySpreadArgs& args);

}  // namespace ksched::plugins::pod_topology_spread
