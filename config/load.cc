#include "config/load.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <utility>

#include "config/default_plugins.h"
#include "config/plugin_args.h"
#include "config/strict_decoder.h"
#include "config/validation.h"
#include "config/yaml_reader.h"

namespace ksched::config {
namespace {

// upstream's scheme name in "no kind ... is registered" errors.
constexpr std::string_view kSchemeName = "pkg/runtime/scheme.go:111";
constexpr std::string_view kFindKindType =
    "struct { APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; Kind string "
    "\"json:\\\"kind,omitempty\\\"\" }";

// What the file says, before defaults: unset pointers are nullopt.
struct DecodedProfile {
  std::optional<std::string> scheduler_name;
  std::optional<std::int32_t> percentage_of_nodes_to_score;
  framework::PluginsConfig plugins;
  struct Entry {
    std::string name;
    Value args;  // null: none
  };
  std::vector<Entry> plugin_config;
};

struct DecodedConfig {
  std::optional<std::int32_t> parallelism;
  std::optional<bool> leader_elect;
  LeaderElectionConfiguration leader_election;  // leader_elect unused
  ClientConnectionConfiguration client_connection;
  std::optional<bool> enable_profiling;
  std::optional<bool> enable_contention_profiling;
  std::optional<std::int32_t> percentage_of_nodes_to_score;
  std::optional<std::int64_t> pod_initial_backoff_seconds;
  std::optional<std::int64_t> pod_max_backoff_seconds;
  std::vector<DecodedProfile> profiles;
  std::vector<Extender> extenders;
  bool delay_cache_until_active = false;
};

std::string NotRegistered(std::string_view kind, std::string_view api_version) {
  return "no kind \"" + std::string(kind) + "\" is registered for version \"" +
         std::string(api_version) + "\" in scheme \"" + std::string(kSchemeName) + "\"";
}

// The apiVersion/kind probe upstream runs before decoding (json serializer Interpret).
struct TypeMeta {
  std::string api_version;
  std::string kind;
};

absl::StatusOr<TypeMeta> ReadTypeMeta(const Value& root) {
  TypeMeta meta;
  if (root.is_null()) return meta;
  if (!root.is_map()) {
    return absl::InvalidArgumentError(
        "couldn't get version/kind; json parse error: json: cannot unmarshal " +
        std::string(JsonKindName(root.kind())) + " into Go value of type " +
        std::string(kFindKindType));
  }
  for (const auto& [key, field] : std::vector<std::pair<std::string_view, std::string*>>{
           {"apiVersion", &meta.api_version}, {"kind", &meta.kind}}) {
    const Value* value = root.Find(key);
    if (value == nullptr || value->is_null()) continue;
    if (!value->is_string()) {
      return absl::InvalidArgumentError(
          "couldn't get version/kind; json parse error: json: cannot unmarshal " +
          std::string(JsonKindName(value->kind())) + " into Go struct field ." +
          std::string(key) + " of type string");
    }
    *field = value->as_string();
  }
  return meta;
}

bool IsServedVersion(std::string_view api_version) {
  return api_version == kApiVersionV1 || api_version == kApiVersionV1beta3 ||
         api_version == kApiVersionV1beta2 || api_version == kApiVersionV1beta1;
}

// Decodes the top-level object of one apiVersion into DecodedConfig.
class ConfigDecoder {
 public:
  ConfigDecoder(std::string_view api_version, std::vector<std::string>* notes)
      : api_version_(api_version),
        go_package_(api_version.substr(api_version.rfind('/') + 1)),
        is_v1_(api_version == kApiVersionV1),
        is_legacy_(api_version == kApiVersionV1beta2 || api_version == kApiVersionV1beta1),
        notes_(notes) {}

  void Decode(const Value& root, DecodedConfig& out) {
    decoder_.Object(root, Type("KubeSchedulerConfiguration"), "KubeSchedulerConfiguration",
                    [&](std::string_view key, const Value& v) { return TopField(key, v, out); });
  }

