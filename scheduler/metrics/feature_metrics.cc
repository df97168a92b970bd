#include "scheduler/metrics/feature_metrics.h"

#include <string>

#include <prometheus/family.h>
#include <prometheus/gauge.h>

#include "scheduler/metrics/buckets.h"

namespace ksched::scheduler::metrics {

void AddFeatureMetrics(prometheus::Registry& registry, const FeatureGates& gates, RegisteredFamilies& families) {
  prometheus::Family<prometheus::Gauge>& family =
      prometheus::BuildGauge()
          .Name("kubernetes_feature_enabled")
          .Help(families.Help("kubernetes_feature_enabled", Stability::kBeta,
                              "This metric records the data about the stage and enablement of a k8s feature."))
          .Register(registry);
  // featuregate AddMetrics: every gate known at the emulated version (GetAll), with its stage there.
  for (const FeatureSpec& spec : gates.Specs()) {
    family.Add({{"name", std::string(spec.name)}, {"stage", std::string(StageName(spec.stage))}})
        .Set(gates.Enabled(spec.name) ? 1 : 0);
  }
}

}  // namespace ksched::scheduler::metrics
