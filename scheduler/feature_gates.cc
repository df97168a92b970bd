#include "scheduler/feature_gates.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <optional>

#include "absl/strings/str_join.h"
#include "api/field_errors.h"
#include "api/go_strconv.h"

namespace ksched::scheduler {
namespace {

constexpr VersionedFeatureSpec kVersionedFeatures[] = {
#include "scheduler/feature_gates_v1_37.inc"
};

struct FeatureDependency {
  std::string_view feature;
  std::string_view depends_on;
};

constexpr FeatureDependency kDependencies[] = {
#include "scheduler/feature_gate_dependencies_v1_37.inc"
};

// The lowest emulation and minimum compatibility version kube-scheduler v1.37 accepts: the binary's
// minor - 3, never below 1.31 (apiserver's kubeEffectiveVersionFloors).
constexpr MajorMinor kVersionFloor{kBinaryVersion.major, std::max(kBinaryVersion.minor - 3, 31)};

constexpr MajorMinor kNoVersion{-1, -1};

// The gates kube-scheduler v1.37.2 reads (pkg/scheduler/**, its plugins' feature set
// pkg/scheduler/framework/plugins/feature, cmd/kube-scheduler/**, the DRA library through the
// DynamicResources plugin, client-go's gates for its informers and clients, the apiserver
// library's for serving, component-base's for logs, metrics and zpages) that this scheduler
// implements at one value only, v1.37.2's default (at the default versions): `value`. Locked gates
// are left out (they cannot be changed at all).
struct ImplementedValue {
  std::string_view name;
  bool value;
};
constexpr ImplementedValue kImplementedOnly[] = {
    {"AllowParsingUserUIDFromCertAuth", true},
    {"ClientsAllowCBOR", false},
    {"ClientsPreferCBOR", false},
    {"CompositePodGroup", false},
    {"CoordinatedLeaderElection", false},
    // DRA features of issue #45 (the five on by default are accepted both ways: see below).
    {"DRADerivedAttributes", false},
    {"DRADeviceCompatibilityGroups", false},
    {"DRAFractionalCapacityRange", false},  // true by default only with --min-compatibility-version=1.37
    {"DRAListTypeAttributes", false},
    {"DRANodeAllocatableResources", false},
    {"DRAOptionalNodeOperations", false},
    {"DRASchedulerFilterTimeout", true},
    {"DRAWorkloadResourceClaims", false},
    // Workload (gang) scheduling is not implemented.
    {"GenericWorkload", false},
    {"InPlacePodVerticalScalingSchedulerPreemption", false},
    {"InterPodAffinityHostnameFastPath", false},
    {"MatchLabelKeysInPodTopologySpread", true},
    {"PodGroupPreemptionPolicy", false},
    {"PodLevelResources", true},
    {"SchedulerAsyncAPICalls", false},
    {"SchedulerAsyncPreemption", true},
    {"SchedulerPreQueueingHints", false},
    {"TaintTolerationComparisonOperators", false},
    {"TopologyAwareWorkloadScheduling", false},
};
// Read by kube-scheduler and implemented both ways (their values below v1.37 are what
// --emulated-version 1.34 to 1.36 defaults):
//   ComponentFlagz, ComponentStatusz: /flagz and /statusz served or not.
//   InPlacePodLevelResourcesVerticalScaling, NodeDeclaredFeatures, StorageCapacityScoring,
//     VolumeLimitScaling: framework::Features (FrameworkFeaturesOf); NodeDeclaredFeatures and
//     StorageCapacityScoring also in the configuration's defaults (ConfigGatesOf).
//   NominatedNodeNameForExpectation: the scheduler's nominated_node_name_for_expectation.
//   DRASchedulerFilterTimeout's and DRADeviceBindingConditions' args defaults (ConfigGatesOf).
// Read by kube-scheduler and accepted both ways:
//   DRAConsumableCapacity, DRADeviceBindingConditions, DRADeviceTaintRules, DRADeviceTaints,
//     DRAPartitionableDevices: the allocator is still v1.34's (issue #45), which behaves as these
//     gates off; false is what runs, and true, v1.37.2's default, is accepted as a known
//     difference the README lists.
//   SchedulerPopFromBackoffQ: implemented both ways (the queue's pop_from_backoff_q).
//   OpportunisticBatching: this scheduler does not batch (issue #48); batching reuses a previous
//     pod's filtering for identical pods and changes no placement, only how fast they come.
//   WatchListClient, InformerResourceVersion, AtomicFIFO, UnlockWhileProcessingFIFO,
//     InOrderInformersBatchProcess, ClientsAllowTLSCacheGC: client-go internals; the informers
//     list then watch either way and hold the same objects.
//   ClientsAllowCARotation: a rotated API server CA is not reloaded here either way.
//   NativeHistograms: native histograms exist only in the protobuf exposition, which this
//     scheduler does not serve; the text exposition is the same either way.
//   ContextualLogging, LoggingAlphaOptions, LoggingBetaOptions: no effect on these logs.

// The rows of one gate (consecutive in the sorted table); empty for an unknown name.
std::span<const VersionedFeatureSpec> Rows(std::string_view name) {
  const auto first = std::lower_bound(std::begin(kVersionedFeatures), std::end(kVersionedFeatures), name,
                                      [](const VersionedFeatureSpec& row, std::string_view n) { return row.name < n; });
  auto last = first;
  while (last != std::end(kVersionedFeatures) && last->name == name) ++last;
  return {first, last};
}

FeatureSpec SpecAt(std::span<const VersionedFeatureSpec> rows, const CompatibilityVersions& versions) {
  if (const VersionedFeatureSpec* row = FeatureSpecRowAt(rows, versions)) {
    return {row->name, row->default_value, row->stage, row->locked};
  }
  return {rows.empty() ? std::string_view() : rows.front().name, false, FeatureStage::kPreAlpha, false};
}

// Go's fmt %v of a []Feature, without the brackets: the names joined by spaces.
std::string JoinNames(const std::vector<std::string_view>& names) {
  std::string out;
  for (std::string_view name : names) {
    if (!out.empty()) out += ' ';
    out.append(name);
  }
  return out;
}

// Go's strings.TrimSpace for ASCII text. (Debian's Abseil has its own string_view, so its
// StripAsciiWhitespace and StrSplit do not take std::string_view.)
std::string_view Trim(std::string_view text) {
  constexpr std::string_view kSpace = " \t\n\v\f\r";
  const std::size_t first = text.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(kSpace) - first + 1);
}

// strings.Split(text, ",").
std::vector<std::string_view> SplitCommas(std::string_view text) {
  std::vector<std::string_view> out;
  for (std::size_t start = 0;;) {
    const std::size_t comma = text.find(',', start);
    out.push_back(text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (comma == std::string_view::npos) return out;
    start = comma + 1;
  }
}

// k8s.io/apimachinery's version.Version, as far as the flags need it.
struct ParsedVersion {
  std::vector<std::uint64_t> components;
  std::string pre_release;
  std::string build_metadata;

  std::uint64_t Patch() const { return components.size() < 3 ? 0 : components[2]; }
  std::string String() const {
    std::string out;
    for (std::size_t i = 0; i < components.size(); ++i) {
      if (i > 0) out += '.';
      out += std::to_string(components[i]);
    }
    if (!pre_release.empty()) out += "-" + pre_release;
    if (!build_metadata.empty()) out += "+" + build_metadata;
    return out;
  }
};

bool IsGoSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// `[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*` at the start of text: its length, 0 when absent.
std::size_t DottedIdentifiers(std::string_view text) {
  std::size_t i = 0;
  while (true) {
    const std::size_t start = i;
    while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) != 0 || text[i] == '-')) ++i;
    if (i == start) return start == 0 ? 0 : start - 1;  // a trailing '.' is not part of it
    if (i < text.size() && text[i] == '.') {
      ++i;
      continue;
    }
    return i;
  }
}

