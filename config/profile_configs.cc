#include "config/profile_configs.h"

#include <algorithm>
#include <memory>
#include <set>
#include <utility>

#include "config/default_plugins.h"
#include "config/internal_json.h"
#include "config/value_writer.h"
#include "framework/raw_plugin_args.h"

namespace ksched::config {
namespace {

framework::ProfileConfig ToProfileConfig(const KubeSchedulerProfile& profile) {
  framework::ProfileConfig out;
  out.scheduler_name = profile.scheduler_name;
  out.percentage_of_nodes_to_score = profile.percentage_of_nodes_to_score;
  out.plugins = profile.plugins;
  for (const PluginConfig& entry : profile.plugin_config) {
    if (entry.args != nullptr) {
      out.plugin_args[entry.name] = entry.args;
    } else if (entry.raw.has_value()) {
      auto raw = std::make_shared<framework::RawPluginArgs>();
      raw->json = ToJson(WithSortedKeys(*entry.raw));
      out.plugin_args[entry.name] = std::move(raw);
    }
  }
  return out;
}

}  // namespace

std::vector<framework::ProfileConfig> ToProfileConfigs(const KubeSchedulerConfiguration& config) {
  std::vector<framework::ProfileConfig> profiles;
  for (const KubeSchedulerProfile& profile : config.profiles) {
    profiles.push_back(ToProfileConfig(profile));
  }
  return profiles;
}

std::vector<framework::ProfileConfig> ToProfileConfigs(const KubeSchedulerConfiguration& config,
                                                       const framework::Registry& registry,
                                                       std::vector<std::string>* left_out) {
  std::set<std::string, std::less<>> defaults;
  const framework::PluginsConfig default_set = DefaultPluginsFor(config.api_version);
  for (const framework::PluginRef& plugin : default_set.multi_point.enabled) {
    defaults.insert(plugin.name);
  }
  std::vector<framework::ProfileConfig> profiles = ToProfileConfigs(config);
  std::set<std::string, std::less<>> reported;
  for (framework::ProfileConfig& profile : profiles) {
    std::vector<framework::PluginRef>& multi_point = profile.plugins.multi_point.enabled;
    std::vector<framework::PluginRef> kept;
    for (framework::PluginRef& plugin : multi_point) {
      if (!defaults.contains(plugin.name) || registry.Find(plugin.name) != nullptr) {
        kept.push_back(std::move(plugin));
        continue;
      }
      profile.plugin_args.erase(plugin.name);
      if (left_out != nullptr && reported.insert(plugin.name).second) {
        left_out->push_back(plugin.name);
      }
    }
    multi_point = std::move(kept);
  }
  return profiles;
}

}  // namespace ksched::config