  StrictDecoder& decoder() { return decoder_; }

 private:
  std::string Type(std::string_view name) const { return go_package_ + "." + std::string(name); }

  bool TopField(std::string_view key, const Value& v, DecodedConfig& out) {
    StrictDecoder& d = decoder_;
    if (key == "apiVersion" || key == "kind") {
      std::string ignored;
      d.String(v, ignored);
      return true;
    }
    if (key == "parallelism") return d.OptionalInt32(v, out.parallelism), true;
    if (key == "leaderElection") return LeaderElection(v, out), true;
    if (key == "clientConnection") return ClientConnection(v, out.client_connection), true;
    // Fields of the embedded DebuggingConfiguration.
    if (key == "enableProfiling") {
      d.InEmbedded("DebuggingConfiguration", [&] { d.OptionalBool(v, out.enable_profiling); });
      return true;
    }
    if (key == "enableContentionProfiling") {
      d.InEmbedded("DebuggingConfiguration",
                   [&] { d.OptionalBool(v, out.enable_contention_profiling); });
      return true;
    }
    if (key == "percentageOfNodesToScore") {
      d.OptionalInt32(v, out.percentage_of_nodes_to_score);
      return true;
    }
    if (key == "podInitialBackoffSeconds") {
      d.OptionalInt64(v, out.pod_initial_backoff_seconds);
      return true;
    }
    if (key == "podMaxBackoffSeconds") return d.OptionalInt64(v, out.pod_max_backoff_seconds), true;
    if (key == "profiles") {
      // A profiles list replaces the one decoded so far (Go decodes into a fresh slice).
      std::vector<DecodedProfile> profiles;
      d.List(v, "[]" + Type("KubeSchedulerProfile"), [&](std::size_t, const Value& element) {
        DecodedProfile profile;
        Profile(element, profile);
        profiles.push_back(std::move(profile));
      });
      if (!v.is_null()) out.profiles = std::move(profiles);
      return true;
    }
    if (key == "extenders") {
      std::vector<Extender> extenders;
      d.List(v, "[]" + Type("Extender"), [&](std::size_t, const Value& element) {
        Extender extender;
        DecodeExtender(element, extender);
        extenders.push_back(std::move(extender));
      });
      if (!v.is_null()) out.extenders = std::move(extenders);
      return true;
    }
    if (key == "delayCacheUntilActive" && is_v1_) {
      d.Bool(v, out.delay_cache_until_active);
      return true;
    }
    if ((key == "healthzBindAddress" || key == "metricsBindAddress") && is_legacy_) {
      std::string ignored;
      d.String(v, ignored);
      if (notes_ != nullptr) {
        notes_->push_back(std::string(key) +
                          " is ignored (removed from KubeSchedulerConfiguration in v1beta3; see "
                          "the --bind-address and --secure-port flags)");
      }
      return true;
    }
    return false;
  }

  void LeaderElection(const Value& v, DecodedConfig& out) {
    StrictDecoder& d = decoder_;
    LeaderElectionConfiguration& le = out.leader_election;
    d.Object(v, "v1alpha1.LeaderElectionConfiguration", "LeaderElectionConfiguration",
             [&](std::string_view key, const Value& f) {
               if (key == "leaderElect") return d.OptionalBool(f, out.leader_elect), true;
               if (key == "leaseDuration") return d.Duration(f, le.lease_duration), true;
               if (key == "renewDeadline") return d.Duration(f, le.renew_deadline), true;
               if (key == "retryPeriod") return d.Duration(f, le.retry_period), true;
               if (key == "resourceLock") return d.String(f, le.resource_lock), true;
               if (key == "resourceName") return d.String(f, le.resource_name), true;
               if (key == "resourceNamespace") return d.String(f, le.resource_namespace), true;
               return false;
             });
  }

