// RestClient against a scripted FakeTransport: throttling, retries (Retry-After, backoff, verbs,
// not-sent failures, 401), result mapping, typed calls' requests.
#include "client/rest_client.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <memory>
#include <string>

#include "api/protobuf_wire.h"
#include "client/api_error.h"
#include "client/request_options.h"
#include "fake_transport.h"

namespace {

using ksched::client::DeleteOptions;
using ksched::client::HttpMethod;
using ksched::client::HttpRequest;
using ksched::client::HttpResponse;
using ksched::client::ListOptions;
using ksched::client::MarkNotSent;
using ksched::client::PatchType;
using ksched::client::RestClient;
using ksched::client::RestClientOptions;
using ksched::client::testing::FakeTransport;
using std::chrono::milliseconds;
using std::chrono::seconds;

RestClientOptions Instant() {
  RestClientOptions options;
  options.qps = -1;  // no throttling
  options.backoff_initial = milliseconds(100);
  options.backoff_cap = milliseconds(1000);
  options.backoff_jitter = 0;
  options.backoff_seed = 1;
  return options;
}

HttpRequest Request(HttpMethod method, std::string target = "/api/v1/namespaces/default/pods/p") {
  HttpRequest request;
  request.method = method;
  request.target = std::move(target);
  return request;
}

}  // namespace

TEST_CASE("a 2xx response is returned after one attempt", "[rest]") {
  auto fake = std::make_shared<FakeTransport>();
  fake->Respond(200, R"({"kind":"Pod"})");
  RestClient client(fake, Instant());
  auto body = client.Get("/api/v1/namespaces/default/pods/p");
  REQUIRE(body.ok());
  CHECK(*body == R"({"kind":"Pod"})");
  REQUIRE(fake->sent().size() == 1);
  CHECK(fake->sent()[0].request.method == HttpMethod::kGet);
  CHECK(fake->sent()[0].delay == std::chrono::steady_clock::duration::zero());
}

TEST_CASE("429 with Retry-After is retried after that many seconds, for any verb", "[rest]") {
  auto fake = std::make_shared<FakeTransport>();
  fake->Respond(429, "{}", 3).Respond(429, "{}", 1).Respond(201, "created");
  RestClient client(fake, Instant());
  auto body = client.Create("/api/v1/namespaces/default/configmaps", "{}");
  REQUIRE(body.ok());
  CHECK(*body == "created");
  const auto sent = fake->sent();
  REQUIRE(sent.size() == 3);
  CHECK(sent[1].delay == seconds(3));
  CHECK(sent[2].delay == seconds(1));
  CHECK(sent[2].request.method == HttpMethod::kPost);
  CHECK(sent[2].request.body == "{}");
}

TEST_CASE("an absurd Retry-After is capped, and a call's waits are budgeted (issue #44)", "[rest]") {
  auto fake = std::make_shared<FakeTransport>();
  // 2^31 - 1 seconds: waited 30 s at most; then the 2-minute budget ends the retries.
  for (int i = 0; i < 10; ++i) fake->Respond(429, "{}", 2147483647);
  RestClient client(fake, Instant());
  auto body = client.Create("/api/v1/namespaces/default/pods/p/binding", "{}");
  REQUIRE_FALSE(body.ok());
  CHECK(body.status().code() == absl::StatusCode::kResourceExhausted);  // the last 429
  const auto sent = fake->sent();
  REQUIRE(sent.size() == 5);  // 4 waits of 30 s fit in 120 s, a fifth would not
  for (std::size_t i = 1; i < sent.size(); ++i) CHECK(sent[i].delay == seconds(30));

  // Without a budget, max_retries alone bounds them.
  auto unbounded = std::make_shared<FakeTransport>();
  for (int i = 0; i < 12; ++i) unbounded->Respond(429, "{}", 2147483647);
  RestClientOptions options = Instant();
  options.retry_budget = milliseconds(0);
  RestClient patient(unbounded, options);
  REQUIRE_FALSE(patient.Create("/api/v1/namespaces/default/pods/p/binding", "{}").ok());
  CHECK(unbounded->sent().size() == 11);
}

