// RequestObserver: told about every request a RestClient makes, for client-go's
// rest_client_requests_total (every attempt, retries included, by status code, method and host),
// rest_client_request_duration_seconds (each request from the call to its final result, throttle
// waits and retries included, by verb and host), rest_client_rate_limiter_duration_seconds (each
// attempt's wait for the client's QPS/burst token bucket), rest_client_request_size_bytes (each
// attempt's body) and rest_client_response_size_bytes (each request's final response body). The client layer knows only this interface; the
// scheduler layer implements it over Prometheus (scheduler/metrics/rest_client_metrics.h).
//
// `host` is the server's host[:port] as client-go's URL.Host ("127.0.0.1:6443"); `method` prints as
// client-go's verb ("GET", "POST", ...) through MethodName.
//
// Ownership: shared by the RestClientOptions that name it (calls in flight may outlive the client).
// Thread-safety: called concurrently from the transport's I/O thread and from callers' threads;
// implementations must be thread-safe and quick (they run on the I/O thread).
#pragma once

#include <chrono>
#include <cstddef>
#include <string_view>

#include "client/http_types.h"

namespace ksched::client {

class RequestObserver {
 public:
  virtual ~RequestObserver() = default;
  // One attempt ended: `status_code` is the HTTP status of the response, or 0 when the exchange
  // failed without one (client-go's code label "<error>").
  virtual void OnAttempt(HttpMethod method, std::string_view host, int status_code) = 0;
  // A request (Do/DoAsync and the typed calls; not Watch, as client-go) got its final result.
  virtual void OnRequestDone(HttpMethod method, std::string_view host,
                             std::chrono::steady_clock::duration latency) = 0;
  // An attempt of such a request is sent after waiting `wait` (zero when a token was at hand) for
  // the QPS/burst limiter, with a body of `body_bytes`. Default: ignored.
  virtual void OnAttemptSent(HttpMethod /*method*/, std::string_view /*host*/,
                             std::chrono::steady_clock::duration /*wait*/, std::size_t /*body_bytes*/) {}
  // Such a request's final response had a body of `body_bytes` (not called when it failed without
  // a response). Default: ignored.
  virtual void OnResponseBody(HttpMethod /*method*/, std::string_view /*host*/, std::size_t /*body_bytes*/) {}
};

}  // namespace ksched::client
