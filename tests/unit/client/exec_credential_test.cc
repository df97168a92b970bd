// ExecCredentialProvider with small shell-script plugins written to a temp dir
// (plugin/pkg/client/auth/exec: protocol, caching, error messages).
#include "client/exec_credential.h"

#include <cstdio>
#include <cstdlib>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "client/rest_config.h"
#include "temp_dir.h"
#include "test_certificates.h"

namespace {

using ksched::client::Credential;
using ksched::client::ExecClusterInfo;
using ksched::client::ExecConfig;
using ksched::client::ExecCredentialProvider;
using ksched::client::ExecProviderOptions;
using ksched::client::testing::JsonPem;
using ksched::client::testing::SelfSignedPair;
using ksched::client::testing::TempDir;
using ksched::client::testing::TestKeyPair;
using std::chrono::system_clock;

constexpr char kV1[] = "client.authentication.k8s.io/v1";
constexpr char kV1beta1[] = "client.authentication.k8s.io/v1beta1";
// A real certificate and its key, made once.
const TestKeyPair& Pair() {
  static const TestKeyPair pair = SelfSignedPair("exec-credential-test");
  return pair;
}

constexpr char kHelp[] =
    "\n\nIt looks like you are trying to use a client-go credential plugin that is not installed.\n"
    "\n"
    "To learn more about this feature, consult the documentation available at:\n"
    "      https://kubernetes.io/docs/reference/access-authn-authz/authentication/"
    "#client-go-credential-plugins";

// Writes an executable /bin/sh script and returns its path.
std::string Script(const TempDir& dir, const std::string& name, const std::string& body) {
  return dir.Write(name, "#!/bin/sh\n" + body, 0755);
}

ExecConfig Config(const std::string& command, const std::string& api_version = kV1) {
  ExecConfig config;
  config.command = command;
  config.api_version = api_version;
  config.interactive_mode = "Never";
  return config;
}

ExecProviderOptions Quiet() {
  ExecProviderOptions options;
  options.pass_through_stderr = false;
  options.timeout = std::chrono::seconds(20);
  return options;
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string Cred(const std::string& api_version, const std::string& status) {
  return "{\"apiVersion\":\"" + api_version + "\",\"kind\":\"ExecCredential\",\"status\":" + status +
         "}";
}

// A plugin printing `out.json` from its directory verbatim.
struct CatPlugin {
  TempDir dir;
  std::string command = Script(dir, "plugin.sh", "cat \"$(dirname \"$0\")/out.json\"\n");
  void Output(const std::string& json) const { dir.Write("out.json", json); }
};

// A plugin counting its runs in `count` and answering tok-<n> with the given expiration.
struct CountingPlugin {
  TempDir dir;
  std::string command;
  explicit CountingPlugin(const std::string& expiration_json = "null") {
    command = Script(dir, "count.sh",
                     "d=$(dirname \"$0\")\n"
                     "[ -e \"$d/fail\" ] && { echo 'plugin is told to fail' >&2; exit 2; }\n"
                     "n=$(cat \"$d/count\" 2>/dev/null || echo 0)\n"
                     "n=$((n+1))\n"
                     "echo $n > \"$d/count\"\n"
                     "sleep \"$(cat \"$d/delay\" 2>/dev/null || echo 0)\"\n"
                     "printf '{\"apiVersion\":\"" + std::string(kV1) +
                         "\",\"kind\":\"ExecCredential\",\"status\":{\"token\":\"tok-%s\","
                         "\"expirationTimestamp\":" + expiration_json + "}}' \"$n\"\n");
  }
  int Runs() const { return std::atoi(ReadAll(dir.Path("count")).c_str()); }
};

Credential MustGet(ExecCredentialProvider& provider) {
  const absl::StatusOr<Credential> credential = provider.Get();
  INFO(credential.status().ToString());
  REQUIRE(credential.ok());
  return *credential;
}

}  // namespace

TEST_CASE("exec plugin: token, client certificate, expiration", "[client][exec]") {
  const auto t2100 = system_clock::time_point(std::chrono::seconds(4102542245));
  struct Case {
    std::string name;
    std::string api_version;
    std::string status;
    std::string want_token;
    bool want_cert;
    std::optional<system_clock::time_point> want_expiration;
  };
  const std::string cert = JsonPem(Pair().cert_pem);
  const std::string key = JsonPem(Pair().key_pem);
  const std::vector<Case> cases = {
      {"token", kV1, R"({"token":"abc"})", "abc", false, std::nullopt},
      {"client certificate", kV1,
       R"({"clientCertificateData":")" + cert + R"(","clientKeyData":")" + key + "\"}", "",
       true, std::nullopt},
      {"token and certificate", kV1,
       R"({"token":"both","clientCertificateData":")" + cert + R"(","clientKeyData":")" +
           key + "\"}",
       "both", true, std::nullopt},
      {"expiration in UTC", kV1, R"({"token":"e","expirationTimestamp":"2100-01-02T03:04:05Z"})",
       "e", false, t2100},
      {"expiration with an offset and a fraction", kV1,
       R"({"token":"e","expirationTimestamp":"2100-01-02T04:04:05.5+01:00"})", "e", false,
       t2100 + std::chrono::milliseconds(500)},
      {"null expiration", kV1, R"({"token":"n","expirationTimestamp":null})", "n", false,
       std::nullopt},
      {"v1beta1", kV1beta1, R"({"token":"beta"})", "beta", false, std::nullopt},
  };
  for (const Case& tc : cases) {
    DYNAMIC_SECTION(tc.name) {
      CatPlugin plugin;
      plugin.Output(Cred(tc.api_version, tc.status));
      ExecCredentialProvider provider(Config(plugin.command, tc.api_version), {}, Quiet());
      const Credential c = MustGet(provider);
      CHECK(c.token == tc.want_token);
      if (tc.want_cert) {
        CHECK(c.client_cert_pem == Pair().cert_pem);
        CHECK(c.client_key_pem == Pair().key_pem);
      } else {
        CHECK(c.client_cert_pem.empty());
        CHECK(c.client_key_pem.empty());
      }
      CHECK(c.expiration == tc.want_expiration);
      CHECK(c.generation == 1);
    }
  }
}

