#include "scheduler/flagz_values.h"

#include <algorithm>
#include <charconv>
#include <vector>

#include "api/go_duration.h"

namespace ksched::scheduler {
namespace {

std::string Bool(bool value) { return value ? "true" : "false"; }

// pflag's stringSlice String(): "[" + the values as one CSV record + "]".
std::string List(const std::vector<std::string>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ',';
    const std::string& v = values[i];
    // encoding/csv quotes a field with a comma, quote, space prefix or line break.
    const bool quote = v.find_first_of(",\"\r\n") != std::string::npos || (!v.empty() && v[0] == ' ');
    if (!quote) {
      out += v;
      continue;
    }
    out += '"';
    for (char c : v) {
      if (c == '"') out += '"';
      out += c;
    }
    out += '"';
  }
  out += ']';
  return out;
}

// strconv.FormatFloat(float64(f), 'g', -1, 32).
std::string Float32(float value) {
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), value, std::chars_format::general);
  if (ec != std::errc()) return "0";
  return std::string(buffer, end);
}

// component-base's ColonSeparatedMultimapStringString (AllowDefaultEmptyKey): each item keyed by
// its "component:" prefix ("" without one), stably sorted by key, written "key:value".
std::string FeatureGates(const std::vector<std::string>& items) {
  std::vector<std::pair<std::string, std::string>> pairs;
  for (const std::string& raw : items) {
    std::string item = raw;
    // strings.TrimSpace; empty items are skipped, as Set does.
    while (!item.empty() && item.front() == ' ') item.erase(item.begin());
    while (!item.empty() && item.back() == ' ') item.pop_back();
    if (item.empty()) continue;
    const std::size_t colon = item.find(':');
    if (colon == std::string::npos) {
      pairs.emplace_back("", item);
    } else {
      pairs.emplace_back(item.substr(0, colon), item.substr(colon + 1));
    }
  }
  std::stable_sort(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string out;
  for (const auto& [key, value] : pairs) {
    if (!out.empty()) out += ',';
    out += key + ":" + value;
  }
  return out;
}

}  // namespace

std::map<std::string, std::string> FlagzValues(const CommandFlags& f) {
  std::map<std::string, std::string> v;
  // misc
  v["config"] = f.config_file;
  v["write-config-to"] = f.write_config_to;
  v["master"] = f.master;
  // secure serving
  v["bind-address"] = f.serving.bind_address;
  v["cert-dir"] = f.serving.cert_dir;
  v["disable-http2-serving"] = std::string("false");
  v["http2-max-streams-per-connection"] = std::string("0");
  v["permit-address-sharing"] = Bool(f.serving.permit_address_sharing);
  v["permit-port-sharing"] = Bool(f.serving.permit_port_sharing);
  v["secure-port"] = std::to_string(f.serving.secure_port);
  v["tls-cert-file"] = f.serving.tls_cert_file;
  v["tls-cipher-suites"] = List(f.serving.tls_cipher_suites);
  v["tls-curve-preferences"] = std::string("[]");
  v["tls-min-version"] = f.serving.tls_min_version;
  v["tls-private-key-file"] = f.serving.tls_private_key_file;
  v["tls-sni-cert-key"] = std::string("[]");
  // authentication
  v["authentication-kubeconfig"] = f.authentication.kubeconfig;
  v["authentication-skip-lookup"] = Bool(f.authentication.skip_lookup);
  v["authentication-token-webhook-cache-ttl"] = api::FormatGoDuration(f.authentication.token_webhook_cache_ttl);
  v["authentication-tolerate-lookup-failure"] = Bool(f.authentication.tolerate_lookup_failure);
  v["client-ca-file"] = f.authentication.client_ca_file;
  v["requestheader-allowed-names"] = std::string("[]");
  v["requestheader-client-ca-file"] = std::string("");
  v["requestheader-extra-headers-prefix"] = std::string("[x-remote-extra-]");
  v["requestheader-group-headers"] = std::string("[x-remote-group]");
  v["requestheader-uid-headers"] = std::string("[]");
  v["requestheader-username-headers"] = std::string("[x-remote-user]");
  // authorization
  v["authorization-always-allow-paths"] = List(f.authorization.always_allow_paths);
  v["authorization-kubeconfig"] = f.authorization.kubeconfig;
  v["authorization-webhook-cache-authorized-ttl"] = api::FormatGoDuration(f.authorization.cache_authorized_ttl);
  v["authorization-webhook-cache-unauthorized-ttl"] = api::FormatGoDuration(f.authorization.cache_unauthorized_ttl);
  // deprecated
  v["profiling"] = Bool(f.deprecated.profiling);
  v["contention-profiling"] = Bool(f.deprecated.contention_profiling);
  v["kubeconfig"] = f.deprecated.kubeconfig;
  v["kube-api-content-type"] = f.deprecated.kube_api_content_type;
  v["kube-api-qps"] = Float32(f.deprecated.kube_api_qps);
  v["kube-api-burst"] = std::to_string(f.deprecated.kube_api_burst);
  v["pod-max-in-unschedulable-pods-duration"] =
      api::FormatGoDuration(f.deprecated.pod_max_in_unschedulable_pods_duration);
  // leader election
  v["leader-elect"] = Bool(f.leader_election.leader_elect);
  v["leader-elect-lease-duration"] = api::FormatGoDuration(f.leader_election.lease_duration);
  v["leader-elect-renew-deadline"] = api::FormatGoDuration(f.leader_election.renew_deadline);
  v["leader-elect-resource-lock"] = f.leader_election.resource_lock;
  v["leader-elect-resource-name"] = f.leader_election.resource_name;
  v["leader-elect-resource-namespace"] = f.leader_election.resource_namespace;
  v["leader-elect-retry-period"] = api::FormatGoDuration(f.leader_election.retry_period);
  // feature gate
  v["feature-gates"] = FeatureGates(f.feature_gates);
  v["emulated-version"] = std::string("[]");
  v["min-compatibility-version"] = std::string("[]");
  // metrics
  v["allow-metric-labels"] = std::string("[]");
  v["allow-metric-labels-manifest"] = std::string("");
  v["disabled-metrics"] = List(f.metrics.disabled_metrics);
  v["show-hidden-metrics-for-version"] = f.metrics.show_hidden_metrics_for_version;
  // logs
  v["log-flush-frequency"] = api::FormatGoDuration(f.logging.flush_frequency);
  v["log-json-info-buffer-size"] = std::string("0");
  v["log-json-split-stream"] = std::string("false");
  v["log-text-info-buffer-size"] = std::string("0");
  v["log-text-split-stream"] = std::string("false");
  v["logging-format"] = f.logging.format;
  v["v"] = std::to_string(f.logging.verbosity);
  v["vmodule"] = f.logging.vmodule;
  // global
  v["help"] = std::string("false");
  v["version"] = std::string("false");
  return v;
}

}  // namespace ksched::scheduler
