#include "scheduler/metrics/exec_plugin_metrics.h"

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

namespace ksched::scheduler::metrics {
namespace {

// component-base restclient execPluginCertRotation buckets: 10 minutes to 4 years.
const std::vector<double>& RotationAgeBuckets() {
  static const std::vector<double> kBuckets = {600,     1800,    3600,     14400,    86400,    604800,
                                               2592000, 7776000, 15552000, 31104000, 124416000};
  return kBuckets;
}

}  // namespace

ExecPluginMetrics::ExecPluginMetrics(prometheus::Registry& registry, RegisteredFamilies& families)
    : calls_(prometheus::BuildCounter()
                 .Name("rest_client_exec_plugin_call_total")
                 .Help(families.Help("rest_client_exec_plugin_call_total", Stability::kAlpha,
                                     "Number of calls to an exec plugin, partitioned by the type of event encountered "
                                     "(no_error, plugin_execution_error, plugin_not_found_error, client_internal_error) "
                                     "and an optional exit code. The exit code will be set to 0 if and only if the "
                                     "plugin call was successful."))
                 .Register(registry)),
      ttl_(prometheus::BuildGauge()
               .Name("rest_client_exec_plugin_ttl_seconds")
               .Help(families.Help("rest_client_exec_plugin_ttl_seconds", Stability::kAlpha,
                                   "Gauge of the shortest TTL (time-to-live) of the client certificate(s) managed by "
                                   "the auth exec plugin. The value is in seconds until certificate expiry (negative "
                                   "if already expired). If auth exec plugins are unused or manage no TLS "
                                   "certificates, the value will be +INF."))
               .Register(registry)
               .Add({})),
      rotation_age_(prometheus::BuildHistogram()
                        .Name("rest_client_exec_plugin_certificate_rotation_age")
                        .Help(families.Help("rest_client_exec_plugin_certificate_rotation_age", Stability::kAlpha,
                                            "Histogram of the number of seconds the last auth exec plugin client "
                                            "certificate lived before being rotated. If auth exec plugin client "
                                            "certificates are unused, histogram will contain no data."))
                        .Register(registry)
                        .Add({}, RotationAgeBuckets())) {
  ttl_.Set(std::numeric_limits<double>::infinity());
}

void ExecPluginMetrics::OnCall(client::ExecPluginCallStatus status, int code) {
  calls_.Add({{"code", std::to_string(code)}, {"call_status", std::string(client::ExecPluginCallStatusLabel(status))}})
      .Increment();
}

void ExecPluginMetrics::OnCertificateExpiry(const void* provider,
                                            std::optional<std::chrono::system_clock::time_point> not_after) {
  base::MutexLock lock(&mu_);
  if (not_after) {
    expiries_[provider] = *not_after;
  } else {
    expiries_.erase(provider);
  }
}

void ExecPluginMetrics::OnCertificateRotated(std::chrono::system_clock::duration age) {
  rotation_age_.Observe(std::chrono::duration<double>(age).count());
}

void ExecPluginMetrics::UpdateTtl(std::chrono::system_clock::time_point now) {
  base::MutexLock lock(&mu_);
  if (expiries_.empty()) {
    ttl_.Set(std::numeric_limits<double>::infinity());
    return;
  }
  const auto earliest = std::min_element(expiries_.begin(), expiries_.end(),
                                         [](const auto& a, const auto& b) { return a.second < b.second; });
  ttl_.Set(std::chrono::duration<double>(earliest->second - now).count());
}

}  // namespace ksched::scheduler::metrics