TEST_CASE("exec plugin: invalid output is rejected with upstream's messages", "[client][exec]") {
  struct Case {
    std::string name;
    std::string stdout_json;
    std::string want;  // after "exec: executable <cmd>: "
  };
  const std::string cert = JsonPem(Pair().cert_pem);
  const std::string key = JsonPem(Pair().key_pem);
  const std::string other_key = JsonPem(SelfSignedPair("someone-else").key_pem);
  const auto pair_status = [](const std::string& c, const std::string& k) {
    return R"({"token":"t","clientCertificateData":")" + c + R"(","clientKeyData":")" + k + "\"}";
  };
  const std::vector<Case> cases = {
      {"garbage certificate", Cred(kV1, pair_status("not a certificate", key)),
       "failed parsing client key/certificate: clientCertificateData: not a PEM certificate: "},
      {"a key as the certificate", Cred(kV1, pair_status(key, key)),
       "failed parsing client key/certificate: clientCertificateData: not a PEM certificate: "},
      {"garbage key", Cred(kV1, pair_status(cert, "-----BEGIN PRIVATE KEY-----\\nAAAA\\n-----END PRIVATE KEY-----\\n")),
       "failed parsing client key/certificate: clientKeyData: not a PEM private key: "},
      {"the key of another certificate", Cred(kV1, pair_status(cert, other_key)),
       "failed parsing client key/certificate: clientCertificateData/clientKeyData: the private key "
       "does not match the certificate: "},
      {"other apiVersion", Cred(kV1beta1, R"({"token":"x"})"),
       "exec plugin is configured to use API version client.authentication.k8s.io/v1, plugin "
       "returned version client.authentication.k8s.io/v1beta1"},
      {"no apiVersion", R"({"kind":"ExecCredential","status":{"token":"x"}})",
       "decoding stdout: apiVersion is missing"},
      {"other kind", R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"Secret"})",
       "decoding stdout: kind is \"Secret\", want \"ExecCredential\""},
      {"no status", R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential"})",
       "exec plugin didn't return a status field"},
      {"null status", Cred(kV1, "null"), "exec plugin didn't return a status field"},
      {"empty status", Cred(kV1, "{}"), "exec plugin didn't return a token or cert/key pair"},
      {"certificate without key", Cred(kV1, R"({"clientCertificateData":"c"})"),
       "exec plugin returned only certificate or key, not both"},
      {"key without certificate", Cred(kV1, R"({"token":"t","clientKeyData":"k"})"),
       "exec plugin returned only certificate or key, not both"},
      {"token not a string", Cred(kV1, R"({"token":42})"), "decoding stdout: token is not a string"},
      {"bad expiration", Cred(kV1, R"({"token":"t","expirationTimestamp":"tomorrow"})"),
       "decoding stdout: expirationTimestamp \"tomorrow\" is not an RFC 3339 time"},
      {"impossible date", Cred(kV1, R"({"token":"t","expirationTimestamp":"2023-02-29T00:00:00Z"})"),
       "decoding stdout: expirationTimestamp \"2023-02-29T00:00:00Z\" is not an RFC 3339 time"},
      {"no time zone", Cred(kV1, R"({"token":"t","expirationTimestamp":"2100-01-01T00:00:00"})"),
       "decoding stdout: expirationTimestamp \"2100-01-01T00:00:00\" is not an RFC 3339 time"},
      {"not JSON", "token=abc", "decoding stdout: Invalid value."},
      {"nothing", "", "decoding stdout: The document is empty."},
      {"two documents", Cred(kV1, R"({"token":"t"})") + " {}",
       "decoding stdout: The document root must not be followed by other values."},
      {"an array", "[]", "decoding stdout: not a JSON object"},
      // Issue #44: nesting that once overflowed the stack; refused at Go's limit.
      {"nested 150,000 levels deep", std::string(150000, '[') + std::string(150000, ']'),
       "decoding stdout: exceeded max depth"},
  };
  for (const Case& tc : cases) {
    DYNAMIC_SECTION(tc.name) {
      CatPlugin plugin;
      plugin.Output(tc.stdout_json);
      ExecCredentialProvider provider(Config(plugin.command), {}, Quiet());
      const absl::StatusOr<Credential> c = provider.Get();
      REQUIRE_FALSE(c.ok());
      CHECK(c.status().code() == absl::StatusCode::kInvalidArgument);
      CHECK_THAT(std::string(c.status().message()),
                 Catch::StartsWith("exec: executable " + plugin.command + ": " + tc.want));
    }
  }
}

