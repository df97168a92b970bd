// RestClient: requests to the API server with client-side throttling and retries, the part of
// client-go's rest.RESTClient / rest.Request a scheduler needs. Bodies stay JSON text: decoding
// is the caller's (api/json_decode.h).
//
// Throttling: every attempt, retries and watches included, takes a token from a TokenBucket(qps,
// burst) first (client-go throttles watches too). Asynchronous calls wait for it with
// Transport::SendAfter, never by blocking; Watch sleeps for it.
//
// Retries (each one an attempt, throttled like the first):
//   - 429 (the server did not process the request): any verb, up to max_retries times;
//   - 5xx other than 501: GET, PUT and DELETE only (a POST or PATCH may have taken effect), up to
//     max_retries times;
//     the wait is the response's Retry-After (seconds, at most max_retry_after) when it has one,
//     else the next exponential backoff delay (backoff_initial doubling up to backoff_cap, with
//     jitter);
//   - a transport failure with kUnavailable (refused, reset, closed): GET, PUT and DELETE, and any
//     verb when the transport reports that the request was not written (WasNotSent), with backoff,
//     up to max_retries times;
//   - 401 with an authenticator: Authenticator::OnUnauthorized() (an exec credential is dropped
//     and re-obtained) and one immediate retry; a second 401 is returned;
//   - all of a call's waits add up to at most retry_budget (2 minutes): past it, the last answer.

//   client-go retries only responses with Retry-After (10 times) and only GETs on connection
//   errors; this client also backs off on 5xx without Retry-After for idempotent verbs.
//
// Metrics: RestClientOptions::observer, when set, sees every attempt (Watch included) and the
// latency of every Do/DoAsync call (client/request_observer.h).
//
// Results: a 2xx response is the result; any other final response becomes a Status by
// StatusFromResponse (client/api_error.h: the code mapping, HttpStatusOf, ReasonOf), naming the
// verb, server and path; a final transport failure is the transport's Status (kCancelled once the
// transport shut down).
//
// Thread-safety: RestClient is safe for concurrent use from any number of threads. DoAsync never
// blocks (callbacks run on the transport's thread, HttpTransport: its I/O thread, and must be
// quick); Do and the typed calls block and must not be called from a callback (HttpTransport
// aborts a blocking call on its I/O thread, a RestClient call would deadlock). The RestClient keeps
// the transport alive; calls still in flight when it is destroyed run to completion (retries
// included) as long as the transport lives, and receive kCancelled when it shuts down. Do not
// destroy a RestClient holding the last reference to an HttpTransport from inside a callback.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "client/authenticator.h"
#include "client/http_types.h"
#include "client/exec_plugin_observer.h"
#include "client/request_observer.h"
#include "client/request_options.h"
#include "client/rest_config.h"
#include "client/token_bucket.h"
#include "client/transport.h"