TEST_CASE("500 and 503 on a GET are retried with exponential backoff", "[rest]") {
  auto fake = std::make_shared<FakeTransport>();
  fake->Respond(500).Respond(503).Respond(503).Respond(200, "ok");
  RestClient client(fake, Instant());
  auto body = client.Get("/api/v1/nodes");
  REQUIRE(body.ok());
  const auto sent = fake->sent();
  REQUIRE(sent.size() == 4);
  CHECK(sent[1].delay == milliseconds(100));
  CHECK(sent[2].delay == milliseconds(200));
  CHECK(sent[3].delay == milliseconds(400));
}

TEST_CASE("a 5xx Retry-After wins over the backoff", "[rest]") {
  auto fake = std::make_shared<FakeTransport>();
  fake->Respond(503, "{}", 7).Respond(200);
  RestClient client(fake, Instant());
  REQUIRE(client.Delete("/api/v1/namespaces/default/pods/p").ok());
  REQUIRE(fake->sent().size() == 2);
  CHECK(fake->sent()[1].delay == seconds(7));
}

TEST_CASE("a POST or PATCH answered 500 is not retried", "[rest]") {
  auto fake = std::make_shared<FakeTransport>();
  fake->Respond(500, R"({"kind":"Status","status":"Failure","message":"boom","reason":"InternalError","code":500})");
  fake->Respond(500);
  RestClient client(fake, Instant());
  auto created = client.Create("/api/v1/namespaces/default/configmaps", "{}");
  REQUIRE_FALSE(created.ok());
  CHECK(created.status().code() == absl::StatusCode::kInternal);
  CHECK(ksched::client::HttpStatusOf(created.status()) == 500);
  CHECK(fake->sent().size() == 1);
  auto patched = client.Patch("/api/v1/namespaces/default/pods/p", PatchType::kMerge, "{}");
  REQUIRE_FALSE(patched.ok());
  CHECK(fake->sent().size() == 2);
}

TEST_CASE("transport failures: idempotent verbs retried, POST only when not sent", "[rest]") {
  SECTION("GET after a reset") {
    auto fake = std::make_shared<FakeTransport>();
    fake->Fail(absl::UnavailableError("connection reset")).Respond(200, "ok");
    RestClient client(fake, Instant());
    REQUIRE(client.Get("/api/v1/nodes").ok());
    REQUIRE(fake->sent().size() == 2);
    CHECK(fake->sent()[1].delay == milliseconds(100));
  }
  SECTION("POST after a failure that may have reached the server: not retried") {
    auto fake = std::make_shared<FakeTransport>();
    fake->Fail(absl::UnavailableError("connection reset")).Respond(201);
    RestClient client(fake, Instant());
    auto created = client.Create("/api/v1/namespaces/default/configmaps", "{}");
    REQUIRE_FALSE(created.ok());
    CHECK(created.status().code() == absl::StatusCode::kUnavailable);
    CHECK(fake->sent().size() == 1);
  }
  SECTION("POST after a failure before sending: retried") {
    auto fake = std::make_shared<FakeTransport>();
    fake->Fail(MarkNotSent(absl::UnavailableError("connection refused"))).Respond(201, "made");
    RestClient client(fake, Instant());
    auto created = client.Create("/api/v1/namespaces/default/configmaps", "{}");
    REQUIRE(created.ok());
    CHECK(*created == "made");
    CHECK(fake->sent().size() == 2);
  }
  SECTION("other failures are final") {
    auto fake = std::make_shared<FakeTransport>();
    fake->Fail(absl::FailedPreconditionError("TLS verification"));
    RestClient client(fake, Instant());
    CHECK(client.Get("/api/v1/nodes").status().code() == absl::StatusCode::kFailedPrecondition);
    CHECK(fake->sent().size() == 1);
  }
}

TEST_CASE("max_retries bounds the attempts", "[rest]") {
  auto fake = std::make_shared<FakeTransport>();
  for (int i = 0; i < 10; ++i) fake->Respond(503, "{}", 1);
  RestClientOptions options = Instant();
  options.max_retries = 3;
  RestClient client(fake, options);
  auto body = client.Get("/api/v1/nodes");
  REQUIRE_FALSE(body.ok());
  CHECK(body.status().code() == absl::StatusCode::kUnavailable);
  CHECK(fake->sent().size() == 4);  // the first attempt and 3 retries
  CHECK(fake->remaining() == 6);
}