TEST_CASE("exec plugin: failures to run name the command, exit code and stderr", "[client][exec]") {
  TempDir dir;
  SECTION("non-zero exit with stderr") {
    const std::string cmd =
        Script(dir, "fail.sh", "echo '' >&2\necho '  boom: token expired  ' >&2\necho second >&2\nexit 3\n");
    ExecCredentialProvider provider(Config(cmd), {}, Quiet());
    const absl::StatusOr<Credential> c = provider.Get();
    REQUIRE_FALSE(c.ok());
    CHECK(c.status().code() == absl::StatusCode::kUnavailable);
    CHECK(std::string(c.status().message()) ==
          "exec: executable " + cmd + " failed with exit code 3: boom: token expired");
  }
  SECTION("non-zero exit, silent") {
    const std::string cmd = Script(dir, "silent.sh", "exit 1\n");
    ExecCredentialProvider provider(Config(cmd), {}, Quiet());
    const absl::StatusOr<Credential> c = provider.Get();
    REQUIRE_FALSE(c.ok());
    CHECK(std::string(c.status().message()) == "exec: executable " + cmd + " failed with exit code 1");
  }
  SECTION("killed by a signal") {
    const std::string cmd = Script(dir, "killed.sh", "echo dying >&2\nkill -9 $$\n");
    ExecCredentialProvider provider(Config(cmd), {}, Quiet());
    const absl::StatusOr<Credential> c = provider.Get();
    REQUIRE_FALSE(c.ok());
    CHECK(std::string(c.status().message()) ==
          "exec: executable " + cmd + " was killed by signal 9: dying");
  }
  SECTION("not found in $PATH: upstream's help and the install hint") {
    ExecConfig config = Config("ksched-no-such-credential-plugin");
    config.install_hint = "Install it with: apt-get install ksched-plugin";
    ExecCredentialProvider provider(config, {}, Quiet());
    const absl::StatusOr<Credential> c = provider.Get();
    REQUIRE_FALSE(c.ok());
    CHECK(c.status().code() == absl::StatusCode::kNotFound);
    CHECK(std::string(c.status().message()) ==
          std::string("exec: executable ksched-no-such-credential-plugin not found") + kHelp +
              "\n\nInstall it with: apt-get install ksched-plugin");
  }
  SECTION("not found by path, no install hint") {
    ExecCredentialProvider provider(Config(dir.Path("bin/absent")), {}, Quiet());
    const absl::StatusOr<Credential> c = provider.Get();
    REQUIRE_FALSE(c.ok());
    CHECK(c.status().code() == absl::StatusCode::kNotFound);
    CHECK(std::string(c.status().message()) ==
          "exec: executable " + dir.Path("bin/absent") + " not found" + kHelp);
  }
  SECTION("not executable") {
    const std::string cmd = dir.Write("noexec.sh", "#!/bin/sh\necho hi\n", 0644);
    ExecCredentialProvider provider(Config(cmd), {}, Quiet());
    const absl::StatusOr<Credential> c = provider.Get();
    REQUIRE_FALSE(c.ok());
    CHECK(c.status().code() == absl::StatusCode::kPermissionDenied);
    CHECK(std::string(c.status().message()) == "exec: " + cmd + ": Permission denied");
  }
  SECTION("timeout kills the plugin and what it started") {
    const std::string cmd = Script(dir, "slow.sh", "sleep 30\n");
    ExecProviderOptions options = Quiet();
    options.timeout = std::chrono::milliseconds(300);
    ExecCredentialProvider provider(Config(cmd), {}, options);
    const auto start = std::chrono::steady_clock::now();
    const absl::StatusOr<Credential> c = provider.Get();
    const auto elapsed = std::chrono::steady_clock::now() - start;
    REQUIRE_FALSE(c.ok());
    CHECK(c.status().code() == absl::StatusCode::kDeadlineExceeded);
    CHECK(std::string(c.status().message()) ==
          "exec: executable " + cmd + ": did not finish within 300ms and was killed");
    CHECK(elapsed < std::chrono::seconds(10));
  }
  SECTION("interactiveMode Always cannot be honoured") {
    ExecConfig config = Config(Script(dir, "ok.sh", "echo '{}'\n"));
    config.interactive_mode = "Always";
    ExecCredentialProvider provider(config, {}, Quiet());
    const absl::StatusOr<Credential> c = provider.Get();
    REQUIRE_FALSE(c.ok());
    CHECK(c.status().code() == absl::StatusCode::kFailedPrecondition);
    CHECK_THAT(std::string(c.status().message()),
               Catch::StartsWith("exec plugin cannot support interactive mode: "));
  }
  SECTION("an apiVersion this client does not speak") {
    ExecCredentialProvider provider(Config(Script(dir, "ok.sh", "echo '{}'\n"),
                                           "client.authentication.k8s.io/v1alpha1"),
                                    {}, Quiet());
    const absl::StatusOr<Credential> c = provider.Get();
    REQUIRE_FALSE(c.ok());
    CHECK(std::string(c.status().message()) ==
          "exec plugin: invalid apiVersion \"client.authentication.k8s.io/v1alpha1\"");
  }
}

