// HttpTransport against the real kube-apiserver: TLS verification, authentication, HTTP/2 (one
// connection for everything, flow control of a lagging stream, DISABLE_HTTP2) and HTTP/1.1
// (keep-alive reuse, concurrency bounds), streams (watch), oversized stream lines, cancellation,
// unreachable servers. Tests that hold for both protocols run once with each.
#include "client/http_transport.h"

#include <stdlib.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "controlplane_env.h"

using ksched::client::HttpMethod;
using ksched::client::HttpRequest;
using ksched::client::HttpResponse;
using ksched::client::HttpTransport;
using ksched::client::RestConfig;
using ksched::client::TransportOptions;
using ksched::testing::ControlPlane;
using ksched::testing::ReadFile;

namespace {

std::unique_ptr<HttpTransport> MustCreate(const RestConfig& config, TransportOptions options = {},
                                          ksched::client::AuthorizationSource auth = nullptr) {
  auto transport = HttpTransport::Create(config, options, std::move(auth));
  INFO(transport.status().ToString());
  REQUIRE(transport.ok());
  return std::move(*transport);
}

ksched::client::AuthorizationSource Bearer(const std::string& token) {
  return [token]() -> absl::StatusOr<std::string> { return "Bearer " + token; };
}

HttpRequest Get(std::string target) {
  HttpRequest request;
  request.target = std::move(target);
  return request;
}

HttpRequest PostJson(std::string target, std::string body) {
  HttpRequest request;
  request.method = HttpMethod::kPost;
  request.target = std::move(target);
  request.body = std::move(body);
  request.content_type = "application/json";
  return request;
}

std::string ConfigMapJson(const std::string& name, std::size_t data_bytes) {
  return R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":")" + name +
         R"("},"data":{"blob":")" + std::string(data_bytes, 'x') + R"("}})";
}

}  // namespace

TEST_CASE("client certificate: GET /version reaches the real API server", "[transport]") {
  const auto& cp = ControlPlane::Get();
  auto transport = MustCreate(cp.AdminCertConfig());
  auto response = transport->SendSync(Get("/version"));
  REQUIRE(response.ok());
  CHECK(response->status == 200);
  CHECK(response->body.find("\"gitVersion\": \"v1.37.2\"") != std::string::npos);
  CHECK(response->content_type == "application/json");
}

TEST_CASE("bearer token: accepted when right, 401 when wrong", "[transport]") {
  const auto& cp = ControlPlane::Get();
  RestConfig config = cp.AdminTokenConfig();
  auto good = MustCreate(config, {}, Bearer(config.bearer_token));
  auto ok = good->SendSync(Get("/api/v1/namespaces/default"));
  REQUIRE(ok.ok());
  CHECK(ok->status == 200);

  auto bad = MustCreate(config, {}, Bearer("not-a-valid-token"));
  auto rejected = bad->SendSync(Get("/api/v1/namespaces/default"));
  REQUIRE(rejected.ok());  // an HTTP status is a completed exchange
  CHECK(rejected->status == 401);
}

TEST_CASE("a wrong CA fails the handshake with a clear TLS error naming the server", "[transport]") {
  const auto& cp = ControlPlane::Get();
  RestConfig config = cp.AdminCertConfig();
  // The API server's own serving certificate is not a CA for itself: verification must fail.
  config.tls.ca_pem = ReadFile(cp.pki("admin.crt"));
  config.tls.ca_source = "/wrong/ca.crt";
  auto transport = MustCreate(config);
  auto response = transport->SendSync(Get("/version"));
  REQUIRE_FALSE(response.ok());
  CHECK(response.status().code() == absl::StatusCode::kFailedPrecondition);
  const std::string message(response.status().message());
  CHECK(message.find("failed verification") != std::string::npos);
  CHECK(message.find(cp["APISERVER_URL"]) != std::string::npos);
  CHECK(message.find("/wrong/ca.crt") != std::string::npos);
}

TEST_CASE("hostname verification: localhost is in the SANs, another name is refused", "[transport]") {
  const auto& cp = ControlPlane::Get();
  RestConfig by_name = cp.AdminCertConfig();
  by_name.server = "https://localhost:" + cp["APISERVER_PORT"];
  auto response = MustCreate(by_name)->SendSync(Get("/version"));
  REQUIRE(response.ok());
  CHECK(response->status == 200);

  RestConfig wrong_name = cp.AdminCertConfig();
  wrong_name.tls.server_name = "not-the-apiserver.example";
  auto refused = MustCreate(wrong_name)->SendSync(Get("/version"));
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().code() == absl::StatusCode::kFailedPrecondition);
  CHECK(std::string(refused.status().message()).find("hostname mismatch") != std::string::npos);

  RestConfig insecure = wrong_name;
  insecure.tls.insecure_skip_verify = true;
  auto accepted = MustCreate(insecure)->SendSync(Get("/version"));
  REQUIRE(accepted.ok());
  CHECK(accepted->status == 200);
}

