// From a kubeconfig file to a request against the real kube-apiserver: LoadKubeconfig,
// Authenticator::Create, HttpTransport::Create with the authenticator's source, RestClient. Each
// kind of credential a kubeconfig can hold (client certificate data, token, tokenFile, an exec
// plugin returning a token or a client certificate), the exec certificate replaced after its
// expiry (identity checked with SelfSubjectReview, watches closed), RBAC as the scheduler, and the
// errors a user sees for a wrong CA, a missing context, a failing exec plugin and an exec plugin
// returning a bad certificate.
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <future>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

#include "absl/strings/escaping.h"
#include "client/api_error.h"
#include "client/authenticator.h"
#include "client/http_transport.h"
#include "client/kubeconfig.h"
#include "client/rest_client.h"
#include "controlplane_env.h"

using ksched::client::Authenticator;
using ksched::client::HttpTransport;
using ksched::client::KubeconfigOptions;
using ksched::client::LoadKubeconfig;
using ksched::client::RestClient;
using ksched::client::RestClientOptions;
using ksched::client::RestConfig;
using ksched::testing::ControlPlane;
using ksched::testing::ReadFile;

namespace {

namespace fs = std::filesystem;

// A fresh temporary directory, removed with everything in it when the test case ends.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "ksched-kubeconfig-auth-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

void WriteFile(const std::string& path, const std::string& content) {
  std::ofstream out(path, std::ios::trunc);
  out << content;
  if (!out) throw std::runtime_error("cannot write " + path);
}

void WriteScript(const std::string& path, const std::string& content) {
  WriteFile(path, content);
  fs::permissions(path, fs::perms::owner_all);
}

std::string AdminToken() {
  std::string token = ReadFile(ControlPlane::Get().pki("admin.token"));
  while (!token.empty() && (token.back() == '\n' || token.back() == '\r')) token.pop_back();
  return token;
}

// A kubeconfig for the test control plane's server with the given CA (PEM) and user block
// (lines indented by four spaces).
std::string Kubeconfig(const std::string& ca_pem, const std::string& user_block,
                       const std::string& current_context = "local") {
  return "apiVersion: v1\n"
         "kind: Config\n"
         "clusters:\n"
         "- name: local\n"
         "  cluster:\n"
         "    server: " + ControlPlane::Get()["APISERVER_URL"] + "\n"
         "    certificate-authority-data: " + absl::Base64Escape(ca_pem) + "\n"
         "users:\n"
         "- name: user\n"
         "  user:\n" + user_block +
         "contexts:\n"
         "- name: local\n"
         "  context: {cluster: local, user: user}\n"
         "current-context: " + current_context + "\n";
}

KubeconfigOptions Options(const std::string& path, const std::string& context = "") {
  KubeconfigOptions options;
  options.path = path;
  options.context = context;
  return options;
}

std::string TestCa() { return ReadFile(ControlPlane::Get().pki("ca.crt")); }

struct Connected {
  RestConfig config;
  std::shared_ptr<Authenticator> authenticator;
  std::shared_ptr<HttpTransport> transport;
  std::shared_ptr<RestClient> client;
};

// kubeconfig -> RestConfig -> Authenticator -> HttpTransport -> RestClient. Any failure on the way
// is returned as the Status.
absl::StatusOr<Connected> Connect(const std::string& kubeconfig_path) {
  auto config = LoadKubeconfig(Options(kubeconfig_path));
  if (!config.ok()) return config.status();
  auto authenticator = Authenticator::Create(*config);
  if (!authenticator.ok()) return authenticator.status();
  auto transport = HttpTransport::Create(*config, {}, (*authenticator)->Source(),
                                         (*authenticator)->CertificateSource());
  if (!transport.ok()) return transport.status();
  RestClientOptions options = RestClientOptions::FromConfig(*config);
  options.authenticator = *authenticator;
  options.max_retries = 2;
  options.backoff_initial = std::chrono::milliseconds(10);
  Connected connected;
  connected.config = *config;
  connected.authenticator = *authenticator;
  connected.transport = std::shared_ptr<HttpTransport>(std::move(*transport));
  connected.client = std::make_shared<RestClient>(connected.transport, options);
  return connected;
}

Connected MustConnect(const std::string& kubeconfig_path) {
  auto connected = Connect(kubeconfig_path);
  INFO(kubeconfig_path << ": " << connected.status().ToString());
  REQUIRE(connected.ok());
  return *connected;
}

// The user name the API server sees for this client (a SelfSubjectReview).
std::string WhoAmI(RestClient& client) {
  auto review = client.Create("/apis/authentication.k8s.io/v1/selfsubjectreviews",
                              R"({"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"})");
  INFO(review.status().ToString());
  REQUIRE(review.ok());
  const std::string key = "\"username\":\"";
  const std::size_t at = review->find(key);
  REQUIRE(at != std::string::npos);
  const std::size_t start = at + key.size();
  return review->substr(start, review->find('"', start) - start);
}

// A client.authentication.k8s.io/v1 ExecCredential with a client certificate and key (PEM text)
// and `extra` members appended to its status.
std::string CertCredentialJson(const std::string& cert_pem, const std::string& key_pem,
                               const std::string& extra = "") {
  const auto json_pem = [](const std::string& pem) {
    std::string out;
    for (const char ch : pem) {
      if (ch == '\n') out += "\\n";
      else out += ch;
    }
    return out;
  };
  return R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{)"
         R"("clientCertificateData":")" + json_pem(cert_pem) + R"(","clientKeyData":")" +
         json_pem(key_pem) + "\"" + extra + "}}";
}

