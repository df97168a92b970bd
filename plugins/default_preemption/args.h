// DefaultPreemptionArgs (upstream config.DefaultPreemptionArgs): how many candidate nodes the dry
// run looks for before it stops. The config layer validates them and hands them to the factory as
// framework::RawPluginArgs (JSON, upstream's defaults filled in); ParseDefaultPreemptionArgs reads
// that JSON and checks the values again as upstream's plugin constructor does.
//
// Thread-safety: value types and pure functions.
#pragma once

#include <cstdint>
#include <string_view>

#include "absl/status/statusor.h"
#include "framework/registry.h"

namespace ksched::plugins::default_preemption {

struct DefaultPreemptionArgs final : framework::PluginArgs {
  // At least this percentage of the nodes (0..100) ...
  std::int32_t min_candidate_nodes_percentage = 10;
  // ... and at least this many nodes (>= 0) are candidates, capped by the node count.
  std::int32_t min_candidate_nodes_absolute = 100;
};

// Reads {"minCandidateNodesPercentage": N, "minCandidateNodesAbsolute": M, ...} (other keys such
// as kind/apiVersion ignored; absent values keep the defaults). InvalidArgument
// "DefaultPreemption args: <field>: Invalid value: ..." for a non-integer or out-of-range value,
// with upstream's validation texts.
absl::StatusOr<DefaultPreemptionArgs> ParseDefaultPreemptionArgs(std::string_view json);

}  // namespace ksched::plugins::default_preemption
