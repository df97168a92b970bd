// The kube-scheduler command line: pflag's syntax and messages, the leader-election and
// deprecated flag rules over --config (upstream Options.ApplyTo).
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "scheduler/command_flags.h"
#include "scheduler/component_config.h"

namespace ksched::scheduler {
namespace {

absl::StatusOr<CommandFlags> Parse(std::vector<std::string> args) {
  args.insert(args.begin(), "kube-scheduler");
  std::vector<const char*> argv;
  for (const std::string& arg : args) argv.push_back(arg.c_str());
  return ParseCommandFlags(static_cast<int>(argv.size()), argv.data());
}

std::string TempFile(const std::string& name, const std::string& content) {
  std::string path = "/tmp/ksched-command-flags-test-" + name;
  std::ofstream(path) << content;
  return path;
}

TEST_CASE("defaults are kube-scheduler's") {
  absl::StatusOr<CommandFlags> flags = Parse({});
  REQUIRE(flags.ok());
  CHECK(flags->serving.bind_address == "0.0.0.0");
  CHECK(flags->serving.secure_port == 10259);
  CHECK(flags->leader_election.leader_elect);
  CHECK(flags->leader_election.lease_duration == std::chrono::seconds(15));
  CHECK(flags->authorization.always_allow_paths == std::vector<std::string>{"/healthz", "/readyz", "/livez"});
  CHECK(flags->authentication.tolerate_lookup_failure);
  CHECK(flags->logging.format == "text");
  CHECK(flags->changed.empty());
  CHECK(flags->warnings.empty());
}

TEST_CASE("pflag syntax: =value, separate value, shorthand, booleans, lists, last one wins") {
  absl::StatusOr<CommandFlags> flags =
      Parse({"--kubeconfig=/k", "--master", "https://127.0.0.1:6443", "-v=3", "--leader-elect=false",
             "--secure-port", "1234", "--secure-port=4321", "--authorization-always-allow-paths=/a,/b",
             "--authorization-always-allow-paths", "/c", "--leader-elect-lease-duration=1m30s",
             "--kube-api-qps=12.5", "--permit-port-sharing"});
  REQUIRE(flags.ok());
  CHECK(flags->deprecated.kubeconfig == "/k");
  CHECK(flags->master == "https://127.0.0.1:6443");
  CHECK(flags->logging.verbosity == 3);
  CHECK_FALSE(flags->leader_election.leader_elect);
  CHECK(flags->serving.secure_port == 4321);
  CHECK(flags->authorization.always_allow_paths == std::vector<std::string>{"/a", "/b", "/c"});
  CHECK(flags->leader_election.lease_duration == std::chrono::seconds(90));
  CHECK(flags->deprecated.kube_api_qps == 12.5F);
  CHECK(flags->serving.permit_port_sharing);
  CHECK(flags->Changed("leader-elect"));
  CHECK(flags->Changed("v"));
  CHECK_FALSE(flags->Changed("leader-elect-renew-deadline"));

  absl::StatusOr<CommandFlags> separate = Parse({"-v", "5"});
  REQUIRE(separate.ok());
  CHECK(separate->logging.verbosity == 5);
  absl::StatusOr<CommandFlags> long_v = Parse({"--v=2"});
  REQUIRE(long_v.ok());
  CHECK(long_v->logging.verbosity == 2);
}

TEST_CASE("bad flags read as pflag's errors") {
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{"--foo"}, "unknown flag: --foo"},
      {{"--foo=bar"}, "unknown flag: --foo"},
      {{"extra"}, "\"kube-scheduler\" does not take any arguments, got [\"extra\"]"},
      {{"--leader-elect", "maybe"}, "\"kube-scheduler\" does not take any arguments, got [\"maybe\"]"},
      {{"--leader-elect-lease-duration=abc"},
       "invalid argument \"abc\" for \"--leader-elect-lease-duration\" flag: time: invalid duration \"abc\""},
      {{"--secure-port=x"},
       "invalid argument \"x\" for \"--secure-port\" flag: strconv.ParseInt: parsing \"x\": invalid syntax"},
      {{"-v=x"}, "invalid argument \"x\" for \"-v, --v\" flag: strconv.ParseUint: parsing \"x\": invalid syntax"},
      {{"--leader-elect=maybe"},
       "invalid argument \"maybe\" for \"--leader-elect\" flag: strconv.ParseBool: parsing \"maybe\": invalid syntax"},
      {{"--bind-address=foo"}, "invalid argument \"foo\" for \"--bind-address\" flag: failed to parse IP: \"foo\""},
      {{"-v=0o7"}, "invalid argument \"0o7\" for \"-v, --v\" flag: strconv.ParseUint: parsing \"0o7\": invalid syntax"},
      {{"-v=2147483648"},
       "invalid argument \"2147483648\" for \"-v, --v\" flag: strconv.ParseUint: parsing \"2147483648\": value out "
       "of range"},
      {{"--secure-port=99999999999999999999x"},
       "invalid argument \"99999999999999999999x\" for \"--secure-port\" flag: strconv.ParseInt: parsing "
       "\"99999999999999999999x\": value out of range"},
      {{"--kube-api-burst=1__0"},
       "invalid argument \"1__0\" for \"--kube-api-burst\" flag: strconv.ParseInt: parsing \"1__0\": invalid syntax"},
      {{"--kube-api-qps=1e39"},
       "invalid argument \"1e39\" for \"--kube-api-qps\" flag: strconv.ParseFloat: parsing \"1e39\": value out of "
       "range"},
      {{"--kube-api-burst=99999999999"},
       "invalid argument \"99999999999\" for \"--kube-api-burst\" flag: strconv.ParseInt: parsing "
       "\"99999999999\": value out of range"},
  };
  for (const Case& c : cases) {
    INFO(c.args.front());
    absl::StatusOr<CommandFlags> flags = Parse(c.args);
    REQUIRE_FALSE(flags.ok());
    CHECK(std::string(flags.status().message()) == c.message);
  }
}