  void ClientConnection(const Value& v, ClientConnectionConfiguration& out) {
    StrictDecoder& d = decoder_;
    d.Object(v, "v1alpha1.ClientConnectionConfiguration", "ClientConnectionConfiguration",
             [&](std::string_view key, const Value& f) {
               if (key == "kubeconfig") return d.String(f, out.kubeconfig), true;
               if (key == "acceptContentTypes") return d.String(f, out.accept_content_types), true;
               if (key == "contentType") return d.String(f, out.content_type), true;
               if (key == "qps") return d.Float32(f, out.qps), true;
               if (key == "burst") return d.Int32(f, out.burst), true;
               return false;
             });
  }

  void Profile(const Value& v, DecodedProfile& profile) {
    StrictDecoder& d = decoder_;
    d.Object(v, Type("KubeSchedulerProfile"), "KubeSchedulerProfile",
             [&](std::string_view key, const Value& f) {
               if (key == "schedulerName") return d.OptionalString(f, profile.scheduler_name), true;
               if (key == "percentageOfNodesToScore" && is_v1_) {
                 d.OptionalInt32(f, profile.percentage_of_nodes_to_score);
                 return true;
               }
               if (key == "plugins") return Plugins(f, profile.plugins), true;
               if (key == "pluginConfig") {
                 std::vector<DecodedProfile::Entry> entries;
                 d.List(f, "[]" + Type("PluginConfig"), [&](std::size_t, const Value& element) {
                   DecodedProfile::Entry entry;
                   d.Object(element, Type("PluginConfig"), "PluginConfig",
                            [&](std::string_view k, const Value& field) {
                              if (k == "name") return d.String(field, entry.name), true;
                              if (k == "args") {
                                entry.args = field;  // runtime.RawExtension: any JSON
                                return true;
                              }
                              return false;
                            });
                   entries.push_back(std::move(entry));
                 });
                 if (!f.is_null()) profile.plugin_config = std::move(entries);
                 return true;
               }
               return false;
             });
  }

  void Plugins(const Value& v, framework::PluginsConfig& plugins) {
    StrictDecoder& d = decoder_;
    const std::pair<std::string_view, framework::PluginSet*> points[] = {
        {"preEnqueue", &plugins.pre_enqueue}, {"queueSort", &plugins.queue_sort},
        {"preFilter", &plugins.pre_filter},   {"filter", &plugins.filter},
        {"postFilter", &plugins.post_filter}, {"preScore", &plugins.pre_score},
        {"score", &plugins.score},            {"reserve", &plugins.reserve},
        {"permit", &plugins.permit},          {"preBind", &plugins.pre_bind},
        {"bind", &plugins.bind},              {"postBind", &plugins.post_bind},
        {"multiPoint", &plugins.multi_point}};
    // v1 only (added in v1.37; the older versions' types never had them).
    const std::pair<std::string_view, framework::PluginSet*> pod_group_points[] = {
        {"placementGenerate", &plugins.placement_generate},
        {"placementScore", &plugins.placement_score},
        {"podGroupPostFilter", &plugins.pod_group_post_filter}};
    d.Object(v, Type("Plugins"), "Plugins", [&](std::string_view key, const Value& f) {
      for (const auto& [name, set] : points) {
        if (key != name) continue;
        PluginSet(f, *set);
        return true;
      }
      if (!is_v1_) return false;
      for (const auto& [name, set] : pod_group_points) {
        if (key != name) continue;
        PluginSet(f, *set);
        return true;
      }
      return false;
    });
  }

  void PluginSet(const Value& v, framework::PluginSet& set) {
    StrictDecoder& d = decoder_;
    d.Object(v, Type("PluginSet"), "PluginSet", [&](std::string_view key, const Value& f) {
      if (key != "enabled" && key != "disabled") return false;
      std::vector<framework::PluginRef> plugins;
      d.List(f, "[]" + Type("Plugin"), [&](std::size_t, const Value& element) {
        framework::PluginRef plugin;
        d.Object(element, Type("Plugin"), "Plugin", [&](std::string_view k, const Value& field) {
          if (k == "name") return d.String(field, plugin.name), true;
          if (k == "weight") return d.Int32(field, plugin.weight), true;
          return false;
        });
        plugins.push_back(std::move(plugin));
      });
      if (f.is_null()) return true;
      if (key == "enabled") {
        set.enabled = std::move(plugins);
      } else {
        set.disabled.clear();
        for (framework::PluginRef& plugin : plugins) set.disabled.push_back(std::move(plugin.name));
      }
      return true;
    });
  }

