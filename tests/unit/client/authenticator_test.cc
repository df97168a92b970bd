// Authenticator: precedence of the RestConfig credentials (client-go's: an exec plugin only when
// nothing else authenticates), token-file rotation, basic auth, exec tokens refreshed after
// OnUnauthorized and expiry, exec client certificates and their generations.
#include "client/authenticator.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>

#include "temp_dir.h"
#include "test_certificates.h"

namespace {

using ksched::client::Authenticator;
using ksched::client::ClientCertificate;
using ksched::client::ExecConfig;
using ksched::client::ExecProviderOptions;
using ksched::client::RestConfig;
using ksched::client::testing::JsonPem;
using ksched::client::testing::SelfSignedPair;
using ksched::client::testing::TempDir;
using ksched::client::testing::TestKeyPair;

ExecProviderOptions Quiet() {
  ExecProviderOptions options;
  options.pass_through_stderr = false;
  options.timeout = std::chrono::seconds(20);
  return options;
}

// An exec plugin printing a token "tok-<n>" for its n-th run (or `status` verbatim when given).
ExecConfig Plugin(const TempDir& dir, const std::string& status = "") {
  const std::string count = dir.Path("count");
  const std::string status_json =
      status.empty() ? R"({"token":"tok-%s"})" : status;
  const std::string script = dir.Write(
      "plugin.sh",
      "#!/bin/sh\nn=$(cat " + count + " 2>/dev/null || echo 0)\nn=$((n+1))\necho $n > " + count +
          "\nprintf '{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\","
          "\"status\":" + status_json + "}' $n\n",
      0755);
  ExecConfig config;
  config.command = script;
  config.api_version = "client.authentication.k8s.io/v1";
  config.interactive_mode = "Never";
  return config;
}

// An exec plugin whose n-th run prints the status in `status-<n>.json` of its directory, or
// `status.json` when there is no such file; it counts its runs in `count`.
struct ScriptedPlugin {
  TempDir dir;
  ExecConfig config;
  ScriptedPlugin() {
    config.command = dir.Write(
        "scripted.sh",
        "#!/bin/sh\nd=$(dirname \"$0\")\n"
        "n=$(cat \"$d/count\" 2>/dev/null || echo 0)\nn=$((n+1))\necho $n > \"$d/count\"\n"
        "f=\"$d/status-$n.json\"\n[ -e \"$f\" ] || f=\"$d/status.json\"\n"
        "printf '{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\","
        "\"status\":%s}' \"$(cat \"$f\")\"\n",
        0755);
    config.api_version = "client.authentication.k8s.io/v1";
    config.interactive_mode = "Never";
  }
  // The status of run `run` (0: every run without its own).
  void Status(const std::string& json, int run = 0) const {
    std::string name = "status";
    if (run != 0) {
      name += "-";
      name += std::to_string(run);
    }
    name += ".json";
    dir.Write(name, json);
  }
  bool Ran() const { return std::filesystem::exists(dir.Path("count")); }
};

std::string CertStatus(const TestKeyPair& pair, const std::string& extra = "") {
  return R"({"clientCertificateData":")" + JsonPem(pair.cert_pem) + R"(","clientKeyData":")" +
         JsonPem(pair.key_pem) + "\"" + extra + "}";
}

std::shared_ptr<const ClientCertificate> MustCertificate(Authenticator& auth) {
  auto cert = auth.CurrentClientCertificate();
  INFO(cert.status().ToString());
  REQUIRE(cert.ok());
  return *cert;
}

std::string MustAuthorize(Authenticator& auth) {
  auto header = auth.Authorization();
  INFO(header.status().ToString());
  REQUIRE(header.ok());
  return *header;
}

}  // namespace

TEST_CASE("no credentials: an empty header", "[auth]") {
  auto auth = Authenticator::Create(RestConfig{});
  REQUIRE(auth.ok());
  CHECK((*auth)->kind() == Authenticator::Kind::kNone);
  CHECK(MustAuthorize(**auth).empty());
}