// An exec plugin in `dir` whose n-th run prints `credential-<n>.json` of its directory, or
// `credential.json` when there is none; it counts its runs in `runs`. Returns its path.
std::string WriteCredentialPlugin(const TempDir& dir) {
  const std::string path = dir / "credential-plugin.sh";
  WriteScript(path,
              "#!/bin/sh\n"
              "d=$(dirname \"$0\")\n"
              "n=$(cat \"$d/runs\" 2>/dev/null || echo 0); n=$((n+1)); echo $n > \"$d/runs\"\n"
              "f=\"$d/credential-$n.json\"; [ -e \"$f\" ] || f=\"$d/credential.json\"\n"
              "cat \"$f\"\n");
  return path;
}

// RFC 3339 in UTC, `from_now` (whole seconds) after now.
std::string Rfc3339FromNow(std::chrono::seconds from_now) {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now() + from_now);
  std::tm utc{};
  gmtime_r(&t, &utc);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buf;
}

std::string ExecUserBlock(const std::string& command) {
  return "    exec:\n"
         "      apiVersion: client.authentication.k8s.io/v1\n"
         "      command: " + command + "\n"
         "      interactiveMode: Never\n";
}

void RequireGetDefaultNamespace(RestClient& client) {
  auto got = client.Get("/api/v1/namespaces/default");
  INFO(got.status().ToString());
  REQUIRE(got.ok());
  CHECK(got->find("\"name\":\"default\"") != std::string::npos);
}

}  // namespace

TEST_CASE("admin.kubeconfig: client certificate data", "[kubeconfig-auth]") {
  Connected c = MustConnect(ControlPlane::Get()["KUBECONFIG_ADMIN"]);
  CHECK(c.authenticator->kind() == Authenticator::Kind::kNone);
  CHECK_FALSE(c.config.tls.client_cert_pem.empty());
  RequireGetDefaultNamespace(*c.client);
}

TEST_CASE("admin-token.kubeconfig: a static token", "[kubeconfig-auth]") {
  Connected c = MustConnect(ControlPlane::Get()["KUBECONFIG_ADMIN_TOKEN"]);
  CHECK(c.authenticator->kind() == Authenticator::Kind::kToken);
  RequireGetDefaultNamespace(*c.client);
}

