// The kube-scheduler command line (v1.37.2), parsed with CLI11 into CommandFlags.
//
// Every flag upstream's kube-scheduler accepts is accepted here under the same name, type and
// default (`kube-scheduler --help` of v1.37.2 is the reference), including the deprecated group
// (--kubeconfig, --kube-api-qps, ...). Flags whose behaviour this scheduler does not implement
// (HTTP/2 tuning, SNI certificates, request-header authentication, metric allow-lists, split log
// streams) are accepted and recorded as warnings, so that an existing manifest starts; none of
// them changes a scheduling decision. --feature-gates, --emulated-version and
// --min-compatibility-version are kept as given and read by scheduler/feature_gates.h;
// --tls-curve-preferences is converted as pflag's int32Slice and checked when serving starts. The deprecated flags work (without --config, as upstream)
// and each one given adds a warning naming the configuration field that replaces it.
//
// Syntax as spf13/pflag: `--name=value`, `--name value`, `-v=2`, `-v 2`, `--v=2`; booleans take
// `--name` or `--name=false` only; list flags take comma-separated values and accumulate when
// repeated; the last of a repeated scalar flag wins. Errors carry pflag's text:
//   unknown flag: --foo
//   invalid argument "abc" for "--leader-elect-lease-duration" flag: time: invalid duration "abc"
//   "kube-scheduler" does not take any arguments, got ["extra"]
//
// --help prints upstream's layout (cobra's Long text, "Usage:", then one "<Section> flags:" block
// per flag set in upstream's order, each flag as pflag's FlagUsagesWrapped prints it unwrapped).
//
// `changed` records which flags the command line set: upstream applies the leader-election flags
// over a --config file only when they were given, and the deprecated flags only without --config.
//
// Thread-safety: ParseCommandFlags is reentrant.
#pragma once

#include <chrono>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace ksched::scheduler {

struct SecureServingFlags {
  std::string bind_address = "0.0.0.0";
  int secure_port = 10259;  // 0: no HTTPS endpoints
  std::string cert_dir;     // empty: a generated self-signed pair stays in memory
  std::string tls_cert_file;
  std::string tls_private_key_file;
  std::vector<std::string> tls_cipher_suites;
  std::vector<std::int32_t> tls_curve_preferences;  // Go CurveIDs, checked at start (serving/tls_curves.h)
  std::string tls_min_version;
  bool permit_address_sharing = false;
  bool permit_port_sharing = false;
};

struct AuthenticationFlags {
  std::string kubeconfig;  // empty: in-cluster, or no token review when that fails (tolerated)
  bool skip_lookup = false;
  std::chrono::nanoseconds token_webhook_cache_ttl = std::chrono::seconds(10);
  bool tolerate_lookup_failure = true;
  std::string client_ca_file;
};

struct AuthorizationFlags {
  std::string kubeconfig;
  std::vector<std::string> always_allow_paths{"/healthz", "/readyz", "/livez"};
  std::chrono::nanoseconds cache_authorized_ttl = std::chrono::seconds(10);
  std::chrono::nanoseconds cache_unauthorized_ttl = std::chrono::seconds(10);
};

// The "deprecated" group: applied to the configuration only when --config is not given.
struct DeprecatedFlags {
  bool profiling = true;
  bool contention_profiling = true;
  std::string kubeconfig;
  std::string kube_api_content_type = "application/vnd.kubernetes.protobuf";
  float kube_api_qps = 50.0F;
  std::int32_t kube_api_burst = 100;
  std::chrono::nanoseconds pod_max_in_unschedulable_pods_duration = std::chrono::minutes(5);
};

// The "leader election" group: applied over the configuration (file or defaults) flag by flag,
// only for the flags given.
struct LeaderElectionFlags {
  bool leader_elect = true;
  std::chrono::nanoseconds lease_duration = std::chrono::seconds(15);
  std::chrono::nanoseconds renew_deadline = std::chrono::seconds(10);
  std::chrono::nanoseconds retry_period = std::chrono::seconds(2);
  std::string resource_lock = "leases";
  std::string resource_name = "kube-scheduler";
  std::string resource_namespace = "kube-system";
};

struct LoggingFlags {
  int verbosity = 0;
  std::string format = "text";
  std::string vmodule;
  std::chrono::nanoseconds flush_frequency = std::chrono::seconds(5);
};

// component-base's metrics options.
struct MetricsFlags {
  std::vector<std::string> disabled_metrics;        // --disabled-metrics (metrics.h MetricsOptions)
  std::string show_hidden_metrics_for_version;      // validated; shows the families past their deprecation period
};

struct CommandFlags {
  std::string config_file;
  std::string write_config_to;
  std::string master;
  SecureServingFlags serving;
  AuthenticationFlags authentication;
  AuthorizationFlags authorization;
  DeprecatedFlags deprecated;
  LeaderElectionFlags leader_election;
  LoggingFlags logging;
  MetricsFlags metrics;
  std::vector<std::string> feature_gates;  // the --feature-gates items of every value, in order (feature_gates.h)
  std::vector<std::string> emulated_version;           // --emulated-version items (feature_gates.h)
  std::vector<std::string> min_compatibility_version;  // --min-compatibility-version items

  bool help = false;
  std::string help_text;  // filled when help is set
  // --version / --version=raw / --version=true; "false" or absent: empty.
  std::string version;

  std::set<std::string> changed;  // long names ("leader-elect", "v", ...) given on the command line
  // One per accepted flag without effect here ("--tls-sni-cert-key is accepted but has no
  // effect ..."), and per deprecated flag given ("--kubeconfig is deprecated ...").
  std::vector<std::string> warnings;

  bool Changed(const std::string& name) const { return changed.contains(name); }
};

// InvalidArgument with pflag's message (without the "Error: " prefix) on bad input.
absl::StatusOr<CommandFlags> ParseCommandFlags(int argc, const char* const* argv);

}  // namespace ksched::scheduler