TEST_CASE("static bearer token", "[auth]") {
  RestConfig config;
  config.bearer_token = "abc";
  auto auth = Authenticator::Create(config);
  REQUIRE(auth.ok());
  CHECK(MustAuthorize(**auth) == "Bearer abc");
  auto source = (*auth)->Source();
  REQUIRE(source().ok());
  CHECK(*source() == "Bearer abc");
}

TEST_CASE("a credential that would inject headers is refused, as Go's net/http (issue #44)", "[auth]") {
  for (const char* token : {"abc\r\nX-Injected: yes", "abc\n", "a\x7f", "a\x01"}) {
    RestConfig config;
    config.bearer_token = token;
    auto auth = Authenticator::Create(config);
    REQUIRE(auth.ok());
    const absl::StatusOr<std::string> header = (*auth)->Authorization();
    REQUIRE_FALSE(header.ok());
    CHECK(header.status().message() == "net/http: invalid header field value for \"Authorization\"");
  }
  // A tab and bytes >= 0x80 are valid in a field value.
  RestConfig config;
  config.bearer_token = "a\tb\xc3\xa9";
  auto auth = Authenticator::Create(config);
  REQUIRE(auth.ok());
  CHECK((*auth)->Authorization().ok());
}

TEST_CASE("basic auth is base64(user:password), with a token it is refused", "[auth]") {
  RestConfig config;
  config.username = "admin";
  config.password = "s3cret";
  auto auth = Authenticator::Create(config);
  REQUIRE(auth.ok());
  CHECK((*auth)->kind() == Authenticator::Kind::kBasic);
  CHECK(MustAuthorize(**auth) == "Basic YWRtaW46czNjcmV0");
  config.bearer_token = "abc";
  config.source = "kubeconfig k";
  auto both = Authenticator::Create(config);
  REQUIRE_FALSE(both.ok());
  CHECK(both.status().code() == absl::StatusCode::kInvalidArgument);
}

TEST_CASE("a token file wins over the token and is re-read when rotated", "[auth]") {
  TempDir dir;
  RestConfig config;
  config.bearer_token = "static";
  config.bearer_token_file = dir.Write("token", "first\n");
  auto auth = Authenticator::Create(config);
  REQUIRE(auth.ok());
  CHECK((*auth)->kind() == Authenticator::Kind::kTokenFile);
  CHECK(MustAuthorize(**auth) == "Bearer first");
  dir.Write("token", "second-token\n");
  CHECK(MustAuthorize(**auth) == "Bearer second-token");

  RestConfig missing;
  missing.bearer_token = "fallback";
  missing.bearer_token_file = dir.Path("absent");
  auto fallback = Authenticator::Create(missing);
  REQUIRE(fallback.ok());
  CHECK(MustAuthorize(**fallback) == "Bearer fallback");
  missing.bearer_token.clear();
  auto failing = Authenticator::Create(missing);
  REQUIRE(failing.ok());
  CHECK_FALSE((*failing)->Authorization().ok());
}

TEST_CASE("exec: runs at Create, cached, re-run after OnUnauthorized", "[auth]") {
  TempDir dir;
  RestConfig config;
  config.exec = Plugin(dir);
  auto auth = Authenticator::Create(config, Quiet());
  INFO(auth.status().ToString());
  REQUIRE(auth.ok());
  CHECK((*auth)->kind() == Authenticator::Kind::kExec);
  CHECK(MustAuthorize(**auth) == "Bearer tok-1");
  CHECK(MustAuthorize(**auth) == "Bearer tok-1");
  (*auth)->OnUnauthorized();
  CHECK(MustAuthorize(**auth) == "Bearer tok-2");
  (*auth)->OnUnauthorized();
  (*auth)->OnUnauthorized();  // the same generation twice: one re-run
  CHECK(MustAuthorize(**auth) == "Bearer tok-3");
  CHECK(MustAuthorize(**auth) == "Bearer tok-3");
}