TEST_CASE("tokenFile: the token read from a file", "[kubeconfig-auth]") {
  TempDir dir;
  WriteFile(dir / "token", AdminToken() + "\n");
  WriteFile(dir / "kubeconfig", Kubeconfig(TestCa(), "    tokenFile: " + (dir / "token") + "\n"));
  Connected c = MustConnect(dir / "kubeconfig");
  CHECK(c.authenticator->kind() == Authenticator::Kind::kTokenFile);
  CHECK(c.config.bearer_token_file == dir / "token");
  RequireGetDefaultNamespace(*c.client);
}

TEST_CASE("exec plugin: a client.authentication.k8s.io/v1 ExecCredential", "[kubeconfig-auth]") {
  TempDir dir;
  const std::string marker = dir / "plugin-ran";
  WriteScript(dir / "credential.sh",
              "#!/bin/sh\n"
              "touch '" + marker + "'\n"
              "printf '%s\\n' '{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\","
              "\"status\":{\"token\":\"" + AdminToken() + "\"}}'\n");
  WriteFile(dir / "kubeconfig", Kubeconfig(TestCa(),
                                           "    exec:\n"
                                           "      apiVersion: client.authentication.k8s.io/v1\n"
                                           "      command: " + (dir / "credential.sh") + "\n"
                                           "      interactiveMode: Never\n"));
  Connected c = MustConnect(dir / "kubeconfig");
  CHECK(c.authenticator->kind() == Authenticator::Kind::kExec);
  CHECK(fs::exists(marker));
  RequireGetDefaultNamespace(*c.client);
}

TEST_CASE("scheduler.kubeconfig: may list nodes, may not delete one", "[kubeconfig-auth]") {
  Connected c = MustConnect(ControlPlane::Get()["KUBECONFIG_SCHEDULER"]);
  auto nodes = c.client->Get("/api/v1/nodes");
  INFO(nodes.status().ToString());
  REQUIRE(nodes.ok());
  CHECK(nodes->find("\"kind\":\"NodeList\"") != std::string::npos);
  auto deleted = c.client->Delete("/api/v1/nodes/kubeconfig-auth-node");
  REQUIRE_FALSE(deleted.ok());
  INFO(deleted.status().ToString());
  CHECK(deleted.status().code() == absl::StatusCode::kPermissionDenied);
  CHECK(ksched::client::HttpStatusOf(deleted.status()) == 403);
  CHECK(std::string(deleted.status().message()).find("system:kube-scheduler") != std::string::npos);
}

TEST_CASE("a kubeconfig trusting another CA: the request fails TLS verification", "[kubeconfig-auth]") {
  TempDir dir;
  const std::string command = "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=other-ca -keyout '" +
                              (dir / "other-ca.key") + "' -out '" + (dir / "other-ca.crt") + "' >/dev/null 2>&1";
  REQUIRE(std::system(command.c_str()) == 0);
  WriteFile(dir / "kubeconfig", Kubeconfig(ReadFile(dir / "other-ca.crt"), "    token: " + AdminToken() + "\n"));
  Connected c = MustConnect(dir / "kubeconfig");
  auto got = c.client->Get("/api/v1/namespaces/default");
  REQUIRE_FALSE(got.ok());
  INFO(got.status().ToString());
  CHECK(got.status().code() == absl::StatusCode::kFailedPrecondition);
  CHECK(std::string(got.status().message()).find(ControlPlane::Get()["APISERVER_URL"]) != std::string::npos);
}

TEST_CASE("a kubeconfig naming a missing context", "[kubeconfig-auth]") {
  TempDir dir;
  const std::string path = dir / "kubeconfig";
  WriteFile(path, Kubeconfig(TestCa(), "    token: " + AdminToken() + "\n", "no-such-context"));
  auto config = LoadKubeconfig(Options(path));
  REQUIRE_FALSE(config.ok());
  INFO(config.status().ToString());
  CHECK(config.status().code() == absl::StatusCode::kInvalidArgument);
  const std::string message(config.status().message());
  CHECK(message.find("\"no-such-context\"") != std::string::npos);
  CHECK(message.find(path) != std::string::npos);

  // The same through KubeconfigOptions::context.
  WriteFile(path, Kubeconfig(TestCa(), "    token: " + AdminToken() + "\n"));
  auto named = LoadKubeconfig(Options(path, "other-context"));
  REQUIRE_FALSE(named.ok());
  INFO(named.status().ToString());
  CHECK(named.status().code() == absl::StatusCode::kInvalidArgument);
  CHECK(std::string(named.status().message()).find("\"other-context\"") != std::string::npos);
  CHECK(std::string(named.status().message()).find(path) != std::string::npos);
}

