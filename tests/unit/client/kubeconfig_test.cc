// LoadKubeconfig: every field it reads, relative paths, the --master override, and each error with
// its message (modelled on clientcmd's loader.go / client_config.go / validation.go).
#include "client/kubeconfig.h"

#include <catch2/catch.hpp>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "client/rest_config.h"
#include "temp_dir.h"

namespace {

using ksched::client::KubeconfigOptions;
using ksched::client::LoadKubeconfig;
using ksched::client::RestConfig;
using ksched::client::testing::TempDir;

const std::string kCaPem = "-----BEGIN CERTIFICATE-----\nTEST-CA\n-----END CERTIFICATE-----\n";
const std::string kCertPem = "-----BEGIN CERTIFICATE-----\nTEST-CLIENT\n-----END CERTIFICATE-----\n";
const std::string kKeyPem = "-----BEGIN PRIVATE KEY-----\nTEST-KEY\n-----END PRIVATE KEY-----\n";

std::string B64(const std::string& s) { return absl::Base64Escape(s); }

// Replaces every "{key}" in `text`.
std::string Expand(std::string text, const std::map<std::string, std::string>& vars) {
  for (const auto& [key, value] : vars) {
    const std::string token = "{" + key + "}";
    for (std::size_t pos = text.find(token); pos != std::string::npos;
         pos = text.find(token, pos + value.size())) {
      text.replace(pos, token.size(), value);
    }
  }
  return text;
}

// The kubeconfig used by the field tests: conf/config, with PEM files under conf/pki and a token
// file under shared/ (referenced as ../shared/token).
struct FieldFixture {
  TempDir dir;
  std::string path;

  FieldFixture() {
    dir.Write("conf/pki/ca.crt", kCaPem);
    dir.Write("conf/pki/client.crt", kCertPem);
    dir.Write("conf/pki/client.key", kKeyPem, 0600);
    dir.Write("shared/token", "file-token\n", 0600);
    const std::string abs_ca = dir.Write("abs/ca.crt", kCaPem);
    path = dir.Write("conf/config", Expand(R"(apiVersion: v1
kind: Config
preferences: {}
current-context: files
clusters:
- name: files-cluster
  cluster:
    server: https://10.0.0.1:6443
    certificate-authority: pki/ca.crt
    tls-server-name: api.internal
    extensions:
    - name: ignored
      extension: {a: b}
- name: data-cluster
  cluster:
    server: https://[::1]:6443/prefix?x=1#frag
    certificate-authority-data: {ca_b64}
- name: insecure-cluster
  cluster:
    server: 10.0.0.2:6443
    insecure-skip-tls-verify: true
- name: plain-cluster
  cluster:
    server: http://127.0.0.1:8080
- name: schemeless-plain
  cluster:
    server: localhost:8080
- name: abs-cluster
  cluster:
    server: HTTPS://abs.example:443
    certificate-authority: {abs_ca}
users:
- name: cert-files
  user:
    client-certificate: pki/client.crt
    client-key: ./pki/../pki/client.key
- name: cert-data
  user:
    client-certificate-data: {cert_b64}
    client-key-data: {key_b64}
- name: token
  user:
    token: static-token
    as: alice
    as-groups: [devs, ops]
- name: token-file
  user:
    tokenFile: ../shared/token
- name: token-and-file
  user:
    token: inline-token
    tokenFile: ../shared/token
- name: basic
  user:
    username: admin
    password: secret
- name: exec-user
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: ./bin/plugin
      args: [get-token, --verbose]
      env:
      - name: A
        value: "1"
      - name: B
        value: two
      installHint: "install it\x1b[1m now\tplease"
      provideClusterInfo: true
      interactiveMode: Never
- name: exec-path
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      command: my-plugin
contexts:
- name: files
  context: {cluster: files-cluster, user: cert-files, namespace: kube-system}
- name: data
  context: {cluster: data-cluster, user: cert-data}
- name: token
  context: {cluster: insecure-cluster, user: token}
- name: token-file
  context: {cluster: abs-cluster, user: token-file}
- name: token-and-file
  context: {cluster: abs-cluster, user: token-and-file}
- name: basic
  context: {cluster: files-cluster, user: basic}
- name: exec
  context: {cluster: files-cluster, user: exec-user}
- name: exec-path
  context: {cluster: data-cluster, user: exec-path}
- name: plain
  context: {cluster: plain-cluster, user: token}
- name: schemeless-plain
  context: {cluster: schemeless-plain, user: basic}
- name: anonymous
  context: {cluster: files-cluster}
)",
                                           {{"ca_b64", B64(kCaPem)},
                                            {"cert_b64", B64(kCertPem)},
                                            {"key_b64", B64(kKeyPem)},
                                            {"abs_ca", abs_ca}}));
  }
};

}  // namespace