TEST_CASE("exec: clients of one configuration share one plugin run and credential (client-go's cache)", "[auth]") {
  TempDir dir;
  RestConfig config;
  config.server = "https://127.0.0.1:6443";
  config.exec = Plugin(dir);
  auto first = Authenticator::Create(config, Quiet());
  auto second = Authenticator::Create(config, Quiet());
  REQUIRE(first.ok());
  REQUIRE(second.ok());
  CHECK(MustAuthorize(**first) == "Bearer tok-1");
  CHECK(MustAuthorize(**second) == "Bearer tok-1");  // no second run at the second Create
  (*second)->OnUnauthorized();
  CHECK(MustAuthorize(**first) == "Bearer tok-2");  // one credential: both see the refresh
  CHECK(MustAuthorize(**second) == "Bearer tok-2");

  // Another cluster, or other arguments: a provider of its own.
  RestConfig other_cluster = config;
  other_cluster.server = "https://127.0.0.2:6443";
  auto third = Authenticator::Create(other_cluster, Quiet());
  REQUIRE(third.ok());
  CHECK(MustAuthorize(**third) == "Bearer tok-3");
  RestConfig other_args = config;
  other_args.exec->args = {"--flag"};
  auto fourth = Authenticator::Create(other_args, Quiet());
  REQUIRE(fourth.ok());
  CHECK(MustAuthorize(**fourth) == "Bearer tok-4");
  CHECK(MustAuthorize(**first) == "Bearer tok-2");
}

TEST_CASE("exec is not used when the config already authenticates (client-go)", "[auth]") {
  const TestKeyPair pair = SelfSignedPair("static-user");
  struct Case {
    std::string name;
    void (*set)(RestConfig*, const TestKeyPair&);
    Authenticator::Kind want;
  };
  const Case cases[] = {
      {"token", [](RestConfig* c, const TestKeyPair&) { c->bearer_token = "static"; },
       Authenticator::Kind::kToken},
      {"token file", [](RestConfig* c, const TestKeyPair&) { c->bearer_token_file = "/nonexistent/token"; },
       Authenticator::Kind::kTokenFile},
      {"username", [](RestConfig* c, const TestKeyPair&) { c->username = "basic-user"; c->password = "basic-password"; },
       Authenticator::Kind::kBasic},
      {"client certificate",
       [](RestConfig* c, const TestKeyPair& p) {
         c->tls.client_cert_pem = p.cert_pem;
         c->tls.client_key_pem = p.key_pem;
       },
       Authenticator::Kind::kNone},
  };
  for (const Case& tc : cases) {
    DYNAMIC_SECTION(tc.name) {
      ScriptedPlugin plugin;
      plugin.Status(CertStatus(SelfSignedPair("exec-user"), R"(,"token":"exec-token")"));
      RestConfig config;
      config.exec = plugin.config;
      tc.set(&config, pair);
      auto auth = Authenticator::Create(config, Quiet());
      INFO(auth.status().ToString());
      REQUIRE(auth.ok());
      CHECK((*auth)->kind() == tc.want);
      CHECK_FALSE(plugin.Ran());
      CHECK((*auth)->CertificateSource() == nullptr);
      CHECK(MustCertificate(**auth) == nullptr);
      auto header = (*auth)->Authorization();
      CHECK_FALSE((header.ok() && *header == "Bearer exec-token"));
      CHECK_FALSE(plugin.Ran());
    }
  }
}