TEST_CASE("exec plugin: KUBERNETES_EXEC_INFO, args, env and stdin", "[client][exec]") {
  TempDir dir;
  const std::string info_path = dir.Path("info.json");
  const std::string cmd = Script(
      dir, "info.sh",
      "printf '%s' \"$KUBERNETES_EXEC_INFO\" > \"" + info_path + "\"\n"
      "if read -r line; then input=stdin-had-data; else input=stdin-empty; fi\n"
      "printf '{\"apiVersion\":\"%s\",\"kind\":\"ExecCredential\",\"status\":{\"token\":\"%s|%s|%s|%s|%s|%s\"}}' "
      "\"$API\" \"$1\" \"$2\" \"$KSCHED_X\" \"$KSCHED_TEST_PARENT\" \"$#\" \"$input\"\n");
  const std::string ca = "-----BEGIN CERTIFICATE-----\nCA\n-----END CERTIFICATE-----\n";
  struct Case {
    std::string name;
    std::string api_version;
    bool provide_cluster_info;
    ExecClusterInfo cluster;
    std::string want_info;
  };
  const std::vector<Case> cases = {
      {"without cluster info", kV1, false, {"https://10.0.0.1:6443", "api.internal", false, ca},
       R"({"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1","spec":{"interactive":false}})"},
      {"with cluster info", kV1, true, {"https://10.0.0.1:6443", "api.internal", false, ca},
       R"({"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1","spec":{"cluster":{"server":"https://10.0.0.1:6443","tls-server-name":"api.internal","certificate-authority-data":")" +
           absl::Base64Escape(ca) + R"("},"interactive":false}})"},
      {"insecure cluster, v1beta1", kV1beta1, true, {"https://[::1]:6443", "", true, ""},
       R"({"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1beta1","spec":{"cluster":{"server":"https://[::1]:6443","insecure-skip-tls-verify":true},"interactive":false}})"},
  };
  REQUIRE(::setenv("KSCHED_TEST_PARENT", "inherited", 1) == 0);
  REQUIRE(::setenv("KSCHED_X", "from-parent", 1) == 0);
  for (const Case& tc : cases) {
    DYNAMIC_SECTION(tc.name) {
      ExecConfig config = Config(cmd, tc.api_version);
      config.provide_cluster_info = tc.provide_cluster_info;
      config.args = {"get token", "--flag=1"};
      config.env = {{"KSCHED_X", "one"}, {"API", tc.api_version}, {"KSCHED_X", "two"}};
      ExecCredentialProvider provider(config, tc.cluster, Quiet());
      const Credential c = MustGet(provider);
      CHECK(c.token == "get token|--flag=1|two|inherited|2|stdin-empty");
      CHECK(ReadAll(info_path) == tc.want_info);
    }
  }
  ::unsetenv("KSCHED_TEST_PARENT");
  ::unsetenv("KSCHED_X");
}

