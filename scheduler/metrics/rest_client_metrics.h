// RestClientMetrics: client-go's rest_client_requests_total{code,method,host},
// rest_client_request_duration_seconds{verb,host}, rest_client_rate_limiter_duration_seconds{verb,host},
// rest_client_request_size_bytes{verb,host} and rest_client_response_size_bytes{verb,host}
// (component-base/metrics/prometheus/restclient), fed by the RestClients this observer is given to
// (client/request_observer.h).
//
// Label values as client-go's: code is the HTTP status ("200") or "<error>" for an exchange without
// a response; method/verb "GET", "POST", ...; host the server's host:port.
//
// Ownership: registers its families in the Registry passed in, which must outlive it (the app
// owns both through scheduler/metrics/metrics.h; RestClients share this object).
// Thread-safety: the observer methods are called from transport I/O threads and callers' threads;
// one mutex guards the child tables, the children themselves are atomic.
#pragma once

#include <array>
#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

#include "base/mutex.h"
#include "client/request_observer.h"
#include "scheduler/metrics/registered_families.h"

namespace ksched::scheduler::metrics {

class RestClientMetrics final : public client::RequestObserver {
 public:
  // `families` notes the families registered (scheduler/metrics/registered_families.h).
  RestClientMetrics(prometheus::Registry& registry, RegisteredFamilies& families);

  void OnAttempt(client::HttpMethod method, std::string_view host, int status_code) override;
  void OnRequestDone(client::HttpMethod method, std::string_view host,
                     std::chrono::steady_clock::duration latency) override;
  void OnAttemptSent(client::HttpMethod method, std::string_view host,
                     std::chrono::steady_clock::duration wait, std::size_t body_bytes) override;
  void OnResponseBody(client::HttpMethod method, std::string_view host, std::size_t body_bytes) override;

 private:
  static constexpr std::size_t kMethods = 5;  // client::HttpMethod values
  struct HostSeries {
    std::map<std::pair<int, int>, prometheus::Counter*> requests;  // (status code, method)
    std::array<prometheus::Histogram*, kMethods> durations{};      // by method
    std::array<prometheus::Histogram*, kMethods> rate_limiter{};    // by method
    std::array<prometheus::Histogram*, kMethods> request_sizes{};   // by method
    std::array<prometheus::Histogram*, kMethods> response_sizes{};  // by method
  };
  // The child of `family` for (method, host) in `slots`, created on first use. Locks mu_.
  prometheus::Histogram& HistogramFor(prometheus::Family<prometheus::Histogram>& family,
                                      std::array<prometheus::Histogram*, kMethods> HostSeries::*slots,
                                      const std::vector<double>& buckets, client::HttpMethod method,
                                      std::string_view host);
  // The same for the host's `series`, with mu_ held.
  static prometheus::Histogram& HistogramLocked(HostSeries& series, prometheus::Family<prometheus::Histogram>& family,
                                                std::array<prometheus::Histogram*, kMethods> HostSeries::*slots,
                                                const std::vector<double>& buckets, client::HttpMethod method,
                                                std::string_view host);
  HostSeries& SeriesLocked(std::string_view host) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  prometheus::Family<prometheus::Counter>& requests_;
  prometheus::Family<prometheus::Histogram>& durations_;
  prometheus::Family<prometheus::Histogram>& rate_limiter_;
  prometheus::Family<prometheus::Histogram>& request_sizes_;
  prometheus::Family<prometheus::Histogram>& response_sizes_;
  base::Mutex mu_;
  std::map<std::string, HostSeries, std::less<>> hosts_ ABSL_GUARDED_BY(mu_);
};

}  // namespace ksched::scheduler::metrics
