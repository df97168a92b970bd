// The default plugin set of kubescheduler.config.k8s.io/v1 (upstream
// pkg/scheduler/apis/config/v1/default_plugins.go, v1.34) and upstream's merge of a user's
// plugin sets into it (mergePlugins / mergePluginSet).
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <vector>

#include "framework/profile_config.h"

namespace ksched::config {

// Upstream's v1 default: every plugin in multiPoint, in upstream's order, with its weight
// (DynamicResources included, as DRA is GA and on in 1.34).
framework::PluginsConfig DefaultPlugins();

// upstream mergePlugins(defaults, custom): per extension point, the custom set merged into the
// default one (disabled union; defaults kept in order unless disabled or "*"; a custom entry
// naming a default replaces it in place with the custom weight; other custom entries appended).
framework::PluginsConfig MergePlugins(const framework::PluginsConfig& defaults,
                                      const framework::PluginsConfig& custom);

}  // namespace ksched::config
