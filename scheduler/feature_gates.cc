#include "scheduler/feature_gates.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>

#include "absl/strings/str_join.h"
#include "api/go_strconv.h"

namespace ksched::scheduler {
namespace {

constexpr FeatureSpec kKnownFeatures[] = {
#include "scheduler/feature_gates_v1_34.inc"
};

// The gates kube-scheduler v1.34 reads (pkg/scheduler, cmd/kube-scheduler, the DRA library through
// the plugins' feature set, client-go's gates for its informers and clients) that this scheduler
// implements at their default only. Locked gates are left out (they cannot be changed at all).
constexpr std::string_view kDefaultOnly[] = {
    "AllowParsingUserUIDFromCertAuth",
    "ClientsAllowCBOR",
    "ClientsPreferCBOR",
    "ComponentFlagz",
    "ComponentStatusz",
    "CoordinatedLeaderElection",
    "DRAAdminAccess",
    "DRAConsumableCapacity",
    "DRADeviceBindingConditions",
    "DRADeviceTaints",
    "DRAExtendedResource",
    "DRAPartitionableDevices",
    "DRAPrioritizedList",
    "DRAResourceClaimDeviceStatus",
    "DRASchedulerFilterTimeout",
    "DynamicResourceAllocation",
    "InPlacePodVerticalScaling",
    "InformerResourceVersion",
    "MatchLabelKeysInPodTopologySpread",
    "NominatedNodeNameForExpectation",
    "PodLevelResources",
    "SchedulerAsyncAPICalls",
    "SchedulerAsyncPreemption",
    "StorageCapacityScoring",
    "VolumeAttributesClass",
    "WatchListClient",
};

const FeatureSpec* Find(std::string_view name) {
  const auto it = std::lower_bound(std::begin(kKnownFeatures), std::end(kKnownFeatures), name,
                                   [](const FeatureSpec& spec, std::string_view n) { return spec.name < n; });
  return it != std::end(kKnownFeatures) && it->name == name ? &*it : nullptr;
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

}  // namespace

std::span<const FeatureSpec> KnownFeatures() { return kKnownFeatures; }

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

FeatureGates::FeatureGates() {
  for (const FeatureSpec& spec : kKnownFeatures) enabled_[spec.name] = spec.default_value;
}

absl::StatusOr<FeatureGates> FeatureGates::Parse(const std::vector<std::string>& flag_values,
                                                 std::vector<std::string>* warnings) {
  // The registry's multimap: component -> items, then the kube gate's "key=value" list.
  std::vector<std::string_view> items;
  for (const std::string& value : flag_values) {
    for (std::string_view pair : SplitCommas(value)) {
      if (pair.empty()) continue;
      std::string_view item = pair;
      if (const std::size_t colon = pair.find(':'); colon != std::string_view::npos) {
        const std::string_view component = Trim(pair.substr(0, colon));
        if (component != "kube") return absl::InvalidArgumentError("component not registered: " + std::string(component));
        item = pair.substr(colon + 1);
      }
      items.push_back(Trim(item));
    }
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
  std::vector<std::string> errors;
  std::optional<bool> all_alpha, all_beta;
  for (const auto& [key, value] : settings) {
    const FeatureSpec* spec = Find(key);
    if (spec == nullptr) return absl::InvalidArgumentError("unrecognized feature gate: " + std::string(key));
    if (spec->locked && spec->default_value != value) {
      errors.push_back("cannot set feature gate " + std::string(key) + " to " + (value ? "true" : "false") +
                       ", feature is locked to " + (spec->default_value ? "true" : "false"));
      continue;
    }
    if (key == "AllAlpha") all_alpha = value;
    if (key == "AllBeta") all_beta = value;
    gates.enabled_[spec->name] = value;
    const std::string setting = std::string(key) + "=" + (value ? "true" : "false");
    if (spec->stage == FeatureStage::kDeprecated) {
      warnings->push_back("Setting deprecated feature gate " + setting + ". It will be removed in a future release.");
    } else if (spec->stage == FeatureStage::kGA) {
      warnings->push_back("Setting GA feature gate " + setting + ". It will be removed in a future release.");
    }
  }
  if (errors.size() == 1) return absl::InvalidArgumentError(errors.front());
  if (errors.size() > 1) return absl::InvalidArgumentError("[" + absl::StrJoin(errors, ", ") + "]");
  // AllAlpha / AllBeta reach the gates of their stage not named explicitly.
  for (const FeatureSpec& spec : kKnownFeatures) {
    if (spec.name == "AllAlpha" || spec.name == "AllBeta") continue;
    const bool named = std::any_of(settings.begin(), settings.end(), [&](const auto& s) { return s.first == spec.name; });
    if (named) continue;
    if (spec.stage == FeatureStage::kAlpha && all_alpha) {
      gates.enabled_[spec.name] = *all_alpha;
      gates.via_[spec.name] = *all_alpha ? "AllAlpha=true" : "AllAlpha=false";
    }
    if (spec.stage == FeatureStage::kBeta && all_beta) {
      gates.enabled_[spec.name] = *all_beta;
      gates.via_[spec.name] = *all_beta ? "AllBeta=true" : "AllBeta=false";
    }
  }
  std::vector<std::string_view> alpha_on;
  for (const FeatureSpec& spec : kKnownFeatures) {
    if (spec.stage == FeatureStage::kAlpha && gates.Enabled(spec.name)) alpha_on.push_back(spec.name);
  }
  if (!alpha_on.empty()) {
    std::string list;
    for (std::string_view name : alpha_on) list += (list.empty() ? "" : " ") + std::string(name);
    warnings->push_back("\"component has alpha features enabled in emulated version, this is unsupported\" features=[" +
                        list + "]");
  }
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

absl::Status CheckImplementedGates(const FeatureGates& gates) {
  for (std::string_view name : kDefaultOnly) {
    const FeatureSpec* spec = Find(name);
    if (spec == nullptr) {
      spdlog::critical("feature gate {} is not in the v1.34 table", name);
      std::abort();
    }
    if (gates.Enabled(name) != spec->default_value) {
      const std::string flip = std::string(name) + "=" + (spec->default_value ? "false" : "true");
      const std::string keep = std::string(name) + "=" + (spec->default_value ? "true" : "false");
      const std::string_view via = gates.SetBy(name);
      return absl::InvalidArgumentError("feature gate " + flip + (via.empty() ? "" : " (set by " + std::string(via) + ")") +
                                        " is not supported by kube-scheduler-cpp: it implements " + keep + " only");
    }
  }
  return absl::OkStatus();
}

}  // namespace ksched::scheduler
