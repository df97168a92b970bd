// The metrics every Kubernetes component serves about itself (component-base), registered once at
// start:
//   kubernetes_build_info{major,minor,git_version,git_commit,git_tree_state,build_date,go_version,
//                         compiler,platform} 1   ([ALPHA]) this build: the Kubernetes release it
//       matches (major "1", minor "34", git_version "v1.34.4"), this repository's commit, its date
//       (for build_date, so that builds of one commit agree), the C++ compiler, and go_version ""
//   version_info{component="kube",binary,emulation,min_compat} 1   ([ALPHA]) as upstream's
//       compatibility registry reports it: binary "1.34.4", emulation "1.34", min_compat "1.33"
//       (--emulated-version is not supported here)
//   cardinality_enforcement_unexpected_categorizations_total 0   ([ALPHA]; no label allow-lists)
// The registration counts (registered_metrics_total, disabled_metrics_total, hidden_metrics_total)
// depend on what else is registered: Metrics keeps them (scheduler/metrics/metrics.h).
//
// Thread-safety: call before serving; the registry's own locking covers scrapes.
#pragma once

#include <prometheus/registry.h>

#include "scheduler/metrics/registered_families.h"

namespace ksched::scheduler::metrics {

void AddComponentMetrics(prometheus::Registry& registry, RegisteredFamilies& families);

}  // namespace ksched::scheduler::metrics