TEST_CASE("exec plugin: ExecClusterInfo from a RestConfig", "[client][exec]") {
  ksched::client::RestConfig rest;
  rest.server = "https://h:1";
  rest.tls.server_name = "sni";
  rest.tls.insecure_skip_verify = true;
  rest.tls.ca_pem = "pem";
  const ExecClusterInfo info = ksched::client::ExecClusterInfoFromRestConfig(rest);
  CHECK(info.server == "https://h:1");
  CHECK(info.tls_server_name == "sni");
  CHECK(info.insecure_skip_tls_verify);
  CHECK(info.ca_pem == "pem");
}

TEST_CASE("exec plugin: the credential is cached until it expires or is invalidated",
          "[client][exec]") {
  SECTION("no expiration: one run") {
    CountingPlugin plugin;
    ExecCredentialProvider provider(Config(plugin.command), {}, Quiet());
    CHECK(MustGet(provider).token == "tok-1");
    const Credential again = MustGet(provider);
    CHECK(again.token == "tok-1");
    CHECK(again.generation == 1);
    CHECK(plugin.Runs() == 1);
  }
  SECTION("already expired: every Get runs the plugin again") {
    CountingPlugin plugin("\"2001-01-01T00:00:00Z\"");
    ExecCredentialProvider provider(Config(plugin.command), {}, Quiet());
    const Credential first = MustGet(provider);
    const Credential second = MustGet(provider);
    CHECK(first.token == "tok-1");
    CHECK(second.token == "tok-2");
    CHECK(second.generation == 2);
    CHECK(plugin.Runs() == 2);
  }
  SECTION("expiry follows the clock") {
    CountingPlugin plugin("\"2100-01-01T00:00:00Z\"");
    const auto expiry = system_clock::time_point(std::chrono::seconds(4102444800));
    auto now = std::make_shared<system_clock::time_point>(expiry - std::chrono::seconds(1));
    ExecProviderOptions options = Quiet();
    options.now = [now] { return *now; };
    ExecCredentialProvider provider(Config(plugin.command), {}, options);
    CHECK(MustGet(provider).token == "tok-1");
    CHECK(MustGet(provider).expiration == expiry);
    *now = expiry;  // not yet after the expiration
    CHECK(MustGet(provider).token == "tok-1");
    *now = expiry + std::chrono::seconds(1);
    CHECK(MustGet(provider).token == "tok-2");
    CHECK(plugin.Runs() == 2);
  }
  SECTION("Invalidate after a 401") {
    CountingPlugin plugin;
    ExecCredentialProvider provider(Config(plugin.command), {}, Quiet());
    const Credential first = MustGet(provider);
    provider.Invalidate(first.generation);
    const Credential second = MustGet(provider);
    CHECK(second.token == "tok-2");
    provider.Invalidate(first.generation);  // a late 401 on the old credential: no new run
    CHECK(MustGet(provider).token == "tok-2");
    provider.Invalidate();
    CHECK(MustGet(provider).token == "tok-3");
    CHECK(plugin.Runs() == 3);
  }
  SECTION("a failed run is not cached") {
    CountingPlugin plugin;
    plugin.dir.Write("fail", "");
    ExecCredentialProvider provider(Config(plugin.command), {}, Quiet());
    const absl::StatusOr<Credential> failed = provider.Get();
    REQUIRE_FALSE(failed.ok());
    CHECK(std::string(failed.status().message()) ==
          "exec: executable " + plugin.command + " failed with exit code 2: plugin is told to fail");
    REQUIRE(std::remove(plugin.dir.Path("fail").c_str()) == 0);
    CHECK(MustGet(provider).token == "tok-1");
  }
  SECTION("concurrent callers share one run") {
    CountingPlugin plugin;
    plugin.dir.Write("delay", "0.3");
    ExecCredentialProvider provider(Config(plugin.command), {}, Quiet());
    std::vector<std::thread> threads;
    std::atomic<int> good{0};
    for (int i = 0; i < 4; ++i) {
      threads.emplace_back([&] {
        const absl::StatusOr<Credential> c = provider.Get();
        if (c.ok() && c->token == "tok-1") ++good;
      });
    }
    for (std::thread& t : threads) t.join();
    CHECK(good == 4);
    CHECK(plugin.Runs() == 1);
  }
}