TEST_CASE("numbers read as pflag reads them: Go literals for ints, ParseFloat for float32") {
  // pflag's int and int32 flags call strconv.ParseInt(s, 0, bits): prefixes and '_' separators.
  absl::StatusOr<CommandFlags> flags =
      Parse({"--kube-api-burst=0x10", "--secure-port=0o17", "--kube-api-qps=1_000.5", "-v=2147483647"});
  REQUIRE(flags.ok());
  CHECK(flags->deprecated.kube_api_burst == 16);
  CHECK(flags->serving.secure_port == 15);
  CHECK(flags->deprecated.kube_api_qps == 1000.5f);
  CHECK(flags->logging.verbosity == 2147483647);  // -v: ParseUint(s, 10, 31)
}

TEST_CASE("metrics flags: --disabled-metrics accumulates, --show-hidden-metrics-for-version is kept") {
  absl::StatusOr<CommandFlags> flags = Parse({"--disabled-metrics=scheduler_pending_pods,scheduler_cache_size",
                                              "--disabled-metrics", "rest_client_requests_total",
                                              "--show-hidden-metrics-for-version=1.33"});
  REQUIRE(flags.ok());
  CHECK(flags->metrics.disabled_metrics ==
        std::vector<std::string>{"scheduler_pending_pods", "scheduler_cache_size", "rest_client_requests_total"});
  CHECK(flags->metrics.show_hidden_metrics_for_version == "1.33");
  CHECK(flags->warnings.empty());
}

TEST_CASE("feature gate flags: the emulated and minimum compatibility versions accumulate as string lists") {
  absl::StatusOr<CommandFlags> flags =
      Parse({"--emulated-version=kube=1.36", "--emulated-version", "wardle=1.2", "--min-compatibility-version=1.35",
             "--feature-gates=A=true", "--feature-gates", "kube:B=false,C=true"});
  REQUIRE(flags.ok());
  CHECK(flags->emulated_version == std::vector<std::string>{"kube=1.36", "wardle=1.2"});
  CHECK(flags->min_compatibility_version == std::vector<std::string>{"1.35"});
  CHECK(flags->feature_gates == std::vector<std::string>{"A=true", "kube:B=false", "C=true"});
  CHECK(flags->warnings.empty());
}

