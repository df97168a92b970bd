// SecureServer against the real API server: delegated authentication (TokenReview) and
// authorization (SubjectAccessReview) with the admin identity as upstream's
// --authentication-kubeconfig / --authorization-kubeconfig, ServiceAccount tokens from TokenRequest
// and RBAC on nonResourceURLs.
#include "serving/secure_server.h"

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include <catch2/catch.hpp>
#include <rapidjson/document.h>

#include "client/api_error.h"
#include "client/http_transport.h"
#include "client/rest_client.h"
#include "controlplane_env.h"

namespace ksched::serving {
namespace {

namespace fs = std::filesystem;
using ksched::testing::AdminRestClient;

constexpr char kNamespace[] = "default";

void CreateIgnoringExisting(client::RestClient& rest, const std::string& path, const std::string& body) {
  absl::StatusOr<std::string> created = rest.Create(path, body);
  if (!created.ok() && created.status().code() != absl::StatusCode::kAlreadyExists) {
    FAIL("creating " << path << ": " << created.status().ToString());
  }
}

void CreateServiceAccount(client::RestClient& rest, const std::string& name) {
  CreateIgnoringExisting(rest, std::string("/api/v1/namespaces/") + kNamespace + "/serviceaccounts",
                         R"({"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":")" + name + R"("}})");
}

void BindMetricsReader(client::RestClient& rest, const std::string& binding, const std::string& service_account) {
  CreateIgnoringExisting(rest, "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings",
                         R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRoleBinding",)"
                         R"("metadata":{"name":")" + binding + R"("},)"
                         R"("roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"serving-test-metrics-reader"},)"
                         R"("subjects":[{"kind":"ServiceAccount","name":")" + service_account +
                             R"(","namespace":")" + kNamespace + R"("}]})");
}

std::string RequestToken(client::RestClient& rest, const std::string& service_account) {
  absl::StatusOr<std::string> response =
      rest.Create(std::string("/api/v1/namespaces/") + kNamespace + "/serviceaccounts/" + service_account + "/token",
                  R"({"apiVersion":"authentication.k8s.io/v1","kind":"TokenRequest","spec":{"expirationSeconds":3600}})");
  REQUIRE(response.ok());
  rapidjson::Document doc;
  doc.Parse(response->c_str());
  REQUIRE(doc.IsObject());
  const auto& token = doc["status"]["token"];
  REQUIRE(token.IsString());
  return token.GetString();
}

struct TempDir {
  fs::path path;
  TempDir() {
    std::string templ = (fs::temp_directory_path() / "ksched-serving-it-XXXXXX").string();
    REQUIRE(::mkdtemp(templ.data()) != nullptr);
    path = templ;
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

// A client of our server, trusting its self-signed certificate, sending `token` when not empty.
std::unique_ptr<client::HttpTransport> ClientOf(const SecureServer& server, const fs::path& cert_dir, std::string token) {
  client::RestConfig config;
  config.server = "https://127.0.0.1:" + std::to_string(server.port());
  config.source = "serving integration test";
  config.tls.ca_pem = ksched::testing::ReadFile((cert_dir / "kube-scheduler.crt").string());
  config.tls.ca_source = "kube-scheduler.crt";
  client::AuthorizationSource auth;
  if (!token.empty()) auth = [token] { return absl::StatusOr<std::string>("Bearer " + token); };
  auto transport = client::HttpTransport::Create(config, {}, auth);
  REQUIRE(transport.ok());
  return *std::move(transport);
}

client::HttpResponse Get(client::HttpTransport& transport, const std::string& target) {
  client::HttpRequest request;
  request.target = target;
  request.accept = "*/*";
  absl::StatusOr<client::HttpResponse> response = transport.SendSync(request);
  REQUIRE(response.ok());
  return *response;
}

std::string Forbidden(const std::string& user, const std::string& path) {
  return R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"forbidden: User \")" + user +
         R"(\" cannot get path \")" + path + R"(\"","reason":"Forbidden","details":{},"code":403})" + "\n";
}

const char kUnauthorized[] =
    R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401})"
    "\n";

