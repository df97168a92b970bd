#include "scheduler/metrics/health_check_metrics.h"


#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/registry.h>

#include "scheduler/metrics/buckets.h"
#include "scheduler/metrics/text_format.h"

namespace ksched::scheduler::metrics {

HealthCheckMetrics::HealthCheckMetrics(std::optional<double> process_start_seconds) {
  NewRegistry();
  if (process_start_seconds.has_value()) {
    prometheus::BuildGauge()
        .Name("process_start_time_seconds")
        .Help(WithStability(Stability::kAlpha, "Start time of the process since unix epoch in seconds."))
        .Register(*registry_)
        .Add({})
        .Set(*process_start_seconds);
  }
}

HealthCheckMetrics::~HealthCheckMetrics() = default;

void HealthCheckMetrics::NewRegistry() {
  registry_ = std::make_shared<prometheus::Registry>();
  healthcheck_ = &prometheus::BuildGauge()
                      .Name("kubernetes_healthcheck")
                      .Help(WithStability(Stability::kStable, "This metric records the result of a single healthcheck."))
                      .Register(*registry_);
  healthchecks_total_ = &prometheus::BuildCounter()
                             .Name("kubernetes_healthchecks_total")
                             .Help(WithStability(Stability::kStable, "This metric records the results of all healthcheck."))
                             .Register(*registry_);
}

void HealthCheckMetrics::Reset() {
  base::MutexLock lock(&mu_);
  NewRegistry();
}

void HealthCheckMetrics::Observe(std::string_view name, std::string_view type, bool passed) {
  const std::string check(name), family(type);
  base::MutexLock lock(&mu_);
  healthcheck_->Add({{"name", check}, {"type", family}}).Set(passed ? 1 : 0);
  healthchecks_total_->Add({{"name", check}, {"type", family}, {"status", passed ? "success" : "error"}}).Increment();
}

std::string HealthCheckMetrics::SerializeText() const {
  base::MutexLock lock(&mu_);
  return GatheredText(registry_->Collect());
}

}  // namespace ksched::scheduler::metrics
