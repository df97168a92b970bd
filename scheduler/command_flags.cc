#include "scheduler/command_flags.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cctype>
#include <span>

#include <functional>
#include <memory>
#include <utility>

#include <CLI/CLI.hpp>

#include "api/go_duration.h"
#include "api/go_strconv.h"
#include "scheduler/feature_gates.h"

namespace ksched::scheduler {
namespace {

// How a flag's text becomes its value. Conversion errors read as Go's strconv / net / time errors,
// which pflag wraps into `invalid argument "x" for "--name" flag: <error>`.
enum class Kind { kString, kBool, kInt, kInt32, kFloat32, kDuration, kStringList, kInt32List, kIp, kLevel, kVersion };

struct FlagSpec {
  std::string name;       // long name without dashes
  std::string shorthand;  // "v" or empty
  Kind kind;
  std::string help;  // pflag's usage as upstream prints it, its " (default ...)" included
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
  std::string section;  // upstream's named flag set ("misc", "secure serving", ...)
  std::string varname;  // the value's name in --help (pflag's Value.Type()); "" for booleans
};

// cliflag.PreferredTLSCipherNames / InsecureTLSCipherNames of Go 1.26 (kube-scheduler v1.37.2's).
constexpr const char* kTlsCipherSuitesHelp =
    "Comma-separated list of cipher suites for the server. If omitted, the default Go cipher suites will be used. \n"
    "Preferred values: "
    "TLS_AES_128_GCM_SHA256, TLS_AES_256_GCM_SHA384, TLS_CHACHA20_POLY1305_SHA256, "
    "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA, TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, "
    "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA, TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384, "
    "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305, TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256, "
    "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA, TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, "
    "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA, TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384, "
    "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305, TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256"
    ". \n"
    "Insecure values: "
    "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256, TLS_ECDHE_ECDSA_WITH_RC4_128_SHA, "
    "TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA, TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256, "
    "TLS_ECDHE_RSA_WITH_RC4_128_SHA, TLS_RSA_WITH_3DES_EDE_CBC_SHA, TLS_RSA_WITH_AES_128_CBC_SHA, "
    "TLS_RSA_WITH_AES_128_CBC_SHA256, TLS_RSA_WITH_AES_128_GCM_SHA256, TLS_RSA_WITH_AES_256_CBC_SHA, "
    "TLS_RSA_WITH_AES_256_GCM_SHA384, TLS_RSA_WITH_RC4_128_SHA"
    ".";

std::string kInfoBufferSizeHelp(const std::string& format) {
  return "[Alpha] In " + format + " format with split output streams, the info messages can be buffered for a while "
         "to increase performance. The default value of zero bytes disables buffering. The size can be specified as "
         "number of bytes (512), multiples of 1000 (1K), multiples of 1024 (2Ki), or powers of those (3M, 4G, 5Mi, "
         "6Gi). Enable the LoggingAlphaOptions feature gate to use this.";
}

// pflag's UnquoteUsage name of a kind.
std::string TypeName(Kind kind) {
  switch (kind) {
    case Kind::kString: return "string";
    case Kind::kBool: return "";
    case Kind::kInt: return "int";
    case Kind::kInt32: return "int32";
    case Kind::kFloat32: return "float32";
    case Kind::kDuration: return "duration";
    case Kind::kStringList: return "strings";
    case Kind::kInt32List: return "int32Slice";
    case Kind::kIp: return "ip";
    case Kind::kLevel: return "Level";
    case Kind::kVersion: return "version[=true]";
  }
  return "";
}

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

// The --feature-gates "Options are:" list: component-base's KnownFeatures at the default versions,
// each prefixed with its component.
std::string FeatureGateOptions() {
  const FeatureGates defaults;
  const CompatibilityVersions versions = defaults.versions();
  CompatibilityVersions emulation_only = versions;
  emulation_only.min_compatibility = versions.emulation;
  std::vector<std::string> known;
  auto help = [](const VersionedFeatureSpec* row, std::string_view name, bool with_min_compat) -> std::string {
    if (row == nullptr || row->stage == FeatureStage::kGA || row->stage == FeatureStage::kDeprecated) return "";
    std::string text = std::string(name) + "=true|false (" + std::string(StageName(row->stage)) +
                       " - default=" + (row->default_value ? "true" : "false") + ")";
    if (with_min_compat && row->min_compatibility_version.major >= 0) {
      text += " if --min-compatibility-version>=" + row->min_compatibility_version.String();
    }
    return text;
  };
  const std::span<const VersionedFeatureSpec> rows = VersionedFeatures();
  for (std::size_t i = 0; i < rows.size();) {
    const std::string_view name = rows[i].name;
    std::size_t end = i;
    while (end < rows.size() && rows[end].name == name) ++end;
    const std::span<const VersionedFeatureSpec> gate = rows.subspan(i, end - i);
    i = end;
    if (name == "AllAlpha" || name == "AllBeta") {
      known.push_back("kube:" + std::string(name) + "=true|false (" + std::string(StageName(gate[0].stage)) +
                      " - default=" + (gate[0].default_value ? "true" : "false") + ")");
      continue;
    }
    const VersionedFeatureSpec* at = FeatureSpecRowAt(gate, versions);
    const VersionedFeatureSpec* at_emulation = FeatureSpecRowAt(gate, emulation_only);
    const std::string plain = help(at, name, false);
    if (at == at_emulation) {
      if (!plain.empty()) known.push_back("kube:" + plain);
      continue;
    }
    const std::string compat = help(at_emulation, name, true);
    std::string joined = plain;
    if (!compat.empty()) {
      if (!joined.empty()) joined += ", or ";
      joined += compat;
    }
    if (!joined.empty()) known.push_back("kube:" + joined);
  }
  std::sort(known.begin(), known.end());
  std::string out;
  for (const std::string& line : known) {
    if (!out.empty()) out += '\n';
    out += line;
  }
  return out;
}

// The flag table, bound to `flags`.
std::vector<FlagSpec> FlagTable(CommandFlags& f) {
  std::vector<FlagSpec> t;
  std::string section;
  auto add = [&t, &section](std::string name, Kind kind, std::string help) -> FlagSpec& {
    FlagSpec s{std::move(name), "", kind, std::move(help), {}, {}, {}, {}, {}, {}, "", false, section, TypeName(kind)};
    t.push_back(std::move(s));
    return t.back();
  };
  auto string_flag = [&add](std::string name, std::string help, std::string* target) {
    add(std::move(name), Kind::kString, std::move(help)).set_string = [target](const std::string& v) { *target = v; };
  };
  auto bool_flag = [&add](std::string name, std::string help, bool* target) {
    add(std::move(name), Kind::kBool, std::move(help)).set_bool = [target](bool v) { *target = v; };
  };
  auto duration_flag = [&add](std::string name, std::string help, std::chrono::nanoseconds* target) {
    add(std::move(name), Kind::kDuration, std::move(help)).set_duration = [target](std::chrono::nanoseconds v) {
      *target = v;
    };
  };
  auto list_flag = [&add](std::string name, std::string help, std::vector<std::string>* target) {
    add(std::move(name), Kind::kStringList, std::move(help)).set_list = [target](std::vector<std::string> v) {
      *target = std::move(v);
    };
  };
  auto ignored_flag = [&add](std::string name, Kind kind, std::string help, std::string why) -> FlagSpec& {
    FlagSpec& s = add(std::move(name), kind, std::move(help));
    s.no_effect = std::move(why);
    return s;
  };

  section = "misc";
  string_flag("config", "The path to the configuration file.", &f.config_file);
  string_flag("write-config-to", "If set, write the configuration values to this file and exit.",
              &f.write_config_to);
  string_flag("master", "The address of the Kubernetes API server (overrides any value in kubeconfig)",
              &f.master);

  section = "secure serving";
  add("bind-address", Kind::kIp,
      "The IP address on which to listen for the --secure-port port. The associated interface(s) must be reachable "
      "by the rest of the cluster, and by CLI/web clients. If blank or an unspecified address (0.0.0.0 or ::), all "
      "interfaces and IP address families will be used. (default 0.0.0.0)")
      .set_string = [&f](const std::string& v) { f.serving.bind_address = v; };
  add("secure-port", Kind::kInt,
      "The port on which to serve HTTPS with authentication and authorization. If 0, don't serve HTTPS at all. "
      "(default 10259)")
      .set_int = [&f](std::int64_t v) { f.serving.secure_port = static_cast<int>(v); };
  ignored_flag("disable-http2-serving", Kind::kBool, "If true, HTTP2 serving will be disabled [default=false]",
               "this server speaks HTTP/1.1 only");
  string_flag("cert-dir", "The directory where the TLS certs are located. If --tls-cert-file and "
              "--tls-private-key-file are provided, this flag will be ignored.", &f.serving.cert_dir);
  string_flag("tls-cert-file",
              "File containing the default x509 Certificate for HTTPS. (CA cert, if any, concatenated after server "
              "cert). If HTTPS serving is enabled, and --tls-cert-file and --tls-private-key-file are not provided, a "
              "self-signed certificate and key are generated for the public address and saved to the directory "
              "specified by --cert-dir.",
              &f.serving.tls_cert_file);
  string_flag("tls-private-key-file", "File containing the default x509 private key matching --tls-cert-file.",
              &f.serving.tls_private_key_file);
  list_flag("tls-cipher-suites", kTlsCipherSuitesHelp, &f.serving.tls_cipher_suites);
  add("tls-curve-preferences", Kind::kInt32List,
      "Comma-separated list of numeric Go crypto/tls CurveID values, as the allowed key exchange mechanisms for the "
      "server. The supported values depend on the Go version used. See https://pkg.go.dev/crypto/tls#CurveID for "
      "values supported for each Go version. The order of the list is ignored, and key exchange mechanisms are "
      "chosen by Go from this list using an internal preference order. If omitted, the default Go curves will be "
      "used. (default [])")
      .set_list = [&f](std::vector<std::string> ids) {
        f.serving.tls_curve_preferences.clear();
        for (const std::string& id : ids) f.serving.tls_curve_preferences.push_back(static_cast<std::int32_t>(std::stol(id)));
      };
  string_flag("tls-min-version", "Minimum TLS version supported. Possible values: VersionTLS10, VersionTLS11, "
              "VersionTLS12, VersionTLS13", &f.serving.tls_min_version);
  ignored_flag("tls-sni-cert-key", Kind::kStringList,
               "A pair of x509 certificate and private key file paths, optionally suffixed with a list of domain "
               "patterns which are fully qualified domain names, possibly with prefixed wildcard segments. The "
               "domain patterns also allow IP addresses, but IPs should only be used if the apiserver has visibility "
               "to the IP address requested by a client. If no domain patterns are provided, the names of the "
               "certificate are extracted. Non-wildcard matches trump over wildcard matches, explicit domain "
               "patterns trump over extracted names. For multiple key/certificate pairs, use the --tls-sni-cert-key "
               "multiple times. Examples: \"example.crt,example.key\" or \"foo.crt,foo.key:*.foo.com,foo.com\". "
               "(default [])",
               "SNI certificates are not supported; the default certificate serves every name")
      .varname = "namedCertKey";
  ignored_flag("http2-max-streams-per-connection", Kind::kInt,
               "The limit that the server gives to clients for the maximum number of streams in an HTTP/2 "
               "connection. Zero means to use golang's default.",
               "this server speaks HTTP/1.1 only");
  bool_flag("permit-port-sharing", "If true, SO_REUSEPORT will be used when binding the port, which allows more "
            "than one instance to bind on the same address and port. [default=false]",
            &f.serving.permit_port_sharing);
  bool_flag("permit-address-sharing", "If true, SO_REUSEADDR will be used when binding the port. This allows "
            "binding to wildcard IPs like 0.0.0.0 and specific IPs in parallel, and it avoids waiting for the kernel "
            "to release sockets in TIME_WAIT state. [default=false]",
            &f.serving.permit_address_sharing);

  section = "authentication";
  string_flag("authentication-kubeconfig",
              "kubeconfig file pointing at the 'core' kubernetes server with enough rights to create "
              "tokenreviews.authentication.k8s.io. This is optional. If empty, all token requests are considered to "
              "be anonymous and no client CA is looked up in the cluster.",
              &f.authentication.kubeconfig);
  duration_flag("authentication-token-webhook-cache-ttl",
                "The duration to cache responses from the webhook token authenticator. (default 10s)",
                &f.authentication.token_webhook_cache_ttl);
  string_flag("client-ca-file", "If set, any request presenting a client certificate signed by one of the "
              "authorities in the client-ca-file is authenticated with an identity corresponding to the CommonName "
              "of the client certificate.", &f.authentication.client_ca_file);
  const std::string no_request_header = "request-header (front proxy) authentication is not supported";
  ignored_flag("requestheader-username-headers", Kind::kStringList,
               "List of request headers to inspect for usernames. X-Remote-User is common. (default [x-remote-user])",
               no_request_header);
  ignored_flag("requestheader-uid-headers", Kind::kStringList,
               "List of request headers to inspect for UIDs. X-Remote-Uid is suggested. Requires the "
               "RemoteRequestHeaderUID feature to be enabled.",
               no_request_header);
  ignored_flag("requestheader-group-headers", Kind::kStringList,
               "List of request headers to inspect for groups. X-Remote-Group is suggested. (default "
               "[x-remote-group])",
               no_request_header);
  ignored_flag("requestheader-extra-headers-prefix", Kind::kStringList,
               "List of request header prefixes to inspect. X-Remote-Extra- is suggested. (default "
               "[x-remote-extra-])",
               no_request_header);
  ignored_flag("requestheader-client-ca-file", Kind::kString,
               "Root certificate bundle to use to verify client certificates on incoming requests before trusting "
               "usernames in headers specified by --requestheader-username-headers. WARNING: generally do not depend "
               "on authorization being already done for incoming requests.",
               no_request_header);
  ignored_flag("requestheader-allowed-names", Kind::kStringList,
               "List of client certificate common names to allow to provide usernames in headers specified by "
               "--requestheader-username-headers. If empty, any client certificate validated by the authorities in "
               "--requestheader-client-ca-file is allowed.",
               no_request_header);
  bool_flag("authentication-skip-lookup", "If false, the authentication-kubeconfig will be used to lookup missing "
            "authentication configuration from the cluster.", &f.authentication.skip_lookup);
  bool_flag("authentication-tolerate-lookup-failure", "If true, failures to look up missing authentication "
            "configuration from the cluster are not considered fatal. Note that this can result in authentication "
            "that treats all requests as anonymous. (default true)",
            &f.authentication.tolerate_lookup_failure);

  section = "authorization";
  string_flag("authorization-kubeconfig",
              "kubeconfig file pointing at the 'core' kubernetes server with enough rights to create "
              "subjectaccessreviews.authorization.k8s.io. This is optional. If empty, all requests not skipped by "
              "authorization are forbidden.",
              &f.authorization.kubeconfig);
  duration_flag("authorization-webhook-cache-authorized-ttl",
                "The duration to cache 'authorized' responses from the webhook authorizer. (default 10s)",
                &f.authorization.cache_authorized_ttl);
  duration_flag("authorization-webhook-cache-unauthorized-ttl",
                "The duration to cache 'unauthorized' responses from the webhook authorizer. (default 10s)",
                &f.authorization.cache_unauthorized_ttl);
  list_flag("authorization-always-allow-paths", "A list of HTTP paths to skip during authorization, i.e. these "
            "are authorized without contacting the 'core' kubernetes server. (default [/healthz,/readyz,/livez])",
            &f.authorization.always_allow_paths);

  section = "deprecated";
  const std::string ignored_with_config =
      " This parameter is ignored if a config file is specified in --config.";
  const std::size_t first_deprecated = t.size();
  bool_flag("profiling", "DEPRECATED: enable profiling via web interface host:port/debug/pprof/." +
            ignored_with_config + " (default true)", &f.deprecated.profiling);
  bool_flag("contention-profiling", "DEPRECATED: enable block profiling, if profiling is enabled." +
            ignored_with_config + " (default true)", &f.deprecated.contention_profiling);
  string_flag("kubeconfig", "DEPRECATED: path to kubeconfig file with authorization and master "
              "location information." + ignored_with_config, &f.deprecated.kubeconfig);
  string_flag("kube-api-content-type", "DEPRECATED: content type of requests sent to apiserver." +
              ignored_with_config + " (default \"application/vnd.kubernetes.protobuf\")",
              &f.deprecated.kube_api_content_type);
  add("kube-api-qps", Kind::kFloat32,
      "DEPRECATED: QPS to use while talking with kubernetes apiserver." + ignored_with_config + " (default 50)")
      .set_float = [&f](double v) { f.deprecated.kube_api_qps = static_cast<float>(v); };
  add("kube-api-burst", Kind::kInt32,
      "DEPRECATED: burst to use while talking with kubernetes apiserver." + ignored_with_config + " (default 100)")
      .set_int = [&f](std::int64_t v) { f.deprecated.kube_api_burst = static_cast<std::int32_t>(v); };
  duration_flag("pod-max-in-unschedulable-pods-duration",
                "DEPRECATED: the maximum time a pod can stay in unschedulablePods. If a pod stays in "
                "unschedulablePods for longer than this value, the pod will be moved from unschedulablePods to "
                "backoffQ or activeQ. This flag is deprecated and will be removed in a future version. (default 5m0s)",
                &f.deprecated.pod_max_in_unschedulable_pods_duration);
  for (std::size_t i = first_deprecated; i < t.size(); ++i) t[i].deprecated = true;

  section = "leader election";
  bool_flag("leader-elect", "Start a leader election client and gain leadership before executing the main loop. "
            "Enable this when running replicated components for high availability. (default true)",
            &f.leader_election.leader_elect);
  duration_flag("leader-elect-lease-duration", "The duration that non-leader candidates will wait after observing "
                "a leadership renewal until attempting to acquire leadership of a led but unrenewed leader slot. "
                "This is effectively the maximum duration that a leader can be stopped before it is replaced by "
                "another candidate. This is only applicable if leader election is enabled. (default 15s)",
                &f.leader_election.lease_duration);
  duration_flag("leader-elect-renew-deadline", "The interval between attempts by the acting master to renew a "
                "leadership slot before it stops leading. This must be less than the lease duration. This is only "
                "applicable if leader election is enabled. (default 10s)", &f.leader_election.renew_deadline);
  duration_flag("leader-elect-retry-period", "The duration the clients should wait between attempting acquisition "
                "and renewal of a leadership. This is only applicable if leader election is enabled. (default 2s)",
                &f.leader_election.retry_period);
  string_flag("leader-elect-resource-lock", "The type of resource object that is used for locking during leader "
              "election. Supported options are 'leases'. (default \"leases\")", &f.leader_election.resource_lock);
  string_flag("leader-elect-resource-name", "The name of resource object that is used for locking during leader "
              "election. (default \"kube-scheduler\")", &f.leader_election.resource_name);
  string_flag("leader-elect-resource-namespace", "The namespace of resource object that is used for locking during "
              "leader election. (default \"kube-system\")", &f.leader_election.resource_namespace);

  section = "feature gate";
  list_flag("emulated-version",
            "The versions different components emulate their capabilities (APIs, features, ...) of.\n"
            "If set, the component will emulate the behavior of this version instead of the underlying binary "
            "version.\nVersion format could only be major.minor, for example: "
            "'--emulated-version=wardle=1.2,kube=1.31'.\nOptions are: " +
                AllowedVersionRange(true) + "\nIf the component is not specified, defaults to \"kube\"",
            &f.emulated_version);
  list_flag("min-compatibility-version",
            "The min version of control plane components the server should be compatible with.\n"
            "Must be less or equal to the emulated-version. Version format could only be major.minor, for example: "
            "'--min-compatibility-version=wardle=1.2,kube=1.31'.\nOptions are: " +
                AllowedVersionRange(false) + "\nIf the component is not specified, defaults to \"kube\"",
            &f.min_compatibility_version);
  // Repeatable: every value adds its comma-separated items (component-base's
  // ColonSeparatedMultimapStringString), as a string list does here.
  list_flag("feature-gates",
            "Comma-separated list of component:key=value pairs that describe feature gates for alpha/experimental "
            "features of different components.\nIf the component is not specified, defaults to \"kube\". This flag "
            "can be repeatedly invoked. For example: --feature-gates 'wardle:featureA=true,wardle:featureB=false' "
            "--feature-gates 'kube:featureC=true'Options are:\n" + FeatureGateOptions(),
            &f.feature_gates);
  t.back().varname = "colonSeparatedMultimapStringString";

  section = "metrics";
  string_flag("show-hidden-metrics-for-version",
              "The previous version for which you want to show hidden metrics. Only the previous minor version "
              "is meaningful, other values will not be allowed. The format is <major>.<minor>, e.g.: '1.16'. The "
              "purpose of this format is make sure you have the opportunity to notice if the next release hides "
              "additional metrics, rather than being surprised when they are permanently removed in the release "
              "after that.",
              &f.metrics.show_hidden_metrics_for_version);
  list_flag("disabled-metrics",
            "This flag provides an escape hatch for misbehaving metrics. You must provide the fully qualified "
            "metric name in order to disable it. Disclaimer: disabling metrics is higher in precedence than "
            "showing hidden metrics.",
            &f.metrics.disabled_metrics);
  ignored_flag("allow-metric-labels", Kind::kStringList,
               "The map from metric-label to value allow-list of this label. The key's format is "
               "<MetricName>,<LabelName>. The value's format is <allowed_value>,<allowed_value>...e.g. "
               "metric1,label1='v1,v2,v3', metric1,label2='v1,v2,v3' metric2,label1='v1,v2,v3'. (default [])",
               "metric label allow-lists are not supported")
      .varname = "stringToString";
  ignored_flag("allow-metric-labels-manifest", Kind::kString,
               "The path to the manifest file that contains the allow-list mapping. The format of the file is the "
               "same as the flag --allow-metric-labels, i.e., \nallowListMapping:\n  \"metric1,label1\": "
               "\"value11,value12\"\n  \"metric2,label2\": \"\"\nNote that the flag --allow-metric-labels will "
               "override the manifest file.",
               "metric label allow-lists are not supported");

  section = "logs";
  string_flag("logging-format", "Sets the log format. Permitted formats: \"json\" (gated by LoggingBetaOptions), "
              "\"text\". (default \"text\")", &f.logging.format);
  duration_flag("log-flush-frequency", "Maximum number of seconds between log flushes (default 5s)",
                &f.logging.flush_frequency);
  {
    FlagSpec& s = add("v", Kind::kLevel, "number for the log level verbosity");
    s.shorthand = "v";
    s.set_int = [&f](std::int64_t v) { f.logging.verbosity = static_cast<int>(v); };
  }
  add("vmodule", Kind::kString, "comma-separated list of pattern=N settings for file-filtered logging (only works "
      "for text log format)")
      .set_string = [&f](const std::string& v) { f.logging.vmodule = v; };
  t.back().varname = "pattern=N,...";
  const std::string no_split = "split output streams are not supported";
  ignored_flag("log-text-split-stream", Kind::kBool,
               "[Alpha] In text format, write error messages to stderr and info messages to stdout. The default is "
               "to write a single stream to stdout. Enable the LoggingAlphaOptions feature gate to use this.",
               no_split);
  ignored_flag("log-text-info-buffer-size", Kind::kString, kInfoBufferSizeHelp("text"), no_split).varname = "quantity";
  ignored_flag("log-json-split-stream", Kind::kBool,
               "[Alpha] In JSON format, write error messages to stderr and info messages to stdout. The default is "
               "to write a single stream to stdout. Enable the LoggingAlphaOptions feature gate to use this.",
               no_split);
  ignored_flag("log-json-info-buffer-size", Kind::kString, kInfoBufferSizeHelp("JSON"), no_split).varname = "quantity";

  section = "global";
  add("version", Kind::kVersion,
      "--version, --version=raw prints version information and quits; --version=vX.Y.Z... sets the reported version")
      .set_string = [&f](const std::string& v) { f.version = v; };
  return t;
}

// pflag's FlagUsagesWrapped(0) of one section: flags sorted by name, the usage column aligned
// after the longest "  -v, --name type", newlines in a usage indented to that column.
std::string SectionUsage(std::vector<const FlagSpec*> flags) {
  std::sort(flags.begin(), flags.end(), [](const FlagSpec* a, const FlagSpec* b) { return a->name < b->name; });
  std::vector<std::string> heads;
  std::size_t maxlen = 0;
  for (const FlagSpec* flag : flags) {
    std::string head = flag->shorthand.empty() ? "      --" + flag->name : "  -" + flag->shorthand + ", --" + flag->name;
    if (!flag->varname.empty()) head += " " + flag->varname;
    maxlen = std::max(maxlen, head.size() + 1);  // + 1: pflag's '\x00' marker
    heads.push_back(std::move(head));
  }
  std::string out;
  for (std::size_t i = 0; i < flags.size(); ++i) {
    // fmt.Fprintln(buf, line[:sidx], spacing, usage): the operands joined by single spaces.
    out += heads[i] + " " + std::string(maxlen - heads[i].size() - 1 + 1, ' ') + " ";
    for (char c : flags[i]->help) {
      out += c;
      if (c == '\n') out += std::string(maxlen + 2, ' ');
    }
    out += '\n';
  }
  return out;
}

// cliflag's help function: cobra's Long text, the usage line, then every section.
std::string HelpText(const std::vector<FlagSpec>& table) {
  std::string out =
      "The Kubernetes scheduler is a control plane process which assigns\n"
      "Pods to Nodes. The scheduler determines which Nodes are valid placements for\n"
      "each Pod in the scheduling queue according to constraints and available\n"
      "resources. The scheduler then ranks each valid Node and binds the Pod to a\n"
      "suitable Node. Multiple different schedulers may be used within a cluster;\n"
      "kube-scheduler is the reference implementation.\n"
      "See [scheduling](https://kubernetes.io/docs/concepts/scheduling-eviction/)\n"
      "for more information about scheduling and the kube-scheduler component.\n\n"
      "Usage:\n  kube-scheduler [flags]\n";
  static const char* const kSections[] = {"misc", "secure serving", "authentication", "authorization",
                                          "deprecated", "leader election", "feature gate", "metrics",
                                          "logs", "global"};
  FlagSpec help_flag{"help", "h", Kind::kBool, "help for kube-scheduler", {}, {}, {}, {}, {}, {}, "", false,
                     "global", ""};
  for (const char* section : kSections) {
    std::vector<const FlagSpec*> flags;
    for (const FlagSpec& spec : table) {
      if (spec.section == section) flags.push_back(&spec);
    }
    if (std::string_view(section) == "global") flags.push_back(&help_flag);
    std::string title = section;
    title[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(title[0])));
    out += "\n" + title + " flags:\n\n" + SectionUsage(std::move(flags));
  }
  return out;
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
    case Kind::kInt32List:
      return absl::OkStatus();  // ParseCommandFlags converts each value
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<CommandFlags> ParseCommandFlags(int argc, const char* const* argv) {
  CommandFlags flags;
  std::vector<FlagSpec> table = FlagTable(flags);

  CLI::App app{"The Kubernetes scheduler (kube-scheduler-cpp, a C++ implementation of "
               "kube-scheduler v1.37.2)", "kube-scheduler"};
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
    } else if (spec.kind == Kind::kStringList || spec.kind == Kind::kInt32List) {
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
    flags.help_text = HelpText(table);
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
    } else if (spec.kind == Kind::kInt32List) {
      // pflag's int32Slice: strings.Split(value, ","), each strconv.ParseInt(d, 0, 32).
      std::vector<std::string> all;
      for (const std::string& value : list_values[i]) {
        for (std::size_t start = 0;;) {
          const std::size_t comma = value.find(',', start);
          const std::string item = value.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
          absl::StatusOr<std::int64_t> number = api::GoParseInt(item, 0, 32);
          if (!number.ok()) return InvalidArgument(spec, value, std::string(number.status().message()));
          all.push_back(std::to_string(*number));
          if (comma == std::string::npos) break;
          start = comma + 1;
        }
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
