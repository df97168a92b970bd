#include "scheduler/command_flags.h"

#include <arpa/inet.h>

#include <functional>
#include <memory>
#include <utility>

#include <CLI/CLI.hpp>

#include "api/go_duration.h"
#include "api/go_strconv.h"

namespace ksched::scheduler {
namespace {

// How a flag's text becomes its value. Conversion errors read as Go's strconv / net / time errors,
// which pflag wraps into `invalid argument "x" for "--name" flag: <error>`.
enum class Kind { kString, kBool, kInt, kInt32, kFloat32, kDuration, kStringList, kIp, kLevel, kVersion };

struct FlagSpec {
  std::string name;       // long name without dashes
  std::string shorthand;  // "v" or empty
  Kind kind;
  std::string help;
  // Sets the parsed value; null for flags accepted without effect.
  std::function<void(const std::string&)> set_string;
  std::function<void(bool)> set_bool;
  std::function<void(std::int64_t)> set_int;
  std::function<void(double)> set_float;
  std::function<void(std::chrono::nanoseconds)> set_duration;
  std::function<void(std::vector<std::string>)> set_list;
  // Non-empty: accepted for compatibility, this is why it changes nothing here.
  std::string no_effect;
  bool deprecated = false;
};

bool IsIp(const std::string& text) {
  unsigned char buffer[sizeof(struct in6_addr)];
  return inet_pton(AF_INET, text.c_str(), buffer) == 1 || inet_pton(AF_INET6, text.c_str(), buffer) == 1;
}

// pflag's StringSlice: comma-separated (CSV, no quoting needed here), whitespace kept.
std::vector<std::string> SplitCommas(const std::string& text) {
  std::vector<std::string> out;
  if (text.empty()) return out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    out.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

// The flag table, bound to `flags`.
std::vector<FlagSpec> FlagTable(CommandFlags& f) {
  std::vector<FlagSpec> t;
  auto string_flag = [&t](std::string name, std::string help, std::string* target) {
    FlagSpec s{std::move(name), "", Kind::kString, std::move(help), {}, {}, {}, {}, {}, {}, "", false};
    s.set_string = [target](const std::string& v) { *target = v; };
    t.push_back(std::move(s));
  };
  auto bool_flag = [&t](std::string name, std::string help, bool* target) {
    FlagSpec s{std::move(name), "", Kind::kBool, std::move(help), {}, {}, {}, {}, {}, {}, "", false};
    s.set_bool = [target](bool v) { *target = v; };
    t.push_back(std::move(s));
  };
  auto duration_flag = [&t](std::string name, std::string help, std::chrono::nanoseconds* target) {
    FlagSpec s{std::move(name), "", Kind::kDuration, std::move(help), {}, {}, {}, {}, {}, {}, "", false};
    s.set_duration = [target](std::chrono::nanoseconds v) { *target = v; };
    t.push_back(std::move(s));
  };
  auto list_flag = [&t](std::string name, std::string help, std::vector<std::string>* target) {
    FlagSpec s{std::move(name), "", Kind::kStringList, std::move(help), {}, {}, {}, {}, {}, {}, "", false};
    s.set_list = [target](std::vector<std::string> v) { *target = std::move(v); };
    t.push_back(std::move(s));
  };
  auto ignored_flag = [&t](std::string name, Kind kind, std::string help, std::string why) {
    FlagSpec s{std::move(name), "", kind, std::move(help), {}, {}, {}, {}, {}, {}, std::move(why), false};
    t.push_back(std::move(s));
  };

  // misc
  string_flag("config", "The path to the configuration file.", &f.config_file);
  string_flag("write-config-to", "If set, write the configuration values to this file and exit.",
              &f.write_config_to);
  string_flag("master", "The address of the Kubernetes API server (overrides any value in kubeconfig)",
              &f.master);

  // secure serving
  {
    FlagSpec s{"bind-address", "", Kind::kIp,
               "The IP address on which to listen for the --secure-port port. (default 0.0.0.0)",
               {}, {}, {}, {}, {}, {}, "", false};
    s.set_string = [&f](const std::string& v) { f.serving.bind_address = v; };
    t.push_back(std::move(s));
  }
  string_flag("cert-dir", "The directory where the TLS certs are located. If --tls-cert-file and "
              "--tls-private-key-file are provided, this flag will be ignored.", &f.serving.cert_dir);
  {
    FlagSpec s{"secure-port", "", Kind::kInt,
               "The port on which to serve HTTPS with authentication and authorization. If 0, don't "
               "serve HTTPS at all. (default 10259)",
               {}, {}, {}, {}, {}, {}, "", false};
    s.set_int = [&f](std::int64_t v) { f.serving.secure_port = static_cast<int>(v); };
    t.push_back(std::move(s));
  }
  string_flag("tls-cert-file", "File containing the default x509 Certificate for HTTPS.",
              &f.serving.tls_cert_file);
  string_flag("tls-private-key-file", "File containing the default x509 private key matching "
              "--tls-cert-file.", &f.serving.tls_private_key_file);
  list_flag("tls-cipher-suites", "Comma-separated list of cipher suites for the server.",
            &f.serving.tls_cipher_suites);
  string_flag("tls-min-version", "Minimum TLS version supported. Possible values: VersionTLS10, "
              "VersionTLS11, VersionTLS12, VersionTLS13", &f.serving.tls_min_version);
  bool_flag("permit-address-sharing", "If true, SO_REUSEADDR will be used when binding the port.",
            &f.serving.permit_address_sharing);
  bool_flag("permit-port-sharing", "If true, SO_REUSEPORT will be used when binding the port.",
            &f.serving.permit_port_sharing);
  ignored_flag("disable-http2-serving", Kind::kBool, "If true, HTTP2 serving will be disabled",
               "this server speaks HTTP/1.1 only");
  ignored_flag("http2-max-streams-per-connection", Kind::kInt,
               "The limit that the server gives to clients for the maximum number of streams in an "
               "HTTP/2 connection.", "this server speaks HTTP/1.1 only");
  ignored_flag("tls-sni-cert-key", Kind::kStringList,
               "A pair of x509 certificate and private key file paths.",
               "SNI certificates are not supported; the default certificate serves every name");

  // authentication
  string_flag("authentication-kubeconfig", "kubeconfig file pointing at the 'core' kubernetes "
              "server with enough rights to create tokenreviews.authentication.k8s.io.",
              &f.authentication.kubeconfig);
  bool_flag("authentication-skip-lookup", "If false, the authentication-kubeconfig will be used to "
            "lookup missing authentication configuration from the cluster.",
            &f.authentication.skip_lookup);
  duration_flag("authentication-token-webhook-cache-ttl", "The duration to cache responses from the "
                "webhook token authenticator. (default 10s)",
                &f.authentication.token_webhook_cache_ttl);
  bool_flag("authentication-tolerate-lookup-failure", "If true, failures to look up missing "
            "authentication configuration from the cluster are not considered fatal. (default true)",
            &f.authentication.tolerate_lookup_failure);
  string_flag("client-ca-file", "If set, any request presenting a client certificate signed by one "
              "of the authorities in the client-ca-file is authenticated with an identity "
              "corresponding to the CommonName of the client certificate.",
              &f.authentication.client_ca_file);
  for (const char* name : {"requestheader-allowed-names", "requestheader-extra-headers-prefix",
                           "requestheader-group-headers", "requestheader-uid-headers",
                           "requestheader-username-headers"}) {
    ignored_flag(name, Kind::kStringList, "Request-header authentication (front proxy).",
                 "request-header (front proxy) authentication is not supported");
  }
  ignored_flag("requestheader-client-ca-file", Kind::kString,
               "Root certificate bundle to verify client certificates on incoming requests before "
               "trusting usernames in headers.",
               "request-header (front proxy) authentication is not supported");

  // authorization
  list_flag("authorization-always-allow-paths", "A list of HTTP paths to skip during authorization, "
            "i.e. these are authorized without contacting the 'core' kubernetes server. (default "
            "[/healthz,/readyz,/livez])", &f.authorization.always_allow_paths);
  string_flag("authorization-kubeconfig", "kubeconfig file pointing at the 'core' kubernetes server "
              "with enough rights to create subjectaccessreviews.authorization.k8s.io.",
              &f.authorization.kubeconfig);
  duration_flag("authorization-webhook-cache-authorized-ttl", "The duration to cache 'authorized' "
                "responses from the webhook authorizer. (default 10s)",
                &f.authorization.cache_authorized_ttl);
  duration_flag("authorization-webhook-cache-unauthorized-ttl", "The duration to cache "
                "'unauthorized' responses from the webhook authorizer. (default 10s)",
                &f.authorization.cache_unauthorized_ttl);

  // deprecated
  const std::string ignored_with_config =
      " This parameter is ignored if a config file is specified in --config.";
  bool_flag("profiling", "DEPRECATED: enable profiling via web interface host:port/debug/pprof/." +
            ignored_with_config, &f.deprecated.profiling);
  bool_flag("contention-profiling", "DEPRECATED: enable block profiling, if profiling is enabled." +
            ignored_with_config, &f.deprecated.contention_profiling);
  string_flag("kubeconfig", "DEPRECATED: path to kubeconfig file with authorization and master "
              "location information." + ignored_with_config, &f.deprecated.kubeconfig);
  string_flag("kube-api-content-type", "DEPRECATED: content type of requests sent to apiserver." +
              ignored_with_config, &f.deprecated.kube_api_content_type);
  {
    FlagSpec s{"kube-api-qps", "", Kind::kFloat32,
               "DEPRECATED: QPS to use while talking with kubernetes apiserver." + ignored_with_config,
               {}, {}, {}, {}, {}, {}, "", false};
    s.set_float = [&f](double v) { f.deprecated.kube_api_qps = static_cast<float>(v); };
    t.push_back(std::move(s));
  }
  {
    FlagSpec s{"kube-api-burst", "", Kind::kInt32,
               "DEPRECATED: burst to use while talking with kubernetes apiserver." + ignored_with_config,
               {}, {}, {}, {}, {}, {}, "", false};
    s.set_int = [&f](std::int64_t v) { f.deprecated.kube_api_burst = static_cast<std::int32_t>(v); };
    t.push_back(std::move(s));
  }
  duration_flag("pod-max-in-unschedulable-pods-duration", "DEPRECATED: the maximum time a pod can "
                "stay in unschedulablePods. (default 5m0s)",
                &f.deprecated.pod_max_in_unschedulable_pods_duration);
  for (std::size_t i = t.size() - 7; i < t.size(); ++i) t[i].deprecated = true;

  // leader election
  bool_flag("leader-elect", "Start a leader election client and gain leadership before executing "
            "the main loop. Enable this when running replicated components for high availability. "
            "(default true)", &f.leader_election.leader_elect);
  duration_flag("leader-elect-lease-duration", "The duration that non-leader candidates will wait "
                "after observing a leadership renewal until attempting to acquire leadership of a "
                "led but unrenewed leader slot. (default 15s)", &f.leader_election.lease_duration);
  duration_flag("leader-elect-renew-deadline", "The interval between attempts by the acting master "
                "to renew a leadership slot before it stops leading. This must be less than the "
                "lease duration. (default 10s)", &f.leader_election.renew_deadline);
  string_flag("leader-elect-resource-lock", "The type of resource object that is used for locking "
              "during leader election. Supported options are 'leases'. (default \"leases\")",
              &f.leader_election.resource_lock);
  string_flag("leader-elect-resource-name", "The name of resource object that is used for locking "
              "during leader election. (default \"kube-scheduler\")", &f.leader_election.resource_name);
  string_flag("leader-elect-resource-namespace", "The namespace of resource object that is used for "
              "locking during leader election. (default \"kube-system\")",
              &f.leader_election.resource_namespace);
  duration_flag("leader-elect-retry-period", "The duration the clients should wait between "
                "attempting acquisition and renewal of a leadership. (default 2s)",
                &f.leader_election.retry_period);

  // feature gates
  {
    // Repeatable: every value adds its comma-separated items (component-base's
    // ColonSeparatedMultimapStringString), as a string list does here.
    FlagSpec s{"feature-gates", "", Kind::kStringList,
               "Comma-separated list of component:key=value pairs that describe feature gates for "
               "alpha/experimental features of different components. If the component is not specified, "
               "defaults to \"kube\". This flag can be repeatedly invoked.",
               {}, {}, {}, {}, {}, {}, "", false};
    s.set_list = [&f](std::vector<std::string> items) { f.feature_gates = std::move(items); };
    t.push_back(std::move(s));
  }
  ignored_flag("emulated-version", Kind::kStringList, "The versions different components emulate "
               "their capabilities (APIs, features, ...) of.",
               "this scheduler implements Kubernetes v1.34 only");

  // metrics
  ignored_flag("allow-metric-labels", Kind::kStringList, "The map from metric-label to value "
               "allow-list of this label.", "metric label allow-lists are not supported");
  ignored_flag("allow-metric-labels-manifest", Kind::kString, "The path to the manifest file that "
               "contains the allow-list mapping.", "metric label allow-lists are not supported");
  list_flag("disabled-metrics",
            "This flag provides an escape hatch for misbehaving metrics. You must provide the fully qualified "
            "metric name in order to disable it. Disclaimer: disabling metrics is higher in precedence than "
            "showing hidden metrics.",
            &f.metrics.disabled_metrics);
  string_flag("show-hidden-metrics-for-version",
              "The previous version for which you want to show hidden metrics. Only the previous minor version "
              "is meaningful, other values will not be allowed. The format is <major>.<minor>, e.g.: '1.16'. The "
              "purpose of this format is make sure you have the opportunity to notice if the next release hides "
              "additional metrics, rather than being surprised when they are permanently removed in the release "
              "after that.",
              &f.metrics.show_hidden_metrics_for_version);

  // logs
  duration_flag("log-flush-frequency", "Maximum number of seconds between log flushes (default 5s)",
                &f.logging.flush_frequency);
  for (const char* name : {"log-json-info-buffer-size", "log-text-info-buffer-size"}) {
    ignored_flag(name, Kind::kString, "[Alpha] Info messages buffer size with split streams.",
                 "split output streams are not supported");
  }
  for (const char* name : {"log-json-split-stream", "log-text-split-stream"}) {
    ignored_flag(name, Kind::kBool, "[Alpha] Write error messages to stderr and info messages to "
                 "stdout.", "split output streams are not supported");
  }
  string_flag("logging-format", "Sets the log format. Permitted formats: \"json\", \"text\". "
              "(default \"text\")", &f.logging.format);
  {
    FlagSpec s{"v", "v", Kind::kLevel, "number for the log level verbosity",
               {}, {}, {}, {}, {}, {}, "", false};
    s.set_int = [&f](std::int64_t v) { f.logging.verbosity = static_cast<int>(v); };
    t.push_back(std::move(s));
  }
  string_flag("vmodule", "comma-separated list of pattern=N settings for file-filtered logging "
              "(only works for text log format)", &f.logging.vmodule);

  {
    FlagSpec s{"version", "", Kind::kVersion,
               "--version, --version=raw prints version information and quits",
               {}, {}, {}, {}, {}, {}, "", false};
    s.set_string = [&f](const std::string& v) { f.version = v; };
    t.push_back(std::move(s));
  }
  return t;
}

// Where the setting of a deprecated flag lives in a KubeSchedulerConfiguration.
std::string DeprecationAdvice(std::string_view flag) {
  static constexpr std::pair<std::string_view, std::string_view> kFields[] = {
      {"profiling", "enableProfiling"},
      {"contention-profiling", "enableContentionProfiling"},
      {"kubeconfig", "clientConnection.kubeconfig"},
      {"kube-api-content-type", "clientConnection.contentType"},
      {"kube-api-qps", "clientConnection.qps"},
      {"kube-api-burst", "clientConnection.burst"},
  };
  for (const auto& [name, field] : kFields) {
    if (name == flag) return "set " + std::string(field) + " in the file given to --config instead";
  }
  return "it will be removed in a future version";
}

std::string DisplayName(const FlagSpec& spec) {
  return spec.shorthand.empty() ? "--" + spec.name : "-" + spec.shorthand + ", --" + spec.name;
}

absl::Status InvalidArgument(const FlagSpec& spec, const std::string& text, std::string_view reason) {
  return absl::InvalidArgumentError("invalid argument \"" + text + "\" for \"" + DisplayName(spec) +
                                    "\" flag: " + std::string(reason));
}

// Converts and stores one flag's text; errors as pflag's.
absl::Status Apply(const FlagSpec& spec, const std::string& text) {
  switch (spec.kind) {
    case Kind::kString:
      if (spec.set_string) spec.set_string(text);
      return absl::OkStatus();
    case Kind::kVersion: {
      // pflag's optional-value version flag: true/raw/vX.Y.Z print, false does not.
      absl::StatusOr<bool> as_bool = api::GoParseBool(text);
      if (as_bool.ok()) {
        spec.set_string(*as_bool ? "true" : "");
      } else {
        spec.set_string(text);
      }
      return absl::OkStatus();
    }
    case Kind::kIp:
      if (!IsIp(text)) return InvalidArgument(spec, text, "failed to parse IP: \"" + text + "\"");
      if (spec.set_string) spec.set_string(text);
      return absl::OkStatus();
    case Kind::kBool: {
      absl::StatusOr<bool> value = api::GoParseBool(text);
      if (!value.ok()) return InvalidArgument(spec, text, std::string(value.status().message()));
      if (spec.set_bool) spec.set_bool(*value);
      return absl::OkStatus();
    }
    case Kind::kInt:
    case Kind::kInt32: {
      // pflag's int / int32: strconv.ParseInt(s, 0, bits), so 0x10, 0o17, 017 and 1_000 are numbers.
      absl::StatusOr<std::int64_t> value = api::GoParseInt(text, 0, spec.kind == Kind::kInt ? 64 : 32);
      if (!value.ok()) return InvalidArgument(spec, text, std::string(value.status().message()));
      if (spec.set_int) spec.set_int(*value);
      return absl::OkStatus();
    }
    case Kind::kLevel: {
      // component-base's VerbosityLevel: strconv.ParseUint(s, 10, 31).
      absl::StatusOr<std::uint64_t> value = api::GoParseUint(text, 10, 31);
      if (!value.ok()) return InvalidArgument(spec, text, std::string(value.status().message()));
      if (spec.set_int) spec.set_int(static_cast<std::int64_t>(*value));
      return absl::OkStatus();
    }
    case Kind::kFloat32: {
      absl::StatusOr<double> value = api::GoParseFloat(text, 32);
      if (!value.ok()) return InvalidArgument(spec, text, std::string(value.status().message()));
      if (spec.set_float) spec.set_float(*value);
      return absl::OkStatus();
    }
    case Kind::kDuration: {
      absl::StatusOr<std::chrono::nanoseconds> value = api::ParseGoDuration(text);
      if (!value.ok()) return InvalidArgument(spec, text, std::string(value.status().message()));
      if (spec.set_duration) spec.set_duration(*value);
      return absl::OkStatus();
    }
    case Kind::kStringList:
      if (spec.set_list) spec.set_list(SplitCommas(text));
      return absl::OkStatus();
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<CommandFlags> ParseCommandFlags(int argc, const char* const* argv) {
  CommandFlags flags;
  std::vector<FlagSpec> table = FlagTable(flags);

  CLI::App app{"The Kubernetes scheduler (kube-scheduler-cpp, a C++ implementation of "
               "kube-scheduler v1.34)", "kube-scheduler"};
  app.allow_extras();
  app.set_help_flag("-h,--help", "help for kube-scheduler");
  // CLI11 stores every flag as text; the conversions below give pflag's messages.
  std::vector<std::string> scalar_values(table.size());
  std::vector<std::vector<std::string>> list_values(table.size());
  std::vector<CLI::Option*> options(table.size(), nullptr);
  for (std::size_t i = 0; i < table.size(); ++i) {
    const FlagSpec& spec = table[i];
    std::string names = spec.shorthand.empty() ? "--" + spec.name : "-" + spec.shorthand + ",--" + spec.name;
    if (spec.kind == Kind::kBool || spec.kind == Kind::kVersion) {
      options[i] = app.add_flag(names + "{true}", scalar_values[i], spec.help);
      options[i]->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    } else if (spec.kind == Kind::kStringList) {
      options[i] = app.add_option(names, list_values[i], spec.help);
      options[i]->allow_extra_args(false);
    } else {
      options[i] = app.add_option(names, scalar_values[i], spec.help);
      options[i]->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    }
  }

  std::vector<std::string> args;
  for (int i = argc - 1; i >= 1; --i) args.emplace_back(argv[i]);  // CLI11 wants them reversed
  try {
    app.parse(args);
  } catch (const CLI::CallForHelp&) {
    flags.help = true;
    flags.help_text = app.help();
    return flags;
  } catch (const CLI::ParseError& e) {
    return absl::InvalidArgumentError(e.what());
  }
  for (const std::string& extra : app.remaining()) {
    if (extra.size() > 1 && extra[0] == '-') {
      if (extra.size() > 2 && extra[1] != '-') {
        return absl::InvalidArgumentError("unknown shorthand flag: '" + extra.substr(1, 1) + "' in " + extra);
      }
      return absl::InvalidArgumentError("unknown flag: " + extra.substr(0, extra.find('=')));
    }
  }
  if (!app.remaining().empty()) {
    std::string list;
    for (const std::string& extra : app.remaining()) {
      if (!list.empty()) list += ' ';
      list += '"';
      list += extra;
      list += '"';
    }
    return absl::InvalidArgumentError("\"kube-scheduler\" does not take any arguments, got [" + list + "]");
  }

  for (std::size_t i = 0; i < table.size(); ++i) {
    if (options[i]->count() == 0) continue;
    const FlagSpec& spec = table[i];
    flags.changed.insert(spec.name);
    if (spec.kind == Kind::kStringList) {
      std::vector<std::string> all;
      for (const std::string& value : list_values[i]) {
        for (std::string& item : SplitCommas(value)) all.push_back(std::move(item));
      }
      if (spec.set_list) spec.set_list(std::move(all));
    } else {
      std::string text = scalar_values[i];
      // CLI11 keeps the '=' of "-v=2"; pflag does not.
      if (!spec.shorthand.empty() && !text.empty() && text.front() == '=') text.erase(0, 1);
      if (absl::Status applied = Apply(spec, text); !applied.ok()) return applied;
    }
    if (!spec.no_effect.empty()) {
      flags.warnings.push_back("--" + spec.name + " is accepted but has no effect: " + spec.no_effect);
    } else if (spec.deprecated && !flags.config_file.empty() &&
               spec.name != "pod-max-in-unschedulable-pods-duration") {
      // Upstream ignores them silently with --config; say so.
      flags.warnings.push_back("--" + spec.name +
                               " is ignored because --config is given (as upstream kube-scheduler); "
                               "set it in the configuration file instead");
    } else if (spec.deprecated) {
      flags.warnings.push_back("Flag --" + spec.name + " has been deprecated, " +
                               DeprecationAdvice(spec.name));
    }
  }
  return flags;
}

}  // namespace ksched::scheduler
