// The metrics every Kubernetes component serves about itself (component-base), registered once at
// start:
//   kubernetes_build_info{major,minor,git_version,git_commit,git_tree_state,build_date,go_version,
//                         compiler,platform} 1   ([BETA]) this build: the Kubernetes release it
//       matches (major "1", minor "37", git_version "v1.37.2"), this repository's commit, its date
//       (for build_date, so that builds of one commit agree), the C++ compiler, and go_version ""
//   version_info{component="kube",binary,emulation,min_compat} 1   ([ALPHA]) as upstream's
//       compatibility registry reports it: the binary's release, and the emulation and minimum
//       compatibility versions given (by default the binary's major.minor and one minor below)
//   cardinality_enforcement_unexpected_categorizations_total 0   ([ALPHA]; no label allow-lists)
// The registration counts (registered_metrics_total, disabled_metrics_total, hidden_metrics_total)
// depend on what else is registered: Metrics keeps them (scheduler/metrics/metrics.h).
//
// Thread-safety: call before serving; the registry's own locking covers scrapes.
#pragma once

#include <string>

#include <prometheus/registry.h>

#include "scheduler/metrics/registered_families.h"

namespace ksched::scheduler::metrics {

void AddComponentMetrics(prometheus::Registry& registry, RegisteredFamilies& families,
                         const std::string& emulation_version = "", const std::string& min_compatibility_version = "");

}  // namespace ksched::scheduler::metrics