TEST_CASE("an exec plugin that fails: the error names the command and shows its stderr", "[kubeconfig-auth]") {
  TempDir dir;
  const std::string script = dir / "failing-credential.sh";
  WriteScript(script, "#!/bin/sh\necho 'kubeconfig-auth: no credentials for you' >&2\nexit 1\n");
  WriteFile(dir / "kubeconfig", Kubeconfig(TestCa(),
                                           "    exec:\n"
                                           "      apiVersion: client.authentication.k8s.io/v1\n"
                                           "      command: " + script + "\n"
                                           "      interactiveMode: Never\n"));
  auto connected = Connect(dir / "kubeconfig");
  REQUIRE_FALSE(connected.ok());
  INFO(connected.status().ToString());
  CHECK(connected.status().code() == absl::StatusCode::kUnavailable);
  const std::string message(connected.status().message());
  CHECK(message.find(script) != std::string::npos);
  CHECK(message.find("exit code 1") != std::string::npos);
  CHECK(message.find("kubeconfig-auth: no credentials for you") != std::string::npos);
}

TEST_CASE("exec plugin: a client certificate and no token", "[kubeconfig-auth]") {
  TempDir dir;
  const ControlPlane& cp = ControlPlane::Get();
  WriteFile(dir / "credential.json",
            CertCredentialJson(ReadFile(cp.pki("admin.crt")), ReadFile(cp.pki("admin.key"))));
  WriteFile(dir / "kubeconfig", Kubeconfig(TestCa(), ExecUserBlock(WriteCredentialPlugin(dir))));
  Connected c = MustConnect(dir / "kubeconfig");
  CHECK(c.authenticator->kind() == Authenticator::Kind::kExec);
  CHECK(c.config.tls.client_cert_pem.empty());
  auto header = c.authenticator->Authorization();
  REQUIRE(header.ok());
  CHECK(header->empty());  // no token: the certificate alone authenticates
  RequireGetDefaultNamespace(*c.client);
  auto nodes = c.client->List("/api/v1/nodes");
  INFO(nodes.status().ToString());
  CHECK(nodes.ok());
  CHECK(WhoAmI(*c.client) == "admin");

  // Without the certificate the same request is anonymous, and refused.
  RestConfig anonymous = c.config;
  anonymous.exec.reset();
  auto transport = HttpTransport::Create(anonymous);
  REQUIRE(transport.ok());
  RestClientOptions options;
  options.max_retries = 0;
  RestClient anonymous_client(std::shared_ptr<HttpTransport>(std::move(*transport)), options);
  auto refused = anonymous_client.List("/api/v1/nodes");
  REQUIRE_FALSE(refused.ok());
  CHECK(ksched::client::HttpStatusOf(refused.status()) == 403);
  CHECK(std::string(refused.status().message()).find("system:anonymous") != std::string::npos);
}

