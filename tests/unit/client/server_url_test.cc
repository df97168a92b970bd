// NormalizeServerUrl and JoinHostPort.
#include "client/server_url.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace {

using ksched::client::IsHttpsServerUrl;
using ksched::client::JoinHostPort;
using ksched::client::NormalizeServerUrl;

}  // namespace

TEST_CASE("server URL normalisation", "[client][server_url]") {
  struct Case {
    std::string in;
    bool default_tls;
    std::string want;  // "" = error
  };
  const std::vector<Case> cases = {
      {"https://10.0.0.1:6443", false, "https://10.0.0.1:6443"},
      {"HTTPS://Host:443/prefix/", false, "https://Host:443/prefix/"},
      {"http://localhost:8080", true, "http://localhost:8080"},
      {"localhost:8080", false, "http://localhost:8080"},
      {"10.0.0.1:6443", true, "https://10.0.0.1:6443"},
      {"https://[::1]:6443/api?watch=1#x", false, "https://[::1]:6443/api"},
      {"https://user@host:1", false, "https://user@host:1"},
      {"", false, ""},
      {"ftp://host", false, ""},
      {"https://", false, ""},
      {"https:///path", false, ""},
      {"https://:6443", false, ""},
      {"https://host name", false, ""},
  };
  for (const Case& tc : cases) {
    DYNAMIC_SECTION("'" << tc.in << "'") {
      const absl::StatusOr<std::string> got = NormalizeServerUrl(tc.in, tc.default_tls);
      if (tc.want.empty()) {
        REQUIRE_FALSE(got.ok());
        CHECK_THAT(std::string(got.status().message()),
                   Catch::StartsWith("invalid server URL \"" + tc.in + "\": "));
      } else {
        INFO(got.status().ToString());
        REQUIRE(got.ok());
        CHECK(*got == tc.want);
      }
    }
  }
  CHECK(IsHttpsServerUrl("https://x"));
  CHECK_FALSE(IsHttpsServerUrl("http://x"));
}

TEST_CASE("JoinHostPort brackets IPv6 hosts", "[client][server_url]") {
  CHECK(JoinHostPort("10.0.0.1", "443") == "10.0.0.1:443");
  CHECK(JoinHostPort("kubernetes.default.svc", "443") == "kubernetes.default.svc:443");
  CHECK(JoinHostPort("fd00::1", "6443") == "[fd00::1]:6443");
}

TEST_CASE("ParseServerUrl splits what the transport dials", "[client][server_url]") {
  using ksched::client::ParseServerUrl;
  struct Row {
    const char* server;
    bool tls;
    const char* host;
    const char* port;
    const char* prefix;
    const char* host_header;
  };
  const Row rows[] = {
      {"https://127.0.0.1:6443", true, "127.0.0.1", "6443", "", "127.0.0.1:6443"},
      {"https://kubernetes.default.svc", true, "kubernetes.default.svc", "443", "", "kubernetes.default.svc"},
      {"http://localhost:8080/", false, "localhost", "8080", "", "localhost:8080"},
      {"https://[::1]:6443/prefix/", true, "::1", "6443", "/prefix", "[::1]:6443"},
      {"https://[fd00::1]", true, "fd00::1", "443", "", "[fd00::1]"},
      {"https://example.com:443/a/b", true, "example.com", "443", "/a/b", "example.com:443"},
  };
  for (const Row& row : rows) {
    CAPTURE(row.server);
    auto url = ParseServerUrl(row.server, "test");
    REQUIRE(url.ok());
    CHECK(url->tls == row.tls);
    CHECK(url->host == row.host);
    CHECK(url->port == row.port);
    CHECK(url->prefix == row.prefix);
    CHECK(url->host_header == row.host_header);
  }
  for (const char* bad : {"ftp://x", "127.0.0.1:6443", "https://", "https://[::1", "https://[::1]x",
                          "https://h:0", "https://h:65536", "https://h:12a"}) {
    CAPTURE(bad);
    auto url = ParseServerUrl(bad, "kubeconfig /k, context c");
    REQUIRE_FALSE(url.ok());
    CHECK(url.status().code() == absl::StatusCode::kInvalidArgument);
    CHECK(std::string(url.status().message()).find("kubeconfig /k, context c") != std::string::npos);
  }
}