namespace ksched::client {

struct RestClientOptions {
  float qps = 50.0F;  // <= 0: no client-side limit
  int burst = 100;
  int max_retries = 10;
  std::chrono::milliseconds backoff_initial{250};
  std::chrono::milliseconds backoff_cap{10'000};
  double backoff_jitter = 0.1;
  std::optional<std::uint64_t> backoff_seed;  // none: random
  std::chrono::milliseconds timeout{0};       // per request when the request sets none; 0: transport default
  // A response's Retry-After is waited at most this long (client-go waits whatever the server
  // says; a hostile or broken server's 2147483647 would hold the request for 68 years).
  std::chrono::seconds max_retry_after{30};
  // The waits between one call's attempts add up to at most this; the retry that would exceed it
  // is not made and the last answer is the result (so a binding fails and its pod is requeued
  // instead of holding a binding slot). 0: no budget.
  std::chrono::milliseconds retry_budget{120'000};
  // Told about 401 responses; null: a 401 is final. Usually also the transport's AuthorizationSource.
  std::shared_ptr<Authenticator> authenticator;
  // The token bucket's clock; empty: steady_clock::now. Tests inject a fake one.
  TokenBucket::NowFunction now;
  // Told about every attempt and every finished request (client-go's rest_client_* metrics); null:
  // nobody.
  std::shared_ptr<RequestObserver> observer;
  // Given to the exec credential plugin of the config NewRestClient builds from (client-go's exec
  // plugin metrics); null: nobody. Not used by the client itself.
  std::shared_ptr<ExecPluginObserver> exec_observer;

  // Binding (and, through WritesProtobuf, Event) bodies in Kubernetes protobuf rather than JSON.
  bool protobuf_writes = false;

  // qps, burst, timeout and protobuf_writes from a RestConfig.
  static RestClientOptions FromConfig(const RestConfig& config);
};

class RestClient {
 public:
  using ResponseCallback = std::function<void(absl::StatusOr<HttpResponse>)>;

  RestClient(std::shared_ptr<Transport> transport, RestClientOptions options = {});
  ~RestClient();
  RestClient(const RestClient&) = delete;
  RestClient& operator=(const RestClient&) = delete;

  // Throttles, sends, retries; `done` gets the 2xx response or the final error, exactly once.
  void DoAsync(HttpRequest request, ResponseCallback done);
  // DoAsync after `delay` (a caller's own retry backoff), without blocking: the first attempt
  // waits for the longer of `delay` and its throttling token.
  void DoAsyncAfter(std::chrono::steady_clock::duration delay, HttpRequest request, ResponseCallback done);
  // DoAsync, waiting for the result.
  absl::StatusOr<HttpResponse> Do(HttpRequest request);

  // Typed calls on a path (ResourcePath()...String()); they return the response body.
  absl::StatusOr<std::string> Get(std::string_view path);
  absl::StatusOr<std::string> List(std::string_view path, const ListOptions& options = {});
  absl::StatusOr<std::string> Create(std::string_view path, std::string body);  // POST
  absl::StatusOr<std::string> Update(std::string_view path, std::string body);  // PUT
  absl::StatusOr<std::string> Patch(std::string_view path, PatchType type, std::string body);
  absl::StatusOr<std::string> Delete(std::string_view path, const DeleteOptions& options = {});
  // POST /api/v1/namespaces/{ns}/pods/{name}/binding with a v1 Binding (BindingProtobuf when
  // protobuf_writes, else BindingJson).
  absl::Status CreateBinding(std::string_view namespace_name, std::string_view pod_name,
                             std::string_view pod_uid, std::string_view node_name);
  // CreateBinding without blocking: `done` gets the same result exactly once, as a DoAsync callback
  // (on the transport's thread, possibly before this returns; it must be quick).
  // `delay`: sent after it (DoAsyncAfter), for a caller retrying the bind.
  void CreateBindingAsync(std::string_view namespace_name, std::string_view pod_name,
                          std::string_view pod_uid, std::string_view node_name,
                          std::function<void(absl::Status)> done,
                          std::chrono::steady_clock::duration delay = {});
  // GET path?allowWatchBookmarks=true&...&watch=1, throttled (this call sleeps for its token).
  // A non-2xx response head is returned as its Status (the body read whole); a 401 with an
  // authenticator is retried once, as for other calls.
  // The stream ends (kDeadlineExceeded) after kWatchIdleTimeout without a byte: the API server's
  // watch cache sends every watcher that allows bookmarks one every minute (defaultBookmarkFrequency,
  // dispatched in 1 s +-25 % ticks), so a silent watch is a dead connection, one a network
  // partition froze without a FIN or RST (client-go finds those by HTTP/2 PINGs after 30 s + 15 s).
  // A bookmark late past the margin costs one rewatch from the last resourceVersion.
  absl::StatusOr<std::unique_ptr<LineStream>> Watch(std::string_view path, const ListOptions& options = {});
  static constexpr std::chrono::milliseconds kWatchIdleTimeout{65'000};

  const std::string& server() const;
  // Whether per-pod writes go as protobuf (RestClientOptions::protobuf_writes).
  bool WritesProtobuf() const;

  struct Core;  // shared with calls in flight

 private:
  HttpRequest BindingRequest(std::string_view namespace_name, std::string_view pod_name,
                             std::string_view pod_uid, std::string_view node_name) const;

  std::shared_ptr<Transport> transport_;
  std::shared_ptr<Core> core_;
};

}  // namespace ksched::client