  void DecodeExtender(const Value& v, Extender& e) {
    StrictDecoder& d = decoder_;
    d.Object(v, Type("Extender"), "Extender", [&](std::string_view key, const Value& f) {
      if (key == "urlPrefix") return d.String(f, e.url_prefix), true;
      if (key == "filterVerb") return d.String(f, e.filter_verb), true;
      if (key == "preemptVerb") return d.String(f, e.preempt_verb), true;
      if (key == "prioritizeVerb") return d.String(f, e.prioritize_verb), true;
      if (key == "weight") return d.Int64(f, e.weight), true;
      if (key == "bindVerb") return d.String(f, e.bind_verb), true;
      if (key == "enableHTTPS") return d.Bool(f, e.enable_https), true;
      if (key == "httpTimeout") return d.Duration(f, e.http_timeout), true;
      if (key == "nodeCacheCapable") return d.Bool(f, e.node_cache_capable), true;
      if (key == "ignorable") return d.Bool(f, e.ignorable), true;
      if (key == "tlsConfig") {
        if (f.is_null()) return true;
        ExtenderTLSConfig tls;
        d.Object(f, "v1.ExtenderTLSConfig", "ExtenderTLSConfig",
                 [&](std::string_view k, const Value& t) {
                   if (k == "insecure") return d.Bool(t, tls.insecure), true;
                   if (k == "serverName") return d.String(t, tls.server_name), true;
                   if (k == "certFile") return d.String(t, tls.cert_file), true;
                   if (k == "keyFile") return d.String(t, tls.key_file), true;
                   if (k == "caFile") return d.String(t, tls.ca_file), true;
                   if (k == "certData") return d.Bytes(t, tls.cert_data), true;
                   if (k == "keyData") return d.Bytes(t, tls.key_data), true;
                   if (k == "caData") return d.Bytes(t, tls.ca_data), true;
                   return false;
                 });
        e.tls_config = std::move(tls);
        return true;
      }
      if (key == "managedResources") {
        std::vector<ExtenderManagedResource> resources;
        d.List(f, "[]v1.ExtenderManagedResource", [&](std::size_t, const Value& element) {
          ExtenderManagedResource resource;
          d.Object(element, "v1.ExtenderManagedResource", "ExtenderManagedResource",
                   [&](std::string_view k, const Value& r) {
                     if (k == "name") return d.String(r, resource.name), true;
                     if (k == "ignoredByScheduler") {
                       return d.Bool(r, resource.ignored_by_scheduler), true;
                     }
                     return false;
                   });
          resources.push_back(std::move(resource));
        });
        if (!f.is_null()) e.managed_resources = std::move(resources);
        return true;
      }
      return false;
    });
  }

