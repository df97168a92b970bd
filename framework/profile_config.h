// ProfileConfig: one profile as the runtime builds it (upstream config.KubeSchedulerProfile after
// defaulting and the default-plugin merge): the scheduler name, the plugin sets per extension point
// (multiPoint still unexpanded: the runtime expands it), weights, and the typed args per plugin.
// The config layer produces it from KubeSchedulerConfiguration; tests build it by hand.
//
// Thread-safety: a value type.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "framework/registry.h"

namespace ksched::framework {

struct PluginRef {
  std::string name;
  std::int32_t weight = 0;  // score only; 0 = unset (the runtime uses 1)
  friend bool operator==(const PluginRef&, const PluginRef&) = default;
};

struct PluginSet {
  std::vector<PluginRef> enabled;
  std::vector<std::string> disabled;  // may hold "*"
  friend bool operator==(const PluginSet&, const PluginSet&) = default;
};

struct PluginsConfig {
  PluginSet pre_enqueue;
  PluginSet queue_sort;
  PluginSet pre_filter;
  PluginSet filter;
  PluginSet post_filter;
  PluginSet pre_score;
  PluginSet score;
  PluginSet reserve;
  PluginSet permit;
  PluginSet pre_bind;
  PluginSet bind;
  PluginSet post_bind;
  PluginSet multi_point;
  // Pod-group (workload) scheduling points (upstream v1.37): accepted, defaulted, validated and
  // written by the config layer; their plugins are behind gates off by default.
  PluginSet placement_generate;
  PluginSet placement_score;
  PluginSet pod_group_post_filter;
  friend bool operator==(const PluginsConfig&, const PluginsConfig&) = default;
};

struct ProfileConfig {
  std::string scheduler_name = "default-scheduler";
  // nullopt: use the global percentageOfNodesToScore.
  std::optional<std::int32_t> percentage_of_nodes_to_score;
  PluginsConfig plugins;
  // Typed args by plugin name (absent: the factory's defaults).
  std::map<std::string, std::shared_ptr<const PluginArgs>, std::less<>> plugin_args;
};

}  // namespace ksched::framework
