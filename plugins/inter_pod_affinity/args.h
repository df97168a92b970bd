// InterPodAffinityArgs: the InterPodAffinity plugin's configuration (upstream
// config.InterPodAffinityArgs, v1.34), with upstream's defaults (v1 SetDefaults: weight 1) and
// validation (validation_pluginargs.go ValidateInterPodAffinityArgs).
//
//   hard_pod_affinity_weight: the score an existing pod's *required* affinity term adds to the
//     nodes of its topology when the incoming pod matches it (symmetry); 0 turns that off.
//   ignore_preferred_terms_of_existing_pods: skip scoring entirely when the incoming pod has no
//     preferred (anti-)affinity terms of its own.
//
// Errors: ValidateInterPodAffinityArgs returns OkStatus or InvalidArgument with upstream's field
// error, its path under `path`, e.g. "hardPodAffinityWeight: Invalid value: 101: not in valid range
// [0, 100]". The config layer calls it with the pluginConfig path; the factory with the empty path.
//
// Thread-safety: a value type.
#pragma once

#include <cstdint>

#include "absl/status/status.h"
#include "api/field_errors.h"
#include "framework/registry.h"

namespace ksched::plugins::inter_pod_affinity {

// upstream v1.DefaultHardPodAffinitySymmetricWeight.
inline constexpr std::int32_t kDefaultHardPodAffinityWeight = 1;

struct InterPodAffinityArgs final : public framework::PluginArgs {
  std::int32_t hard_pod_affinity_weight = kDefaultHardPodAffinityWeight;
  bool ignore_preferred_terms_of_existing_pods = false;
};

absl::Status ValidateInterPodAffinityArgs(const api::FieldPath& path,
                                          const InterPodAffinityArgs& args);

}  // namespace ksched::plugins::inter_pod_affinity
