// Validation of a defaulted KubeSchedulerConfiguration: upstream's
// ValidateKubeSchedulerConfiguration (pkg/scheduler/apis/config/validation, v1.37.2, with
// component-base's leader-election and client-connection checks), same messages, same paths,
// same order:
//   clientConnection.burst; leaderElection (durations > 0, leaseDuration > renewDeadline,
//   resourceLock/Name/Namespace required, resourceLock "leases" — only with leaderElect);
//   parallelism > 0; profiles (non-empty; schedulerName required and unique; percentage in
//   [0-100]; the removed AzureDiskLimits/CinderLimits/EBSLimits/GCEPDLimits plugins rejected at
//   every extension point but multiPoint, placementGenerate and placementScore, and in
//   pluginConfig; duplicate pluginConfig names; each plugin's args through its validator, under
//   the feature gates given, v1.37.2's defaults unless told); a common queueSort plugin and args across profiles;
//   percentageOfNodesToScore in [0-100]; podInitialBackoffSeconds > 0, podMaxBackoffSeconds >=
//   podInitialBackoffSeconds; extenders (positive weight with prioritizeVerb, at most one binder,
//   valid unique extended-resource names).
//
// Upstream quirks kept: the removed-plugin message names version "v1" (upstream compares against
// the core group's "v1"); a duplicate schedulerName's bad value renders as {} (a *field.Path);
// "profiles[0].plugins.queueSort.Enabled" has a capital E. Upstream walks the extension points in
// Go map order (random); here they go in declaration order.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "config/feature_gates.h"
#include "config/kube_scheduler_configuration.h"

namespace ksched::config {

// Every error, one message each ("parallelism: Invalid value: 0: should be ...").
std::vector<std::string> ValidationErrors(const KubeSchedulerConfiguration& config,
                                          const ConfigFeatureGates& gates = kDefaultConfigFeatureGates);

// OkStatus, or InvalidArgument with upstream's aggregate text: one error bare, several as
// "[e1, e2]", duplicates dropped.
absl::Status ValidateConfig(const KubeSchedulerConfiguration& config,
                            const ConfigFeatureGates& gates = kDefaultConfigFeatureGates);

}  // namespace ksched::config