TEST_CASE("an unreachable server is a clear kUnavailable naming it", "[transport]") {
  RestConfig config = ControlPlane::Get().AdminCertConfig();
  config.server = "https://127.0.0.1:1";
  auto response = MustCreate(config)->SendSync(Get("/version"));
  REQUIRE_FALSE(response.ok());
  CHECK(response.status().code() == absl::StatusCode::kUnavailable);
  CHECK(std::string(response.status().message()).find("https://127.0.0.1:1") != std::string::npos);
}

TEST_CASE("bad configuration is rejected at Create with the field named", "[transport]") {
  RestConfig config = ControlPlane::Get().AdminCertConfig();
  config.server = "ftp://127.0.0.1:80";
  CHECK(HttpTransport::Create(config).status().code() == absl::StatusCode::kInvalidArgument);
  config = ControlPlane::Get().AdminCertConfig();
  config.tls.ca_pem = "not a certificate";
  auto bad_ca = HttpTransport::Create(config);
  REQUIRE_FALSE(bad_ca.ok());
  INFO(bad_ca.status().ToString());
  CHECK(std::string(bad_ca.status().message()).find("certificate authority") != std::string::npos);
  CHECK(std::string(bad_ca.status().message()).find("no valid PEM certificate") != std::string::npos);
  config = ControlPlane::Get().AdminCertConfig();
  config.tls.client_key_pem = ReadFile(ControlPlane::Get().pki("kube-scheduler.key"));
  auto mismatch = HttpTransport::Create(config);
  REQUIRE_FALSE(mismatch.ok());
  INFO(mismatch.status().ToString());
  CHECK(std::string(mismatch.status().message()).find("does not match") != std::string::npos);
}

namespace {

TransportOptions WithHttp2(bool http2) {
  TransportOptions options;
  options.http2 = http2;
  return options;
}

}  // namespace

TEST_CASE("sequential calls reuse one connection (HTTP/2: one stream each)", "[transport]") {
  const bool http2 = GENERATE(true, false);
  INFO("http2 " << http2);
  auto transport = MustCreate(ControlPlane::Get().AdminCertConfig(), WithHttp2(http2));
  for (int i = 0; i < 50; ++i) {
    auto response = transport->SendSync(Get("/api/v1/namespaces/default"));
    REQUIRE(response.ok());
    REQUIRE(response->status == 200);
    CHECK(response->content_type == "application/json");
  }
  const auto stats = transport->stats();
  CHECK(stats.requests == 50);
  CHECK(stats.connections_opened == 1);
  CHECK(stats.transport_failures == 0);
  CHECK(stats.connections_reused == 49);
  CHECK(stats.http2_streams == (http2 ? 50u : 0u));
}

TEST_CASE("HTTP/2 is off by default; KSCHED_HTTP2 turns it on, DISABLE_HTTP2 off", "[transport]") {
  auto count_streams = [](TransportOptions options) {
    auto transport = MustCreate(ControlPlane::Get().AdminCertConfig(), options);
    auto response = transport->SendSync(Get("/version"));
    REQUIRE(response.ok());
    CHECK(response->status == 200);
    return transport->stats().http2_streams;
  };
  CHECK(count_streams({}) == 0);
  CHECK(count_streams(WithHttp2(true)) == 1);
  REQUIRE(setenv("KSCHED_HTTP2", "1", 1) == 0);
  CHECK(count_streams({}) == 1);
  REQUIRE(setenv("DISABLE_HTTP2", "true", 1) == 0);  // client-go's switch wins
  CHECK(count_streams({}) == 0);
  CHECK(count_streams(WithHttp2(true)) == 0);
  REQUIRE(unsetenv("KSCHED_HTTP2") == 0);
  REQUIRE(unsetenv("DISABLE_HTTP2") == 0);
}