TEST_CASE("kubeconfig: every supported field reaches RestConfig", "[client][kubeconfig]") {
  FieldFixture f;
  const std::string conf = f.dir.Path("conf");
  struct Case {
    std::string context;  // "" = current-context
    std::function<void(const RestConfig&)> check;
  };
  const std::vector<Case> cases = {
      {"",
       [&](const RestConfig& c) {
         CHECK(c.context == "files");
         CHECK(c.context_namespace == "kube-system");
         CHECK(c.source == "kubeconfig " + f.path + ", context files");
         CHECK(c.server == "https://10.0.0.1:6443");
         CHECK(c.tls.ca_pem == kCaPem);
         CHECK(c.tls.ca_source == conf + "/pki/ca.crt");
         CHECK(c.tls.server_name == "api.internal");
         CHECK_FALSE(c.tls.insecure_skip_verify);
         CHECK(c.tls.client_cert_pem == kCertPem);
         CHECK(c.tls.client_cert_source == conf + "/pki/client.crt");
         CHECK(c.tls.client_key_pem == kKeyPem);
         CHECK(c.bearer_token.empty());
         CHECK(c.bearer_token_file.empty());
         CHECK_FALSE(c.exec.has_value());
       }},
      {"data",
       [&](const RestConfig& c) {
         CHECK(c.server == "https://[::1]:6443/prefix");  // query and fragment dropped
         CHECK(c.tls.ca_pem == kCaPem);
         CHECK(c.tls.ca_source == "certificate-authority-data");
         CHECK(c.tls.client_cert_pem == kCertPem);
         CHECK(c.tls.client_cert_source == "client-certificate-data");
         CHECK(c.tls.client_key_pem == kKeyPem);
         CHECK(c.context_namespace.empty());
       }},
      {"token",
       [&](const RestConfig& c) {
         CHECK(c.server == "https://10.0.0.2:6443");  // no scheme + TLS settings: https
         CHECK(c.tls.insecure_skip_verify);
         CHECK(c.tls.ca_pem.empty());
         CHECK(c.bearer_token == "static-token");
         CHECK(c.bearer_token_file.empty());
         CHECK(c.impersonate_user == "alice");
         CHECK(c.impersonate_groups == std::vector<std::string>{"devs", "ops"});
       }},
      {"token-file",
       [&](const RestConfig& c) {
         CHECK(c.server == "https://abs.example:443");
         CHECK(c.tls.ca_source == f.dir.Path("abs/ca.crt"));
         CHECK(c.bearer_token == "file-token");
         CHECK(c.bearer_token_file == f.dir.Path("shared/token"));
       }},
      {"token-and-file",
       [&](const RestConfig& c) {
         CHECK(c.bearer_token == "inline-token");  // token wins; the file is kept for re-reading
         CHECK(c.bearer_token_file == f.dir.Path("shared/token"));
       }},
      {"basic",
       [&](const RestConfig& c) {
         CHECK(c.username == "admin");
         CHECK(c.password == "secret");
         CHECK(c.bearer_token.empty());
       }},
      {"exec",
       [&](const RestConfig& c) {
         REQUIRE(c.exec.has_value());
         CHECK(c.exec->command == conf + "/bin/plugin");
         CHECK(c.exec->args == std::vector<std::string>{"get-token", "--verbose"});
         CHECK(c.exec->env ==
               std::vector<std::pair<std::string, std::string>>{{"A", "1"}, {"B", "two"}});
         CHECK(c.exec->api_version == "client.authentication.k8s.io/v1");
         CHECK(c.exec->install_hint == "install itU+001B[1m now\tplease");
         CHECK(c.exec->provide_cluster_info);
         CHECK(c.exec->interactive_mode == "Never");
       }},
      {"exec-path",
       [&](const RestConfig& c) {
         REQUIRE(c.exec.has_value());
         CHECK(c.exec->command == "my-plugin");            // no '/': left for the $PATH lookup
         CHECK(c.exec->interactive_mode == "IfAvailable");  // v1beta1's default
         CHECK_FALSE(c.exec->provide_cluster_info);
       }},
      {"plain",
       [&](const RestConfig& c) {
         CHECK(c.server == "http://127.0.0.1:8080");
         CHECK(c.bearer_token.empty());  // never sent in clear
         CHECK(c.impersonate_user == "alice");
       }},
      {"schemeless-plain",
       [&](const RestConfig& c) {
         CHECK(c.server == "http://localhost:8080");  // no scheme, no TLS settings: http
         CHECK(c.username.empty());
         CHECK(c.password.empty());
       }},
      {"anonymous",
       [&](const RestConfig& c) {
         CHECK(c.server == "https://10.0.0.1:6443");
         CHECK(c.tls.ca_pem == kCaPem);
         CHECK(c.tls.client_cert_pem.empty());
         CHECK(c.bearer_token.empty());
         CHECK(c.username.empty());
       }},
  };
  for (const Case& tc : cases) {
    DYNAMIC_SECTION("context '" << tc.context << "'") {
      KubeconfigOptions options;
      options.path = f.path;
      options.context = tc.context;
      const absl::StatusOr<RestConfig> config = LoadKubeconfig(options);
      INFO(config.status().ToString());
      REQUIRE(config.ok());
      tc.check(*config);
    }
  }
}

