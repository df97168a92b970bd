// HealthCheckMetrics: what kube-scheduler serves on /metrics/slis (component-base
// metrics/prometheus/slis): the result of every health check a /healthz, /livez or /readyz request
// ran, as
//   kubernetes_healthcheck{name, type}                 1 if the last run passed, else 0
//   kubernetes_healthchecks_total{name, type, status}  runs by status "success" / "error"
// (type: the family, e.g. "readyz"; both [STABLE]) and process_start_time_seconds ([ALPHA], the
// registry's RegisterProcessStartTime), in the Go text format (text_format.h).
//
// Reset (DELETE /metrics/slis, upstream's SLIMetricsWithReset) deletes every series, as
// KubeRegistry.Reset does to these vectors: the checks' series come back as checks run again;
// process_start_time_seconds (a vector without labels upstream) does not.
//
// Thread-safety: Observe, Reset and SerializeText may be called concurrently from any thread (one
// mutex; a health check request observes a few checks).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "base/mutex.h"

namespace prometheus {
class Registry;
class Counter;
class Gauge;
template <typename T>
class Family;
}  // namespace prometheus

namespace ksched::scheduler::metrics {

class HealthCheckMetrics {
 public:
  // `process_start_seconds`: the value of process_start_time_seconds (the series is left out
  // when unknown).
  explicit HealthCheckMetrics(std::optional<double> process_start_seconds);
  ~HealthCheckMetrics();
  HealthCheckMetrics(const HealthCheckMetrics&) = delete;
  HealthCheckMetrics& operator=(const HealthCheckMetrics&) = delete;

  // One run of check `name` of family `type` (slis.ObserveHealthcheck).
  void Observe(std::string_view name, std::string_view type, bool passed);

  void Reset();

  std::string SerializeText() const;

 private:
  // A registry with the two check families, empty.
  void NewRegistry() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  mutable base::Mutex mu_;
  std::shared_ptr<prometheus::Registry> registry_ ABSL_GUARDED_BY(mu_);
  prometheus::Family<prometheus::Gauge>* healthcheck_ ABSL_GUARDED_BY(mu_) = nullptr;
  prometheus::Family<prometheus::Counter>* healthchecks_total_ ABSL_GUARDED_BY(mu_) = nullptr;
};

}  // namespace ksched::scheduler::metrics