TEST_CASE("the default max_retries is 10", "[rest]") {
  auto fake = std::make_shared<FakeTransport>();
  for (int i = 0; i < 20; ++i) fake->Respond(429, "{}", 1);
  RestClient client(fake, Instant());
  auto body = client.Get("/api/v1/nodes");
  REQUIRE_FALSE(body.ok());
  CHECK(body.status().code() == absl::StatusCode::kResourceExhausted);
  CHECK(fake->sent().size() == 11);
}

TEST_CASE("401 invalidates the credential and retries once", "[rest]") {
  // An authenticator with a static token: OnUnauthorized is a no-op, but the retry happens.
  ksched::client::RestConfig config;
  config.bearer_token = std::string("token");
  auto auth = ksched::client::Authenticator::Create(config);
  REQUIRE(auth.ok());
  RestClientOptions options = Instant();
  options.authenticator = *auth;

  SECTION("the retry succeeds") {
    auto fake = std::make_shared<FakeTransport>();
    fake->Respond(401).Respond(200, "ok");
    RestClient client(fake, options);
    auto body = client.Create("/api/v1/namespaces/default/configmaps", "{}");
    REQUIRE(body.ok());
    CHECK(fake->sent().size() == 2);
    CHECK(fake->sent()[1].delay == std::chrono::steady_clock::duration::zero());
  }
  SECTION("a second 401 is final") {
    auto fake = std::make_shared<FakeTransport>();
    fake->Respond(401).Respond(401).Respond(200);
    RestClient client(fake, options);
    auto body = client.Get("/api/v1/nodes");
    REQUIRE_FALSE(body.ok());
    CHECK(body.status().code() == absl::StatusCode::kUnauthenticated);
    CHECK(fake->sent().size() == 2);
  }
  SECTION("without an authenticator a 401 is final at once") {
    auto fake = std::make_shared<FakeTransport>();
    fake->Respond(401).Respond(200);
    RestClient client(fake, Instant());
    CHECK(client.Get("/api/v1/nodes").status().code() == absl::StatusCode::kUnauthenticated);
    CHECK(fake->sent().size() == 1);
  }
}

TEST_CASE("every attempt is throttled by the token bucket", "[rest]") {
  auto fake = std::make_shared<FakeTransport>();
  fake->Respond(200).Respond(200).Respond(503).Respond(200);
  using Clock = std::chrono::steady_clock;
  const Clock::time_point t0{};
  RestClientOptions options = Instant();
  options.qps = 1;
  options.burst = 1;
  options.now = [t0] { return t0; };  // time stands still: every token is 1 s after the last
  RestClient client(fake, options);
  REQUIRE(client.Get("/a").ok());
  REQUIRE(client.Get("/b").ok());
  REQUIRE(client.Get("/c").ok());
  const auto sent = fake->sent();
  REQUIRE(sent.size() == 4);
  CHECK(sent[0].delay == Clock::duration::zero());
  CHECK(sent[1].delay == seconds(1));
  CHECK(sent[2].delay == seconds(2));
  CHECK(sent[3].delay == seconds(3));  // the retry waits for its own token (longer than the backoff)
}

TEST_CASE("protobuf_writes: the Binding goes as protobuf and a protobuf error Status is decoded", "[rest]") {
  auto fake = std::make_shared<FakeTransport>();
  fake->Respond(201);
  // A 409 as the API server sends it to a client that accepts protobuf.
  ksched::api::protobuf::ProtobufWriter status;
  status.Bytes(2, "Failure");
  status.Bytes(3, "Operation cannot be fulfilled on pods/binding \"p\": pod p is already assigned to node \"n\"");
  status.Bytes(4, "Conflict");
  status.Int(6, 409);
  HttpResponse conflict;
  conflict.status = 409;
  conflict.content_type = "application/vnd.kubernetes.protobuf";
  conflict.body = ksched::api::protobuf::Envelope("v1", "Status", status.bytes());
  fake->Script(conflict);
  RestClientOptions options = Instant();
  options.protobuf_writes = true;
  RestClient client(fake, options);
  CHECK(client.WritesProtobuf());
  REQUIRE(client.CreateBinding("default", "p", "uid-1", "node-1").ok());
  const absl::Status again = client.CreateBinding("default", "p", "uid-1", "node-1");
  const auto sent = fake->sent();
  REQUIRE(sent.size() == 2);
  CHECK(sent[0].request.content_type == "application/vnd.kubernetes.protobuf");
  CHECK(sent[0].request.accept == "application/vnd.kubernetes.protobuf, */*");
  CHECK(sent[0].request.body == ksched::client::BindingProtobuf("default", "p", "uid-1", "node-1"));
  CHECK(again.code() == absl::StatusCode::kAborted);
  CHECK(ksched::client::ReasonOf(again) == "Conflict");
  CHECK(std::string(again.message())
            .ends_with("/api/v1/namespaces/default/pods/p/binding: HTTP 409 Conflict: Operation cannot be "
                       "fulfilled on pods/binding \"p\": pod p is already assigned to node \"n\""));

  // RestConfig's content type picks it.
  ksched::client::RestConfig config;
  CHECK_FALSE(RestClientOptions::FromConfig(config).protobuf_writes);
  config.content_type = "application/vnd.kubernetes.protobuf";
  CHECK(RestClientOptions::FromConfig(config).protobuf_writes);
}

