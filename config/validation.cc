#include "config/validation.h"

#include <map>
#include <set>
#include <string_view>
#include <utility>

#include "api/field_errors.h"
#include "api/label_selector.h"
#include "api/go_duration.h"
#include "config/internal_json.h"
#include "config/plugin_args.h"
#include "config/value_writer.h"

namespace ksched::config {
namespace {

using api::FieldPath;

std::string Required(const FieldPath& path) { return path.String() + ": Required value"; }

std::string InvalidInt(const FieldPath& path, std::int64_t value, std::string_view detail) {
  return api::InvalidValueError(path, std::to_string(value), detail);
}

std::string InvalidString(const FieldPath& path, std::string_view value, std::string_view detail) {
  return api::InvalidValueError(path, api::GoQuote(value), detail);
}

// metav1.Duration renders through encoding/json: "15s" with quotes.
std::string InvalidDuration(const FieldPath& path, std::chrono::nanoseconds value,
                            std::string_view detail) {
  return api::InvalidValueError(path, api::JsonQuote(api::FormatGoDuration(value)), detail);
}

// component-base ValidateClientConnectionConfiguration.
void ValidateClientConnection(const ClientConnectionConfiguration& cc,
                              std::vector<std::string>& errors) {
  const FieldPath path("clientConnection");
  if (cc.burst < 0) {
    errors.push_back(InvalidInt(path.Child("burst"), cc.burst, "must be non-negative"));
  }
}

// component-base ValidateLeaderElectionConfiguration, then kube-scheduler's lock check.
void ValidateLeaderElection(const LeaderElectionConfiguration& le,
                            std::vector<std::string>& errors) {
  if (!le.leader_elect) return;
  const FieldPath path("leaderElection");
  using std::chrono::nanoseconds;
  if (le.lease_duration <= nanoseconds(0)) {
    errors.push_back(InvalidDuration(path.Child("leaseDuration"), le.lease_duration,
                                     "must be greater than zero"));
  }
  if (le.renew_deadline <= nanoseconds(0)) {
    errors.push_back(InvalidDuration(path.Child("renewDeadline"), le.renew_deadline,
                                     "must be greater than zero"));
  }
  if (le.retry_period <= nanoseconds(0)) {
    errors.push_back(InvalidDuration(path.Child("retryPeriod"), le.retry_period,
                                     "must be greater than zero"));
  }
  if (le.lease_duration <= le.renew_deadline) {
    // Upstream reports the renew deadline as the bad value.
    errors.push_back(InvalidDuration(path.Child("leaseDuration"), le.renew_deadline,
                                     "must be greater than `RenewDeadline`"));
  }
  if (le.resource_lock.empty()) errors.push_back(Required(path.Child("resourceLock")));
  if (le.resource_namespace.empty()) errors.push_back(Required(path.Child("resourceNamespace")));
  if (le.resource_name.empty()) errors.push_back(Required(path.Child("resourceName")));
}

void ValidatePercentage(const FieldPath& path, const std::optional<std::int32_t>& percentage,
                        std::vector<std::string>& errors) {
  if (percentage.has_value() && (*percentage < 0 || *percentage > 100)) {
    errors.push_back(InvalidInt(path, *percentage, "not in valid range [0-100]"));
  }
}

// upstream invalidPluginsByVersion: the plugins removed in v1.
bool IsRemovedPlugin(std::string_view name) {
  return name == "AzureDiskLimits" || name == "CinderLimits" || name == "EBSLimits" ||
         name == "GCEPDLimits";
}

std::string RemovedPluginError(const FieldPath& path, std::string_view name,
                               std::string_view api_version) {
  return InvalidString(path, name,
                       "was invalid in version \"v1\" (KubeSchedulerConfiguration is version " +
                           api::GoQuote(api_version) + ")");
}

void ValidatePluginConfig(const FieldPath& path, std::string_view api_version,
                          const KubeSchedulerProfile& profile, const ConfigFeatureGates& gates,
                          std::vector<std::string>& errors) {
  const framework::PluginsConfig& p = profile.plugins;
  const std::pair<std::string_view, const framework::PluginSet*> stages[] = {
      {"preEnqueue", &p.pre_enqueue}, {"queueSort", &p.queue_sort}, {"preFilter", &p.pre_filter},
      {"filter", &p.filter},          {"postFilter", &p.post_filter}, {"preScore", &p.pre_score},
      {"score", &p.score},            {"reserve", &p.reserve},        {"permit", &p.permit},
      {"preBind", &p.pre_bind},       {"bind", &p.bind},              {"postBind", &p.post_bind},
      {"podGroupPostFilter", &p.pod_group_post_filter}};
  const FieldPath plugins_path = path.Child("plugins");
  for (const auto& [stage, set] : stages) {
    for (std::size_t i = 0; i < set->enabled.size(); ++i) {
      if (!IsRemovedPlugin(set->enabled[i].name)) continue;
      errors.push_back(RemovedPluginError(plugins_path.Child(stage).Child("enabled").Index(i),
                                          set->enabled[i].name, api_version));
    }
  }
  std::set<std::string, std::less<>> seen;
  for (std::size_t i = 0; i < profile.plugin_config.size(); ++i) {
    const PluginConfig& entry = profile.plugin_config[i];
    const FieldPath entry_path = path.Child("pluginConfig").Index(i);
    if (!seen.insert(entry.name).second) {
      errors.push_back(entry_path.String() + ": Duplicate value: " + api::GoQuote(entry.name));
    }
    if (IsRemovedPlugin(entry.name)) {
      errors.push_back(RemovedPluginError(entry_path, entry.name, api_version));
      continue;
    }
    const PluginArgsCodec* codec = FindPluginArgsCodec(entry.name);
    if (codec != nullptr && (entry.args != nullptr || entry.raw.has_value())) {
      codec->Validate(entry, entry_path.Child("args"), errors, gates);
    }
  }
}

// What validateCommonQueueSort compares and shows for a profile's queue-sort args.
Value QueueSortArgs(const KubeSchedulerProfile& profile, std::string_view name) {
  Value args;
  for (const PluginConfig& entry : profile.plugin_config) {
    if (!name.empty() && entry.name == name) args = InternalPluginArgsValue(entry);
  }
  return args;
}

void ValidateCommonQueueSort(const FieldPath& path,
                             const std::vector<KubeSchedulerProfile>& profiles,
                             std::vector<std::string>& errors) {
  const framework::PluginSet& canon = profiles[0].plugins.queue_sort;
  const std::string name = canon.enabled.empty() ? "" : canon.enabled[0].name;
  if (canon.enabled.size() > 1) {
    errors.push_back(InvalidInt(path.Index(0).Child("plugins").Child("queueSort").Child("Enabled"),
                                static_cast<std::int64_t>(canon.enabled.size()),
                                "only one queue sort plugin can be enabled"));
  }
  const Value canon_args = QueueSortArgs(profiles[0], name);
  for (std::size_t i = 1; i < profiles.size(); ++i) {
    const framework::PluginSet& current = profiles[i].plugins.queue_sort;
    if (!(current == canon)) {
      errors.push_back(api::InvalidValueError(
          path.Index(i).Child("plugins").Child("queueSort"),
          ToJson(InternalPluginSetValue(current)), "must be the same for all profiles"));
    }
    for (const PluginConfig& entry : profiles[i].plugin_config) {
      if (entry.name != name) continue;
      const Value args = InternalPluginArgsValue(entry);
      if (args == canon_args) continue;
      errors.push_back(api::InvalidValueError(path.Index(i).Child("pluginConfig").Child("args"),
                                              ToJson(args),
                                              "queueSort must be the same for all profiles"));
    }
  }
}

bool IsExtendedResourceName(std::string_view name) {
  const bool native = name.find('/') == std::string_view::npos ||
                      name.find("kubernetes.io/") != std::string_view::npos;
  if (native || name.rfind("requests.", 0) == 0) return false;
  return api::IsQualifiedName("requests." + std::string(name)).empty();
}

void ValidateExtenders(const std::vector<Extender>& extenders, std::vector<std::string>& errors) {
  const FieldPath path("extenders");
  int binders = 0;
  std::set<std::string, std::less<>> managed;
  for (std::size_t i = 0; i < extenders.size(); ++i) {
    const Extender& e = extenders[i];
    const FieldPath extender_path = path.Index(i);
    if (!e.prioritize_verb.empty() && e.weight <= 0) {
      errors.push_back(InvalidInt(extender_path.Child("weight"), e.weight,
                                  "must have a positive weight applied to it"));
    }
    if (!e.bind_verb.empty()) ++binders;
    for (std::size_t j = 0; j < e.managed_resources.size(); ++j) {
      const std::string& name = e.managed_resources[j].name;
      const FieldPath name_path = extender_path.Child("managedResources").Index(j).Child("name");
      // The name is a v1.ResourceName here: encoding/json renders it.
      const std::vector<std::string> problems = api::IsQualifiedName(name);
      for (const std::string& message : problems) {
        errors.push_back(api::InvalidValueError(name_path, api::JsonQuote(name), message));
      }
      if (problems.empty() && !IsExtendedResourceName(name)) {
        errors.push_back(InvalidString(name_path, name, "is an invalid extended resource name"));
      }
      if (!managed.insert(name).second) {
        errors.push_back(
            InvalidString(name_path, name, "duplicate extender managed resource name"));
      }
    }
  }
  if (binders > 1) {
    errors.push_back(InvalidString(path,
                                   "found " + std::to_string(binders) +
                                       " extenders implementing bind",
                                   "only one extender can implement bind"));
  }
}

}  // namespace

std::vector<std::string> ValidationErrors(const KubeSchedulerConfiguration& config,
                                          const ConfigFeatureGates& gates) {
  std::vector<std::string> errors;
  ValidateClientConnection(config.client_connection, errors);
  ValidateLeaderElection(config.leader_election, errors);
  const LeaderElectionConfiguration& le = config.leader_election;
  if (le.leader_elect && le.resource_lock != "leases") {
    errors.push_back(InvalidString(FieldPath("leaderElection").Child("resourceLock"),
                                   le.resource_lock, "resourceLock value must be \"leases\""));
  }
  if (config.parallelism <= 0) {
    errors.push_back(InvalidInt(FieldPath("parallelism"), config.parallelism,
                                "should be an integer value greater than zero"));
  }
  const FieldPath profiles_path("profiles");
  if (config.profiles.empty()) {
    errors.push_back(Required(profiles_path));
  } else {
    std::map<std::string, std::size_t, std::less<>> existing;
    for (std::size_t i = 0; i < config.profiles.size(); ++i) {
      const KubeSchedulerProfile& profile = config.profiles[i];
      const FieldPath path = profiles_path.Index(i);
      if (profile.scheduler_name.empty()) errors.push_back(Required(path.Child("schedulerName")));
      ValidatePercentage(path.Child("percentageOfNodesToScore"),
                         profile.percentage_of_nodes_to_score, errors);
      ValidatePluginConfig(path, config.api_version, profile, gates, errors);
      if (existing.contains(profile.scheduler_name)) {
        // The bad value is a *field.Path, which encoding/json renders as {}.
        errors.push_back(path.Child("schedulerName").String() + ": Duplicate value: {}");
      }
      existing[profile.scheduler_name] = i;
    }
    ValidateCommonQueueSort(profiles_path, config.profiles, errors);
  }
  ValidatePercentage(FieldPath("percentageOfNodesToScore"), config.percentage_of_nodes_to_score,
                     errors);
  if (config.pod_initial_backoff_seconds <= 0) {
    errors.push_back(InvalidInt(FieldPath("podInitialBackoffSeconds"),
                                config.pod_initial_backoff_seconds, "must be greater than 0"));
  }
  if (config.pod_max_backoff_seconds < config.pod_initial_backoff_seconds) {
    errors.push_back(InvalidInt(FieldPath("podMaxBackoffSeconds"), config.pod_max_backoff_seconds,
                                "must be greater than or equal to PodInitialBackoffSeconds"));
  }
  ValidateExtenders(config.extenders, errors);
  return errors;
}

absl::Status ValidateConfig(const KubeSchedulerConfiguration& config, const ConfigFeatureGates& gates) {
  api::FieldErrorList list;
  for (std::string& error : ValidationErrors(config, gates)) list.Add(std::move(error));
  return list.ToStatus();
}

}  // namespace ksched::config
