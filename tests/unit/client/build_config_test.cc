// BuildConfigFromFlags: the four flag combinations (clientcmd.BuildConfigFromFlags).
#include "client/build_config.h"

#include <catch2/catch.hpp>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "client/in_cluster_config.h"
#include "temp_dir.h"

namespace {

using ksched::client::BuildConfigFromFlags;
using ksched::client::InClusterEnvironment;
using ksched::client::RestConfig;
using ksched::client::testing::TempDir;

const std::string kNeither =
    "Neither --kubeconfig nor --master was specified.  Using the inClusterConfig.  This might not "
    "work.";

InClusterEnvironment Env(const std::string& root, bool in_cluster) {
  InClusterEnvironment env;
  env.root = root;
  env.getenv = [in_cluster](const std::string& name) -> std::optional<std::string> {
    if (!in_cluster) return std::nullopt;
    if (name == "KUBERNETES_SERVICE_HOST") return "10.96.0.1";
    if (name == "KUBERNETES_SERVICE_PORT") return "443";
    return std::nullopt;
  };
  return env;
}

}  // namespace

TEST_CASE("BuildConfigFromFlags", "[client][build_config]") {
  TempDir dir;
  dir.Write("var/run/secrets/kubernetes.io/serviceaccount/token", "sa-token");
  dir.Write("var/run/secrets/kubernetes.io/serviceaccount/ca.crt",
            "-----BEGIN CERTIFICATE-----\nX\n-----END CERTIFICATE-----\n");
  const std::string kubeconfig = dir.Write("kubeconfig", R"(current-context: c
clusters:
- name: c
  cluster: {server: "https://from-file:6443", tls-server-name: sni}
users:
- name: u
  user: {token: file-token}
contexts:
- name: c
  context: {cluster: c, user: u}
)");
  std::vector<std::string> warnings;

  SECTION("kubeconfig only") {
    const absl::StatusOr<RestConfig> c =
        BuildConfigFromFlags("", kubeconfig, Env(dir.path(), true), &warnings);
    REQUIRE(c.ok());
    CHECK(c->server == "https://from-file:6443");
    CHECK(c->bearer_token == "file-token");
    CHECK(c->tls.server_name == "sni");
    CHECK(warnings.empty());
  }
  SECTION("kubeconfig and master: master replaces the server") {
    const absl::StatusOr<RestConfig> c =
        BuildConfigFromFlags("https://master:6443", kubeconfig, Env(dir.path(), true), &warnings);
    REQUIRE(c.ok());
    CHECK(c->server == "https://master:6443");
    CHECK(c->tls.server_name.empty());
    CHECK(c->bearer_token == "file-token");
  }
  SECTION("a missing kubeconfig is an error, never a fallback") {
    const absl::StatusOr<RestConfig> c =
        BuildConfigFromFlags("", dir.Path("nope"), Env(dir.path(), true), &warnings);
    REQUIRE_FALSE(c.ok());
    CHECK(c.status().code() == absl::StatusCode::kNotFound);
    CHECK(warnings.empty());
  }
  SECTION("master only") {
    const absl::StatusOr<RestConfig> c =
        BuildConfigFromFlags("127.0.0.1:8080", "", Env(dir.path(), true), &warnings);
    REQUIRE(c.ok());
    CHECK(c->server == "http://127.0.0.1:8080");
    CHECK(c->source == "--master");
    CHECK(c->bearer_token.empty());
    CHECK(warnings.empty());
  }
  SECTION("an invalid master") {
    const absl::StatusOr<RestConfig> c =
        BuildConfigFromFlags("ftp://x", "", Env(dir.path(), true), &warnings);
    REQUIRE_FALSE(c.ok());
    CHECK(std::string(c.status().message()) ==
          "--master: invalid server URL \"ftp://x\": the scheme must be https or http");
  }
  SECTION("neither, in a pod: in-cluster with a warning") {
    const absl::StatusOr<RestConfig> c = BuildConfigFromFlags("", "", Env(dir.path(), true), &warnings);
    REQUIRE(c.ok());
    CHECK(c->server == "https://10.96.0.1:443");
    CHECK(c->bearer_token == "sa-token");
    CHECK(warnings == std::vector<std::string>{kNeither});
  }
  SECTION("neither, outside a pod: both warnings and the no-configuration error") {
    const absl::StatusOr<RestConfig> c =
        BuildConfigFromFlags("", "", Env(dir.path(), false), &warnings);
    REQUIRE_FALSE(c.ok());
    CHECK(c.status().code() == absl::StatusCode::kInvalidArgument);
    const std::string not_in_cluster =
        "unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and "
        "KUBERNETES_SERVICE_PORT must be defined";
    CHECK(warnings ==
          std::vector<std::string>{
              kNeither, "error creating inClusterConfig, falling back to default config: " +
                            not_in_cluster});
    CHECK(std::string(c.status().message()) ==
          "invalid configuration: no configuration has been provided: pass --kubeconfig or "
          "--master, or run in a pod (in-cluster configuration: " +
              not_in_cluster + ")");
  }
  SECTION("no warnings sink") {
    CHECK_FALSE(BuildConfigFromFlags("", "", Env(dir.path(), false), nullptr).ok());
  }
}