  std::string api_version_;
  std::string go_package_;
  bool is_v1_;
  bool is_legacy_;
  std::vector<std::string>* notes_;
  StrictDecoder decoder_;
};

// upstream PluginConfig.decodeNestedObjects for one entry: typed args for a plugin with an args
// kind, the args as written otherwise. A non-strict error ends the load; strict errors (unknown
// fields) are returned in `strict_error` for the caller to aggregate.
absl::Status DecodePluginArgs(std::string_view file_version, std::size_t profile_index,
                              std::size_t entry_index, const DecodedProfile::Entry& entry,
                              const ConfigFeatureGates& gates, PluginConfig& out,
                              std::optional<std::string>& strict_error) {
  out.name = entry.name;
  const PluginArgsCodec* codec = FindPluginArgsCodec(entry.name);
  if (codec == nullptr) {
    if (!entry.args.is_null()) out.raw = entry.args;
    return absl::OkStatus();
  }
  const std::string where = "decoding .profiles[" + std::to_string(profile_index) +
                            "].pluginConfig[" + std::to_string(entry_index) + "]: ";
  const std::string decoding_args = "decoding args for plugin " + entry.name + ": ";
  absl::StatusOr<TypeMeta> meta = ReadTypeMeta(entry.args);
  if (!meta.ok()) {
    return absl::InvalidArgumentError(where + decoding_args + std::string(meta.status().message()));
  }
  const std::string kind = meta->kind.empty() ? std::string(codec->kind()) : meta->kind;
  const std::string version =
      meta->api_version.empty() ? std::string(file_version) : meta->api_version;
  if ((version != file_version && version != kApiVersionV1) || !IsKnownArgsKind(kind)) {
    return absl::InvalidArgumentError(where + decoding_args + NotRegistered(kind, version));
  }
  if (kind != codec->kind()) {
    return absl::InvalidArgumentError(where + "args for plugin " + entry.name +
                                      " were not of type " + std::string(codec->kind()) + "." +
                                      std::string(kGroupName) + ", got " + kind + "." +
                                      std::string(kGroupName));
  }
  StrictDecoder decoder;
  codec->Decode(entry.args, decoder, out, gates);
  if (absl::Status status = decoder.Result(); !status.ok()) {
    return absl::InvalidArgumentError(where + decoding_args + std::string(status.message()));
  }
  if (!decoder.strict_errors().empty()) {
    std::string joined;
    for (const std::string& error : decoder.strict_errors()) {
      if (!joined.empty()) joined += ", ";
      joined += error;
    }
    strict_error = where + "strict decoding error: " + decoding_args +
                   "strict decoding error: " + joined;
  }
  return absl::OkStatus();
}

// upstream pluginsNames: every plugin enabled anywhere (but podGroupPostFilter, which upstream's
// list leaves out), sorted, once.
std::vector<std::string> EnabledPluginNames(const framework::PluginsConfig& plugins) {
  std::set<std::string> names;
  for (const framework::PluginSet* set :
       {&plugins.multi_point, &plugins.pre_filter, &plugins.filter, &plugins.post_filter,
        &plugins.reserve, &plugins.pre_score, &plugins.score, &plugins.pre_bind, &plugins.bind,
        &plugins.post_bind, &plugins.permit, &plugins.pre_enqueue, &plugins.queue_sort,
        &plugins.placement_generate, &plugins.placement_score}) {
    for (const framework::PluginRef& plugin : set->enabled) names.insert(plugin.name);
  }
  return {names.begin(), names.end()};
}

// upstream SetDefaults_KubeSchedulerConfiguration (and setDefaults_KubeSchedulerProfile) over the
// decoded file; the typed args were defaulted as they were decoded.
KubeSchedulerConfiguration ApplyDefaults(std::string_view api_version, DecodedConfig decoded,
                                         std::vector<std::vector<PluginConfig>> plugin_configs,
                                         const ConfigFeatureGates& gates) {
  KubeSchedulerConfiguration config;
  config.api_version = std::string(api_version);
  config.parallelism = decoded.parallelism.value_or(16);

  if (decoded.profiles.empty()) {
    decoded.profiles.emplace_back();
    plugin_configs.emplace_back();
  }
  if (decoded.profiles.size() == 1 && !decoded.profiles[0].scheduler_name.has_value()) {
    decoded.profiles[0].scheduler_name = std::string(kDefaultSchedulerName);
  }
  const framework::PluginsConfig defaults = DefaultPluginsFor(api_version, gates);
  for (std::size_t i = 0; i < decoded.profiles.size(); ++i) {
    DecodedProfile& in = decoded.profiles[i];
    KubeSchedulerProfile profile;
    profile.scheduler_name = in.scheduler_name.value_or("");
    profile.percentage_of_nodes_to_score = in.percentage_of_nodes_to_score;
    profile.plugins = MergePlugins(defaults, in.plugins);
    profile.plugin_config = std::move(plugin_configs[i]);
    std::set<std::string, std::less<>> existing;
    for (const PluginConfig& entry : profile.plugin_config) existing.insert(entry.name);
    for (const std::string& name : EnabledPluginNames(profile.plugins)) {
      if (existing.contains(name)) continue;
      const PluginArgsCodec* codec = FindPluginArgsCodec(name);
      if (codec == nullptr) continue;  // out-of-tree, or a plugin without args
      PluginConfig entry;
      entry.name = name;
      StrictDecoder unused;
      codec->Decode(Value(), unused, entry, gates);
      profile.plugin_config.push_back(std::move(entry));
    }
    config.profiles.push_back(std::move(profile));
  }

  config.percentage_of_nodes_to_score = decoded.percentage_of_nodes_to_score.value_or(0);

  LeaderElectionConfiguration& le = config.leader_election;
  le = decoded.leader_election;
  if (le.resource_lock.empty()) le.resource_lock = "leases";
  if (le.resource_namespace.empty()) le.resource_namespace = "kube-system";
  if (le.resource_name.empty()) le.resource_name = "kube-scheduler";
  // component-base RecommendedDefaultLeaderElectionConfiguration.
  using std::chrono::seconds;
  if (le.lease_duration.count() == 0) le.lease_duration = seconds(15);
  if (le.renew_deadline.count() == 0) le.renew_deadline = seconds(10);
  if (le.retry_period.count() == 0) le.retry_period = seconds(2);
  le.leader_elect = decoded.leader_elect.value_or(true);

  ClientConnectionConfiguration& client = config.client_connection;
  client = decoded.client_connection;
  if (client.content_type.empty()) client.content_type = "application/vnd.kubernetes.protobuf";
  if (client.qps == 0) client.qps = 50;
  if (client.burst == 0) client.burst = 100;

  config.pod_initial_backoff_seconds = decoded.pod_initial_backoff_seconds.value_or(1);
  config.pod_max_backoff_seconds = decoded.pod_max_backoff_seconds.value_or(10);
  config.enable_profiling = decoded.enable_profiling.value_or(true);
  config.enable_contention_profiling =
      decoded.enable_contention_profiling.value_or(config.enable_profiling);
  config.extenders = std::move(decoded.extenders);
  config.delay_cache_until_active = decoded.delay_cache_until_active;
  return config;
}

std::string Join(const std::vector<std::string>& parts) {
  std::string joined;
  for (const std::string& part : parts) {
    if (!joined.empty()) joined += ", ";
    joined += part;
  }
  return joined;
}

}  // namespace

absl::StatusOr<KubeSchedulerConfiguration> DecodeConfig(std::string_view yaml,
                                                        std::vector<std::string>* warnings,
                                                        const ConfigFeatureGates& gates) {
  absl::StatusOr<Value> root = ReadYaml(yaml);
  if (!root.ok()) return root.status();
  absl::StatusOr<TypeMeta> meta = ReadTypeMeta(*root);
  if (!meta.ok()) return meta.status();
  if (meta->kind.empty()) {
    return absl::InvalidArgumentError("Object 'Kind' is missing in '" + std::string(yaml) + "'");
  }
  if (meta->api_version.empty()) {
    return absl::InvalidArgumentError("Object 'apiVersion' is missing in '" + std::string(yaml) +
                                      "'");
  }
  if (!IsServedVersion(meta->api_version) || meta->kind != kKind) {
    return absl::InvalidArgumentError(NotRegistered(meta->kind, meta->api_version));
  }
  const std::string& api_version = meta->api_version;
  std::vector<std::string> notes;
  if (api_version != kApiVersionV1) {
    notes.push_back(api_version +
                    " is no longer served by kube-scheduler v1.37; read with v1's field names "
                    "and its own default plugins. Migrate to " +
                    std::string(kApiVersionV1));
  }

  DecodedConfig decoded;
  ConfigDecoder top(api_version, &notes);
  top.Decode(*root, decoded);
  if (absl::Status status = top.decoder().Result(); !status.ok()) return status;
  std::vector<std::string> strict_errors = top.decoder().strict_errors();

  // Nested plugin args. v1 collects every strict error; the older versions stop at the first.
  const bool collect_all = api_version == kApiVersionV1;
  std::vector<std::vector<PluginConfig>> plugin_configs(decoded.profiles.size());
  bool stop = false;
  for (std::size_t i = 0; i < decoded.profiles.size() && !stop; ++i) {
    const auto& entries = decoded.profiles[i].plugin_config;
    for (std::size_t j = 0; j < entries.size(); ++j) {
      PluginConfig config;
      std::optional<std::string> strict_error;
      const absl::Status status =
          DecodePluginArgs(api_version, i, j, entries[j], gates, config, strict_error);
      if (!status.ok()) return status;
      plugin_configs[i].push_back(std::move(config));
      if (strict_error.has_value()) {
        strict_errors.push_back(*std::move(strict_error));
        if (!collect_all) {
          stop = true;
          break;
        }
      }
    }
  }
  if (!strict_errors.empty()) {
    return absl::InvalidArgumentError("strict decoding error: " + Join(strict_errors));
  }
  KubeSchedulerConfiguration config =
      ApplyDefaults(api_version, std::move(decoded), std::move(plugin_configs), gates);
  if (warnings != nullptr) warnings->insert(warnings->end(), notes.begin(), notes.end());
  return config;
}

absl::StatusOr<KubeSchedulerConfiguration> LoadConfig(std::string_view yaml,
                                                      std::string_view source_name,
                                                      std::vector<std::string>* warnings,
                                                      const ConfigFeatureGates& gates) {
  std::vector<std::string> notes;
  absl::StatusOr<KubeSchedulerConfiguration> config = DecodeConfig(yaml, &notes, gates);
  if (!config.ok()) return config.status();
  if (absl::Status status = ValidateConfig(*config, gates); !status.ok()) return status;
  if (warnings != nullptr) {
    for (const std::string& note : notes) {
      warnings->push_back(std::string(source_name) + ": " + note);
    }
  }
  return config;
}

namespace {

absl::StatusOr<std::string> ReadConfigFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    std::string reason = std::strerror(errno);
    if (!reason.empty()) reason[0] = static_cast<char>(std::tolower(reason[0]));
    return absl::InvalidArgumentError("open " + path + ": " + reason);
  }
  std::ostringstream text;
  text << file.rdbuf();
  if (file.bad()) return absl::InvalidArgumentError("read " + path + ": I/O error");
  return text.str();
}

}  // namespace