TEST_CASE("tls-curve-preferences flag: pflag's int32Slice") {
  absl::StatusOr<CommandFlags> flags = Parse({"--tls-curve-preferences=23,0x1d", "--tls-curve-preferences", "4588"});
  REQUIRE(flags.ok());
  CHECK(flags->serving.tls_curve_preferences == std::vector<std::int32_t>{23, 29, 4588});
  CHECK(flags->warnings.empty());
  absl::StatusOr<CommandFlags> bad = Parse({"--tls-curve-preferences=23,X25519"});
  REQUIRE_FALSE(bad.ok());
  CHECK(std::string(bad.status().message()) ==
        "invalid argument \"23,X25519\" for \"--tls-curve-preferences\" flag: strconv.ParseInt: parsing "
        "\"X25519\": invalid syntax");
  absl::StatusOr<CommandFlags> empty_item = Parse({"--tls-curve-preferences=23,"});
  REQUIRE_FALSE(empty_item.ok());
  CHECK(std::string(empty_item.status().message()) ==
        "invalid argument \"23,\" for \"--tls-curve-preferences\" flag: strconv.ParseInt: parsing \"\": invalid "
        "syntax");
  absl::StatusOr<CommandFlags> big = Parse({"--tls-curve-preferences=4294967296"});
  REQUIRE_FALSE(big.ok());
  CHECK(std::string(big.status().message()).ends_with("value out of range"));
}

TEST_CASE("help flag: upstream's sections, in upstream's order, flags sorted within each") {
  absl::StatusOr<CommandFlags> help = Parse({"--help"});
  REQUIRE(help.ok());
  CHECK(help->help);
  const std::string& text = help->help_text;
  CHECK(text.starts_with("The Kubernetes scheduler is a control plane process which assigns\n"));
  CHECK(text.find("\n\nUsage:\n  kube-scheduler [flags]\n\nMisc flags:\n\n      --config string") !=
        std::string::npos);
  std::size_t at = 0;
  for (const char* section : {"Misc flags:", "Secure serving flags:", "Authentication flags:", "Authorization flags:",
                              "Deprecated flags:", "Leader election flags:", "Feature gate flags:", "Metrics flags:",
                              "Logs flags:", "Global flags:"}) {
    INFO(section);
    const std::size_t found = text.find(std::string("\n") + section + "\n\n", at);
    REQUIRE(found != std::string::npos);
    at = found + 1;
  }
  CHECK(text.find("      --tls-curve-preferences int32Slice") != std::string::npos);
  CHECK(text.find("      --emulated-version strings") != std::string::npos);
  CHECK(text.find("      --min-compatibility-version strings") != std::string::npos);
  CHECK(text.find("Options are: kube=1.34..1.37(default:1.37)\n") != std::string::npos);
  CHECK(text.find("\n  -v, --v Level ") != std::string::npos);
  CHECK(text.find("\n  -h, --help ") != std::string::npos);
  CHECK(text.find("kube:AllAlpha=true|false (ALPHA - default=false)\n") != std::string::npos);
  CHECK(text.find("kube:StorageCapacityScoring=true|false (BETA - default=true)\n") != std::string::npos);
  CHECK(text.find("kube:DRAFractionalCapacityRange=true|false (BETA - default=false), or "
                  "kube:DRAFractionalCapacityRange=true|false (BETA - default=true) if "
                  "--min-compatibility-version>=1.37") == std::string::npos);  // one prefix per line
  CHECK(text.find("kube:DRAFractionalCapacityRange=true|false (BETA - default=false), or "
                  "DRAFractionalCapacityRange=true|false (BETA - default=true) if --min-compatibility-version>=1.37\n") !=
        std::string::npos);
  // Within a section the usage column is aligned after the longest flag.
  const std::size_t misc = text.find("Misc flags:\n\n");
  CHECK(text.substr(misc, 200).find("      --config string            The path to the configuration file.\n") !=
        std::string::npos);
  absl::StatusOr<CommandFlags> version = Parse({"--version"});
  REQUIRE(version.ok());
  CHECK(version->version == "true");
  absl::StatusOr<CommandFlags> raw = Parse({"--version=raw"});
  REQUIRE(raw.ok());
  CHECK(raw->version == "raw");
  absl::StatusOr<CommandFlags> off = Parse({"--version=false"});
  REQUIRE(off.ok());
  CHECK(off->version.empty());
}

