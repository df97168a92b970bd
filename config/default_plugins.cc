#include "config/default_plugins.h"

#include <algorithm>
#include <cstdint>
#include <set>

namespace ksched::config {
namespace {

framework::PluginSet MergePluginSet(const framework::PluginSet& defaults,
                                    const framework::PluginSet& custom) {
  std::set<std::string, std::less<>> disabled(custom.disabled.begin(), custom.disabled.end());
  disabled.insert(defaults.disabled.begin(), defaults.disabled.end());
  framework::PluginSet merged;
  // Both lists are kept (the runtime's multiPoint expansion reads them), duplicates included.
  merged.disabled = custom.disabled;
  merged.disabled.insert(merged.disabled.end(), defaults.disabled.begin(), defaults.disabled.end());
  std::vector<bool> replaced(custom.enabled.size(), false);
  if (!disabled.contains("*")) {
    for (const framework::PluginRef& plugin : defaults.enabled) {
      if (disabled.contains(plugin.name)) continue;
      // Upstream indexes the custom entries in a map: the last one of a name wins.
      std::ptrdiff_t match = -1;
      for (std::size_t i = 0; i < custom.enabled.size(); ++i) {
        if (custom.enabled[i].name == plugin.name) match = static_cast<std::ptrdiff_t>(i);
      }
      const bool found = match >= 0;
      if (found) {
        // Replaced in place: the default's position, the custom weight.
        merged.enabled.push_back(custom.enabled[static_cast<std::size_t>(match)]);
        replaced[static_cast<std::size_t>(match)] = true;
      }
      if (!found) merged.enabled.push_back(plugin);
    }
  }
  for (std::size_t i = 0; i < custom.enabled.size(); ++i) {
    if (!replaced[i]) merged.enabled.push_back(custom.enabled[i]);
  }
  return merged;
}

}  // namespace

framework::PluginsConfig DefaultPlugins(const ConfigFeatureGates& gates) {
  framework::PluginsConfig plugins;
  std::vector<framework::PluginRef>& enabled = plugins.multi_point.enabled;
  enabled = {
      {"SchedulingGates", 0},
      {"PrioritySort", 0},
      {"NodeName", 0},
      {"NodeUnschedulable", 0},
      {"TaintToleration", 3},
      {"NodeAffinity", 2},
      {"NodePorts", 0},
      {"NodeResourcesFit", 1},
      {"VolumeRestrictions", 0},
      {"NodeVolumeLimits", 0},
      {"VolumeBinding", 0},
      {"VolumeZone", 0},
      {"PodTopologySpread", 2},
      {"InterPodAffinity", 2},
      {"DefaultPreemption", 0},
      {"NodeResourcesBalancedAllocation", 1},
      {"ImageLocality", 1},
      {"DefaultBinder", 0},
  };
  // upstream applyFeatureGates, in its order.
  if (gates.node_declared_features) enabled.push_back({"NodeDeclaredFeatures", 0});
  if (gates.in_place_pod_vertical_scaling_scheduler_preemption) {
    auto fit = std::find_if(enabled.begin(), enabled.end(), [](const framework::PluginRef& p) {
      return p.name == "NodeResourcesFit";
    });
    enabled.insert(fit, {"DeferredPodScheduling", 0});
  }
  if (gates.dynamic_resource_allocation) {
    // Before DefaultPreemption: deallocating an idle claim beats evicting a pod.
    auto preemption = std::find_if(enabled.begin(), enabled.end(),
                                   [](const framework::PluginRef& p) {
                                     return p.name == "DefaultPreemption";
                                   });
    if (preemption != enabled.end()) enabled.insert(preemption, {"DynamicResources", 2});
  }
  if (gates.generic_workload) enabled.push_back({"GangScheduling", 0});
  if (gates.topology_aware_workload_scheduling) {
    enabled.push_back({"TopologyPlacementGenerator", 0});
    enabled.push_back({"PodGroupPodsCount", 1});
  }
  return plugins;
}

framework::PluginsConfig DefaultPluginsFor(std::string_view api_version,
                                           const ConfigFeatureGates& gates) {
  const bool v1beta3 = api_version == "kubescheduler.config.k8s.io/v1beta3";
  const bool older = api_version == "kubescheduler.config.k8s.io/v1beta2" ||
                     api_version == "kubescheduler.config.k8s.io/v1beta1";
  if (!v1beta3 && !older) return DefaultPlugins(gates);
  // v1beta3 raised these user-preference weights (TaintToleration 1->3, NodeAffinity and
  // InterPodAffinity 1->2).
  const std::int32_t taint_weight = older ? 1 : 3;
  const std::int32_t affinity_weight = older ? 1 : 2;
  framework::PluginsConfig plugins;
  plugins.multi_point.enabled = {
      {"PrioritySort", 0},
      {"NodeUnschedulable", 0},
      {"NodeName", 0},
      {"TaintToleration", taint_weight},
      {"NodeAffinity", affinity_weight},
      {"NodePorts", 0},
      {"NodeResourcesFit", 1},
      {"VolumeRestrictions", 0},
      {"NodeVolumeLimits", 0},
      {"VolumeBinding", 0},
      {"VolumeZone", 0},
      {"PodTopologySpread", 2},
      {"InterPodAffinity", affinity_weight},
      {"DefaultPreemption", 0},
      {"NodeResourcesBalancedAllocation", 1},
      {"ImageLocality", 1},
      {"DefaultBinder", 0},
      {"SchedulingGates", 0},
  };
  return plugins;
}

framework::PluginsConfig MergePlugins(const framework::PluginsConfig& defaults,
                                      const framework::PluginsConfig& custom) {
  framework::PluginsConfig merged;
  merged.pre_enqueue = MergePluginSet(defaults.pre_enqueue, custom.pre_enqueue);
  merged.queue_sort = MergePluginSet(defaults.queue_sort, custom.queue_sort);
  merged.pre_filter = MergePluginSet(defaults.pre_filter, custom.pre_filter);
  merged.filter = MergePluginSet(defaults.filter, custom.filter);
  merged.post_filter = MergePluginSet(defaults.post_filter, custom.post_filter);
  merged.pre_score = MergePluginSet(defaults.pre_score, custom.pre_score);
  merged.score = MergePluginSet(defaults.score, custom.score);
  merged.reserve = MergePluginSet(defaults.reserve, custom.reserve);
  merged.permit = MergePluginSet(defaults.permit, custom.permit);
  merged.pre_bind = MergePluginSet(defaults.pre_bind, custom.pre_bind);
  merged.bind = MergePluginSet(defaults.bind, custom.bind);
  merged.post_bind = MergePluginSet(defaults.post_bind, custom.post_bind);
  merged.multi_point = MergePluginSet(defaults.multi_point, custom.multi_point);
  merged.placement_generate =
      MergePluginSet(defaults.placement_generate, custom.placement_generate);
  merged.placement_score = MergePluginSet(defaults.placement_score, custom.placement_score);
  merged.pod_group_post_filter =
      MergePluginSet(defaults.pod_group_post_filter, custom.pod_group_post_filter);
  return merged;
}

framework::ProfileConfig DefaultProfile(std::string scheduler_name,
                                        const framework::Registry& registry,
                                        const framework::PluginsConfig& custom,
                                        std::vector<std::string>* left_out) {
  framework::ProfileConfig profile;
  profile.scheduler_name = std::move(scheduler_name);
  framework::PluginsConfig defaults = DefaultPlugins();
  std::vector<framework::PluginRef> available;
  for (const framework::PluginRef& plugin : defaults.multi_point.enabled) {
    if (registry.Find(plugin.name) != nullptr) {
      available.push_back(plugin);
    } else if (left_out != nullptr) {
      left_out->push_back(plugin.name);
    }
  }
  defaults.multi_point.enabled = std::move(available);
  profile.plugins = MergePlugins(defaults, custom);
  return profile;
}

}  // namespace ksched::config
