// The configuration as upstream's encoding/json renders its internal type
// (config.KubeSchedulerConfiguration has no JSON tags: Go field names in declaration order, nil
// slices and pointers as null, durations as "15s"). This is what validation messages show as a
// bad value ({"Enabled":[{"Name":"C","Weight":0}],"Disabled":null}); /configz serves the v1 form
// since v1.37 (config/write.h).
//
// Thread-safety: pure functions.
#pragma once

#include "config/kube_scheduler_configuration.h"
#include "config/value.h"

namespace ksched::config {

Value InternalConfigValue(const KubeSchedulerConfiguration& config);
Value InternalPluginSetValue(const framework::PluginSet& set);
// A pluginConfig entry's Args: typed args by field name, raw args with their keys sorted (upstream
// holds them as the JSON its YAML conversion produced), null when absent.
Value InternalPluginArgsValue(const PluginConfig& entry);

// `value` with every map's keys in byte order, as encoding/json writes a map[string]interface{}.
Value WithSortedKeys(const Value& value);

}  // namespace ksched::config
