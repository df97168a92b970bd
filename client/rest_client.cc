#include "client/rest_client.h"

#include <algorithm>
#include <atomic>
#include <optional>
#include <random>
#include <thread>
#include <utility>

#include "base/mutex.h"
#include "api/protobuf_wire.h"
#include "client/api_error.h"
#include "client/backoff.h"
#include "client/concat.h"
#include "client/object_encoding.h"
#include "client/resource_path.h"

namespace ksched::client {

namespace {

// client-go's URL.Host of the server: "https://127.0.0.1:6443/prefix" -> "127.0.0.1:6443".
std::string HostOf(std::string_view server) {
  const std::size_t scheme_end = server.find("://");
  if (scheme_end != std::string_view::npos) server.remove_prefix(scheme_end + 3);
  return std::string(server.substr(0, server.find('/')));
}

}  // namespace

struct RestClient::Core {
  Core(Transport* t, RestClientOptions o)
      : transport(t),
        host(HostOf(t->server())),
        options(std::move(o)),
        bucket(options.qps, options.burst,
               options.now ? options.now : TokenBucket::NowFunction([] { return TokenBucket::Clock::now(); })),
        seed_base(options.backoff_seed.value_or(std::random_device{}())) {}

  std::uint64_t NextSeed() { return seed_base + calls.fetch_add(1); }

  Transport* const transport;  // owned by the RestClient; alive while its callbacks can run
  const std::string host;      // for the observer
  const RestClientOptions options;
  TokenBucket bucket;
  const std::uint64_t seed_base;
  std::atomic<std::uint64_t> calls{0};
};

namespace {

using Core = RestClient::Core;

bool IsSuccess(int status) { return status >= 200 && status < 300; }

// One logical call and its attempts. Touched by one attempt at a time (the transport delivers one
// result per attempt, and the next attempt starts from that callback), so needs no lock.
struct Call {
  Call(std::shared_ptr<Core> c, HttpRequest r, RestClient::ResponseCallback d)
      : core(std::move(c)),
        request(std::move(r)),
        done(std::move(d)),
        backoff_seed(core->NextSeed()),
        what(Concat(MethodName(request.method), " ", core->transport->server(), request.target)),
        start(std::chrono::steady_clock::now()) {}

