// The feature gates the configuration layer reads (upstream's defaults and validation consult
// utilfeature.DefaultFeatureGate): the default plugin set, the gated args defaults and their
// validation. kDefaultConfigFeatureGates holds kube-scheduler v1.37.2's defaults; the command
// passes those of --feature-gates at --emulated-version (scheduler/feature_gates.h ConfigGatesOf)
// to every function that takes one.
//
// Thread-safety: a value type.
#pragma once

namespace ksched::config {

struct ConfigFeatureGates {
  // getDefaultPlugins: NodeDeclaredFeatures appended to multiPoint (GA and locked on in v1.37;
  // off before v1.36).
  bool node_declared_features = true;
  // getDefaultPlugins: DeferredPodScheduling before NodeResourcesFit (alpha, off).
  bool in_place_pod_vertical_scaling_scheduler_preemption = false;
  // getDefaultPlugins: DynamicResources (weight 2) before DefaultPreemption (GA, locked on).
  bool dynamic_resource_allocation = true;
  // getDefaultPlugins: GangScheduling appended (beta, off by default in v1.37).
  bool generic_workload = false;
  // getDefaultPlugins: TopologyPlacementGenerator and PodGroupPodsCount (weight 1) appended
  // (alpha, off).
  bool topology_aware_workload_scheduling = false;
  // DynamicResourcesArgs.filterTimeout: defaulted to 10s and validated (beta, on).
  bool dra_scheduler_filter_timeout = true;
  // DynamicResourcesArgs.bindingTimeout: defaulted to 10m and validated when both are on (beta
  // on; GA locked on), else forbidden.
  bool dra_device_binding_conditions = true;
  bool dra_resource_claim_device_status = true;
  // VolumeBindingArgs.shape: defaulted to [{0,10},{100,0}] and validated (beta, on in v1.37;
  // off before), else forbidden.
  bool storage_capacity_scoring = true;
};

// v1.37.2's defaults.
inline constexpr ConfigFeatureGates kDefaultConfigFeatureGates{};

}  // namespace ksched::config