TEST_CASE("flags without effect here are accepted with a warning") {
  absl::StatusOr<CommandFlags> flags = Parse({"--tls-sni-cert-key=a.crt,a.key", "--allow-metric-labels=x"});
  REQUIRE(flags.ok());
  REQUIRE(flags->warnings.size() == 2);
  CHECK(flags->warnings[0].find("--tls-sni-cert-key is accepted but has no effect") == 0);
}

TEST_CASE("without --config: deprecated and leader-election flags apply over the defaults") {
  absl::StatusOr<CommandFlags> flags =
      Parse({"--kubeconfig=/k", "--kube-api-qps=7", "--kube-api-burst=9", "--leader-elect=false",
             "--leader-elect-resource-name=mine"});
  REQUIRE(flags.ok());
  REQUIRE(flags->warnings.size() == 3);
  CHECK(flags->warnings[0] ==
        "Flag --kubeconfig has been deprecated, set clientConnection.kubeconfig in the file given "
        "to --config instead");
  absl::StatusOr<config::KubeSchedulerConfiguration> cfg = ResolveComponentConfig(*flags, config::kDefaultConfigFeatureGates, nullptr);
  REQUIRE(cfg.ok());
  CHECK(cfg->client_connection.kubeconfig == "/k");
  CHECK(cfg->client_connection.qps == 7.0F);
  CHECK(cfg->client_connection.burst == 9);
  CHECK_FALSE(cfg->leader_election.leader_elect);
  CHECK(cfg->leader_election.resource_name == "mine");
  CHECK(cfg->leader_election.resource_namespace == "kube-system");
  CHECK(cfg->profiles.size() == 1);
  CHECK(cfg->parallelism == 16);
}

TEST_CASE("with --config: leader-election flags given override the file, deprecated flags are ignored") {
  const std::string path = TempFile("le.yaml",
                                    "apiVersion: kubescheduler.config.k8s.io/v1\n"
                                    "kind: KubeSchedulerConfiguration\n"
                                    "clientConnection:\n  kubeconfig: /from-file\n"
                                    "leaderElection:\n  leaderElect: true\n  resourceName: from-file\n"
                                    "  leaseDuration: 30s\n");
  absl::StatusOr<CommandFlags> flags =
      Parse({"--config=" + path, "--kubeconfig=/from-flag", "--leader-elect-lease-duration=20s"});
  REQUIRE(flags.ok());
  REQUIRE(flags->warnings.size() == 1);
  CHECK(flags->warnings[0].find("--kubeconfig is ignored because --config is given") == 0);
  absl::StatusOr<config::KubeSchedulerConfiguration> cfg = ResolveComponentConfig(*flags, config::kDefaultConfigFeatureGates, nullptr);
  REQUIRE(cfg.ok());
  CHECK(cfg->client_connection.kubeconfig == "/from-file");
  CHECK(cfg->leader_election.resource_name == "from-file");
  CHECK(cfg->leader_election.lease_duration == std::chrono::seconds(20));
  std::remove(path.c_str());
}

TEST_CASE("leader-election flags are validated with the file") {
  const std::string path = TempFile("le-bad.yaml",
                                    "apiVersion: kubescheduler.config.k8s.io/v1\n"
                                    "kind: KubeSchedulerConfiguration\n");
  absl::StatusOr<CommandFlags> flags = Parse({"--config=" + path, "--leader-elect-renew-deadline=20s"});
  REQUIRE(flags.ok());
  absl::StatusOr<config::KubeSchedulerConfiguration> cfg = ResolveComponentConfig(*flags, config::kDefaultConfigFeatureGates, nullptr);
  REQUIRE_FALSE(cfg.ok());
  CHECK(std::string(cfg.status().message()).find("leaderElection.leaseDuration") != std::string::npos);
  std::remove(path.c_str());

  absl::StatusOr<CommandFlags> missing = Parse({"--config=/nonexistent/ksched.yaml"});
  REQUIRE(missing.ok());
  absl::StatusOr<config::KubeSchedulerConfiguration> none = ResolveComponentConfig(*missing, config::kDefaultConfigFeatureGates, nullptr);
  REQUIRE_FALSE(none.ok());
  CHECK(std::string(none.status().message()) ==
        "open /nonexistent/ksched.yaml: no such file or directory");
}

}  // namespace
}  // namespace ksched::scheduler
