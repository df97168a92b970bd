// The default plugin set of kubescheduler.config.k8s.io/v1 (upstream
// pkg/scheduler/apis/config/v1/default_plugins.go, v1.37.2) and upstream's merge of a user's
// plugin sets into it (mergePlugins / mergePluginSet, every extension point including the
// pod-group ones).
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "config/feature_gates.h"
#include "framework/profile_config.h"
#include "framework/registry.h"

namespace ksched::config {

// Upstream's v1 default (getDefaultPlugins): every plugin in multiPoint, in upstream's order, with
// its weight, then applyFeatureGates' edits. Under v1.37.2's default gates: SchedulingGates,
// PrioritySort, NodeName, NodeUnschedulable, TaintToleration 3, NodeAffinity 2, NodePorts,
// NodeResourcesFit 1, VolumeRestrictions, NodeVolumeLimits, VolumeBinding, VolumeZone,
// PodTopologySpread 2, InterPodAffinity 2, DynamicResources 2, DefaultPreemption,
// NodeResourcesBalancedAllocation 1, ImageLocality 1, DefaultBinder, NodeDeclaredFeatures.
framework::PluginsConfig DefaultPlugins(
    const ConfigFeatureGates& gates = kDefaultConfigFeatureGates);

// The default set a configuration of `api_version` is merged into (upstream's getDefaultPlugins of
// that version): v1 as DefaultPlugins(gates); v1beta3 as its last release had it under v1.34's feature
// gates (no SchedulingGates first but appended last, as with PodSchedulingReadiness on; no
// DynamicResources; the EBS/GCEPD/AzureDisk limits plugins, removed since, left out); v1beta2
// and v1beta1 as v1beta3 with their weights (TaintToleration, NodeAffinity and InterPodAffinity
// at 1). Any other version: the v1 set.
framework::PluginsConfig DefaultPluginsFor(
    std::string_view api_version, const ConfigFeatureGates& gates = kDefaultConfigFeatureGates);

// upstream mergePlugins(defaults, custom): per extension point, the custom set merged into the
// default one (disabled union; defaults kept in order unless disabled or "*"; a custom entry
// naming a default replaces it in place with the custom weight; other custom entries appended).
framework::PluginsConfig MergePlugins(const framework::PluginsConfig& defaults,
                                      const framework::PluginsConfig& custom);

// A profile on the v1 defaults with `custom` merged in, keeping only the plugins `registry` has:
// the upstream default plugins not compiled in yet are left out and named in `left_out` (so that
// the caller can say so; nobody should mistake the result for full parity).
framework::ProfileConfig DefaultProfile(std::string scheduler_name,
                                        const framework::Registry& registry,
                                        const framework::PluginsConfig& custom = {},
                                        std::vector<std::string>* left_out = nullptr);

}  // namespace ksched::config
