// Writing a configuration back, as kube-scheduler does:
//   WriteConfigYaml  --write-config-to: the configuration in kubescheduler.config.k8s.io/v1 (also
//                    for a file read as v1beta3 or older, as upstream), YAML with keys sorted,
//                    every default present (typed plugin args with apiVersion and kind).
//   ConfigzJson      /configz: {"componentconfig": <the configuration converted to v1, with its
//                    kind and apiVersion, as Go's encoding/json renders it>} (v1.37: #136044),
//                    i.e. the same fields as the YAML in the v1 structs' order (kind before
//                    apiVersion, typed plugin args likewise), compact, HTML-escaped.
// Both show the profiles as given: upstream substitutes the frameworks' completed profiles
// (multiPoint expanded) only when it writes the file or logs at -v=2; the caller can do the same.
//
// Thread-safety: pure functions.
#pragma once

#include <string>

#include "config/kube_scheduler_configuration.h"
#include "config/value.h"

namespace ksched::config {

// The profiles as kube-scheduler's frameworks complete them before --write-config-to writes them
// (and -v=2 logs them): each profile's pluginConfig keeps only the entries with args of plugins
// the profile enables somewhere (an extension point or multiPoint), sorted by name; the plugin
// sets stay as given.
KubeSchedulerConfiguration WithCompletedProfiles(KubeSchedulerConfiguration config);

// The v1 wire form (what WriteConfigYaml renders).
Value ToV1Value(const KubeSchedulerConfiguration& config);
std::string WriteConfigYaml(const KubeSchedulerConfiguration& config);
std::string ConfigzJson(const KubeSchedulerConfiguration& config);

}  // namespace ksched::config
