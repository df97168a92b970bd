// kubernetes_feature_enabled{name, stage} ([BETA]): one series per known feature gate, 1 when it
// is enabled, else 0; stage as component-base prints it ("" for GA). Registered once at start, as
// featuregate.AddMetrics does (the gates do not change while running).
//
// Thread-safety: call before serving; the registry's own locking covers scrapes.
#pragma once

#include <prometheus/registry.h>

#include "scheduler/metrics/registered_families.h"

#include "scheduler/feature_gates.h"

namespace ksched::scheduler::metrics {

void AddFeatureMetrics(prometheus::Registry& registry, const FeatureGates& gates, RegisteredFamilies& families);

}  // namespace ksched::scheduler::metrics