TEST_CASE("kubeconfig: --master replaces the server and drops tls-server-name",
          "[client][kubeconfig]") {
  FieldFixture f;
  KubeconfigOptions options;
  options.path = f.path;
  options.master = "https://override.example:8443";
  const absl::StatusOr<RestConfig> config = LoadKubeconfig(options);
  INFO(config.status().ToString());
  REQUIRE(config.ok());
  CHECK(config->server == "https://override.example:8443");
  CHECK(config->tls.server_name.empty());
  CHECK(config->tls.ca_pem == kCaPem);  // the rest of the cluster stays
  CHECK(config->tls.client_cert_pem == kCertPem);
}

TEST_CASE("kubeconfig: a file without contexts is usable with --master alone",
          "[client][kubeconfig]") {
  for (const std::string& content : {std::string(""), std::string("# nothing\n"),
                                    std::string("apiVersion: v1\nkind: Config\nclusters: []\n")}) {
    TempDir dir;
    KubeconfigOptions options;
    options.path = dir.Write("config", content);
    options.master = "127.0.0.1:8080";
    const absl::StatusOr<RestConfig> config = LoadKubeconfig(options);
    INFO(config.status().ToString());
    REQUIRE(config.ok());
    CHECK(config->server == "http://127.0.0.1:8080");
    CHECK(config->context.empty());
    CHECK(config->source == "kubeconfig " + options.path);
  }
}

