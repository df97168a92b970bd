// NodeAffinityArgs: the NodeAffinity plugin's configuration (upstream config.NodeAffinityArgs,
// v1.34): an optional node affinity every pod of the profile must satisfy in addition to its own
// (required terms filter, preferred terms add to the score). Absent by default.
//
// ValidateNodeAffinityArgs is upstream's validation.ValidateNodeAffinityArgs: every invalid term of
// addedAffinity is reported, with paths under `path` (e.g.
// "addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0]
// .values: Invalid value: ..."), flattened into one aggregate ("[e1, e2]" when several). The config
// layer calls it with the pluginConfig path; the plugin's factory calls it with the empty path.
//
// Thread-safety: a value type.
#pragma once

#include <optional>

#include "absl/status/status.h"
#include "api/affinity.h"
#include "api/field_errors.h"
#include "framework/registry.h"

namespace ksched::plugins::node_affinity {

struct NodeAffinityArgs final : public framework::PluginArgs {
  std::optional<api::NodeAffinity> added_affinity;
};

absl::Status ValidateNodeAffinityArgs(const api::FieldPath& path, const NodeAffinityArgs& args);

}  // namespace ksched::plugins::node_affinity