TEST_CASE("delegated authentication and authorization against the real API server", "[serving][integration]") {
  std::shared_ptr<client::RestClient> admin = AdminRestClient();
  CreateIgnoringExisting(*admin, "/apis/rbac.authorization.k8s.io/v1/clusterroles",
                         R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole",)"
                         R"("metadata":{"name":"serving-test-metrics-reader"},)"
                         R"("rules":[{"nonResourceURLs":["/metrics"],"verbs":["get"]}]})");
  CreateServiceAccount(*admin, "metrics-reader");
  CreateServiceAccount(*admin, "no-binding");
  CreateServiceAccount(*admin, "bound-later");
  BindMetricsReader(*admin, "serving-test-metrics-reader", "metrics-reader");
  const std::string reader_token = RequestToken(*admin, "metrics-reader");
  const std::string unbound_token = RequestToken(*admin, "no-binding");
  const std::string later_token = RequestToken(*admin, "bound-later");

  TempDir dir;
  SecureServingOptions serving;
  serving.bind_address = "127.0.0.1";
  serving.port = 0;
  serving.cert_dir = dir.path.string();
  DelegatingAuthOptions auth;
  auth.authentication_client = AdminRestClient();
  auth.authorization_client = AdminRestClient();
  auth.unauthorized_cache_ttl = std::chrono::seconds(1);  // so that a new binding shows quickly
  SecureServer server(serving, auth);
  server.AddHandler("/metrics", [](const ServingRequest&) {
    ServingResponse response;
    response.content_type = "text/plain; version=0.0.4; charset=utf-8";
    response.body = "scheduler_pending_pods{queue=\"active\"} 0\n";
    return response;
  });
  REQUIRE(server.Start().ok());

  auto anonymous = ClientOf(server, dir.path, "");
  auto reader = ClientOf(server, dir.path, reader_token);
  auto unbound = ClientOf(server, dir.path, unbound_token);
  auto garbage = ClientOf(server, dir.path, "garbage-token");

  SECTION("anonymous: health allowed, /metrics forbidden") {
    client::HttpResponse healthz = Get(*anonymous, "/healthz");
    CHECK(healthz.status == 200);
    CHECK(healthz.body == "ok");
    CHECK(Get(*anonymous, "/readyz?verbose").body == "[+]ping ok\nreadyz check passed\n");
    client::HttpResponse metrics = Get(*anonymous, "/metrics");
    CHECK(metrics.status == 403);
    CHECK(metrics.content_type == "application/json");
    CHECK(metrics.body == Forbidden("system:anonymous", "/metrics"));
  }
  SECTION("a ServiceAccount bound to get /metrics") {
    client::HttpResponse metrics = Get(*reader, "/metrics");
    CHECK(metrics.status == 200);
    CHECK(metrics.content_type == "text/plain; version=0.0.4; charset=utf-8");
    CHECK(metrics.body == "scheduler_pending_pods{queue=\"active\"} 0\n");
    CHECK(Get(*reader, "/metrics").status == 200);  // from the caches
    // RBAC allows /metrics only
    CHECK(Get(*reader, "/configz").body ==
          Forbidden("system:serviceaccount:default:metrics-reader", "/configz"));
  }
  SECTION("a ServiceAccount without the binding") {
    client::HttpResponse metrics = Get(*unbound, "/metrics");
    CHECK(metrics.status == 403);
    CHECK(metrics.body == Forbidden("system:serviceaccount:default:no-binding", "/metrics"));
    CHECK(Get(*unbound, "/livez").status == 200);
  }
  SECTION("a garbage token is refused with 401, on always-allowed paths too") {
    client::HttpResponse metrics = Get(*garbage, "/metrics");
    CHECK(metrics.status == 401);
    CHECK(metrics.body == kUnauthorized);
    CHECK(Get(*garbage, "/healthz").status == 401);
  }
  SECTION("a binding created later is honoured once the denial's cache entry expires") {
    auto later = ClientOf(server, dir.path, later_token);
    CHECK(Get(*later, "/metrics").status == 403);
    BindMetricsReader(*admin, "serving-test-bound-later", "bound-later");
    int status = 0;
    for (int i = 0; i < 50 && status != 200; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      status = Get(*later, "/metrics").status;
    }
    CHECK(status == 200);
  }
}

TEST_CASE("without authentication and authorization clients everything but health is refused",
          "[serving][integration]") {
  TempDir dir;
  SecureServingOptions serving;
  serving.bind_address = "127.0.0.1";
  serving.port = 0;
  serving.cert_dir = dir.path.string();
  SecureServer server(serving, {});
  server.AddHandler("/metrics", [](const ServingRequest&) { return ServingResponse{}; });
  REQUIRE(server.Start().ok());
  std::shared_ptr<client::RestClient> admin = AdminRestClient();
  CreateServiceAccount(*admin, "metrics-reader");
  auto reader = ClientOf(server, dir.path, RequestToken(*admin, "metrics-reader"));
  // the token is not even looked at: anonymous
  CHECK(Get(*reader, "/metrics").body == Forbidden("system:anonymous", "/metrics"));
  CHECK(Get(*reader, "/healthz").status == 200);
}

TEST_CASE("an authorization API server that cannot be reached answers 500", "[serving][integration]") {
  client::RestConfig dead;
  dead.server = "https://127.0.0.1:1";  // nothing listens there
  dead.source = "unreachable";
  dead.tls.insecure_skip_verify = true;
  auto transport = client::HttpTransport::Create(dead);
  REQUIRE(transport.ok());
  client::RestClientOptions no_retries;
  no_retries.max_retries = 0;
  TempDir dir;
  SecureServingOptions serving;
  serving.bind_address = "127.0.0.1";
  serving.port = 0;
  serving.cert_dir = dir.path.string();
  DelegatingAuthOptions auth;
  auth.authorization_client = std::make_shared<client::RestClient>(
      std::shared_ptr<client::HttpTransport>(std::move(*transport)), no_retries);
  auth.webhook_backoff.steps = 2;
  auth.webhook_backoff.initial = std::chrono::milliseconds(10);
  SecureServer server(serving, auth);
  REQUIRE(server.Start().ok());
  auto anonymous = ClientOf(server, dir.path, "");
  client::HttpResponse metrics = Get(*anonymous, "/metrics");
  CHECK(metrics.status == 500);
  CHECK_THAT(metrics.body, Catch::StartsWith("Internal Server Error: \"/metrics\": "));
  CHECK(Get(*anonymous, "/healthz").status == 200);  // always-allowed paths need no review
}

}  // namespace
}  // namespace ksched::serving
