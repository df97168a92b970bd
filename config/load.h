// Loading a KubeSchedulerConfiguration file the way kube-scheduler v1.37.2 does (--config):
// upstream's loadConfig (strict decode, defaults, default-plugin merge), then
// ValidateKubeSchedulerConfiguration.
//
// apiVersion: kubescheduler.config.k8s.io/v1; also v1beta3, v1beta2 and v1beta1, which upstream
// no longer serves: they are read with v1's field names where the versions coincide (v1beta3
// lacks delayCacheUntilActive, the per-profile percentageOfNodesToScore and the pod-group
// extension points placementGenerate, placementScore and podGroupPostFilter; v1beta2 and v1beta1
// also accept healthzBindAddress and metricsBindAddress, ignored), with their own default plugin
// set (config/default_plugins.h) and v1's other defaults (resourceLock "leases", which v1.37
// requires). Each such file adds a warning. kind: KubeSchedulerConfiguration.
//
// Errors (InvalidArgument) carry upstream's text, e.g.
//   strict decoding error: unknown field "profiles[0].pluginz"
//   json: cannot unmarshal string into Go struct field Plugin.profiles.plugins.score.enabled.weight of type int32
//   time: invalid duration "abc"
//   decoding .profiles[0].pluginConfig[0]: decoding args for plugin NodeResourcesFit: json: ...
//   no kind "KubeSchedulerConfiguration" is registered for version "foo/v1" in scheme
//     "pkg/runtime/scheme.go:111"
//   [parallelism: Invalid value: 0: should be an integer value greater than zero, ...]  (validation)
// A pluginConfig entry naming a plugin that is not compiled in is not an error here: its args are
// kept as written, and only a profile that enables such a plugin fails, when its framework is
// built (as upstream: "score plugin "Binpack" does not exist").
//
// Thread-safety: reentrant.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "config/feature_gates.h"
#include "config/kube_scheduler_configuration.h"

namespace ksched::config {

// Decode, defaults and merge, without validation (upstream loadConfig). `warnings` (optional)
// receives notes about the file (an old apiVersion, ignored fields). Every function here reads the
// configuration under `gates` (the default plugin set, the gated args defaults and validation);
// the command passes those of --feature-gates and --emulated-version.
absl::StatusOr<KubeSchedulerConfiguration> DecodeConfig(
    std::string_view yaml, std::vector<std::string>* warnings = nullptr,
    const ConfigFeatureGates& gates = kDefaultConfigFeatureGates);

// DecodeConfig, then ValidateConfig. `source_name` (a path, "<stdin>") prefixes the warnings.
absl::StatusOr<KubeSchedulerConfiguration> LoadConfig(std::string_view yaml,
                                                      std::string_view source_name,
                                                      std::vector<std::string>* warnings = nullptr,
                                                      const ConfigFeatureGates& gates = kDefaultConfigFeatureGates);

// LoadConfig on a file's contents; a read failure reads "open <path>: <reason>" as Go's.
absl::StatusOr<KubeSchedulerConfiguration> LoadConfigFile(
    const std::string& path, std::vector<std::string>* warnings = nullptr,
    const ConfigFeatureGates& gates = kDefaultConfigFeatureGates);

// DecodeConfig on a file's contents (read errors as LoadConfigFile's): what kube-scheduler does
// with --config before it applies the leader-election flags and validates.
absl::StatusOr<KubeSchedulerConfiguration> DecodeConfigFile(
    const std::string& path, std::vector<std::string>* warnings = nullptr,
    const ConfigFeatureGates& gates = kDefaultConfigFeatureGates);

// The configuration kube-scheduler runs with when no file is given: v1 with every default.
KubeSchedulerConfiguration DefaultConfig(const ConfigFeatureGates& gates = kDefaultConfigFeatureGates);

}  // namespace ksched::config
