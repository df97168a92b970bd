// BinpackArgs: the pluginConfig args of the Binpack score plugin, parsed and validated from the
// JSON text the config layer hands an out-of-tree-style plugin (framework::RawPluginArgs).
//
//   args:
//     resources:                 # optional; absent, null or [] means [{name: cpu, weight: 1}]
//     - name: nvidia.com/gpu     # cpu, memory, ephemeral-storage, or a scalar resource
//       weight: 5                # optional, default 1; an integer in [1, 100]
//     - name: cpu
//
// The default is what the article's plugin scored (remaining CPU only). Names: cpu, memory,
// ephemeral-storage, or a scalar resource as the scheduler counts them (an extended resource such
// as nvidia.com/gpu, hugepages-*, attachable-volumes-*); anything else ("pods", "storage", a name
// without a domain) is refused, since no node accounting exists for it. Weights follow
// NodeResourcesFit's range (0, 100]; an explicit 0 is refused rather than silently turned into 1.
// `apiVersion` is ignored and `kind`, when present, must be "BinpackArgs"; any other key is an
// error (a misspelt "resource" or "weigth" would otherwise be ignored silently).
//
// Errors: InvalidArgument whose message is "Binpack args: " followed by upstream-style field
// errors (one, or several as "[e1, e2]"), paths relative to the args, e.g.
//   Binpack args: resources[1].weight: Invalid value: -1: must be positive
//
// Thread-safety: value types and pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "framework/registry.h"

namespace ksched::plugins::binpack {

inline constexpr std::int64_t kMinResourceWeight = 1;
inline constexpr std::int64_t kMaxResourceWeight = 100;

struct BinpackResource {
  std::string name;
  std::int64_t weight = 1;

  friend bool operator==(const BinpackResource&, const BinpackResource&) = default;
};

struct BinpackArgs : framework::PluginArgs {
  // Unique names, each weight in [kMinResourceWeight, kMaxResourceWeight]; never empty once
  // parsed.
  std::vector<BinpackResource> resources = DefaultResources();

  // The article's choice: remaining CPU, weight 1.
  static std::vector<BinpackResource> DefaultResources() { return {{"cpu", 1}}; }
};

// Parses and validates the args JSON (an object). Empty text means no args (the defaults).
absl::StatusOr<BinpackArgs> ParseBinpackArgs(std::string_view json);

// The same checks on an already-built value (for args built in code, e.g. tests and the bench).
absl::Status ValidateBinpackArgs(const BinpackArgs& args);

}  // namespace ksched::plugins::binpack
