// FeatureGates: kube-scheduler's --feature-gates, as component-base reads it
// (compatibility.ComponentGlobalsRegistry + featuregate.Set) over the gates the kube-scheduler
// v1.34.4 binary knows (feature_gates_v1_34.inc, generated from that binary's registry):
//   - the flag may be repeated; its values are comma-separated "[component:]Name=bool" items,
//     component "kube" by default (any other: "component not registered: foo"), names and values
//     trimmed, empty items skipped, a later item overriding an earlier one;
//   - errors, with upstream's words: "missing bool value for X", "invalid value of X=v, err:
//     strconv.ParseBool: parsing \"v\": invalid syntax", "unrecognized feature gate: X",
//     "cannot set feature gate X to false, feature is locked to true";
//   - AllAlpha / AllBeta set every alpha / beta gate not named explicitly;
//   - warnings: a GA or deprecated gate set explicitly ("Setting GA feature gate X=true. It will be
//     removed in a future release."), and the alpha gates enabled ("component has alpha features
//     enabled in emulated version, this is unsupported").
// Upstream reports the first of several errors in Go map order (random); here the items' order.
//
// Thread-safety: immutable after Parse.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace ksched::scheduler {

enum class FeatureStage { kPreAlpha, kAlpha, kBeta, kGA, kDeprecated };

struct FeatureSpec {
  std::string_view name;
  bool default_value;
  FeatureStage stage;
  bool locked;  // LockToDefault
};

// Every gate the v1.34.4 kube-scheduler knows, sorted by name.
std::span<const FeatureSpec> KnownFeatures();

// The stage as component-base prints it ("ALPHA", "BETA", "DEPRECATED", "PRE-ALPHA"; "" for GA).
std::string_view StageName(FeatureStage stage);

class FeatureGates {
 public:
  // Every gate at its default.
  FeatureGates();

  // `flag_values`: the values of each --feature-gates given, in order. `warnings` receives
  // upstream's warnings (one line each).
  static absl::StatusOr<FeatureGates> Parse(const std::vector<std::string>& flag_values,
                                            std::vector<std::string>* warnings);

  // Whether a known gate is on. An unknown name is a programming error and aborts.
  bool Enabled(std::string_view name) const;
  // "AllAlpha=true" (or AllBeta...) when that set the gate, else empty.
  std::string_view SetBy(std::string_view name) const;

 private:
  absl::flat_hash_map<std::string_view, bool> enabled_;          // every known gate
  absl::flat_hash_map<std::string_view, std::string_view> via_;  // gates set by AllAlpha / AllBeta
};

// The gates kube-scheduler reads that this scheduler implements at their v1.34 defaults only:
// one set otherwise is an error naming it ("feature gate X=false is not supported by
// kube-scheduler-cpp: it implements X=true only"), rather than a setting silently ignored.
// SchedulerPopFromBackoffQ is implemented both ways; gates kube-scheduler does not read are
// accepted, with no effect, as upstream.
absl::Status CheckImplementedGates(const FeatureGates& gates);

}  // namespace ksched::scheduler
