#include "config/write.h"

#include <algorithm>
#include <set>
#include <utility>

#include "api/go_duration.h"
#include "config/internal_json.h"
#include "config/plugin_args.h"
#include "config/strict_decoder.h"
#include "config/value_writer.h"

namespace ksched::config {
namespace {

Value Duration(std::chrono::nanoseconds d) { return Value::String(api::FormatGoDuration(d)); }

Value PluginSetV1(const framework::PluginSet& set) {
  Value out = Value::EmptyMap();
  if (!set.enabled.empty()) {
    Value enabled = Value::EmptyList();
    for (const framework::PluginRef& plugin : set.enabled) {
      Value item;
      item.Set("name", Value::String(plugin.name));
      item.Set("weight", Value::Int(plugin.weight));
      enabled.Append(std::move(item));
    }
    out.Set("enabled", std::move(enabled));
  }
  if (!set.disabled.empty()) {
    Value disabled = Value::EmptyList();
    for (const std::string& name : set.disabled) {
      Value item;
      item.Set("name", Value::String(name));
      item.Set("weight", Value::Int(0));
      disabled.Append(std::move(item));
    }
    out.Set("disabled", std::move(disabled));
  }
  return out;
}

Value PluginArgsV1(const PluginConfig& entry) {
  const PluginArgsCodec* codec = FindPluginArgsCodec(entry.name);
  if (codec != nullptr && (entry.args != nullptr || entry.raw.has_value())) {
    // TypeMeta first (kind, then apiVersion), as encoding/json walks the struct.
    Value args;
    args.Set("kind", Value::String(std::string(codec->kind())));
    args.Set("apiVersion", Value::String(std::string(kApiVersionV1)));
    Value fields = codec->ToV1(entry);
    for (MapEntry& field : fields.as_map()) {
      args.Set(field.key, std::move(field.value));
    }
    return args;
  }
  // Held as the JSON its YAML conversion produced: keys sorted.
  return entry.raw.has_value() ? WithSortedKeys(*entry.raw) : Value();
}

Value ProfileV1(const KubeSchedulerProfile& profile) {
  Value out;
  out.Set("schedulerName", Value::String(profile.scheduler_name));
  if (profile.percentage_of_nodes_to_score.has_value()) {
    out.Set("percentageOfNodesToScore", Value::Int(*profile.percentage_of_nodes_to_score));
  }
  const framework::PluginsConfig& p = profile.plugins;
  Value plugins;
  plugins.Set("preEnqueue", PluginSetV1(p.pre_enqueue));
  plugins.Set("queueSort", PluginSetV1(p.queue_sort));
  plugins.Set("preFilter", PluginSetV1(p.pre_filter));
  plugins.Set("filter", PluginSetV1(p.filter));
  plugins.Set("postFilter", PluginSetV1(p.post_filter));
  plugins.Set("preScore", PluginSetV1(p.pre_score));
  plugins.Set("score", PluginSetV1(p.score));
  plugins.Set("reserve", PluginSetV1(p.reserve));
  plugins.Set("permit", PluginSetV1(p.permit));
  plugins.Set("preBind", PluginSetV1(p.pre_bind));
  plugins.Set("bind", PluginSetV1(p.bind));
  plugins.Set("postBind", PluginSetV1(p.post_bind));
  plugins.Set("multiPoint", PluginSetV1(p.multi_point));
  plugins.Set("placementGenerate", PluginSetV1(p.placement_generate));
  plugins.Set("placementScore", PluginSetV1(p.placement_score));
  plugins.Set("podGroupPostFilter", PluginSetV1(p.pod_group_post_filter));
  out.Set("plugins", std::move(plugins));
  if (!profile.plugin_config.empty()) {
    Value configs = Value::EmptyList();
    for (const PluginConfig& entry : profile.plugin_config) {
      Value item;
      item.Set("name", Value::String(entry.name));
      item.Set("args", PluginArgsV1(entry));
      configs.Append(std::move(item));
    }
    out.Set("pluginConfig", std::move(configs));
  }
  return out;
}

Value ExtenderV1(const Extender& e) {
  Value out;
  out.Set("urlPrefix", Value::String(e.url_prefix));
  if (!e.filter_verb.empty()) out.Set("filterVerb", Value::String(e.filter_verb));
  if (!e.preempt_verb.empty()) out.Set("preemptVerb", Value::String(e.preempt_verb));
  if (!e.prioritize_verb.empty()) out.Set("prioritizeVerb", Value::String(e.prioritize_verb));
  if (e.weight != 0) out.Set("weight", Value::Int(e.weight));
  if (!e.bind_verb.empty()) out.Set("bindVerb", Value::String(e.bind_verb));
  if (e.enable_https) out.Set("enableHTTPS", Value::Bool(true));
  if (e.tls_config.has_value()) {
    const ExtenderTLSConfig& t = *e.tls_config;
    Value tls = Value::EmptyMap();
    if (t.insecure) tls.Set("insecure", Value::Bool(true));
    if (!t.server_name.empty()) tls.Set("serverName", Value::String(t.server_name));
    if (!t.cert_file.empty()) tls.Set("certFile", Value::String(t.cert_file));
    if (!t.key_file.empty()) tls.Set("keyFile", Value::String(t.key_file));
    if (!t.ca_file.empty()) tls.Set("caFile", Value::String(t.ca_file));
    if (!t.cert_data.empty()) tls.Set("certData", Value::String(EncodeBase64(t.cert_data)));
    if (!t.key_data.empty()) tls.Set("keyData", Value::String(EncodeBase64(t.key_data)));
    if (!t.ca_data.empty()) tls.Set("caData", Value::String(EncodeBase64(t.ca_data)));
    out.Set("tlsConfig", std::move(tls));
  }
  // A struct: omitempty never drops it.
  out.Set("httpTimeout", Duration(e.http_timeout));
  if (e.node_cache_capable) out.Set("nodeCacheCapable", Value::Bool(true));
  if (!e.managed_resources.empty()) {
    Value resources = Value::EmptyList();
    for (const ExtenderManagedResource& r : e.managed_resources) {
      Value item;
      item.Set("name", Value::String(r.name));
      if (r.ignored_by_scheduler) item.Set("ignoredByScheduler", Value::Bool(true));
      resources.Append(std::move(item));
    }
    out.Set("managedResources", std::move(resources));
  }
  if (e.ignorable) out.Set("ignorable", Value::Bool(true));
  return out;
}

}  // namespace

Value ToV1Value(const KubeSchedulerConfiguration& config) {
  Value out;
  out.Set("kind", Value::String(std::string(kKind)));
  out.Set("apiVersion", Value::String(std::string(kApiVersionV1)));
  out.Set("parallelism", Value::Int(config.parallelism));
  const LeaderElectionConfiguration& le = config.leader_election;
  Value leader;
  leader.Set("leaderElect", Value::Bool(le.leader_elect));
  leader.Set("leaseDuration", Duration(le.lease_duration));
  leader.Set("renewDeadline", Duration(le.renew_deadline));
  leader.Set("retryPeriod", Duration(le.retry_period));
  leader.Set("resourceLock", Value::String(le.resource_lock));
  leader.Set("resourceName", Value::String(le.resource_name));
  leader.Set("resourceNamespace", Value::String(le.resource_namespace));
  out.Set("leaderElection", std::move(leader));
  const ClientConnectionConfiguration& cc = config.client_connection;
  Value client;
  client.Set("kubeconfig", Value::String(cc.kubeconfig));
  client.Set("acceptContentTypes", Value::String(cc.accept_content_types));
  client.Set("contentType", Value::String(cc.content_type));
  client.Set("qps", Float32Value(cc.qps));
  client.Set("burst", Value::Int(cc.burst));
  out.Set("clientConnection", std::move(client));
  out.Set("enableProfiling", Value::Bool(config.enable_profiling));
  out.Set("enableContentionProfiling", Value::Bool(config.enable_contention_profiling));
  if (config.percentage_of_nodes_to_score.has_value()) {
    out.Set("percentageOfNodesToScore", Value::Int(*config.percentage_of_nodes_to_score));
  }
  out.Set("podInitialBackoffSeconds", Value::Int(config.pod_initial_backoff_seconds));
  out.Set("podMaxBackoffSeconds", Value::Int(config.pod_max_backoff_seconds));
  if (!config.profiles.empty()) {
    Value profiles = Value::EmptyList();
    for (const KubeSchedulerProfile& profile : config.profiles) profiles.Append(ProfileV1(profile));
    out.Set("profiles", std::move(profiles));
  }
  if (!config.extenders.empty()) {
    Value extenders = Value::EmptyList();
    for (const Extender& e : config.extenders) extenders.Append(ExtenderV1(e));
    out.Set("extenders", std::move(extenders));
  }
  if (config.delay_cache_until_active) out.Set("delayCacheUntilActive", Value::Bool(true));
  return out;
}

std::string WriteConfigYaml(const KubeSchedulerConfiguration& config) {
  return ToYaml(ToV1Value(config));
}

std::string ConfigzJson(const KubeSchedulerConfiguration& config) {
  Value root;
  root.Set("componentconfig", ToV1Value(config));
  return ToJson(root);
}

KubeSchedulerConfiguration WithCompletedProfiles(KubeSchedulerConfiguration config) {
  for (KubeSchedulerProfile& profile : config.profiles) {
    const framework::PluginsConfig& p = profile.plugins;
    std::set<std::string, std::less<>> needed;
    for (const framework::PluginSet* set :
         {&p.pre_enqueue, &p.queue_sort, &p.pre_filter, &p.filter, &p.post_filter, &p.pre_score,
          &p.score, &p.reserve, &p.permit, &p.pre_bind, &p.bind, &p.post_bind, &p.multi_point,
          &p.placement_generate, &p.placement_score, &p.pod_group_post_filter}) {
      for (const framework::PluginRef& plugin : set->enabled) needed.insert(plugin.name);
    }
    std::vector<PluginConfig> kept;
    for (PluginConfig& entry : profile.plugin_config) {
      const bool has_args = entry.args != nullptr || entry.raw.has_value();
      if (has_args && needed.contains(entry.name)) kept.push_back(std::move(entry));
    }
    std::stable_sort(kept.begin(), kept.end(),
                     [](const PluginConfig& a, const PluginConfig& b) { return a.name < b.name; });
    profile.plugin_config = std::move(kept);
  }
  return config;
}

}  // namespace ksched::config