namespace {

// Sends `calls` GETs at once and waits for all of them; returns how many answered 200.
int SendConcurrently(HttpTransport& transport, int calls) {
  std::mutex mu;
  std::condition_variable cv;
  int done = 0, ok = 0;
  for (int i = 0; i < calls; ++i) {
    transport.Send(Get("/api/v1/namespaces/kube-system"), [&](absl::StatusOr<HttpResponse> r) {
      std::lock_guard<std::mutex> lock(mu);
      ++done;
      if (r.ok() && r->status == 200) ++ok;
      cv.notify_all();
    });
  }
  std::unique_lock<std::mutex> lock(mu);
  REQUIRE(cv.wait_for(lock, std::chrono::seconds(60), [&] { return done == calls; }));
  return ok;
}

}  // namespace

TEST_CASE("HTTP/2: concurrent calls share the connections; a watch has its own HTTP/1.1 one",
          "[transport]") {
  const std::size_t connections = GENERATE(1, 3);
  INFO("http2_connections " << connections);
  TransportOptions options = WithHttp2(true);
  options.http2_connections = connections;
  auto transport = MustCreate(ControlPlane::Get().AdminCertConfig(), options);
  auto stream = transport->OpenLineStream(Get("/api/v1/namespaces?watch=1&resourceVersion=0"));
  REQUIRE(stream.ok());
  CHECK((*stream)->status() == 200);
  constexpr int kCalls = 300;
  CHECK(SendConcurrently(*transport, kCalls) == kCalls);
  auto first = (*stream)->Next();  // the watch still delivers
  REQUIRE(first.ok());
  REQUIRE(first->has_value());
  CHECK((*first)->line.rfind(R"({"type":"ADDED")", 0) == 0);
  const auto stats = transport->stats();
  CHECK(stats.connections_opened == connections + 1);
  CHECK(stats.http2_streams == kCalls);
  CHECK(stats.requests == kCalls);  // unary calls; the watch is not counted
}

TEST_CASE("HTTP/1.1: many concurrent calls complete, bounded by max_connections", "[transport]") {
  TransportOptions options = WithHttp2(false);
  options.max_connections = 8;
  auto transport = MustCreate(ControlPlane::Get().AdminCertConfig(), options);
  constexpr int kCalls = 300;
  CHECK(SendConcurrently(*transport, kCalls) == kCalls);
  CHECK(transport->stats().connections_opened <= 8);
}

// A scheduler's bindings and events come in bursts; with an idle pool smaller than the bursts,
// every burst closed connections and the next one opened them again, a TLS handshake each.
TEST_CASE("HTTP/1.1: bursts of concurrent calls reuse the connections of the previous burst", "[transport]") {
  auto transport = MustCreate(ControlPlane::Get().AdminCertConfig(), WithHttp2(false));
  constexpr int kBurst = 48;  // more than the old idle pool of 32, fewer than max_connections
  auto burst = [&] { CHECK(SendConcurrently(*transport, kBurst) == kBurst); };
  burst();
  const auto opened_first = transport->stats().connections_opened;
  CHECK(opened_first <= kBurst);
  for (int i = 0; i < 3; ++i) burst();
  CHECK(transport->stats().connections_opened == opened_first);
}

TEST_CASE("a watch stream delivers events as lines, skips oversized ones, and cancels",
          "[transport][stream]") {
  const bool http2 = GENERATE(true, false);
  INFO("http2 " << http2);
  TransportOptions options = WithHttp2(http2);
  options.max_line_bytes = 4096;
  auto transport = MustCreate(ControlPlane::Get().AdminCertConfig(), options);
  const std::string ns = http2 ? "transport-stream-test-h2" : "transport-stream-test";
  auto created = transport->SendSync(
      PostJson("/api/v1/namespaces", R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":")" + ns + R"("}})"));
  REQUIRE(created.ok());
  REQUIRE(created->status == 201);

  auto list = transport->SendSync(Get("/api/v1/namespaces/" + ns + "/configmaps"));
  REQUIRE(list.ok());
  const auto rv_at = list->body.find("\"resourceVersion\":\"");
  REQUIRE(rv_at != std::string::npos);
  const std::string rv = list->body.substr(rv_at + 19, list->body.find('"', rv_at + 19) - rv_at - 19);

  auto stream = transport->OpenLineStream(
      Get("/api/v1/namespaces/" + ns + "/configmaps?watch=1&resourceVersion=" + rv));
  REQUIRE(stream.ok());
  CHECK((*stream)->status() == 200);

  for (const auto& [name, bytes] : {std::pair{"big", 10000}, {"small", 10}}) {
    auto r = transport->SendSync(PostJson("/api/v1/namespaces/" + ns + "/configmaps", ConfigMapJson(name, bytes)));
    REQUIRE(r.ok());
    REQUIRE(r->status == 201);
  }
  auto first = (*stream)->Next();
  REQUIRE(first.ok());
  REQUIRE(first->has_value());
  CHECK((*first)->line.empty());
  CHECK((*first)->oversized_bytes > 10000);
  auto second = (*stream)->Next();
  REQUIRE(second.ok());
  REQUIRE(second->has_value());
  CHECK((*second)->line.rfind(R"({"type":"ADDED")", 0) == 0);
  CHECK((*second)->line.find(R"("name":"small")") != std::string::npos);

  // Cancel from another thread while Next() blocks.
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    (*stream)->Cancel();
  });
  auto after_cancel = (*stream)->Next();
  canceller.join();
  INFO(after_cancel.status().ToString());
  REQUIRE_FALSE(after_cancel.ok());
  CHECK(after_cancel.status().code() == absl::StatusCode::kCancelled);
}