absl::StatusOr<KubeSchedulerConfiguration> LoadConfigFile(const std::string& path,
                                                          std::vector<std::string>* warnings,
                                                          const ConfigFeatureGates& gates) {
  absl::StatusOr<std::string> text = ReadConfigFile(path);
  if (!text.ok()) return text.status();
  return LoadConfig(*text, path, warnings, gates);
}

absl::StatusOr<KubeSchedulerConfiguration> DecodeConfigFile(const std::string& path,
                                                            std::vector<std::string>* warnings,
                                                            const ConfigFeatureGates& gates) {
  absl::StatusOr<std::string> text = ReadConfigFile(path);
  if (!text.ok()) return text.status();
  std::vector<std::string> notes;
  absl::StatusOr<KubeSchedulerConfiguration> config = DecodeConfig(*text, &notes, gates);
  if (!config.ok()) return config.status();
  if (warnings != nullptr) {
    for (const std::string& note : notes) warnings->push_back(path + ": " + note);
  }
  return config;
}

KubeSchedulerConfiguration DefaultConfig(const ConfigFeatureGates& gates) {
  absl::StatusOr<KubeSchedulerConfiguration> config = DecodeConfig(
      "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n", nullptr, gates);
  // The empty v1 document always decodes; anything else is a build defect.
  if (!config.ok()) std::abort();
  return *std::move(config);
}

}  // namespace ksched::config
