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

// component-base restclient requestSize / responseSize buckets.
const std::vector<double>& SizeBuckets() {
  static const std::vector<double> kBuckets = {64,     256,     512,     1024,    4096,    16384,
                                               65536,  262144,  1048576, 4194304, 16777216};
  return kBuckets;
}

std::string CodeLabel(int status_code) {
  return status_code > 0 ? std::to_string(status_code) : std::string("<error>");
}

}  // namespace

RestClientMetrics::RestClientMetrics(prometheus::Registry& registry, RegisteredFamilies& families)
    : requests_(prometheus::BuildCounter()
                    .Name("rest_client_requests_total")
                    .Help(families.Help("rest_client_requests_total", Stability::kAlpha,
                                        "Number of HTTP requests, partitioned by status code, "
                                        "method, and host."))
                    .Register(registry)),
      durations_(prometheus::BuildHistogram()
                     .Name("rest_client_request_duration_seconds")
                     .Help(families.Help("rest_client_request_duration_seconds", Stability::kAlpha,
                                         "Request latency in seconds. Broken down by verb, and "
                                         "host."))
                     .Register(registry)),
      rate_limiter_(prometheus::BuildHistogram()
                        .Name("rest_client_rate_limiter_duration_seconds")
                        .Help(families.Help("rest_client_rate_limiter_duration_seconds", Stability::kAlpha,
                                            "Client side rate limiter latency in seconds. Broken down by verb, "
                                            "and host."))
                        .Register(registry)),
      request_sizes_(prometheus::BuildHistogram()
                         .Name("rest_client_request_size_bytes")
                         .Help(families.Help("rest_client_request_size_bytes", Stability::kAlpha,
                                             "Request size in bytes. Broken down by verb and host."))
                         .Register(registry)),
      response_sizes_(prometheus::BuildHistogram()
                          .Name("rest_client_response_size_bytes")
                          .Help(families.Help("rest_client_response_size_bytes", Stability::kAlpha,
                                              "Response size in bytes. Broken down by verb and host."))
                          .Register(registry)) {}

prometheus::Histogram& RestClientMetrics::HistogramFor(
    prometheus::Family<prometheus::Histogram>& family,
    std::array<prometheus::Histogram*, kMethods> HostSeries::*slots, const std::vector<double>& buckets,
    client::HttpMethod method, std::string_view host) {
  base::MutexLock lock(&mu_);
  return HistogramLocked(SeriesLocked(host), family, slots, buckets, method, host);
}

prometheus::Histogram& RestClientMetrics::HistogramLocked(
    HostSeries& series, prometheus::Family<prometheus::Histogram>& family,
    std::array<prometheus::Histogram*, kMethods> HostSeries::*slots, const std::vector<double>& buckets,
    client::HttpMethod method, std::string_view host) {
  prometheus::Histogram*& slot = (series.*slots)[static_cast<std::size_t>(method)];
  if (slot == nullptr) {
    slot = &family.Add({{"verb", std::string(client::MethodName(method))}, {"host", std::string(host)}}, buckets);
  }
  return *slot;
}

void RestClientMetrics::OnAttemptSent(client::HttpMethod method, std::string_view host,
                                      std::chrono::steady_clock::duration wait, std::size_t body_bytes) {
  prometheus::Histogram* waits = nullptr;
  prometheus::Histogram* sizes = nullptr;
  {  // both children under one lock: this runs for every request sent
    base::MutexLock lock(&mu_);
    HostSeries& series = SeriesLocked(host);
    waits = &HistogramLocked(series, rate_limiter_, &HostSeries::rate_limiter, RequestDurationBuckets(), method, host);
    sizes = &HistogramLocked(series, request_sizes_, &HostSeries::request_sizes, SizeBuckets(), method, host);
  }
  waits->Observe(std::chrono::duration<double>(wait).count());
  sizes->Observe(static_cast<double>(body_bytes));
}

void RestClientMetrics::OnResponseBody(client::HttpMethod method, std::string_view host, std::size_t body_bytes) {
  HistogramFor(response_sizes_, &HostSeries::response_sizes, SizeBuckets(), method, host)
      .Observe(static_cast<double>(body_bytes));
}

RestClientMetrics::HostSeries& RestClientMetrics::SeriesLocked(std::string_view host) {
  auto it = hosts_.find(host);
  if (it == hosts_.end()) it = hosts_.emplace(std::string(host), HostSeries{}).first;
  return it->second;
}

void RestClientMetrics::OnAttempt(client::HttpMethod method, std::string_view host,
                                  int status_code) {
  prometheus::Counter* counter = nullptr;
  {
    base::MutexLock lock(&mu_);
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
  HistogramFor(durations_, &HostSeries::durations, RequestDurationBuckets(), method, host)
      .Observe(std::chrono::duration<double>(latency).count());
}

}  // namespace ksched::scheduler::metrics
