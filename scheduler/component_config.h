// The KubeSchedulerConfiguration the daemon runs with, from the command line, as upstream's
// Options.ApplyTo (cmd/kube-scheduler/app/options, v1.37):
//   without --config: the v1 defaults, then the deprecated flags that were given (--kubeconfig,
//     --kube-api-qps, --kube-api-burst, --kube-api-content-type, --profiling,
//     --contention-profiling), then the leader-election flags that were given;
//   with --config: the file decoded and defaulted, then the leader-election flags that were given
//     (the deprecated flags are ignored, as upstream);
// then validation; all of it under `gates` (config/feature_gates.h: those of --feature-gates at
// --emulated-version). Errors (InvalidArgument) carry the config layer's upstream texts ("open
// /x.yaml: no such file or directory", "strict decoding error: unknown field ...",
// "leaderElection.leaseDuration: Invalid value: ...").
//
// Thread-safety: pure function.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "config/feature_gates.h"
#include "config/kube_scheduler_configuration.h"
#include "scheduler/command_flags.h"

namespace ksched::scheduler {

absl::StatusOr<config::KubeSchedulerConfiguration> ResolveComponentConfig(
    const CommandFlags& flags, const config::ConfigFeatureGates& gates,
    std::vector<std::string>* warnings);

// What upstream's scheduler.New does to the configuration before it shows or writes it
// (buildExtenders): an extender's zero httpTimeout becomes 5s, and the extended resources the
// extenders manage with ignoredByScheduler replace every profile's NodeResourcesFit
// ignoredResources (error "can't find NodeResourcesFitArgs in plugin config" when a profile has
// no such args).
absl::Status ApplyExtenderEffects(config::KubeSchedulerConfiguration& cfg);

}  // namespace ksched::scheduler
