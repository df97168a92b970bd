// Features: the feature gates kube-scheduler's framework and in-tree plugins read whose value can
// differ between the Kubernetes versions this scheduler runs as (--emulated-version 1.34 to 1.37),
// as plain values (upstream pkg/scheduler/framework/plugins/feature.Features, plus the gates
// framework/types.go and events.go read through the global feature gate). Gates fixed at one value
// in every supported version are not here: the code implements that value.
//
// The process holds one Features, set by the command from --feature-gates and --emulated-version
// before anything reads it (upstream's DefaultFeatureGate is likewise process-wide): plugins read
// it when they are created, PodRequestsOptions when it is constructed.
//
// Thread-safety: SetProcessFeatures must happen before any other thread starts (start-up) or, in
// tests, while no other thread reads; ProcessFeatures() is then safe from any thread.
#pragma once

namespace ksched::framework {

struct Features {
  // StorageCapacityScoring (beta, on since v1.37): VolumeBinding scores dynamic provisioning by
  // the free capacity of the node's CSIStorageCapacity (else it scores only static bindings, and
  // only when given a shape), and the shape of VolumeBindingArgs is defaulted and allowed.
  bool storage_capacity_scoring = true;
  // VolumeLimitScaling (beta, on since v1.37): NodeVolumeLimits keeps pods off nodes whose
  // CSINode lacks a driver whose CSIDriver sets preventPodSchedulingIfMissing.
  bool volume_limit_scaling = true;
  // NodeDeclaredFeatures (GA and locked in v1.37; off before v1.36): the plugin of that name
  // filters; off, it is inert (and not in the default plugin set).
  bool node_declared_features = true;
  // InPlacePodLevelResourcesVerticalScaling (beta, on since v1.36): a pod's effective requests
  // and limits read its pod-level status.allocatedResources / status.resources.
  bool in_place_pod_level_resources_vertical_scaling = true;
};

// The process's features; v1.37.2's defaults until SetProcessFeatures.
const Features& ProcessFeatures();
void SetProcessFeatures(const Features& features);

}  // namespace ksched::framework
