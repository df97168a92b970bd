// KubeSchedulerConfiguration: the scheduler's configuration after decoding, defaulting and the
// default-plugin merge (upstream's internal config.KubeSchedulerConfiguration, v1.37.2), whatever
// apiVersion the file used. Produced by config/load.h, checked by config/validation.h, turned
// into the runtime's profiles by config/profile_configs.h and written back by config/write.h.
//
// Plugin args: a pluginConfig entry carries either typed args (`args`, for a compiled-in plugin
// whose args type exists; defaults applied) or the args as written (`raw`, for any other plugin,
// as upstream keeps runtime.Unknown for out-of-tree plugins), or neither (an entry without args).
// The in-tree plugins whose args types are not compiled in yet keep `raw` with upstream's
// defaults filled in (see config/plugin_args.h).
//
// Thread-safety: value types.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/value.h"
#include "framework/profile_config.h"
#include "framework/registry.h"

namespace ksched::config {

inline constexpr std::string_view kGroupName = "kubescheduler.config.k8s.io";
inline constexpr std::string_view kApiVersionV1 = "kubescheduler.config.k8s.io/v1";
// Removed upstream (v1beta3 in v1.29, v1beta2 in v1.28, v1beta1 in v1.26); still read here, see
// config/load.h.
inline constexpr std::string_view kApiVersionV1beta3 = "kubescheduler.config.k8s.io/v1beta3";
inline constexpr std::string_view kApiVersionV1beta2 = "kubescheduler.config.k8s.io/v1beta2";
inline constexpr std::string_view kApiVersionV1beta1 = "kubescheduler.config.k8s.io/v1beta1";
inline constexpr std::string_view kKind = "KubeSchedulerConfiguration";

inline constexpr std::string_view kDefaultSchedulerName = "default-scheduler";

// component-base LeaderElectionConfiguration.
struct LeaderElectionConfiguration {
  bool leader_elect = false;
  std::chrono::nanoseconds lease_duration{0};
  std::chrono::nanoseconds renew_deadline{0};
  std::chrono::nanoseconds retry_period{0};
  std::string resource_lock;
  std::string resource_name;
  std::string resource_namespace;
};

// component-base ClientConnectionConfiguration.
struct ClientConnectionConfiguration {
  std::string kubeconfig;
  std::string accept_content_types;
  std::string content_type;
  float qps = 0;
  std::int32_t burst = 0;
};

struct PluginConfig {
  std::string name;
  std::shared_ptr<const framework::PluginArgs> args;
  std::optional<Value> raw;
};

struct KubeSchedulerProfile {
  std::string scheduler_name;
  std::optional<std::int32_t> percentage_of_nodes_to_score;
  framework::PluginsConfig plugins;  // merged with the default set; multiPoint not expanded
  std::vector<PluginConfig> plugin_config;
};

struct ExtenderManagedResource {
  std::string name;
  bool ignored_by_scheduler = false;
};

struct ExtenderTLSConfig {
  bool insecure = false;
  std::string server_name;
  std::string cert_file;
  std::string key_file;
  std::string ca_file;
  std::string cert_data;  // bytes (base64 in files)
  std::string key_data;
  std::string ca_data;
};

// Decoded, validated and written (--write-config-to) as upstream does; called by the scheduler
// (scheduler/http_extender.h), except preemptVerb, which makes it exit 1.
struct Extender {
  std::string url_prefix;
  std::string filter_verb;
  std::string preempt_verb;
  std::string prioritize_verb;
  std::int64_t weight = 0;
  std::string bind_verb;
  bool enable_https = false;
  std::optional<ExtenderTLSConfig> tls_config;
  std::chrono::nanoseconds http_timeout{0};
  bool node_cache_capable = false;
  std::vector<ExtenderManagedResource> managed_resources;
  bool ignorable = false;
};

struct KubeSchedulerConfiguration {
  // The apiVersion the configuration was read from (validation and the default plugin set depend
  // on it), e.g. kApiVersionV1.
  std::string api_version{kApiVersionV1};
  std::int32_t parallelism = 0;
  LeaderElectionConfiguration leader_election;
  ClientConnectionConfiguration client_connection;
  bool enable_profiling = false;
  bool enable_contention_profiling = false;
  std::optional<std::int32_t> percentage_of_nodes_to_score;
  std::int64_t pod_initial_backoff_seconds = 0;
  std::int64_t pod_max_backoff_seconds = 0;
  std::vector<KubeSchedulerProfile> profiles;
  std::vector<Extender> extenders;
  bool delay_cache_until_active = false;
};

}  // namespace ksched::config