TEST_CASE("exec: a client certificate without a token", "[auth]") {
  ScriptedPlugin plugin;
  const TestKeyPair pair = SelfSignedPair("cert-only");
  plugin.Status(CertStatus(pair));
  RestConfig config;
  config.exec = plugin.config;
  auto auth = Authenticator::Create(config, Quiet());
  INFO(auth.status().ToString());
  REQUIRE(auth.ok());
  CHECK((*auth)->kind() == Authenticator::Kind::kExec);
  CHECK(MustAuthorize(**auth).empty());
  REQUIRE((*auth)->CertificateSource() != nullptr);
  auto from_source = (*auth)->CertificateSource()();
  REQUIRE(from_source.ok());
  const auto cert = *from_source;
  REQUIRE(cert != nullptr);
  CHECK(cert->cert_pem == pair.cert_pem);
  CHECK(cert->key_pem == pair.key_pem);
  CHECK(cert->generation == 1);
  CHECK(cert->source == "exec plugin " + plugin.config.command);
}

TEST_CASE("exec: a token and a certificate are both used", "[auth]") {
  ScriptedPlugin plugin;
  const TestKeyPair pair = SelfSignedPair("both");
  plugin.Status(CertStatus(pair, R"(,"token":"both-token")"));
  RestConfig config;
  config.exec = plugin.config;
  auto auth = Authenticator::Create(config, Quiet());
  INFO(auth.status().ToString());
  REQUIRE(auth.ok());
  CHECK(MustAuthorize(**auth) == "Bearer both-token");
  const auto cert = MustCertificate(**auth);
  REQUIRE(cert != nullptr);
  CHECK(cert->cert_pem == pair.cert_pem);
}

TEST_CASE("exec: the certificate generation changes only when the pair changes", "[auth]") {
  ScriptedPlugin plugin;
  const TestKeyPair a = SelfSignedPair("user-a");
  const TestKeyPair b = SelfSignedPair("user-b");
  plugin.Status(CertStatus(a, R"(,"token":"t1")"), 1);
  plugin.Status(CertStatus(a, R"(,"token":"t2")"), 2);  // a new token, the same pair
  plugin.Status(CertStatus(b), 3);
  plugin.Status(R"({"token":"t4"})", 4);               // no certificate any more
  plugin.Status(CertStatus(b), 5);
  RestConfig config;
  config.exec = plugin.config;
  auto auth = Authenticator::Create(config, Quiet());
  INFO(auth.status().ToString());
  REQUIRE(auth.ok());
  Authenticator& authenticator = **auth;

  CHECK(MustAuthorize(authenticator) == "Bearer t1");
  auto first = MustCertificate(authenticator);
  REQUIRE(first != nullptr);
  CHECK(first->generation == 1);
  CHECK(first->cert_pem == a.cert_pem);

  authenticator.OnUnauthorized();
  CHECK(MustAuthorize(authenticator) == "Bearer t2");
  CHECK(MustCertificate(authenticator) == first);  // the same object: nothing to rotate

  authenticator.OnUnauthorized();
  CHECK(MustAuthorize(authenticator).empty());
  auto second = MustCertificate(authenticator);
  REQUIRE(second != nullptr);
  CHECK(second->generation == 2);
  CHECK(second->cert_pem == b.cert_pem);
  CHECK(second->key_pem == b.key_pem);

  authenticator.OnUnauthorized();
  CHECK(MustAuthorize(authenticator) == "Bearer t4");
  auto none = MustCertificate(authenticator);
  REQUIRE(none != nullptr);
  CHECK(none->generation == 3);
  CHECK(none->cert_pem.empty());
  CHECK(none->key_pem.empty());

  authenticator.OnUnauthorized();
  auto back = MustCertificate(authenticator);
  REQUIRE(back != nullptr);
  CHECK(back->generation == 4);
  CHECK(back->cert_pem == b.cert_pem);
}