TEST_CASE("exec plugin: an expired certificate is replaced, and watches on the old one are closed",
          "[kubeconfig-auth]") {
  TempDir dir;
  const ControlPlane& cp = ControlPlane::Get();
  // Run 1: the admin certificate, expiring 3 s from now; every later run: the scheduler's.
  WriteFile(dir / "credential-1.json",
            CertCredentialJson(ReadFile(cp.pki("admin.crt")), ReadFile(cp.pki("admin.key")),
                               R"(,"expirationTimestamp":")" +
                                   Rfc3339FromNow(std::chrono::seconds(3)) + "\""));
  WriteFile(dir / "credential.json", CertCredentialJson(ReadFile(cp.pki("kube-scheduler.crt")),
                                                        ReadFile(cp.pki("kube-scheduler.key"))));
  WriteFile(dir / "kubeconfig", Kubeconfig(TestCa(), ExecUserBlock(WriteCredentialPlugin(dir))));
  const auto start = std::chrono::steady_clock::now();
  Connected c = MustConnect(dir / "kubeconfig");
  REQUIRE(c.authenticator->kind() == Authenticator::Kind::kExec);
  REQUIRE(WhoAmI(*c.client) == "admin");
  REQUIRE(WhoAmI(*c.client) == "admin");  // the pooled connection, same certificate
  CHECK(c.transport->stats().connections_reused >= 1);
  CHECK(c.transport->stats().client_certificate_rotations == 1);  // the first pair adopted

  // A watch opened with the admin certificate.
  auto watch = c.client->Watch("/api/v1/namespaces");
  INFO(watch.status().ToString());
  REQUIRE(watch.ok());
  std::shared_ptr<ksched::client::LineStream> stream(std::move(*watch));
  auto watch_end = std::async(std::launch::async, [stream] {
    while (true) {
      auto item = stream->Next();
      if (!item.ok()) return item.status();
      if (!item->has_value()) return absl::OkStatus();
    }
  });

  // Past the expiry (whole seconds, so up to 4 s), the next request runs the plugin again and
  // goes out with the new certificate.
  std::this_thread::sleep_until(start + std::chrono::milliseconds(4500));
  CHECK(watch_end.wait_for(std::chrono::seconds(0)) == std::future_status::timeout);  // still open
  CHECK(WhoAmI(*c.client) == "system:kube-scheduler");
  CHECK(std::atoi(ReadFile(dir / "runs").c_str()) == 2);
  const auto stats = c.transport->stats();
  CHECK(stats.client_certificate_rotations == 2);
  CHECK(stats.connections_closed_for_rotation >= 2);  // the idle admin connection and the watch

  // The admin watch ended (it would otherwise run for minutes); a reflector reconnects.
  const bool ended = watch_end.wait_for(std::chrono::seconds(10)) == std::future_status::ready;
  if (!ended) stream->Cancel();
  REQUIRE(ended);
  const absl::Status end = watch_end.get();
  INFO(end.ToString());
  CHECK(end.code() == absl::StatusCode::kUnavailable);
  CHECK(std::string(end.message()).find("client certificate") != std::string::npos);

  // A new watch works, as the scheduler, who may watch nodes but not delete one.
  auto rewatch = c.client->Watch("/api/v1/nodes");
  INFO(rewatch.status().ToString());
  CHECK(rewatch.ok());
  auto deleted = c.client->Delete("/api/v1/nodes/kubeconfig-auth-node");
  REQUIRE_FALSE(deleted.ok());
  CHECK(ksched::client::HttpStatusOf(deleted.status()) == 403);
}

TEST_CASE("an exec plugin returning a garbage certificate: one error naming the command", "[kubeconfig-auth]") {
  TempDir dir;
  const ControlPlane& cp = ControlPlane::Get();
  WriteFile(dir / "credential.json",
            CertCredentialJson("-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n",
                               ReadFile(cp.pki("admin.key"))));
  const std::string script = WriteCredentialPlugin(dir);
  WriteFile(dir / "kubeconfig", Kubeconfig(TestCa(), ExecUserBlock(script)));
  auto connected = Connect(dir / "kubeconfig");
  REQUIRE_FALSE(connected.ok());
  INFO(connected.status().ToString());
  CHECK(connected.status().code() == absl::StatusCode::kInvalidArgument);
  const std::string message(connected.status().message());
  CHECK_THAT(message, Catch::StartsWith("exec: executable " + script +
                                        ": failed parsing client key/certificate: clientCertificateData: "));
  CHECK(message.find('\n') == std::string::npos);  // one line
}