TEST_CASE("kubeconfig: errors name the file, the context and the field", "[client][kubeconfig]") {
  struct Case {
    std::string name;
    std::string yaml;                            // "{dir}" is the kubeconfig's directory
    std::map<std::string, std::string> files;    // written next to the kubeconfig
    std::string context;
    std::string master;
    absl::StatusCode code;
    std::vector<std::string> want;               // substrings; "{path}", "{dir}" expanded
  };
  // A valid cluster/user/context prelude that cases extend.
  const std::string ok_cluster = "- name: c\n  cluster:\n    server: https://1.2.3.4:6443\n";
  auto single = [](const std::string& cluster, const std::string& user) {
    return "current-context: ctx\nclusters:\n- name: c\n  cluster:\n" + cluster +
           "users:\n- name: u\n  user:\n" + user +
           "contexts:\n- name: ctx\n  context: {cluster: c, user: u}\n";
  };
  const std::string server = "    server: https://1.2.3.4:6443\n";
  const std::string token = "    token: t\n";
  const std::string invalid = "invalid configuration in kubeconfig {path}, context \"ctx\": ";
  const auto kInvalid = absl::StatusCode::kInvalidArgument;

  const std::vector<Case> cases = {
      {"requested context missing", single(server, token), {}, "foo", "", kInvalid,
       {"context \"foo\" does not exist in kubeconfig {path}"}},
      {"current-context missing",
       "current-context: nope\nclusters:\n" + ok_cluster, {}, "", "", kInvalid,
       {"current-context \"nope\" does not exist in kubeconfig {path}"}},
      {"user missing",
       "current-context: ctx\nclusters:\n" + ok_cluster +
           "contexts:\n- name: ctx\n  context: {cluster: c, user: ghost}\n",
       {}, "", "", kInvalid, {invalid + "user \"ghost\" was not found for context \"ctx\""}},
      {"cluster missing",
       "current-context: ctx\nusers:\n- name: u\n  user: {token: t}\n"
       "contexts:\n- name: ctx\n  context: {cluster: ghost, user: u}\n",
       {}, "", "https://master:6443", kInvalid,
       {invalid + "cluster \"ghost\" was not found for context \"ctx\""}},
      {"context without cluster",
       "current-context: ctx\ncontexts:\n- name: ctx\n  context: {namespace: x}\n", {}, "", "",
       kInvalid, {invalid + "cluster was not specified for context \"ctx\""}},
      {"no server", single("    tls-server-name: x\n", token), {}, "", "", kInvalid,
       {invalid + "no server found for cluster \"c\""}},
      {"certificate-authority with insecure",
       single(server + "    certificate-authority: ca.crt\n    insecure-skip-tls-verify: true\n",
              token),
       {{"ca.crt", kCaPem}}, "", "", kInvalid,
       {invalid + "specifying a root certificates file with the insecure flag is not allowed: "
                  "cluster \"c\" sets both insecure-skip-tls-verify and certificate-authority"}},
      {"certificate-authority-data with insecure",
       single(server + "    certificate-authority-data: " + B64(kCaPem) +
                  "\n    insecure-skip-tls-verify: yes\n",
              token),
       {}, "", "", kInvalid,
       {"sets both insecure-skip-tls-verify and certificate-authority-data"}},
      {"certificate-authority and its data",
       single(server + "    certificate-authority: ca.crt\n    certificate-authority-data: " +
                  B64(kCaPem) + "\n",
              token),
       {{"ca.crt", kCaPem}}, "", "", kInvalid,
       {invalid + "certificate-authority-data and certificate-authority are both specified for "
                  "cluster \"c\""}},
      {"token and username", single(server, "    token: t\n    username: bob\n"), {}, "", "",
       kInvalid,
       {invalid + "more than one authentication method found for user \"u\"; found [token "
                  "basicAuth], only one is allowed"}},
      {"token and password", single(server, "    token: t\n    password: pw\n"), {}, "", "",
       kInvalid, {"found [token basicAuth]"}},
      {"client certificate without key", single(server, "    client-certificate: c.crt\n"),
       {{"c.crt", kCertPem}}, "", "", kInvalid,
       {invalid + "client-key-data or client-key must be specified for user \"u\" to use the "
                  "clientCert authentication method"}},
      {"client certificate file and data",
       single(server, "    client-certificate: c.crt\n    client-certificate-data: " +
                          B64(kCertPem) + "\n    client-key: k.key\n"),
       {{"c.crt", kCertPem}, {"k.key", kKeyPem}}, "", "", kInvalid,
       {invalid + "client-certificate-data and client-certificate are both specified for user "
                  "\"u\""}},
      {"client key file and data",
       single(server, "    client-certificate: c.crt\n    client-key: k.key\n"
                      "    client-key-data: " + B64(kKeyPem) + "\n"),
       {{"c.crt", kCertPem}, {"k.key", kKeyPem}}, "", "", kInvalid,
       {invalid + "client-key-data and client-key are both specified for user \"u\""}},
      {"certificate-authority file missing",
       single(server + "    certificate-authority: missing-ca.crt\n", token), {}, "", "",
       kInvalid,
       {invalid + "unable to read certificate-authority for cluster \"c\": {dir}/missing-ca.crt: "
                  "No such file or directory"}},
      {"client-certificate file missing",
       single(server, "    client-certificate: certs/none.crt\n    client-key: k.key\n"),
       {{"k.key", kKeyPem}}, "", "", kInvalid,
       {invalid + "unable to read client-certificate for user \"u\": {dir}/certs/none.crt: No "
                  "such file or directory"}},
      {"client-key file missing",
       single(server, "    client-certificate: c.crt\n    client-key: /nonexistent/k.key\n"),
       {{"c.crt", kCertPem}}, "", "", kInvalid,
       {invalid + "unable to read client-key for user \"u\": /nonexistent/k.key: No such file or "
                  "directory"}},
      {"tokenFile missing", single(server, "    tokenFile: ../nope/token\n"), {}, "", "",
       kInvalid, {invalid + "unable to read tokenFile for user \"u\": ", "/nope/token: No such file"}},
      {"illegal base64 in certificate-authority-data",
       single(server + "    certificate-authority-data: '%%%not-base64'\n", token), {}, "", "",
       kInvalid,
       {invalid + "illegal base64 data in certificate-authority-data of cluster \"c\""}},
      {"unpadded base64 in client-key-data",
       single(server, "    client-certificate-data: " + B64(kCertPem) +
                          "\n    client-key-data: YWJjZA\n"),
       {}, "", "", kInvalid, {invalid + "illegal base64 data in client-key-data of user \"u\""}},
      {"exec without command",
       single(server, "    exec: {apiVersion: client.authentication.k8s.io/v1, "
                      "interactiveMode: Never}\n"),
       {}, "", "", kInvalid,
       {invalid + "command must be specified for user \"u\" to use exec authentication plugin"}},
      {"exec without apiVersion", single(server, "    exec: {command: p}\n"), {}, "", "", kInvalid,
       {invalid + "apiVersion must be specified for user \"u\" to use exec authentication plugin"}},
      {"exec v1 without interactiveMode",
       single(server, "    exec: {command: p, apiVersion: client.authentication.k8s.io/v1}\n"),
       {}, "", "", kInvalid,
       {invalid + "interactiveMode must be specified for user \"u\" to use exec authentication "
                  "plugin"}},
      {"exec with an unknown interactiveMode",
       single(server, "    exec: {command: p, apiVersion: client.authentication.k8s.io/v1, "
                      "interactiveMode: Sometimes}\n"),
       {}, "", "", kInvalid, {invalid + "invalid interactiveMode for user \"u\": \"Sometimes\""}},
      {"exec with an unsupported apiVersion",
       single(server, "    exec: {command: p, apiVersion: client.authentication.k8s.io/v1alpha1}\n"),
       {}, "", "", kInvalid,
       {invalid + "exec plugin: invalid apiVersion \"client.authentication.k8s.io/v1alpha1\" for "
                  "user \"u\""}},
      {"exec env without a name",
       single(server, "    exec:\n      command: p\n      apiVersion: "
                      "client.authentication.k8s.io/v1beta1\n      env: [{value: x}]\n"),
       {}, "", "", kInvalid,
       {invalid + "env variable name must be specified for user \"u\" to use exec "
                  "authentication plugin"}},
      {"groups without as", single(server, "    token: t\n    as-groups: [g]\n"), {}, "", "",
       kInvalid,
       {invalid + "requesting uid, groups or user-extra for user \"u\" without impersonating a "
                  "user"}},
      {"auth-provider", single(server, "    auth-provider: {name: oidc, config: {}}\n"), {}, "",
       "", kInvalid, {invalid + "auth-provider \"oidc\" of user \"u\" is not supported"}},
      {"proxy-url", single(server + "    proxy-url: http://proxy:3128\n", token), {}, "", "",
       kInvalid, {invalid + "proxy-url of cluster \"c\" is not supported"}},
      {"server with another scheme", single("    server: ftp://1.2.3.4\n", token), {}, "", "",
       kInvalid,
       {invalid + "invalid server URL \"ftp://1.2.3.4\": the scheme must be https or http "
                  "(server of cluster \"c\")"}},
      {"--master without a host", single(server, token), {}, "", "https:///path", kInvalid,
       {invalid + "invalid server URL \"https:///path\": no host"}},
      {"several errors at once",
       single("    certificate-authority: nope.crt\n", "    token: t\n    username: u\n"), {}, "",
       "", kInvalid,
       {invalid, "more than one authentication method found for user \"u\"",
        "; unable to read certificate-authority for cluster \"c\"",
        "; no server found for cluster \"c\""}},
      {"duplicate cluster name", "clusters:\n" + ok_cluster + ok_cluster, {}, "", "", kInvalid,
       {"error loading config file \"{path}\": duplicate name \"c\" in clusters"}},
      {"malformed YAML", "clusters: [\n  - name: c\n  cluster: {server: x\n", {}, "", "", kInvalid,
       {"error loading config file \"{path}\": yaml-cpp: error at line"}},
      {"wrong type for server",
       "clusters:\n- name: c\n  cluster:\n    server: [a, b]\n", {}, "", "", kInvalid,
       {"error loading config file \"{path}\": cluster \"c\": field server: expected a string, "
        "got a list"}},
      {"not a boolean",
       "clusters:\n- name: c\n  cluster:\n    insecure-skip-tls-verify: maybe\n", {}, "", "",
       kInvalid,
       {"error loading config file \"{path}\": cluster \"c\": field insecure-skip-tls-verify: "
        "expected true or false, got \"maybe\""}},
      {"users not a list", "users: {u: {}}\n", {}, "", "", kInvalid,
       {"error loading config file \"{path}\": users: expected a list, got a mapping"}},
      {"top level not a mapping", "- a\n- b\n", {}, "", "", kInvalid,
       {"error loading config file \"{path}\": expected a mapping at the top level, got a list"}},
      {"another kind", "kind: Pod\napiVersion: v1\n", {}, "", "", kInvalid,
       {"error loading config file \"{path}\": kind is \"Pod\", want \"Config\""}},
      {"another apiVersion", "kind: Config\napiVersion: v2\n", {}, "", "", kInvalid,
       {"error loading config file \"{path}\": apiVersion is \"v2\", want \"v1\""}},
      {"empty file without --master", "", {}, "", "", kInvalid,
       {"invalid configuration: no configuration has been provided: kubeconfig {path} has no "
        "current-context"}},
  };

  for (const Case& tc : cases) {
    DYNAMIC_SECTION(tc.name) {
      TempDir dir;
      for (const auto& [name, content] : tc.files) dir.Write(name, content);
      KubeconfigOptions options;
      options.path = dir.Write("kubeconfig", tc.yaml);
      options.context = tc.context;
      options.master = tc.master;
      const absl::StatusOr<RestConfig> config = LoadKubeconfig(options);
      REQUIRE_FALSE(config.ok());
      const std::string message(config.status().message());
      INFO("message: " << message);
      CHECK(config.status().code() == tc.code);
      for (const std::string& want : tc.want) {
        CHECK_THAT(message, Catch::Contains(Expand(want, {{"path", options.path}, {"dir", dir.path()}})));
      }
    }
  }
}

