#include "scheduler/metrics/rest_client_metrics.h"

#include <vector>

#include "scheduler/metrics/buckets.h"

namespace ksched::scheduler::metrics {
namespace {

// component-base restclient requestLatency buckets.
const std::vector<double>& RequestDurationBuckets() {
  static const std::vector<double> kBuckets = {0.005, 0.025, 0.1, 0.25, 0.5, 1.0,
                                               2.0,   4.0,   8.0, 15.0, 30.0, 60.0};
  return kBuckets;
}

std::string CodeLabel(int status_code) {
  return status_code > 0 ? std::to_string(status_code) : std::string("<error>");
}

}  // namespace

RestClientMetrics::RestClientMetrics(prometheus::Registry& registry)
    : requests_(prometheus::BuildCounter()
                    .Name("rest_client_requests_total")
                    .Help(WithStability(Stability::kAlpha,
                                        "Number of HTTP requests, partitioned by status code, "
                                        "method, and host."))
                    .Register(registry)),
      durations_(prometheus::BuildHistogram()
                     .Name("rest_client_request_duration_seconds")
                     .Help(WithStability(Stability::kAlpha,
                                         "Request latency in seconds. Broken down by verb, and "
                                         "host."))
                     .Register(registry)) {}

RestClientMetrics::HostSeries& RestClientMetrics::SeriesLocked(std::string_view host) {
  auto it = hosts_.find(host);
  if (it == hosts_.end()) it = hosts_.emplace(std::string(host), HostSeries{}).first;
  return it->second;
}

void RestClientMetrics::OnAttempt(client::HttpMethod method, std::string_view host,
                                  int status_code) {
  prometheus::Counter* counter = nullptr;
  {
    std::lock_guard lock(mu_);
    HostSeries& series = SeriesLocked(host);
    prometheus::Counter*& slot =
        series.requests[{status_code > 0 ? status_code : 0, static_cast<int>(method)}];
    if (slot == nullptr) {
      slot = &requests_.Add({{"code", CodeLabel(status_code)},
                             {"method", std::string(client::MethodName(method))},
                             {"host", std::string(host)}});
    }
    counter = slot;
  }
  counter->Increment();
}

void RestClientMetrics::OnRequestDone(client::HttpMethod method, std::string_view host,
                                      std::chrono::steady_clock::duration latency) {
  prometheus::Histogram* histogram = nullptr;
  {
    std::lock_guard lock(mu_);
    prometheus::Histogram*& slot = SeriesLocked(host).durations[static_cast<std::size_t>(method)];
    if (slot == nullptr) {
      slot = &durations_.Add({{"verb", std::string(client::MethodName(method))},
                              {"host", std::string(host)}},
                             RequestDurationBuckets());
    }
    histogram = slot;
  }
  histogram->Observe(std::chrono::duration<double>(latency).count());
}

}  // namespace ksched::scheduler::metrics