  std::shared_ptr<Core> core;
  HttpRequest request;
  RestClient::ResponseCallback done;
  // Made at the first retry: its generator's state is 2.5 KB to allocate and seed, and nearly
  // every call succeeds at once. The seed is drawn up front, so delays do not depend on timing.
  std::uint64_t backoff_seed;
  std::optional<Backoff> backoff;
  std::string what;
  std::chrono::steady_clock::time_point start;  // for the observer's latency
  int retries = 0;
  bool auth_retried = false;
  // The waits between attempts so far (RestClientOptions::retry_budget).
  TokenBucket::Clock::duration waited{0};
};

// Whether `call` may wait `delay` more before its next attempt (the retry budget).
bool WithinRetryBudget(Call& call, TokenBucket::Clock::duration delay) {
  const std::chrono::milliseconds budget = call.core->options.retry_budget;
  if (budget.count() > 0 && call.waited + delay > budget) return false;
  call.waited += delay;
  return true;
}

void OnResult(const std::shared_ptr<Call>& call, absl::StatusOr<HttpResponse> result);

Backoff::Duration NextBackoff(Call& call) {
  if (!call.backoff.has_value()) {
    const RestClientOptions& options = call.core->options;
    call.backoff.emplace(options.backoff_initial, options.backoff_cap, 2.0, options.backoff_jitter,
                         call.backoff_seed);
  }
  return call.backoff->Next();
}

void Dispatch(const std::shared_ptr<Call>& call, TokenBucket::Clock::duration retry_delay) {
  const TokenBucket::Clock::duration throttle = call->core->bucket.Reserve();
  if (RequestObserver* observer = call->core->options.observer.get()) {
    observer->OnAttemptSent(call->request.method, call->core->host,
                            std::max(throttle, TokenBucket::Clock::duration::zero()), call->request.body.size());
  }
  const TokenBucket::Clock::duration delay = std::max(retry_delay, throttle);
  auto on_result = [call](absl::StatusOr<HttpResponse> result) { OnResult(call, std::move(result)); };
  if (delay <= TokenBucket::Clock::duration::zero()) {
    call->core->transport->Send(call->request, std::move(on_result));
  } else {
    call->core->transport->SendAfter(delay, call->request, std::move(on_result));
  }
}

void Finish(const std::shared_ptr<Call>& call, absl::StatusOr<HttpResponse> result) {
  if (RequestObserver* observer = call->core->options.observer.get()) {
    observer->OnRequestDone(call->request.method, call->core->host,
                            std::chrono::steady_clock::now() - call->start);
  }
  RestClient::ResponseCallback done = std::move(call->done);
  if (done) done(std::move(result));
}

// The request's final answer: its body counted (client-go: a success, or an error with a body),
// then passed on, as an error status unless it is a 2xx.
void FinishAnswered(const std::shared_ptr<Call>& call, HttpResponse response) {
  RequestObserver* observer = call->core->options.observer.get();
  if (observer != nullptr && (IsSuccess(response.status) || !response.body.empty())) {
    observer->OnResponseBody(call->request.method, call->core->host, response.body.size());
  }
  if (IsSuccess(response.status)) return Finish(call, std::move(response));
  Finish(call, StatusFromResponse(response, call->what));
}

void OnResult(const std::shared_ptr<Call>& call, absl::StatusOr<HttpResponse> result) {
  const RestClientOptions& options = call->core->options;
  const bool idempotent = IsIdempotent(call->request.method);
  const bool may_retry = call->retries < options.max_retries;
  if (options.observer) {
    options.observer->OnAttempt(call->request.method, call->core->host,
                                result.ok() ? result->status : 0);
  }
  if (!result.ok()) {
    const absl::Status& status = result.status();
    if (may_retry && status.code() == absl::StatusCode::kUnavailable &&
        (idempotent || WasNotSent(status))) {
      const TokenBucket::Clock::duration delay(NextBackoff(*call));
      if (WithinRetryBudget(*call, delay)) {
        ++call->retries;
        return Dispatch(call, delay);
      }
    }
    return Finish(call, std::move(result));
  }
  const int code = result->status;
  if (IsSuccess(code)) return FinishAnswered(call, *std::move(result));
  if (code == 401 && options.authenticator && !call->auth_retried) {
    call->auth_retried = true;
    options.authenticator->OnUnauthorized();
    return Dispatch(call, TokenBucket::Clock::duration::zero());
  }
  const bool retryable = code == 429 || (code >= 500 && code < 600 && code != 501 && idempotent);
  if (may_retry && retryable) {
    // A server's Retry-After is waited at most max_retry_after: one absurd answer (2^31 s) must
    // not hold the request, and whatever waits on it, for decades.
    const TokenBucket::Clock::duration delay =
        result->retry_after.has_value()
            ? TokenBucket::Clock::duration(std::min<std::chrono::seconds>(*result->retry_after, options.max_retry_after))
            : TokenBucket::Clock::duration(NextBackoff(*call));
    if (WithinRetryBudget(*call, delay)) {
      ++call->retries;
      return Dispatch(call, delay);
    }
  }
  FinishAnswered(call, *std::move(result));
}

HttpRequest MakeRequest(HttpMethod method, std::string target, std::string body = {},
                        std::string_view content_type = {}) {
  HttpRequest request;
  request.method = method;
  request.target = std::move(target);
  request.body = std::move(body);
  if (!request.body.empty()) request.content_type = std::string(content_type);
  return request;
}

absl::StatusOr<std::string> BodyOf(absl::StatusOr<HttpResponse> response) {
  if (!response.ok()) return response.status();
  return std::move(response->body);
}

}  // namespace

RestClientOptions RestClientOptions::FromConfig(const RestConfig& config) {
  RestClientOptions options;
  options.qps = config.qps;
  options.protobuf_writes = api::protobuf::IsProtobufContentType(config.content_type);
  options.burst = config.burst;
  options.timeout = config.timeout;
  return options;
}

RestClient::RestClient(std::shared_ptr<Transport> transport, RestClientOptions options)
    : transport_(std::move(transport)), core_(std::make_shared<Core>(transport_.get(), std::move(options))) {}

RestClient::~RestClient() = default;

const std::string& RestClient::server() const { return transport_->server(); }

bool RestClient::WritesProtobuf() const { return core_->options.protobuf_writes; }

void RestClient::DoAsync(HttpRequest request, ResponseCallback done) {
  if (request.timeout.count() == 0) request.timeout = core_->options.timeout;
  auto call = std::make_shared<Call>(core_, std::move(request), std::move(done));
  Dispatch(call, TokenBucket::Clock::duration::zero());
}

void RestClient::DoAsyncAfter(std::chrono::steady_clock::duration delay, HttpRequest request,
                              ResponseCallback done) {
  if (request.timeout.count() == 0) request.timeout = core_->options.timeout;
  auto call = std::make_shared<Call>(core_, std::move(request), std::move(done));
  Dispatch(call, std::chrono::duration_cast<TokenBucket::Clock::duration>(delay));
}

absl::StatusOr<HttpResponse> RestClient::Do(HttpRequest request) {
  struct Waiter {
    base::Mutex mu;
    base::CondVar cv;
    std::optional<absl::StatusOr<HttpResponse>> result ABSL_GUARDED_BY(mu);
  };
  // Shared: the callback object (and its copy of `waiter`) may be destroyed on the transport thread
  // after Do has returned.
  auto waiter = std::make_shared<Waiter>();
  DoAsync(std::move(request), [waiter](absl::StatusOr<HttpResponse> result) {
    base::MutexLock lock(&waiter->mu);
    waiter->result = std::move(result);
    waiter->cv.NotifyAll();
  });
  base::MutexLock lock(&waiter->mu);
  waiter->cv.Wait(&waiter->mu, [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(waiter->mu) { return waiter->result.has_value(); });
  return std::move(*waiter->result);
}

absl::StatusOr<std::string> RestClient::Get(std::string_view path) {
  return BodyOf(Do(MakeRequest(HttpMethod::kGet, std::string(path))));
}

absl::StatusOr<std::string> RestClient::List(std::string_view path, const ListOptions& options) {
  return BodyOf(Do(MakeRequest(HttpMethod::kGet, Concat(path, ListQuery(options)))));
}

absl::StatusOr<std::string> RestClient::Create(std::string_view path, std::string body) {
  return BodyOf(Do(MakeRequest(HttpMethod::kPost, std::string(path), std::move(body), "application/json")));
}

absl::StatusOr<std::string> RestClient::Update(std::string_view path, std::string body) {
  return BodyOf(Do(MakeRequest(HttpMethod::kPut, std::string(path), std::move(body), "application/json")));
}

absl::StatusOr<std::string> RestClient::Patch(std::string_view path, PatchType type, std::string body) {
  return BodyOf(Do(MakeRequest(HttpMethod::kPatch, std::string(path), std::move(body), PatchContentType(type))));
}

absl::StatusOr<std::string> RestClient::Delete(std::string_view path, const DeleteOptions& options) {
  return BodyOf(
      Do(MakeRequest(HttpMethod::kDelete, std::string(path), DeleteOptionsJson(options), "application/json")));
}

HttpRequest RestClient::BindingRequest(std::string_view namespace_name, std::string_view pod_name,
                                       std::string_view pod_uid, std::string_view node_name) const {
  const std::string path = ResourcePath()
                               .Namespace(std::string(namespace_name))
                               .Resource("pods")
                               .Name(std::string(pod_name))
                               .SubResource("binding")
                               .String();
  const bool protobuf = core_->options.protobuf_writes;
  return ObjectPostRequest(path,
                           protobuf ? BindingProtobuf(namespace_name, pod_name, pod_uid, node_name)
                                    : BindingJson(namespace_name, pod_name, pod_uid, node_name),
                           protobuf);
}

absl::Status RestClient::CreateBinding(std::string_view namespace_name, std::string_view pod_name,
                                       std::string_view pod_uid, std::string_view node_name) {
  return Do(BindingRequest(namespace_name, pod_name, pod_uid, node_name)).status();
}

void RestClient::CreateBindingAsync(std::string_view namespace_name, std::string_view pod_name,
                                    std::string_view pod_uid, std::string_view node_name,
                                    std::function<void(absl::Status)> done,
                                    std::chrono::steady_clock::duration delay) {
  DoAsyncAfter(delay, BindingRequest(namespace_name, pod_name, pod_uid, node_name),
               [done = std::move(done)](absl::StatusOr<HttpResponse> response) { done(response.status()); });
}

absl::StatusOr<std::unique_ptr<LineStream>> RestClient::Watch(std::string_view path, const ListOptions& options) {
  HttpRequest request = MakeRequest(HttpMethod::kGet, Concat(path, ListQuery(options, /*watch=*/true)));
  request.stream_idle_timeout = kWatchIdleTimeout;
  const std::string what = Concat("GET ", transport_->server(), request.target);
  for (bool auth_retried = false;; auth_retried = true) {
    const TokenBucket::Clock::duration wait = core_->bucket.Reserve();
    if (wait > TokenBucket::Clock::duration::zero()) std::this_thread::sleep_for(wait);
    absl::StatusOr<std::unique_ptr<LineStream>> stream = transport_->OpenLineStream(request);
    if (core_->options.observer) {
      core_->options.observer->OnAttempt(request.method, core_->host,
                                         stream.ok() ? (*stream)->status() : 0);
    }
    if (!stream.ok()) return stream.status();
    const int code = (*stream)->status();
    if (IsSuccess(code)) return stream;
    HttpResponse response;
    response.status = code;
    absl::StatusOr<std::string> body = (*stream)->ReadAll();
    if (body.ok()) response.body = std::move(*body);
    if (code == 401 && core_->options.authenticator && !auth_retried) {
      core_->options.authenticator->OnUnauthorized();
      continue;
    }
    return StatusFromResponse(response, what);
  }
}

}  // namespace ksched::client
