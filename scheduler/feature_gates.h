// FeatureGates: kube-scheduler's --feature-gates, --emulated-version and
// --min-compatibility-version, as component-base reads them (compatibility.ComponentGlobalsRegistry
// + featuregate), over the gates the kube-scheduler v1.37.2 binary knows
// (feature_gates_v1_37.inc: every gate's versioned specs, generated from that binary's registry;
// feature_gate_dependencies_v1_37.inc: the dependencies between gates).
//
// Versions (compatibility.EffectiveVersion of the "kube" component, binary version 1.37.2):
//   - each flag may be repeated; its values are comma-separated "[component=]major.minor" items,
//     component "kube" by default (any other: "component not registered: foo"); versions are
//     parsed as k8s.io/apimachinery's version.Parse with its words ("could not parse \"x\" as
//     version", "illegal version string \"1\"", ...); "patch version not allowed, got:
//     kube=1.36.1"; "duplicate version flag, kube=1.35 and kube=1.36";
//   - the emulation version defaults to 1.37, the minimum compatibility version to one minor below
//     the emulation version, never below the floor 1.34 (binary - 3); out of range, Validate's
//     errors: "emulation version 1.33 is not between [1.34, 1.37.0]", "minCompatibilityVersion
//     version 1.36 is not between [1.34, 1.35]".
// Gates (featuregate.Set at those versions):
//   - the flag may be repeated; its values are comma-separated "[component:]Name=bool" items,
//     component "kube" by default (a "kube:" item and an item without prefix together: "set kube
//     feature gates with default empty prefix or kube: prefix consistently, do not mix use"),
//     names and values trimmed, empty items skipped, a later item overriding an earlier one;
//   - a gate's default, stage and lock are those of its last spec whose version is at most the
//     emulation version and whose minimum compatibility version (if any) is at most the minimum
//     compatibility version; a gate with no such spec is PRE-ALPHA there (off, and not settable);
//   - errors, with upstream's words: "missing bool value for X", "invalid value of X=v, err:
//     strconv.ParseBool: parsing \"v\": invalid syntax", "unrecognized feature gate: X",
//     "cannot set feature gate X to false, feature is locked to true", "cannot set feature gate X
//     to true, feature is PreAlpha at emulated version 1.34, min compatibility version 1.34",
//     "X is enabled, but depends on features that are disabled: [A B]" (#133697);
//   - AllAlpha / AllBeta set every alpha / beta gate (at the emulation version) not named
//     explicitly;
//   - notices: a GA or deprecated gate set explicitly (an info line, "\"Warning: setting GA
//     feature gate. It will be removed in a future release.\" featureGate=\"X\" value=true"), and
//     AlphaWarning (a warning).
// Upstream reports the first of several errors in Go map order (random); here the items' order.
//
// Thread-safety: immutable after Parse.
#pragma once

#include <compare>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "config/feature_gates.h"
#include "framework/features.h"