namespace {

using ksched::client::ExecPluginCallStatus;

// Records what the provider tells its observer.
struct RecordingExecObserver final : ksched::client::ExecPluginObserver {
  std::vector<std::pair<ExecPluginCallStatus, int>> calls;
  std::vector<std::pair<const void*, std::optional<system_clock::time_point>>> expiries;
  std::vector<system_clock::duration> rotations;
  void OnCall(ExecPluginCallStatus status, int code) override { calls.emplace_back(status, code); }
  void OnCertificateExpiry(const void* provider, std::optional<system_clock::time_point> not_after) override {
    expiries.emplace_back(provider, not_after);
  }
  void OnCertificateRotated(system_clock::duration age) override { rotations.push_back(age); }
};

}  // namespace

TEST_CASE("exec plugin: each run is told to the observer as client-go's incrementCallsMetric classifies it",
          "[client][exec]") {
  TempDir dir;
  struct Case {
    const char* name;
    std::string command;
    ExecPluginCallStatus status;
    int code;
  };
  const std::vector<Case> cases = {
      {"exit 0, even with output that is refused", Script(dir, "garbage.sh", "echo not-json\n"),
       ExecPluginCallStatus::kNoError, 0},
      {"exit 3", Script(dir, "three.sh", "exit 3\n"), ExecPluginCallStatus::kPluginExecutionError, 3},
      {"killed by a signal: os/exec's exit code -1", Script(dir, "killed.sh", "kill -9 $$\n"),
       ExecPluginCallStatus::kPluginExecutionError, -1},
      {"not found", dir.Path("bin/absent"), ExecPluginCallStatus::kPluginNotFoundError, 1},
      {"not executable: Go's fs.PathError", dir.Write("noexec.sh", "#!/bin/sh\necho hi\n", 0644),
       ExecPluginCallStatus::kPluginNotFoundError, 1},
  };
  for (const Case& c : cases) {
    SECTION(c.name) {
      auto observer = std::make_shared<RecordingExecObserver>();
      ExecProviderOptions options = Quiet();
      options.observer = observer;
      ExecCredentialProvider provider(Config(c.command), {}, options);
      CHECK_FALSE(provider.Get().ok());
      REQUIRE(observer->calls.size() == 1);
      CHECK(observer->calls[0].first == c.status);
      CHECK(observer->calls[0].second == c.code);
      CHECK(observer->expiries.empty());  // only a successful refresh sets the expiry
    }
  }
  SECTION("a configuration refused before running counts no call") {
    auto observer = std::make_shared<RecordingExecObserver>();
    ExecProviderOptions options = Quiet();
    options.observer = observer;
    ExecCredentialProvider provider(Config(Script(dir, "ok.sh", "echo '{}'\n"), "client.authentication.k8s.io/v1alpha1"),
                                    {}, options);
    CHECK_FALSE(provider.Get().ok());
    CHECK(observer->calls.empty());
  }
  CHECK(ksched::client::ExecPluginCallStatusLabel(ExecPluginCallStatus::kClientInternalError) == "client_internal_error");
}

