// InClusterConfig against a fake root directory and a fake environment (rest.InClusterConfig).
#include "client/in_cluster_config.h"

#include <catch2/catch.hpp>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "temp_dir.h"

namespace {

using ksched::client::InClusterConfig;
using ksched::client::InClusterEnvironment;
using ksched::client::RestConfig;
using ksched::client::testing::TempDir;

const std::string kCaPem = "-----BEGIN CERTIFICATE-----\nCLUSTER-CA\n-----END CERTIFICATE-----\n";
const std::string kSaDir = "var/run/secrets/kubernetes.io/serviceaccount";

InClusterEnvironment FakeEnvironment(const std::string& root,
                                     std::map<std::string, std::string> vars) {
  InClusterEnvironment env;
  env.root = root;
  env.getenv = [vars = std::move(vars)](const std::string& name) -> std::optional<std::string> {
    const auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
  return env;
}

}  // namespace

TEST_CASE("in-cluster: server, token file and CA from the service-account directory",
          "[client][in_cluster]") {
  struct Case {
    std::string name;
    std::map<std::string, std::string> env;
    std::string want_server;
  };
  const std::vector<Case> cases = {
      {"IPv4", {{"KUBERNETES_SERVICE_HOST", "10.96.0.1"}, {"KUBERNETES_SERVICE_PORT", "443"}},
       "https://10.96.0.1:443"},
      {"IPv6 is bracketed",
       {{"KUBERNETES_SERVICE_HOST", "fd00:10:96::1"}, {"KUBERNETES_SERVICE_PORT", "6443"}},
       "https://[fd00:10:96::1]:6443"},
      {"host name", {{"KUBERNETES_SERVICE_HOST", "kubernetes.default.svc"},
                     {"KUBERNETES_SERVICE_PORT", "8443"}},
       "https://kubernetes.default.svc:8443"},
  };
  for (const Case& tc : cases) {
    DYNAMIC_SECTION(tc.name) {
      TempDir root;
      root.Write(kSaDir + "/token", "  sa-token-1\n", 0600);
      root.Write(kSaDir + "/ca.crt", kCaPem);
      std::vector<std::string> warnings;
      // A trailing '/' on the root must not matter.
      const absl::StatusOr<RestConfig> config =
          InClusterConfig(FakeEnvironment(root.path() + "/", tc.env), &warnings);
      INFO(config.status().ToString());
      REQUIRE(config.ok());
      CHECK(config->server == tc.want_server);
      CHECK(config->source == "in-cluster");
      CHECK(config->bearer_token == "sa-token-1");
      CHECK(config->bearer_token_file == root.Path(kSaDir + "/token"));
      CHECK(config->tls.ca_pem == kCaPem);
      CHECK(config->tls.ca_source == root.Path(kSaDir + "/ca.crt"));
      CHECK_FALSE(config->tls.insecure_skip_verify);
      CHECK(config->context.empty());
      CHECK(warnings.empty());
    }
  }
}

TEST_CASE("in-cluster: errors as upstream's", "[client][in_cluster]") {
  const std::string not_in_cluster =
      "unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and "
      "KUBERNETES_SERVICE_PORT must be defined";
  struct Case {
    std::string name;
    std::map<std::string, std::string> env;
    bool write_token;
    absl::StatusCode code;
    std::string want;  // whole message; "{root}" expanded
  };
  const std::vector<Case> cases = {
      {"no variables", {}, true, absl::StatusCode::kFailedPrecondition, not_in_cluster},
      {"no port", {{"KUBERNETES_SERVICE_HOST", "10.0.0.1"}}, true,
       absl::StatusCode::kFailedPrecondition, not_in_cluster},
      {"no host", {{"KUBERNETES_SERVICE_PORT", "443"}}, true,
       absl::StatusCode::kFailedPrecondition, not_in_cluster},
      {"empty host", {{"KUBERNETES_SERVICE_HOST", ""}, {"KUBERNETES_SERVICE_PORT", "443"}}, true,
       absl::StatusCode::kFailedPrecondition, not_in_cluster},
      {"no token file",
       {{"KUBERNETES_SERVICE_HOST", "10.0.0.1"}, {"KUBERNETES_SERVICE_PORT", "443"}}, false,
       absl::StatusCode::kNotFound,
       "unable to load in-cluster configuration: reading the service account token "
       "{root}/var/run/secrets/kubernetes.io/serviceaccount/token: No such file or directory"},
  };
  for (const Case& tc : cases) {
    DYNAMIC_SECTION(tc.name) {
      TempDir root;
      if (tc.write_token) root.Write(kSaDir + "/token", "t");
      const absl::StatusOr<RestConfig> config = InClusterConfig(FakeEnvironment(root.path(), tc.env));
      REQUIRE_FALSE(config.ok());
      CHECK(config.status().code() == tc.code);
      std::string want = tc.want;
      if (const auto pos = want.find("{root}"); pos != std::string::npos) {
        want.replace(pos, 6, root.path());
      }
      CHECK(std::string(config.status().message()) == want);
    }
  }
}

TEST_CASE("in-cluster: an unusable CA file is a warning, not an error", "[client][in_cluster]") {
  const std::map<std::string, std::string> env = {{"KUBERNETES_SERVICE_HOST", "10.0.0.1"},
                                                  {"KUBERNETES_SERVICE_PORT", "443"}};
  for (const bool write_garbage : {false, true}) {
    DYNAMIC_SECTION((write_garbage ? "CA not PEM" : "CA missing")) {
      TempDir root;
      root.Write(kSaDir + "/token", "t");
      if (write_garbage) root.Write(kSaDir + "/ca.crt", "not a certificate");
      std::vector<std::string> warnings;
      const absl::StatusOr<RestConfig> config =
          InClusterConfig(FakeEnvironment(root.path(), env), &warnings);
      INFO(config.status().ToString());
      REQUIRE(config.ok());
      CHECK(config->tls.ca_pem.empty());
      CHECK(config->tls.ca_source.empty());
      REQUIRE(warnings.size() == 1);
      CHECK_THAT(warnings[0], Catch::StartsWith("Expected to load root CA config from " +
                                                root.Path(kSaDir + "/ca.crt") + ", but got err: "));
      CHECK_THAT(warnings[0], Catch::Contains(write_garbage ? "no PEM certificate found"
                                                            : "No such file or directory"));
      // Without a warnings sink the call still succeeds.
      CHECK(InClusterConfig(FakeEnvironment(root.path(), env)).ok());
    }
  }
}