namespace ksched::scheduler {

enum class FeatureStage { kPreAlpha, kAlpha, kBeta, kGA, kDeprecated };

// A Kubernetes release as component-base keeps the versions set: major.minor.
struct MajorMinor {
  int major = 0;
  int minor = 0;
  friend constexpr auto operator<=>(const MajorMinor&, const MajorMinor&) = default;
  std::string String() const;  // "1.36"
};

// The kube-scheduler release this table and these rules are v1.37.2's.
inline constexpr MajorMinor kBinaryVersion{1, 37};
inline constexpr int kBinaryPatch = 2;

// One row of the generated table: from `version` on (subject to the minimum compatibility version
// being at least `min_compatibility_version` when that is set), the gate is this.
struct VersionedFeatureSpec {
  std::string_view name;
  MajorMinor version;
  bool default_value;
  FeatureStage stage;
  bool locked;                           // LockToDefault
  MajorMinor min_compatibility_version;  // {-1, -1}: none
};

// A gate at given versions.
struct FeatureSpec {
  std::string_view name;
  bool default_value;
  FeatureStage stage;
  bool locked;
};

// --emulated-version / --min-compatibility-version.
struct CompatibilityVersions {
  MajorMinor emulation = kBinaryVersion;
  MajorMinor min_compatibility{kBinaryVersion.major, kBinaryVersion.minor - 1};
};

// Every versioned spec the v1.37.2 kube-scheduler knows, sorted by name, each gate's specs in
// increasing version order.
std::span<const VersionedFeatureSpec> VersionedFeatures();

// The spec of one gate's rows (VersionedFeatures' rows of one name) that applies at `versions`
// (featureSpecAtEmulationAndMinCompatVersion); null when none does (the gate is PRE-ALPHA there).
const VersionedFeatureSpec* FeatureSpecRowAt(std::span<const VersionedFeatureSpec> rows,
                                             const CompatibilityVersions& versions);

// The stage as component-base prints it ("ALPHA", "BETA", "DEPRECATED", "PRE-ALPHA"; "" for GA).
std::string_view StageName(FeatureStage stage);

// Parses the values of the two flags (each a list of items, as the flags accumulate them); the
// errors of component-base's registry Set, in its order. Range checks are
// ValidateCompatibilityVersions'.
absl::StatusOr<CompatibilityVersions> ParseCompatibilityVersions(const std::vector<std::string>& emulated_version,
                                                                  const std::vector<std::string>& min_compatibility_version);

// EffectiveVersion.Validate: the versions out of range, one message each (none: valid).
std::vector<std::string> ValidateCompatibilityVersions(const CompatibilityVersions& versions);

// The help text's "Options are: kube=1.34..1.37(default:1.37)" range of either flag.
std::string AllowedVersionRange(bool emulation);

class FeatureGates {
 public:
  // Every gate at its default at the binary version.
  FeatureGates();

  // `flag_values`: the items of every --feature-gates given, in order. `notices` receives
  // upstream's info lines for GA and deprecated gates set (one line each, klog's structured text).
  static absl::StatusOr<FeatureGates> Parse(const std::vector<std::string>& flag_values,
                                            const CompatibilityVersions& versions, std::vector<std::string>* notices);

  // Whether a known gate is on. An unknown name is a programming error and aborts.
  bool Enabled(std::string_view name) const;
  // "AllAlpha=true" (or AllBeta...) when that set the gate, else empty.
  std::string_view SetBy(std::string_view name) const;
  // Whether --feature-gates named the gate.
  bool ExplicitlySet(std::string_view name) const;
  const CompatibilityVersions& versions() const { return versions_; }

  // The gate at these gates' versions; an unknown name aborts.
  FeatureSpec Spec(std::string_view name) const;
  // Every gate known at these versions (GetAll: the pre-alpha ones left out), sorted by name.
  std::vector<FeatureSpec> Specs() const;

  // Registry Validate's warning when the binary is newer than the emulation version (always for a
  // patch release) and alpha gates are on: "component has alpha features enabled in emulated
  // version, this is unsupported: features=[A B]" (upstream lists them in map order); else empty.
  std::string AlphaWarning() const;

 private:
  CompatibilityVersions versions_;
  absl::flat_hash_map<std::string_view, bool> enabled_;          // every known gate
  absl::flat_hash_map<std::string_view, std::string_view> via_;  // gates set by AllAlpha / AllBeta
  absl::flat_hash_map<std::string_view, bool> explicit_;         // gates named by the flag
};

// The gates kube-scheduler v1.37.2 reads whose values this scheduler implements only in part: one
// set (or defaulted by --emulated-version) to a value not implemented is an error naming it
// ("feature gate X=false is not supported by kube-scheduler-cpp: it implements X=true only"),
// rather than a setting silently ignored. Gates kube-scheduler does not read are accepted, with no
// effect, as upstream.
absl::Status CheckImplementedGates(const FeatureGates& gates);

// The gates as the configuration layer reads them (the default plugin set, gated args defaults
// and validation).
config::ConfigFeatureGates ConfigGatesOf(const FeatureGates& gates);
// The gates as the framework and the in-tree plugins read them (framework::SetProcessFeatures).
framework::Features FrameworkFeaturesOf(const FeatureGates& gates);

}  // namespace ksched::scheduler