// version.parse(str, semver).
absl::StatusOr<ParsedVersion> ParseVersionAs(std::string_view str, bool semver) {
  // versionMatchRE: ^\s*v?([0-9]+(?:\.[0-9]+)*)(.*)*$ ('.' matches no newline).
  std::size_t i = 0;
  while (i < str.size() && IsGoSpace(str[i])) ++i;
  if (i < str.size() && str[i] == 'v') ++i;
  const std::size_t numbers_start = i;
  if (i >= str.size() || !IsDigit(str[i])) {
    return absl::InvalidArgumentError("could not parse " + api::GoQuote(str) + " as version");
  }
  while (i < str.size() && IsDigit(str[i])) ++i;
  while (i + 1 < str.size() && str[i] == '.' && IsDigit(str[i + 1])) {
    ++i;
    while (i < str.size() && IsDigit(str[i])) ++i;
  }
  const std::string_view numbers = str.substr(numbers_start, i - numbers_start);
  const std::string_view extra = str.substr(i);
  if (extra.find('\n') != std::string_view::npos) {
    return absl::InvalidArgumentError("could not parse " + api::GoQuote(str) + " as version");
  }
  std::vector<std::string_view> components;
  for (std::size_t start = 0;;) {
    const std::size_t dot = numbers.find('.', start);
    components.push_back(numbers.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  if ((semver && components.size() != 3) || (!semver && components.size() < 2)) {
    return absl::InvalidArgumentError("illegal version string " + api::GoQuote(str));
  }
  ParsedVersion v;
  for (std::size_t c = 0; c < components.size(); ++c) {
    const std::string_view comp = components[c];
    if ((c == 0 || semver) && comp.starts_with('0') && comp != "0") {
      return absl::InvalidArgumentError("illegal zero-prefixed version component " + api::GoQuote(comp) + " in " +
                                        api::GoQuote(str));
    }
    absl::StatusOr<std::uint64_t> number = api::GoParseUint(comp, 10, 0);
    if (!number.ok()) {
      return absl::InvalidArgumentError("illegal non-numeric version component " + api::GoQuote(comp) + " in " +
                                        api::GoQuote(str) + ": " + std::string(number.status().message()));
    }
    v.components.push_back(*number);
  }
  if (semver && !extra.empty()) {
    // extraMatchRE: ^(?:-(ids))?(?:\+(ids))?\s*$
    std::string_view rest = extra;
    if (rest.starts_with('-')) {
      const std::size_t n = DottedIdentifiers(rest.substr(1));
      if (n > 0) {
        v.pre_release = std::string(rest.substr(1, n));
        rest.remove_prefix(1 + n);
      }
    }
    if (rest.starts_with('+')) {
      const std::size_t n = DottedIdentifiers(rest.substr(1));
      if (n > 0) {
        v.build_metadata = std::string(rest.substr(1, n));
        rest.remove_prefix(1 + n);
      }
    }
    for (char c : rest) {
      if (!IsGoSpace(c)) {
        return absl::InvalidArgumentError("could not parse pre-release/metadata (" + std::string(extra) +
                                          ") in version " + api::GoQuote(str));
      }
    }
    for (std::size_t start = 0; !v.pre_release.empty();) {
      const std::size_t dot = v.pre_release.find('.', start);
      const std::string comp = v.pre_release.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
      if (api::GoParseUint(comp, 10, 0).ok() && comp.starts_with('0') && comp != "0") {
        return absl::InvalidArgumentError("illegal zero-prefixed version component " + api::GoQuote(comp) + " in " +
                                          api::GoQuote(str));
      }
      if (dot == std::string::npos) break;
      start = dot + 1;
    }
  }
  return v;
}

// version.Parse: semantic, else generic.
absl::StatusOr<ParsedVersion> ParseVersion(std::string_view str) {
  absl::StatusOr<ParsedVersion> semantic = ParseVersionAs(str, true);
  if (semantic.ok()) return semantic;
  return ParseVersionAs(str, false);
}

MajorMinor ToMajorMinor(const ParsedVersion& v) {
  return {static_cast<int>(std::min<std::uint64_t>(v.components[0], 1U << 30)),
          static_cast<int>(std::min<std::uint64_t>(v.components[1], 1U << 30))};
}

// The registry's toVersionMap plus the "component not registered" check: the kube version given,
// if any.
absl::StatusOr<std::optional<MajorMinor>> KubeVersion(const std::vector<std::string>& items) {
  std::vector<std::pair<std::string, ParsedVersion>> seen;
  for (const std::string& item : items) {
    std::string component = "kube";
    std::string_view text = item;
    if (const std::size_t equals = item.find('='); equals != std::string::npos) {
      component = std::string(Trim(std::string_view(item).substr(0, equals)));
      text = Trim(std::string_view(item).substr(equals + 1));
    }
    absl::StatusOr<ParsedVersion> version = ParseVersion(text);
    if (!version.ok()) return version.status();
    if (version->Patch() != 0) {
      return absl::InvalidArgumentError("patch version not allowed, got: " + component + "=" + version->String());
    }
    for (const auto& [name, existing] : seen) {
      if (name == component) {
        return absl::InvalidArgumentError("duplicate version flag, " + component + "=" + existing.String() + " and " +
                                          component + "=" + version->String());
      }
    }
    seen.emplace_back(component, *std::move(version));
  }
  std::optional<MajorMinor> kube;
  for (const auto& [name, version] : seen) {
    if (name != "kube") return absl::InvalidArgumentError("component not registered: " + name);
    kube = ToMajorMinor(version);
  }
  return kube;
}

}  // namespace

std::string MajorMinor::String() const { return std::to_string(major) + "." + std::to_string(minor); }

std::span<const VersionedFeatureSpec> VersionedFeatures() { return kVersionedFeatures; }

const VersionedFeatureSpec* FeatureSpecRowAt(std::span<const VersionedFeatureSpec> rows,
                                             const CompatibilityVersions& versions) {
  for (auto it = rows.rbegin(); it != rows.rend(); ++it) {
    if (it->version > versions.emulation) continue;
    if (it->min_compatibility_version != kNoVersion && versions.min_compatibility < it->min_compatibility_version) {
      continue;
    }
    return &*it;
  }
  return nullptr;
}

std::string_view StageName(FeatureStage stage) {
  switch (stage) {
    case FeatureStage::kPreAlpha: return "PRE-ALPHA";
    case FeatureStage::kAlpha: return "ALPHA";
    case FeatureStage::kBeta: return "BETA";
    case FeatureStage::kGA: return "";
    case FeatureStage::kDeprecated: return "DEPRECATED";
  }
  return "";
}

absl::StatusOr<CompatibilityVersions> ParseCompatibilityVersions(const std::vector<std::string>& emulated_version,
                                                                  const std::vector<std::string>& min_compatibility_version) {
  CompatibilityVersions versions;
  absl::StatusOr<std::optional<MajorMinor>> emulation = KubeVersion(emulated_version);
  if (!emulation.ok()) return emulation.status();
  if (emulation->has_value()) {
    // SetEmulationVersion: the minimum compatibility version follows, one minor below (not below
    // the floor; version.SubtractMinor stops at minor 0).
    versions.emulation = **emulation;
    versions.min_compatibility = {versions.emulation.major, std::max(versions.emulation.minor - 1, 0)};
    if (versions.min_compatibility < kVersionFloor) versions.min_compatibility = kVersionFloor;
  }
  absl::StatusOr<std::optional<MajorMinor>> min_compatibility = KubeVersion(min_compatibility_version);
  if (!min_compatibility.ok()) return min_compatibility.status();
  if (min_compatibility->has_value()) versions.min_compatibility = **min_compatibility;
  return versions;
}

std::vector<std::string> ValidateCompatibilityVersions(const CompatibilityVersions& versions) {
  std::vector<std::string> errors;
  const std::string binary = kBinaryVersion.String() + ".0";  // BinaryVersion().WithPatch(0)
  if (versions.emulation > kBinaryVersion || versions.emulation < kVersionFloor) {
    errors.push_back("emulation version " + versions.emulation.String() + " is not between [" +
                     kVersionFloor.String() + ", " + binary + "]");
  }
  if (versions.min_compatibility > versions.emulation || versions.min_compatibility < kVersionFloor) {
    errors.push_back("minCompatibilityVersion version " + versions.min_compatibility.String() + " is not between [" +
                     kVersionFloor.String() + ", " + versions.emulation.String() + "]");
  }
  return errors;
}

std::string AllowedVersionRange(bool emulation) {
  const CompatibilityVersions defaults;
  return "kube=" + kVersionFloor.String() + ".." + kBinaryVersion.String() + "(default:" +
         (emulation ? defaults.emulation : defaults.min_compatibility).String() + ")";
}

FeatureGates::FeatureGates() {
  for (const VersionedFeatureSpec& row : kVersionedFeatures) {
    enabled_[row.name] = SpecAt(Rows(row.name), versions_).default_value;
  }
}

absl::StatusOr<FeatureGates> FeatureGates::Parse(const std::vector<std::string>& flag_values,
                                                 const CompatibilityVersions& versions,
                                                 std::vector<std::string>* notices) {
  // The registry's multimap: component -> items, then the kube gate's "key=value" list.
  std::vector<std::string_view> items;
  bool prefixed = false, plain = false;
  for (const std::string& value : flag_values) {
    for (std::string_view pair : SplitCommas(value)) {
      if (pair.empty()) continue;
      std::string_view item = pair;
      if (const std::size_t colon = pair.find(':'); colon != std::string_view::npos) {
        const std::string_view component = Trim(pair.substr(0, colon));
        if (component.empty()) {
          plain = true;  // ":X=true": the default (empty) component, as no prefix
        } else if (component != "kube") {
          return absl::InvalidArgumentError("component not registered: " + std::string(component));
        } else {
          prefixed = true;
        }
        item = pair.substr(colon + 1);
      } else {
        plain = true;
      }
      items.push_back(Trim(item));
    }
  }
  if (prefixed && plain) {
    return absl::InvalidArgumentError(
        "set kube feature gates with default empty prefix or kube: prefix consistently, do not mix use");
  }
  // featuregate.Set: the items again, split on '=' into a map (a later item overrides).
  std::vector<std::pair<std::string_view, bool>> settings;  // in first-mention order
  for (std::string_view item : items) {
    if (item.empty()) continue;
    const std::size_t equals = item.find('=');
    const std::string_view key = Trim(item.substr(0, equals));
    if (equals == std::string_view::npos) return absl::InvalidArgumentError("missing bool value for " + std::string(key));
    const std::string_view text = Trim(item.substr(equals + 1));
    const absl::StatusOr<bool> value = api::GoParseBool(text);
    if (!value.ok()) {
      return absl::InvalidArgumentError("invalid value of " + std::string(key) + "=" + std::string(text) +
                                        ", err: " + std::string(value.status().message()));
    }
    auto it = std::find_if(settings.begin(), settings.end(), [&](const auto& s) { return s.first == key; });
    if (it != settings.end()) {
      it->second = *value;
    } else {
      settings.emplace_back(key, *value);
    }
  }
  FeatureGates gates;
  gates.versions_ = versions;
  for (const VersionedFeatureSpec& row : kVersionedFeatures) {
    gates.enabled_[row.name] = SpecAt(Rows(row.name), versions).default_value;
  }
  std::vector<std::string> errors;
  std::optional<bool> all_alpha, all_beta;
  for (const auto& [key, value] : settings) {
    const std::span<const VersionedFeatureSpec> rows = Rows(key);
    if (rows.empty()) return absl::InvalidArgumentError("unrecognized feature gate: " + std::string(key));
    const FeatureSpec spec = SpecAt(rows, versions);
    const std::string word = value ? "true" : "false";
    if (spec.locked && spec.default_value != value) {
      errors.push_back("cannot set feature gate " + std::string(key) + " to " + word + ", feature is locked to " +
                       (spec.default_value ? "true" : "false"));
      continue;
    }
    if (key == "AllAlpha" || key == "AllBeta") {
      (key == "AllAlpha" ? all_alpha : all_beta) = value;
      gates.enabled_[spec.name] = value;
      gates.explicit_[spec.name] = true;
      continue;
    }
    if (spec.stage == FeatureStage::kPreAlpha) {
      errors.push_back("cannot set feature gate " + std::string(key) + " to " + word +
                       ", feature is PreAlpha at emulated version " + versions.emulation.String() +
                       ", min compatibility version " + versions.min_compatibility.String());
      continue;
    }
    gates.enabled_[spec.name] = value;
    gates.explicit_[spec.name] = true;
    const std::string fields = " featureGate=\"" + std::string(key) + "\" value=" + word;
    if (spec.stage == FeatureStage::kDeprecated) {
      notices->push_back("\"Warning: setting deprecated feature gate. It will be removed in a future release.\"" + fields);
    } else if (spec.stage == FeatureStage::kGA) {
      notices->push_back("\"Warning: setting GA feature gate. It will be removed in a future release.\"" + fields);
    }
  }
  if (errors.size() == 1) return absl::InvalidArgumentError(errors.front());
  if (errors.size() > 1) return absl::InvalidArgumentError("[" + absl::StrJoin(errors, ", ") + "]");
  // AllAlpha / AllBeta reach the gates of their stage (at these versions) not named explicitly.
  for (std::size_t i = 0; i < std::size(kVersionedFeatures);) {
    const std::span<const VersionedFeatureSpec> rows = Rows(kVersionedFeatures[i].name);
    i += rows.size();
    const FeatureSpec spec = SpecAt(rows, versions);
    if (spec.name == "AllAlpha" || spec.name == "AllBeta" || gates.explicit_.contains(spec.name)) continue;
    if (spec.stage == FeatureStage::kAlpha && all_alpha) {
      gates.enabled_[spec.name] = *all_alpha;
      gates.via_[spec.name] = *all_alpha ? "AllAlpha=true" : "AllAlpha=false";
    }
    if (spec.stage == FeatureStage::kBeta && all_beta) {
      gates.enabled_[spec.name] = *all_beta;
      gates.via_[spec.name] = *all_beta ? "AllBeta=true" : "AllBeta=false";
    }
  }
  // Dependencies (#133697): an enabled gate whose dependencies are not all enabled.
  for (std::size_t i = 0; i < std::size(kDependencies);) {
    const std::string_view feature = kDependencies[i].feature;
    std::vector<std::string_view> disabled;
    for (; i < std::size(kDependencies) && kDependencies[i].feature == feature; ++i) {
      if (!gates.Enabled(kDependencies[i].depends_on)) disabled.push_back(kDependencies[i].depends_on);
    }
    if (gates.Enabled(feature) && !disabled.empty()) {
      errors.push_back(std::string(feature) + " is enabled, but depends on features that are disabled: [" +
                       JoinNames(disabled) + "]");
    }
  }
  if (errors.size() == 1) return absl::InvalidArgumentError(errors.front());
  if (errors.size() > 1) return absl::InvalidArgumentError("[" + absl::StrJoin(errors, ", ") + "]");
  return gates;
}

bool FeatureGates::Enabled(std::string_view name) const {
  auto it = enabled_.find(name);
  if (it == enabled_.end()) {
    spdlog::critical("feature gate {} is not known", name);
    std::abort();
  }
  return it->second;
}

std::string_view FeatureGates::SetBy(std::string_view name) const {
  auto it = via_.find(name);
  return it == via_.end() ? std::string_view() : it->second;
}

bool FeatureGates::ExplicitlySet(std::string_view name) const { return explicit_.contains(name); }

FeatureSpec FeatureGates::Spec(std::string_view name) const {
  const std::span<const VersionedFeatureSpec> rows = Rows(name);
  if (rows.empty()) {
    spdlog::critical("feature gate {} is not known", name);
    std::abort();
  }
  return SpecAt(rows, versions_);
}

std::vector<FeatureSpec> FeatureGates::Specs() const {
  std::vector<FeatureSpec> out;
  for (std::size_t i = 0; i < std::size(kVersionedFeatures);) {
    const std::span<const VersionedFeatureSpec> rows = Rows(kVersionedFeatures[i].name);
    i += rows.size();
    const FeatureSpec spec = SpecAt(rows, versions_);
    if (spec.stage != FeatureStage::kPreAlpha) out.push_back(spec);
  }
  return out;
}

std::string FeatureGates::AlphaWarning() const {
  // BinaryVersion().GreaterThan(EmulationVersion()): 1.37.2 > 1.37.
  const bool newer = kBinaryVersion > versions_.emulation || (kBinaryVersion == versions_.emulation && kBinaryPatch > 0);
  if (!newer) return {};
  std::vector<std::string_view> alpha_on;
  for (const FeatureSpec& spec : Specs()) {
    if (spec.stage == FeatureStage::kAlpha && Enabled(spec.name)) alpha_on.push_back(spec.name);
  }
  if (alpha_on.empty()) return {};
  return "component has alpha features enabled in emulated version, this is unsupported: features=[" +
         JoinNames(alpha_on) + "]";
}

absl::Status CheckImplementedGates(const FeatureGates& gates) {
  for (const auto& [name, implemented] : kImplementedOnly) {
    if (Rows(name).empty()) {
      spdlog::critical("feature gate {} is not in the v1.37 table", name);
      std::abort();
    }
    if (gates.Enabled(name) == implemented) continue;
    const std::string flip = std::string(name) + "=" + (implemented ? "false" : "true");
    const std::string keep = std::string(name) + "=" + (implemented ? "true" : "false");
    std::string via;
    if (!gates.SetBy(name).empty()) {
      via = " (set by " + std::string(gates.SetBy(name)) + ")";
    } else if (!gates.ExplicitlySet(name)) {
      via = " (its default at emulated version " + gates.versions().emulation.String() +
            ", min compatibility version " + gates.versions().min_compatibility.String() + ")";
    }
    return absl::InvalidArgumentError("feature gate " + flip + via + " is not supported by kube-scheduler-cpp: it implements " +
                                      keep + " only");
  }
  return absl::OkStatus();
}

config::ConfigFeatureGates ConfigGatesOf(const FeatureGates& gates) {
  config::ConfigFeatureGates out;
  out.node_declared_features = gates.Enabled("NodeDeclaredFeatures");
  out.in_place_pod_vertical_scaling_scheduler_preemption =
      gates.Enabled("InPlacePodVerticalScalingSchedulerPreemption");
  out.dynamic_resource_allocation = gates.Enabled("DynamicResourceAllocation");
  out.generic_workload = gates.Enabled("GenericWorkload");
  out.topology_aware_workload_scheduling = gates.Enabled("TopologyAwareWorkloadScheduling");
  out.dra_scheduler_filter_timeout = gates.Enabled("DRASchedulerFilterTimeout");
  out.dra_device_binding_conditions = gates.Enabled("DRADeviceBindingConditions");
  out.dra_resource_claim_device_status = gates.Enabled("DRAResourceClaimDeviceStatus");
  out.storage_capacity_scoring = gates.Enabled("StorageCapacityScoring");
  return out;
}

framework::Features FrameworkFeaturesOf(const FeatureGates& gates) {
  framework::Features out;
  out.storage_capacity_scoring = gates.Enabled("StorageCapacityScoring");
  out.volume_limit_scaling = gates.Enabled("VolumeLimitScaling");
  out.node_declared_features = gates.Enabled("NodeDeclaredFeatures");
  out.in_place_pod_level_resources_vertical_scaling = gates.Enabled("InPlacePodLevelResourcesVerticalScaling");
  return out;
}

}  // namespace ksched::scheduler
