#include "config/internal_json.h"

#include <algorithm>
#include <string>
#include <utility>

#include "api/go_duration.h"
#include "config/plugin_args.h"
#include "config/strict_decoder.h"

namespace ksched::config {
namespace {

Value Duration(std::chrono::nanoseconds d) { return Value::String(api::FormatGoDuration(d)); }

Value Bytes(const std::string& bytes) {
  // encoding/json writes a nil []byte as null; an empty decoded one cannot be told apart.
  return bytes.empty() ? Value() : Value::String(EncodeBase64(bytes));
}

Value PluginRefs(const std::vector<framework::PluginRef>& plugins) {
  if (plugins.empty()) return Value();
  Value list = Value::EmptyList();
  for (const framework::PluginRef& plugin : plugins) {
    Value item;
    item.Set("Name", Value::String(plugin.name));
    item.Set("Weight", Value::Int(plugin.weight));
    list.Append(std::move(item));
  }
  return list;
}

Value Profile(const KubeSchedulerProfile& profile) {
  Value out;
  out.Set("SchedulerName", Value::String(profile.scheduler_name));
  out.Set("PercentageOfNodesToScore", profile.percentage_of_nodes_to_score.has_value()
                                          ? Value::Int(*profile.percentage_of_nodes_to_score)
                                          : Value());
  const framework::PluginsConfig& p = profile.plugins;
  Value plugins;
  plugins.Set("PreEnqueue", InternalPluginSetValue(p.pre_enqueue));
  plugins.Set("QueueSort", InternalPluginSetValue(p.queue_sort));
  plugins.Set("PreFilter", InternalPluginSetValue(p.pre_filter));
  plugins.Set("Filter", InternalPluginSetValue(p.filter));
  plugins.Set("PostFilter", InternalPluginSetValue(p.post_filter));
  plugins.Set("PreScore", InternalPluginSetValue(p.pre_score));
  plugins.Set("Score", InternalPluginSetValue(p.score));
  plugins.Set("Reserve", InternalPluginSetValue(p.reserve));
  plugins.Set("Permit", InternalPluginSetValue(p.permit));
  plugins.Set("PreBind", InternalPluginSetValue(p.pre_bind));
  plugins.Set("Bind", InternalPluginSetValue(p.bind));
  plugins.Set("PostBind", InternalPluginSetValue(p.post_bind));
  plugins.Set("MultiPoint", InternalPluginSetValue(p.multi_point));
  plugins.Set("PlacementGenerate", InternalPluginSetValue(p.placement_generate));
  plugins.Set("PlacementScore", InternalPluginSetValue(p.placement_score));
  plugins.Set("PodGroupPostFilter", InternalPluginSetValue(p.pod_group_post_filter));
  out.Set("Plugins", std::move(plugins));
  Value configs;
  if (!profile.plugin_config.empty()) {
    configs = Value::EmptyList();
    for (const PluginConfig& entry : profile.plugin_config) {
      Value item;
      item.Set("Name", Value::String(entry.name));
      item.Set("Args", InternalPluginArgsValue(entry));
      configs.Append(std::move(item));
    }
  }
  out.Set("PluginConfig", std::move(configs));
  return out;
}

Value ExtenderValue(const Extender& e) {
  Value out;
  out.Set("URLPrefix", Value::String(e.url_prefix));
  out.Set("FilterVerb", Value::String(e.filter_verb));
  out.Set("PreemptVerb", Value::String(e.preempt_verb));
  out.Set("PrioritizeVerb", Value::String(e.prioritize_verb));
  out.Set("Weight", Value::Int(e.weight));
  out.Set("BindVerb", Value::String(e.bind_verb));
  out.Set("EnableHTTPS", Value::Bool(e.enable_https));
  Value tls;
  if (e.tls_config.has_value()) {
    const ExtenderTLSConfig& t = *e.tls_config;
    tls.Set("Insecure", Value::Bool(t.insecure));
    tls.Set("ServerName", Value::String(t.server_name));
    tls.Set("CertFile", Value::String(t.cert_file));
    tls.Set("KeyFile", Value::String(t.key_file));
    tls.Set("CAFile", Value::String(t.ca_file));
    tls.Set("CertData", Bytes(t.cert_data));
    tls.Set("KeyData", Bytes(t.key_data));
    tls.Set("CAData", Bytes(t.ca_data));
  }
  out.Set("TLSConfig", std::move(tls));
  out.Set("HTTPTimeout", Duration(e.http_timeout));
  out.Set("NodeCacheCapable", Value::Bool(e.node_cache_capable));
  Value resources;
  if (!e.managed_resources.empty()) {
    resources = Value::EmptyList();
    for (const ExtenderManagedResource& r : e.managed_resources) {
      Value item;
      item.Set("Name", Value::String(r.name));
      item.Set("IgnoredByScheduler", Value::Bool(r.ignored_by_scheduler));
      resources.Append(std::move(item));
    }
  }
  out.Set("ManagedResources", std::move(resources));
  out.Set("Ignorable", Value::Bool(e.ignorable));
  return out;
}

}  // namespace

Value InternalPluginSetValue(const framework::PluginSet& set) {
  Value out;
  out.Set("Enabled", PluginRefs(set.enabled));
  std::vector<framework::PluginRef> disabled;
  for (const std::string& name : set.disabled) disabled.push_back({name, 0});
  out.Set("Disabled", PluginRefs(disabled));
  return out;
}

Value InternalPluginArgsValue(const PluginConfig& entry) {
  const PluginArgsCodec* codec = FindPluginArgsCodec(entry.name);
  if (codec != nullptr && (entry.args != nullptr || entry.raw.has_value())) {
    return codec->ToInternal(entry);
  }
  if (entry.raw.has_value()) return WithSortedKeys(*entry.raw);
  return Value();
}

Value WithSortedKeys(const Value& value) {
  if (value.is_list()) {
    Value list = Value::EmptyList();
    for (const Value& item : value.as_list()) list.Append(WithSortedKeys(item));
    return list;
  }
  if (!value.is_map()) return value;
  std::vector<const MapEntry*> entries;
  for (const MapEntry& entry : value.as_map()) entries.push_back(&entry);
  std::sort(entries.begin(), entries.end(),
            [](const MapEntry* a, const MapEntry* b) { return a->key < b->key; });
  Value map = Value::EmptyMap();
  for (const MapEntry* entry : entries) map.Set(entry->key, WithSortedKeys(entry->value));
  return map;
}

Value InternalConfigValue(const KubeSchedulerConfiguration& config) {
  Value out;
  if (!config.api_version.empty()) out.Set("apiVersion", Value::String(config.api_version));
  out.Set("Parallelism", Value::Int(config.parallelism));
  const LeaderElectionConfiguration& le = config.leader_election;
  Value leader;
  leader.Set("LeaderElect", Value::Bool(le.leader_elect));
  leader.Set("LeaseDuration", Duration(le.lease_duration));
  leader.Set("RenewDeadline", Duration(le.renew_deadline));
  leader.Set("RetryPeriod", Duration(le.retry_period));
  leader.Set("ResourceLock", Value::String(le.resource_lock));
  leader.Set("ResourceName", Value::String(le.resource_name));
  leader.Set("ResourceNamespace", Value::String(le.resource_namespace));
  out.Set("LeaderElection", std::move(leader));
  const ClientConnectionConfiguration& cc = config.client_connection;
  Value client;
  client.Set("Kubeconfig", Value::String(cc.kubeconfig));
  client.Set("AcceptContentTypes", Value::String(cc.accept_content_types));
  client.Set("ContentType", Value::String(cc.content_type));
  client.Set("QPS", Float32Value(cc.qps));
  client.Set("Burst", Value::Int(cc.burst));
  out.Set("ClientConnection", std::move(client));
  out.Set("EnableProfiling", Value::Bool(config.enable_profiling));
  out.Set("EnableContentionProfiling", Value::Bool(config.enable_contention_profiling));
  out.Set("PercentageOfNodesToScore", config.percentage_of_nodes_to_score.has_value()
                                          ? Value::Int(*config.percentage_of_nodes_to_score)
                                          : Value());
  out.Set("PodInitialBackoffSeconds", Value::Int(config.pod_initial_backoff_seconds));
  out.Set("PodMaxBackoffSeconds", Value::Int(config.pod_max_backoff_seconds));
  Value profiles;
  if (!config.profiles.empty()) {
    profiles = Value::EmptyList();
    for (const KubeSchedulerProfile& profile : config.profiles) profiles.Append(Profile(profile));
  }
  out.Set("Profiles", std::move(profiles));
  Value extenders;
  if (!config.extenders.empty()) {
    extenders = Value::EmptyList();
    for (const Extender& e : config.extenders) extenders.Append(ExtenderValue(e));
  }
  out.Set("Extenders", std::move(extenders));
  out.Set("DelayCacheUntilActive", Value::Bool(config.delay_cache_until_active));
  return out;
}

}  // namespace ksched::config