TEST_CASE("exec plugin: the certificate's expiry and rotation are told to the observer", "[client][exec]") {
  const auto made = system_clock::now();
  const TestKeyPair first = SelfSignedPair("rotation-first");
  const TestKeyPair second = SelfSignedPair("rotation-second");
  CatPlugin plugin;
  auto observer = std::make_shared<RecordingExecObserver>();
  ExecProviderOptions options = Quiet();
  options.observer = observer;
  const system_clock::time_point later = made + std::chrono::hours(5);
  options.now = [later] { return later; };
  ExecCredentialProvider provider(Config(plugin.command), {}, options);
  auto pair_status = [](const TestKeyPair& pair) {
    return Cred(kV1, R"({"clientCertificateData":")" + JsonPem(pair.cert_pem) + R"(","clientKeyData":")" +
                         JsonPem(pair.key_pem) + "\"}");
  };
  // The certificates are valid from 60 s before they were made for a day (test_certificates.h).
  auto near = [](system_clock::duration actual, system_clock::duration expected) {
    return std::chrono::abs(actual - expected) <= std::chrono::seconds(5);
  };

  plugin.Output(pair_status(first));
  const Credential got = MustGet(provider);
  REQUIRE(got.certificate_not_after.has_value());
  REQUIRE(got.certificate_not_before.has_value());
  CHECK(near(*got.certificate_not_after - made, std::chrono::hours(24)));
  CHECK(near(made - *got.certificate_not_before, std::chrono::seconds(60)));
  REQUIRE(observer->expiries.size() == 1);
  CHECK(observer->expiries[0].first == &provider);
  CHECK(observer->expiries[0].second == got.certificate_not_after);
  CHECK(observer->rotations.empty());

  // The same certificate again after a 401: no rotation.
  provider.Invalidate();
  MustGet(provider);
  CHECK(observer->rotations.empty());
  CHECK(observer->expiries.size() == 2);

  // Another certificate: the first had lived from its NotBefore to now (the injected clock).
  plugin.Output(pair_status(second));
  provider.Invalidate();
  MustGet(provider);
  REQUIRE(observer->rotations.size() == 1);
  CHECK(near(observer->rotations[0], std::chrono::hours(5) + std::chrono::seconds(60)));

  // A token alone: the provider no longer holds a certificate.
  plugin.Output(Cred(kV1, R"({"token":"t"})"));
  provider.Invalidate();
  MustGet(provider);
  CHECK(observer->rotations.size() == 2);  // a certificate replaced by none is a rotation too
  REQUIRE(observer->expiries.size() == 4);
  CHECK_FALSE(observer->expiries[3].second.has_value());
  CHECK(observer->calls.size() == 4);
}

TEST_CASE("exec credential: expirations outside the clock's range saturate (fuzz finding)", "[client][exec]") {
  const auto decode = [](const std::string& when) {
    std::string json = R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential",)";
    json.append(R"("status":{"token":"t","expirationTimestamp":")").append(when).append("\"}}");
    return ksched::client::DecodeExecCredential(json, "client.authentication.k8s.io/v1");
  };
  // Year 1015 is valid RFC 3339 for Go but ~30e9 s before 1970: nanoseconds overflowed (UBSan).
  auto past = decode("1015-01-01T00:00:00Z");
  REQUIRE(past.ok());
  CHECK(past->expiration == std::chrono::system_clock::time_point::min());
  auto future = decode("9999-12-31T23:59:59+01:00");
  REQUIRE(future.ok());
  CHECK(future->expiration == std::chrono::system_clock::time_point::max());
  auto ordinary = decode("2030-01-01T00:00:00.5Z");
  REQUIRE(ordinary.ok());
  CHECK(ordinary->expiration == std::chrono::system_clock::time_point(std::chrono::seconds(1893456000)) +
                                    std::chrono::milliseconds(500));
}