TEST_CASE("a silent watch ends after its idle timeout and takes the idle pooled connections with it",
          "[transport][stream]") {
  auto transport = MustCreate(ControlPlane::Get().AdminCertConfig(), WithHttp2(false));
  // A pooled connection: the GET leaves it idle in the pool.
  auto version = transport->SendSync(Get("/version"));
  REQUIRE(version.ok());
  const std::uint64_t opened_before = transport->stats().connections_opened;

  // A watch of a namespace nobody writes to, without bookmarks: nothing arrives.
  HttpRequest watch = Get("/api/v1/namespaces/transport-silent-watch/configmaps?watch=1");
  watch.stream_idle_timeout = std::chrono::milliseconds(1500);
  const auto start = std::chrono::steady_clock::now();
  auto stream = transport->OpenLineStream(watch);
  REQUIRE(stream.ok());
  REQUIRE((*stream)->status() == 200);
  auto next = (*stream)->Next();
  const auto waited = std::chrono::steady_clock::now() - start;
  REQUIRE_FALSE(next.ok());
  CHECK(next.status().code() == absl::StatusCode::kDeadlineExceeded);
  CHECK_THAT(std::string(next.status().message()), Catch::Contains("nothing received for 1500 ms"));
  CHECK(waited >= std::chrono::milliseconds(1400));
  CHECK(waited < std::chrono::seconds(10));

  // The pooled connection was closed with it: the next call opens a new one.
  auto again = transport->SendSync(Get("/version"));
  REQUIRE(again.ok());
  CHECK(again->status == 200);
  CHECK(transport->stats().connections_opened == opened_before + 2);  // the watch's, then the GET's
}

TEST_CASE("a rejected stream exposes the status and the Status body", "[transport][stream]") {
  const bool http2 = GENERATE(true, false);
  INFO("http2 " << http2);
  RestConfig config = ControlPlane::Get().AdminTokenConfig();
  auto transport = MustCreate(config, WithHttp2(http2), Bearer("wrong-token"));
  auto stream = transport->OpenLineStream(Get("/api/v1/pods?watch=1"));
  INFO(stream.status().ToString());
  REQUIRE(stream.ok());
  CHECK((*stream)->status() == 401);
  auto body = (*stream)->ReadAll();
  REQUIRE(body.ok());
  CHECK(body->find("\"kind\":\"Status\"") != std::string::npos);
}

TEST_CASE("destroying the transport cancels what is in flight", "[transport]") {
  const bool http2 = GENERATE(true, false);
  INFO("http2 " << http2);
  auto transport = MustCreate(ControlPlane::Get().AdminCertConfig(), WithHttp2(http2));
  auto stream = transport->OpenLineStream(Get("/api/v1/namespaces?watch=1&resourceVersion=0"));
  REQUIRE(stream.ok());
  std::atomic<bool> called{false};
  transport->Send(Get("/api/v1/namespaces"), [&](absl::StatusOr<HttpResponse>) { called = true; });
  transport.reset();
  CHECK(called.load());
  // The stream ends: the initial ADDED events may still be queued, then an error.
  absl::Status end;
  for (int i = 0; i < 1000; ++i) {
    auto item = (*stream)->Next();
    if (!item.ok()) {
      end = item.status();
      break;
    }
    REQUIRE(item->has_value());
  }
  CHECK(end.code() == absl::StatusCode::kCancelled);
}