TEST_CASE("kubeconfig: a missing or unreadable file", "[client][kubeconfig]") {
  TempDir dir;
  KubeconfigOptions options;
  options.path = dir.Path("absent");
  absl::StatusOr<RestConfig> config = LoadKubeconfig(options);
  REQUIRE_FALSE(config.ok());
  CHECK(config.status().code() == absl::StatusCode::kNotFound);
  CHECK(std::string(config.status().message()) == "stat " + dir.Path("absent") + ": no such file or directory");

  options.path = dir.path();  // a directory
  config = LoadKubeconfig(options);
  REQUIRE_FALSE(config.ok());
  CHECK(std::string(config.status().message()) ==
        "error loading config file \"" + dir.path() + "\": read " + dir.path() + ": is a directory");

  options.path.clear();
  config = LoadKubeconfig(options);
  REQUIRE_FALSE(config.ok());
  CHECK(config.status().code() == absl::StatusCode::kInvalidArgument);
}

TEST_CASE("kubeconfig: only the selected context is validated", "[client][kubeconfig]") {
  TempDir dir;
  KubeconfigOptions options;
  options.path = dir.Write("kubeconfig", R"(current-context: good
clusters:
- name: good
  cluster: {server: "https://good:6443"}
- name: bad
  cluster: {certificate-authority: /nonexistent/ca.crt, insecure-skip-tls-verify: true}
users:
- name: good
  user: {token: abc}
- name: bad
  user: {token: t, username: u, client-certificate-data: "!!"}
contexts:
- name: good
  context: {cluster: good, user: good}
- name: bad
  context: {cluster: bad, user: bad}
)");
  const absl::StatusOr<RestConfig> good = LoadKubeconfig(options);
  INFO(good.status().ToString());
  REQUIRE(good.ok());
  CHECK(good->server == "https://good:6443");
  CHECK(good->bearer_token == "abc");

  options.context = "bad";
  const absl::StatusOr<RestConfig> bad = LoadKubeconfig(options);
  REQUIRE_FALSE(bad.ok());
  CHECK_THAT(std::string(bad.status().message()),
             Catch::StartsWith("invalid configuration in kubeconfig " + options.path +
                               ", context \"bad\": "));
}
