// Authenticator: precedence of the RestConfig credentials, token-file rotation, basic auth, exec
// tokens refreshed after OnUnauthorized, exec certificates refused.
#include "client/authenticator.h"

#include <catch2/catch.hpp>
#include <string>

#include "temp_dir.h"

namespace {

using ksched::client::Authenticator;
using ksched::client::ExecConfig;
using ksched::client::ExecProviderOptions;
using ksched::client::RestConfig;
using ksched::client::testing::TempDir;

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

TEST_CASE("basic auth is base64(user:password); with a token it is refused", "[auth]") {
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

TEST_CASE("exec: runs at Create, cached, re-run after OnUnauthorized; wins over a token", "[auth]") {
  TempDir dir;
  RestConfig config;
  config.bearer_token = "static";
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

TEST_CASE("exec: a client certificate instead of a token is kUnimplemented at Create", "[auth]") {
  TempDir dir;
  RestConfig config;
  config.exec = Plugin(dir, R"({"clientCertificateData":"-----BEGIN CERTIFICATE-----\\nX\\n-----END CERTIFICATE-----\\n","clientKeyData":"-----BEGIN PRIVATE KEY-----\\nY\\n-----END PRIVATE KEY-----\\n"})");
  auto auth = Authenticator::Create(config, Quiet());
  REQUIRE_FALSE(auth.ok());
  CHECK(auth.status().code() == absl::StatusCode::kUnimplemented);
  CHECK(std::string(auth.status().message()).find("client certificate") != std::string::npos);
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