TEST_CASE("DoAsync delivers the result through the callback", "[rest]") {
  auto fake = std::make_shared<FakeTransport>();
  fake->Respond(404, R"({"kind":"Status","status":"Failure","message":"pods \"p\" not found","reason":"NotFound","code":404})");
  RestClient client(fake, Instant());
  std::optional<absl::StatusOr<ksched::client::HttpResponse>> got;
  client.DoAsync(Request(HttpMethod::kGet), [&](absl::StatusOr<ksched::client::HttpResponse> r) { got = std::move(r); });
  REQUIRE(got.has_value());
  REQUIRE_FALSE(got->ok());
  CHECK(got->status().code() == absl::StatusCode::kNotFound);
  CHECK(ksched::client::ReasonOf(got->status()) == "NotFound");
  CHECK(std::string(got->status().message()) ==
        "GET https://fake:6443/api/v1/namespaces/default/pods/p: HTTP 404 NotFound: pods \"p\" not found");
}

TEST_CASE("typed calls build the expected requests", "[rest]") {
  auto fake = std::make_shared<FakeTransport>();
  for (int i = 0; i < 6; ++i) fake->Respond(200);
  RestClientOptions options = Instant();
  options.timeout = milliseconds(1234);
  RestClient client(fake, options);
  ListOptions list;
  list.label_selector = std::string("app in (a,b),tier!=db");
  list.field_selector = std::string("spec.nodeName=");
  list.limit = 10;
  list.continue_token = std::string("abc/+=");
  REQUIRE(client.List("/api/v1/pods", list).ok());
  REQUIRE(client.Update("/api/v1/namespaces/default/pods/p", "{\"a\":1}").ok());
  REQUIRE(client.Patch("/api/v1/namespaces/default/pods/p/status", PatchType::kStrategic, "{}").ok());
  DeleteOptions del;
  del.precondition_uid = std::string("u-1");
  REQUIRE(client.Delete("/api/v1/namespaces/default/pods/p", del).ok());
  REQUIRE(client.Delete("/api/v1/namespaces/default/pods/q").ok());
  REQUIRE(client.CreateBinding("default", "p", "uid-1", "node-1").ok());
  const auto sent = fake->sent();
  REQUIRE(sent.size() == 6);
  CHECK(sent[0].request.target ==
        "/api/v1/pods?continue=abc%2F%2B%3D&fieldSelector=spec.nodeName%3D"
        "&labelSelector=app+in+%28a%2Cb%29%2Ctier%21%3Ddb&limit=10");
  CHECK(sent[0].request.timeout == milliseconds(1234));
  CHECK(sent[1].request.method == HttpMethod::kPut);
  CHECK(sent[1].request.content_type == "application/json");
  CHECK(sent[2].request.method == HttpMethod::kPatch);
  CHECK(sent[2].request.content_type == "application/strategic-merge-patch+json");
  CHECK(sent[3].request.method == HttpMethod::kDelete);
  CHECK(sent[3].request.body ==
        R"({"apiVersion":"v1","kind":"DeleteOptions","preconditions":{"uid":"u-1"}})");
  CHECK(sent[4].request.body.empty());
  CHECK(sent[4].request.content_type.empty());
  CHECK(sent[5].request.method == HttpMethod::kPost);
  CHECK(sent[5].request.target == "/api/v1/namespaces/default/pods/p/binding");
  CHECK(sent[5].request.body ==
        R"({"apiVersion":"v1","kind":"Binding","metadata":{"name":"p","namespace":"default","uid":"uid-1"},)"
        R"("target":{"kind":"Node","name":"node-1"}})");
}
