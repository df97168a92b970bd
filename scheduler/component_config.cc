#include "scheduler/component_config.h"

#include "config/load.h"
#include "config/validation.h"
#include "plugins/node_resources/args.h"

namespace ksched::scheduler {
namespace {

void ApplyLeaderElectionFlags(const CommandFlags& flags, config::LeaderElectionConfiguration& le) {
  const LeaderElectionFlags& f = flags.leader_election;
  if (flags.Changed("leader-elect")) le.leader_elect = f.leader_elect;
  if (flags.Changed("leader-elect-lease-duration")) le.lease_duration = f.lease_duration;
  if (flags.Changed("leader-elect-renew-deadline")) le.renew_deadline = f.renew_deadline;
  if (flags.Changed("leader-elect-retry-period")) le.retry_period = f.retry_period;
  if (flags.Changed("leader-elect-resource-lock")) le.resource_lock = f.resource_lock;
  if (flags.Changed("leader-elect-resource-name")) le.resource_name = f.resource_name;
  if (flags.Changed("leader-elect-resource-namespace")) le.resource_namespace = f.resource_namespace;
}

void ApplyDeprecatedFlags(const CommandFlags& flags, config::KubeSchedulerConfiguration& cfg) {
  const DeprecatedFlags& f = flags.deprecated;
  if (flags.Changed("profiling")) cfg.enable_profiling = f.profiling;
  if (flags.Changed("contention-profiling")) cfg.enable_contention_profiling = f.contention_profiling;
  if (flags.Changed("kubeconfig")) cfg.client_connection.kubeconfig = f.kubeconfig;
  if (flags.Changed("kube-api-content-type")) cfg.client_connection.content_type = f.kube_api_content_type;
  if (flags.Changed("kube-api-qps")) cfg.client_connection.qps = f.kube_api_qps;
  if (flags.Changed("kube-api-burst")) cfg.client_connection.burst = f.kube_api_burst;
}

}  // namespace

absl::StatusOr<config::KubeSchedulerConfiguration> ResolveComponentConfig(
    const CommandFlags& flags, const config::ConfigFeatureGates& gates,
    std::vector<std::string>* warnings) {
  config::KubeSchedulerConfiguration cfg;
  if (flags.config_file.empty()) {
    cfg = config::DefaultConfig(gates);
    ApplyDeprecatedFlags(flags, cfg);
  } else {
    absl::StatusOr<config::KubeSchedulerConfiguration> decoded =
        config::DecodeConfigFile(flags.config_file, warnings, gates);
    if (!decoded.ok()) return decoded.status();
    cfg = *std::move(decoded);
  }
  ApplyLeaderElectionFlags(flags, cfg.leader_election);
  if (absl::Status valid = config::ValidateConfig(cfg, gates); !valid.ok()) return valid;
  return cfg;
}

absl::Status ApplyExtenderEffects(config::KubeSchedulerConfiguration& cfg) {
  std::vector<std::string> ignored;
  for (config::Extender& extender : cfg.extenders) {
    // upstream DefaultExtenderTimeout
    if (extender.http_timeout.count() == 0) extender.http_timeout = std::chrono::seconds(5);
    for (const config::ExtenderManagedResource& resource : extender.managed_resources) {
      if (resource.ignored_by_scheduler) ignored.push_back(resource.name);
    }
  }
  if (ignored.empty()) return absl::OkStatus();
  for (config::KubeSchedulerProfile& profile : cfg.profiles) {
    bool found = false;
    for (config::PluginConfig& entry : profile.plugin_config) {
      if (entry.name != "NodeResourcesFit") continue;
      const auto* args = dynamic_cast<const plugins::node_resources::NodeResourcesFitArgs*>(entry.args.get());
      if (args == nullptr) {
        return absl::InvalidArgumentError("want args to be of type NodeResourcesFitArgs");
      }
      auto replaced = std::make_shared<plugins::node_resources::NodeResourcesFitArgs>(*args);
      replaced->ignored_resources = ignored;
      entry.args = std::move(replaced);
      found = true;
      break;
    }
    if (!found) return absl::InvalidArgumentError("can't find NodeResourcesFitArgs in plugin config");
  }
  return absl::OkStatus();
}

}  // namespace ksched::scheduler
