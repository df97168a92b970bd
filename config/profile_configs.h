// ToProfileConfigs: the runtime's profiles (framework::ProfileConfig, what
// SchedulerAppOptions::profiles takes) from a loaded configuration: scheduler name, the
// per-profile percentageOfNodesToScore, the merged plugin sets (multiPoint left for the runtime
// to expand), and the args of every pluginConfig entry: typed args as they are, args kept as
// written as framework::RawPluginArgs (their JSON, keys sorted), none for an entry without args.
//
// The overload with a registry also leaves out, from multiPoint, the plugins of the default set
// (of the configuration's apiVersion) that the registry lacks, with their args, naming each once
// in `left_out`; a plugin the file itself names elsewhere is kept, so that the runtime rejects it
// as upstream does. This is how the scheduler runs while some default plugins are not compiled in.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <vector>

#include "config/kube_scheduler_configuration.h"
#include "framework/profile_config.h"
#include "framework/registry.h"

namespace ksched::config {

std::vector<framework::ProfileConfig> ToProfileConfigs(const KubeSchedulerConfiguration& config);

std::vector<framework::ProfileConfig> ToProfileConfigs(const KubeSchedulerConfiguration& config,
                                                       const framework::Registry& registry,
                                                       std::vector<std::string>* left_out);

}  // namespace ksched::config