TEST_CASE("exec: an expired certificate credential is replaced on the next request", "[auth]") {
  ScriptedPlugin plugin;
  const TestKeyPair a = SelfSignedPair("user-a");
  const TestKeyPair b = SelfSignedPair("user-b");
  plugin.Status(CertStatus(a, R"(,"expirationTimestamp":"2030-01-01T00:00:00Z")"), 1);
  plugin.Status(CertStatus(b, R"(,"expirationTimestamp":"2030-01-01T01:00:00Z")"), 2);
  auto now = std::make_shared<std::chrono::system_clock::time_point>(
      std::chrono::system_clock::time_point(std::chrono::seconds(1893455000)));  // before 2030
  ExecProviderOptions options = Quiet();
  options.now = [now] { return *now; };
  RestConfig config;
  config.exec = plugin.config;
  auto auth = Authenticator::Create(config, options);
  INFO(auth.status().ToString());
  REQUIRE(auth.ok());
  auto source = (*auth)->CertificateSource();
  auto before = source();
  REQUIRE(before.ok());
  REQUIRE(*before != nullptr);
  CHECK((*before)->cert_pem == a.cert_pem);
  *now = std::chrono::system_clock::time_point(std::chrono::seconds(1893456001));  // 00:00:01
  auto after = source();
  REQUIRE(after.ok());
  REQUIRE(*after != nullptr);
  CHECK((*after)->cert_pem == b.cert_pem);
  CHECK((*after)->generation == 2);
}

TEST_CASE("exec: a bad certificate/key pair fails Create naming the command", "[auth]") {
  const TestKeyPair pair = SelfSignedPair("good");
  const TestKeyPair other = SelfSignedPair("other");
  struct Case {
    std::string name;
    std::string status;
    std::string want;
  };
  const Case cases[] = {
      {"garbage certificate",
       R"({"clientCertificateData":"garbage","clientKeyData":")" + JsonPem(pair.key_pem) + "\"}",
       "clientCertificateData: not a PEM certificate"},
      {"mismatched key",
       R"({"clientCertificateData":")" + JsonPem(pair.cert_pem) + R"(","clientKeyData":")" +
           JsonPem(other.key_pem) + "\"}",
       "clientCertificateData/clientKeyData: the private key does not match the certificate"},
  };
  for (const Case& tc : cases) {
    DYNAMIC_SECTION(tc.name) {
      ScriptedPlugin plugin;
      plugin.Status(tc.status);
      RestConfig config;
      config.exec = plugin.config;
      auto auth = Authenticator::Create(config, Quiet());
      REQUIRE_FALSE(auth.ok());
      CHECK(auth.status().code() == absl::StatusCode::kInvalidArgument);
      CHECK_THAT(std::string(auth.status().message()),
                 Catch::StartsWith("exec: executable " + plugin.config.command +
                                   ": failed parsing client key/certificate: " + tc.want));
    }
  }
}

TEST_CASE("exec: a later run with a bad pair fails the request and keeps nothing bad", "[auth]") {
  ScriptedPlugin plugin;
  const TestKeyPair a = SelfSignedPair("user-a");
  plugin.Status(CertStatus(a), 1);
  plugin.Status(R"({"clientCertificateData":"x","clientKeyData":"y"})", 2);
  plugin.Status(CertStatus(a), 3);
  RestConfig config;
  config.exec = plugin.config;
  auto auth = Authenticator::Create(config, Quiet());
  REQUIRE(auth.ok());
  auto first = MustCertificate(**auth);
  (*auth)->OnUnauthorized();
  auto bad = (*auth)->CurrentClientCertificate();
  REQUIRE_FALSE(bad.ok());
  CHECK(std::string(bad.status().message()).find(plugin.config.command) != std::string::npos);
  auto again = MustCertificate(**auth);  // run 3: the same pair as before, same generation
  CHECK(again == first);
}

TEST_CASE("exec: a failing plugin fails Create", "[auth]") {
  RestConfig config;
  config.exec = ExecConfig{};
  config.exec->command = "/nonexistent/ksched-plugin";
  config.exec->api_version = "client.authentication.k8s.io/v1";
  config.exec->interactive_mode = "Never";
  auto auth = Authenticator::Create(config, Quiet());
  REQUIRE_FALSE(auth.ok());
  CHECK(auth.status().code() == absl::StatusCode::kNotFound);
}
