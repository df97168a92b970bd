// SecureServer over real loopback sockets and TLS, without an API server: no authentication or
// authorization clients, so every request is anonymous and only the always-allow paths pass.
#include "serving/secure_server.h"

#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <future>
#include <mutex>
#include <thread>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "client/http_transport.h"
#include "serving/client_certificate_authenticator.h"
#include "test_pki.h"
#include "serving/serving_certificate.h"

namespace ksched::serving {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path;
  TempDir() {
    std::string templ = (fs::temp_directory_path() / "ksched-serving-XXXXXX").string();
    REQUIRE(::mkdtemp(templ.data()) != nullptr);
    path = templ;
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

std::string Slurp(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void Spit(const fs::path& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
}

std::unique_ptr<client::HttpTransport> ClientFor(int port, const std::string& ca_pem, std::string server_name = "",
                                                 const testing::IssuedCertificate* client_certificate = nullptr) {
  client::RestConfig config;
  config.server = "https://127.0.0.1:" + std::to_string(port);
  config.source = "test";
  config.tls.ca_pem = ca_pem;
  config.tls.ca_source = "test CA";
  config.tls.server_name = std::move(server_name);
  if (client_certificate != nullptr) {
    config.tls.client_cert_pem = client_certificate->cert_pem;
    config.tls.client_key_pem = client_certificate->key_pem;
    config.tls.client_cert_source = "test client certificate";
  }
  absl::StatusOr<std::unique_ptr<client::HttpTransport>> transport = client::HttpTransport::Create(config);
  REQUIRE(transport.ok());
  return *std::move(transport);
}

// Loopback, an ephemeral port, a self-signed pair generated into DIR/certs.
SecureServingOptions LoopbackServing(const TempDir& dir) {
  SecureServingOptions serving;
  serving.bind_address = "127.0.0.1";
  serving.port = 0;
  serving.cert_dir = (dir.path / "certs").string();
  return serving;
}

client::HttpResponse Get(client::HttpTransport& transport, std::string target,
                         client::HttpMethod method = client::HttpMethod::kGet, std::string body = "") {
  client::HttpRequest request;
  request.method = method;
  request.target = std::move(target);
  request.body = std::move(body);
  if (!request.body.empty()) request.content_type = "text/plain";
  request.accept = "*/*";
  absl::StatusOr<client::HttpResponse> response = transport.SendSync(request);
  REQUIRE(response.ok());
  return *response;
}

TEST_CASE("SecureServer serves health, handlers and refusals over TLS with keep-alive", "[serving]") {
  TempDir dir;
  SecureServingOptions serving = LoopbackServing(dir);
  DelegatingAuthOptions auth;
  auth.always_allow_paths = {"/healthz", "/readyz", "/livez", "/open"};
  SecureServer server(serving, auth);
  std::atomic<int> calls{0};
  server.AddHandler("/open", [&](const ServingRequest& r) {
    ++calls;
    ServingResponse response;
    response.content_type = "application/json";
    response.body = "{\"method\":\"" + r.method + "\",\"query\":\"" + r.query + "\"" +
                    (r.body.empty() ? "" : ",\"body\":\"" + r.body + "\"") + "}";
    return response;
  });
  std::atomic<bool> shutting_down{false};
  server.readyz().AddCheck("shutdown", [&] {
    return shutting_down ? absl::UnavailableError("process is shutting down") : absl::OkStatus();
  });
  CHECK(server.port() == 0);
  REQUIRE(server.Start().ok());
  REQUIRE(server.port() > 0);

  // The self-signed pair was written to cert-dir and is what the server presents: verification
  // against it as the CA succeeds for 127.0.0.1 and for localhost.
  const fs::path crt = dir.path / "certs" / "kube-scheduler.crt";
  const fs::path key = dir.path / "certs" / "kube-scheduler.key";
  REQUIRE(fs::exists(crt));
  REQUIRE(fs::exists(key));
  CHECK((fs::status(key).permissions() & fs::perms::others_read) == fs::perms::none);
  auto transport = ClientFor(server.port(), Slurp(crt));

  client::HttpResponse healthz = Get(*transport, "/healthz");
  CHECK(healthz.status == 200);
  CHECK(healthz.body == "ok");
  CHECK(healthz.content_type == "text/plain; charset=utf-8");
  CHECK(Get(*transport, "/livez?verbose").body == "[+]ping ok\nlivez check passed\n");
  CHECK(Get(*transport, "/readyz?verbose").body == "[+]shutdown ok\nreadyz check passed\n");
  shutting_down = true;
  client::HttpResponse readyz = Get(*transport, "/readyz");
  CHECK(readyz.status == 500);
  CHECK(readyz.body == "[-]shutdown failed: reason withheld\nreadyz check failed\n");
  CHECK(Get(*transport, "/readyz?exclude=shutdown").status == 200);

  client::HttpResponse open = Get(*transport, "/open?a=b%20c", client::HttpMethod::kDelete);
  CHECK(open.status == 200);
  CHECK(open.content_type == "application/json");
  CHECK(open.body == "{\"method\":\"DELETE\",\"query\":\"a=b%20c\"}");
  CHECK(Get(*transport, "/open/").status == 403);  // always-allow entries are exact paths
  CHECK(Get(*transport, "/open", client::HttpMethod::kPut, "4").body == "{\"method\":\"PUT\",\"query\":\"\",\"body\":\"4\"}");

  client::HttpResponse metrics = Get(*transport, "/metrics");
  CHECK(metrics.status == 403);
  CHECK(metrics.content_type == "application/json");
  CHECK(metrics.body.find("forbidden: User \\\"system:anonymous\\\" cannot get path \\\"/metrics\\\"") !=
        std::string::npos);

  // Every exchange above went over one kept-alive connection.
  CHECK(transport->stats().connections_opened == 1);
  CHECK(transport->stats().connections_reused == 8);

  auto by_name = ClientFor(server.port(), Slurp(crt), "localhost");
  CHECK(Get(*by_name, "/healthz").status == 200);

  server.Stop();
  server.Stop();  // idempotent
  client::HttpRequest after;
  after.target = "/healthz";
  CHECK_FALSE(ClientFor(server.port(), Slurp(crt))->SendSync(after).ok());
}

TEST_CASE("client certificates: asked for in the handshake and authenticated against the client CA", "[serving]") {
  TempDir dir;
  const testing::TestCa ca("client-ca");
  const testing::TestCa other("other-ca");
  SecureServingOptions serving = LoopbackServing(dir);
  DelegatingAuthOptions auth;  // no reviewers: only system:masters passes authorization
  absl::StatusOr<std::unique_ptr<ClientCertificateAuthenticator>> certificates =
      ClientCertificateAuthenticator::Create(ca.pem(), "--client-ca-file test");
  REQUIRE(certificates.ok());
  auth.client_certificates = *std::move(certificates);
  SecureServer server(serving, auth);
  server.AddHandler("/metrics", [](const ServingRequest&) { return ServingResponse{200, kTextPlain, "metrics\n", {}}; });
  REQUIRE(server.Start().ok());
  const std::string server_ca = Slurp(dir.path / "certs" / "kube-scheduler.crt");

  const testing::IssuedCertificate master = ca.Issue({"admin", {"system:masters"}});
  const testing::IssuedCertificate plain = ca.Issue({"someone", {}});
  const testing::IssuedCertificate rogue = other.Issue({"mallory", {"system:masters"}});
  CHECK(Get(*ClientFor(server.port(), server_ca, "", &master), "/metrics").status == 200);
  CHECK(Get(*ClientFor(server.port(), server_ca, "", &plain), "/metrics").status == 403);
  const client::HttpResponse refused = Get(*ClientFor(server.port(), server_ca, "", &rogue), "/metrics");
  CHECK(refused.status == 401);
  CHECK(Get(*ClientFor(server.port(), server_ca, "", &rogue), "/healthz").status == 401);  // authentication first
  CHECK(Get(*ClientFor(server.port(), server_ca), "/metrics").status == 403);  // no certificate: anonymous
  CHECK(Get(*ClientFor(server.port(), server_ca), "/healthz").status == 200);
  // A keep-alive connection keeps its identity for every request on it.
  auto kept = ClientFor(server.port(), server_ca, "", &master);
  for (int i = 0; i < 3; ++i) CHECK(Get(*kept, "/metrics").status == 200);
}

TEST_CASE("a cert-dir pair from an earlier run is reused", "[serving]") {
  TempDir dir;
  SecureServingOptions serving;
  serving.bind_address = "127.0.0.1";
  serving.port = 0;
  serving.cert_dir = dir.path.string();
  std::string first_cert;
  {
    SecureServer server(serving, {});
    REQUIRE(server.Start().ok());
    first_cert = Slurp(dir.path / "kube-scheduler.crt");
  }
  SecureServer again(serving, {});
  REQUIRE(again.Start().ok());
  CHECK(Slurp(dir.path / "kube-scheduler.crt") == first_cert);
  CHECK(Get(*ClientFor(again.port(), first_cert), "/livez").status == 200);
}

TEST_CASE("certificate files: served when good, errors naming the file when not", "[serving]") {
  TempDir dir;
  absl::StatusOr<ServingCertificate> pair = GenerateSelfSignedCertificate({"localhost"}, {"127.0.0.1"});
  REQUIRE(pair.ok());
  absl::StatusOr<ServingCertificate> other = GenerateSelfSignedCertificate({"localhost"}, {"127.0.0.1"});
  REQUIRE(other.ok());
  Spit(dir.path / "tls.crt", pair->cert_pem);
  Spit(dir.path / "tls.key", pair->key_pem);
  Spit(dir.path / "other.key", other->key_pem);
  Spit(dir.path / "garbage.crt", "not a certificate\n");
  const std::string crt = (dir.path / "tls.crt").string();
  const std::string key = (dir.path / "tls.key").string();

  SecureServingOptions serving;
  serving.bind_address = "127.0.0.1";
  serving.port = 0;
  serving.tls_cert_file = crt;
  serving.tls_private_key_file = key;
  {
    SecureServer server(serving, {});
    REQUIRE(server.Start().ok());
    CHECK(Get(*ClientFor(server.port(), pair->cert_pem), "/healthz").body == "ok");
  }

  struct Case {
    std::string name;
    std::string cert;
    std::string key;
    std::string want;  // substring of the error
  };
  const std::vector<Case> cases = {
      {"missing cert file", (dir.path / "missing.crt").string(), key,
       "unable to load server certificate: " + (dir.path / "missing.crt").string() + ": "},
      {"missing key file", crt, (dir.path / "missing.key").string(),
       "unable to load server certificate key: " + (dir.path / "missing.key").string()},
      {"not PEM", (dir.path / "garbage.crt").string(), key,
       (dir.path / "garbage.crt").string() + ": no PEM certificate found"},
      {"key of another certificate", crt, (dir.path / "other.key").string(),
       "private key " + (dir.path / "other.key").string() + " does not match certificate " + crt},
      {"cert without key", crt, "", "missing filename for serving key (--tls-private-key-file)"},
      {"key without cert", "", key, "missing filename for serving cert (--tls-cert-file)"},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    SecureServingOptions bad = serving;
    bad.tls_cert_file = c.cert;
    bad.tls_private_key_file = c.key;
    SecureServer server(bad, {});
    const absl::Status status = server.Start();
    CHECK(status.code() == absl::StatusCode::kInvalidArgument);
    CHECK_THAT(std::string(status.message()), Catch::Contains(c.want));
    CHECK(server.port() == 0);
  }
}

// A SubjectAccessReviewer that holds every review until released, as an API server under load.
class HeldAccessReviewer : public SubjectAccessReviewer {
 public:
  absl::StatusOr<AccessReviewResult> Review(const UserInfo&, std::string_view, std::string_view) override {
    std::unique_lock<std::mutex> lock(mu_);
    ++entered_;
    entered_cv_.notify_all();
    released_cv_.wait(lock, [this] { return released_; });
    return AccessReviewResult{};
  }
  bool WaitEntered(int n) {
    std::unique_lock<std::mutex> lock(mu_);
    return entered_cv_.wait_for(lock, std::chrono::seconds(10), [&] { return entered_ >= n; });
  }
  void Release() {
    std::lock_guard<std::mutex> lock(mu_);
    released_ = true;
    released_cv_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable entered_cv_, released_cv_;
  int entered_ = 0;
  bool released_ = false;
};

TEST_CASE("requests waiting for reviews neither delay probes nor queue without bound", "[serving]") {
  TempDir dir;
  SecureServingOptions serving = LoopbackServing(dir);
  serving.worker_threads = 1;
  serving.max_waiting_for_review = 1;
  auto reviewer = std::make_shared<HeldAccessReviewer>();
  DelegatingAuthOptions auth;
  auth.access_reviewer = reviewer;
  SecureServer server(serving, auth);
  REQUIRE(server.Start().ok());
  const std::string ca = Slurp(dir.path / "certs" / "kube-scheduler.crt");

  // An anonymous request for a path that needs a SubjectAccessReview holds the only review slot.
  auto held_client = ClientFor(server.port(), ca);
  auto held = std::async(std::launch::async, [&] { return Get(*held_client, "/flood/1"); });
  REQUIRE(reviewer->WaitEntered(1));

  // The probe does not wait behind it.
  auto probe_client = ClientFor(server.port(), ca);
  auto probe = std::async(std::launch::async, [&] { return Get(*probe_client, "/healthz"); });
  REQUIRE(probe.wait_for(std::chrono::seconds(5)) == std::future_status::ready);
  CHECK(probe.get().status == 200);

  // Another request that needs a review is shed with the apiserver's 429 rather than queued.
  auto shed_client = ClientFor(server.port(), ca);
  auto shed = std::async(std::launch::async, [&] { return Get(*shed_client, "/flood/2"); });
  REQUIRE(shed.wait_for(std::chrono::seconds(5)) == std::future_status::ready);
  const client::HttpResponse refused = shed.get();
  CHECK(refused.status == 429);
  CHECK(refused.body == "Too many requests, please try again later.\n");
  REQUIRE(refused.retry_after.has_value());
  CHECK(*refused.retry_after == std::chrono::seconds(1));

  reviewer->Release();
  CHECK(held.get().status == 403);
  // The slot is free again: the review lane answers (the fake reviewer has no opinion -> 403).
  CHECK(Get(*shed_client, "/flood/3").status == 403);
  server.Stop();
}

TEST_CASE("past max_connections a new connection is closed at once, and a freed place is taken again", "[serving]") {
  TempDir dir;
  SecureServingOptions serving = LoopbackServing(dir);
  serving.max_connections = 1;
  SECTION("no place kept for loopback peers") { serving.loopback_reserve = 0; }
  SECTION("one place kept for loopback peers: taken by the second, the third refused") {
    serving.loopback_reserve = 1;
  }
  SecureServer server(serving, DelegatingAuthOptions{});
  REQUIRE(server.Start().ok());
  const std::string ca = Slurp(dir.path / "certs" / "kube-scheduler.crt");

  // The first client's keep-alive connection takes the only place.
  auto first = ClientFor(server.port(), ca);
  REQUIRE(Get(*first, "/healthz").status == 200);

  client::HttpRequest probe;
  probe.target = "/healthz";
  probe.accept = "*/*";
  std::unique_ptr<client::HttpTransport> reserved;
  if (serving.loopback_reserve == 1) {
    reserved = ClientFor(server.port(), ca);
    REQUIRE(Get(*reserved, "/healthz").status == 200);
  }
  auto refused_client = ClientFor(server.port(), ca);
  const absl::StatusOr<client::HttpResponse> refused = refused_client->SendSync(probe);
  CHECK_FALSE(refused.ok());

  // Once the first connection is gone, the place is free again.
  first.reset();
  reserved.reset();
  bool served = false;
  for (int attempt = 0; attempt < 50 && !served; ++attempt) {
    auto next = ClientFor(server.port(), ca);
    const absl::StatusOr<client::HttpResponse> response = next->SendSync(probe);
    served = response.ok() && response->status == 200;
    if (!served) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  CHECK(served);
  server.Stop();
}

TEST_CASE("connections on several I/O threads are each served in order, and Stop closes the open ones", "[serving]") {
  TempDir dir;
  SecureServingOptions serving = LoopbackServing(dir);
  serving.io_threads = 2;
  SecureServer server(serving, DelegatingAuthOptions{});
  REQUIRE(server.Start().ok());
  const std::string ca = Slurp(dir.path / "certs" / "kube-scheduler.crt");

  constexpr int kClients = 8;
  constexpr int kRequests = 25;
  std::vector<std::unique_ptr<client::HttpTransport>> clients;
  for (int i = 0; i < kClients; ++i) clients.push_back(ClientFor(server.port(), ca));
  std::atomic<int> ok{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < kClients; ++i) {
    threads.emplace_back([&, i] {
      client::HttpRequest request;
      request.accept = "*/*";
      for (int r = 0; r < kRequests; ++r) {
        // The two paths alternate on one keep-alive connection: each answer is its own request's.
        const std::string family = r % 2 == 0 ? "healthz" : "livez";
        request.target = "/" + family + "?verbose";
        const absl::StatusOr<client::HttpResponse> response = clients[static_cast<std::size_t>(i)]->SendSync(request);
        if (response.ok() && response->status == 200 && response->body == "[+]ping ok\n" + family + " check passed\n") {
          ok.fetch_add(1);
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  CHECK(ok.load() == kClients * kRequests);

  // Every client still holds its keep-alive connection: Stop closes them and returns.
  server.Stop();
  client::HttpRequest after;
  after.target = "/healthz";
  after.accept = "*/*";
  CHECK_FALSE(clients.front()->SendSync(after).ok());
}

TEST_CASE("bad bind address, busy port and bad always-allow path fail Start", "[serving]") {
  SecureServingOptions serving;
  serving.bind_address = "127.0.0.1";
  serving.port = 0;
  SecureServer first(serving, {});
  REQUIRE(first.Start().ok());

  SecureServingOptions busy = serving;
  busy.port = first.port();
  SecureServer second(busy, {});
  absl::Status status = second.Start();
  CHECK(status.code() == absl::StatusCode::kFailedPrecondition);
  CHECK_THAT(std::string(status.message()),
             Catch::StartsWith("failed to create listener: listen tcp 127.0.0.1:" + std::to_string(first.port())));

  SecureServingOptions bad_address = serving;
  bad_address.bind_address = "localhost:1";
  CHECK(SecureServer(bad_address, {}).Start().code() == absl::StatusCode::kInvalidArgument);

  DelegatingAuthOptions auth;
  auth.always_allow_paths = {"/a*b"};
  CHECK(SecureServer(serving, auth).Start().message() == "only trailing * allowed in \"a*b\"");
}

}  // namespace
}  // namespace ksched::serving
