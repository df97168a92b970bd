#include "scheduler/command.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <thread>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <spdlog/spdlog.h>

#include "api/build_info.h"
#include "api/field_errors.h"
#include "absl/status/status.h"
#include "client/build_config.h"
#include "client/leader_elector.h"
#include "client/new_rest_client.h"
#include "client/object_encoding.h"
#include "config/kube_scheduler_configuration.h"
#include "config/profile_configs.h"
#include "config/write.h"
#include "framework/features.h"
#include "plugins/in_tree_registry.h"
#include "scheduler/command_flags.h"
#include "scheduler/component_config.h"
#include "scheduler/feature_gates.h"
#include "scheduler/metrics/feature_metrics.h"
#include "scheduler/logging.h"
#include "scheduler/memory_releaser.h"
#include "scheduler/metrics/metrics.h"
#include "scheduler/scheduler_server.h"
#include "scheduler/scheduler_app.h"

namespace ksched::scheduler {
namespace {

constexpr std::chrono::minutes kInformerSyncTimeout{2};

std::string Hostname() {
  char buffer[256] = {};
  if (gethostname(buffer, sizeof(buffer) - 1) != 0) return "localhost";
  return buffer;
}

// One line on stderr, exit status 1: bad input or a failed start.
int Fail(std::string_view message) {
  // klog quotes the value: inner quotes and backslashes escaped.
  std::string quoted;
  for (char c : message) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  SPDLOG_ERROR("\"command failed\" err=\"{}\"", quoted);
  spdlog::default_logger()->flush();
  return 1;
}

absl::Status ApplyLogging(const LoggingFlags& logging) {
  LoggingOptions options;
  options.format = logging.format;
  options.verbosity = static_cast<std::uint32_t>(std::max(0, logging.verbosity));
  return ConfigureLogging(options);
}

// upstream SecureServingOptions.Validate (Required is set for kube-scheduler, and 0 still turns
// serving off: the range check's precedence lets 0 through).
absl::Status ValidateServing(const SecureServingFlags& serving) {
  if (serving.secure_port > 65535) {
    return absl::InvalidArgumentError("--secure-port " + std::to_string(serving.secure_port) +
                                      " must be between 1 and 65535, inclusive. It cannot be turned "
                                      "off with 0");
  }
  if (serving.secure_port < 0) {
    return absl::InvalidArgumentError("--secure-port " + std::to_string(serving.secure_port) +
                                      " must be between 0 and 65535, inclusive. 0 for turning off "
                                      "secure port");
  }
  if (serving.tls_cert_file.empty() != serving.tls_private_key_file.empty()) {
    return absl::InvalidArgumentError(
        "--tls-cert-file and --tls-private-key-file must be given together");
  }
  return absl::OkStatus();
}

absl::Status WriteConfigTo(const std::string& path, const config::KubeSchedulerConfiguration& cfg) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return absl::InvalidArgumentError("open " + path + ": " + std::strerror(errno));
  out << config::WriteConfigYaml(cfg);
  out.close();
  if (!out) return absl::InvalidArgumentError("write " + path + ": " + std::strerror(errno));
  return absl::OkStatus();
}

// component-base's metrics Options.Validate (metrics/api/v1 Validate, v1.37.2): field errors under
// "metrics": showHiddenMetricsForVersion empty or the binary's previous minor release ("1.36");
// disabledMetrics fully qualified metric names.
std::vector<std::string> ValidateMetricsFlags(const MetricsFlags& metrics) {
  std::vector<std::string> errors;
  const api::FieldPath path("metrics");
  const std::string& version = metrics.show_hidden_metrics_for_version;
  const std::string previous = MajorMinor{kBinaryVersion.major, kBinaryVersion.minor - 1}.String();
  if (!version.empty() && version != previous) {
    errors.push_back(api::InvalidValueError(path.Child("showHiddenMetricsForVersion"), api::GoQuote(version),
                                            "must be omitted or have the value '" + previous +
                                                "'; only the previous minor version is allowed"));
  }
  // metricNameRegex: ^[a-zA-Z_:][a-zA-Z0-9_:]*$; the first bad name fails the list.
  auto is_metric_name = [](const std::string& name) {
    if (name.empty()) return false;
    for (std::size_t i = 0; i < name.size(); ++i) {
      const char c = name[i];
      const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
      if (!letter && !(i > 0 && c >= '0' && c <= '9')) return false;
    }
    return true;
  };
  for (const std::string& name : metrics.disabled_metrics) {
    if (is_metric_name(name)) continue;
    errors.push_back(api::InvalidValueError(
        path.Child("disabledMetrics"), api::JsonStringList(metrics.disabled_metrics),
        "must be fully qualified metric names matching \"^[a-zA-Z_:][a-zA-Z0-9_:]*$\", got " + api::GoQuote(name)));
    break;
  }
  return errors;
}

SchedulingQueueOptions QueueOptions(const config::KubeSchedulerConfiguration& cfg,
                                    const CommandFlags& flags) {
  SchedulingQueueOptions queue;
  queue.pod_initial_backoff = std::chrono::seconds(cfg.pod_initial_backoff_seconds);
  queue.pod_max_backoff = std::chrono::seconds(cfg.pod_max_backoff_seconds);
  queue.pod_max_in_unschedulable_pods_duration =
      std::chrono::duration_cast<std::chrono::milliseconds>(
          flags.deprecated.pod_max_in_unschedulable_pods_duration);
  return queue;
}

}  // namespace

int RunSchedulerCommand(int argc, const char* const* argv) {
  absl::StatusOr<CommandFlags> parsed = ParseCommandFlags(argc, argv);
  if (!parsed.ok()) {
    fmt::print(stderr, "Error: {}\n", std::string(parsed.status().message()));
    return 1;
  }
  const CommandFlags& flags = *parsed;
  if (flags.help) {
    fmt::print("{}", flags.help_text);
    return 0;
  }
  const api::BuildInfo& info = api::GetBuildInfo();
  if (!flags.version.empty()) {
    if (flags.version == "raw") {
      const std::string release(info.kubernetes_version);  // "1.37.2"
      const std::size_t dot = release.find('.');
      const std::string major = release.substr(0, dot);
      const std::string minor = release.substr(dot + 1, release.find('.', dot + 1) - dot - 1);
      // Upstream's field order; its emulation and min-compatibility fields are empty in --version=raw.
      fmt::print("version.Info{{Major:\"{}\", Minor:\"{}\", EmulationMajor:\"\", EmulationMinor:\"\", "
                 "MinCompatibilityMajor:\"\", MinCompatibilityMinor:\"\", GitVersion:\"v{}\", GitCommit:\"{}\", "
                 "Implementation:\"kube-scheduler-cpp v{}\"}}\n",
                 major, minor, info.kubernetes_version, info.git_commit, info.version);
    } else {
      fmt::print("Kubernetes v{} (kube-scheduler-cpp v{}, commit {})\n", info.kubernetes_version,
                 info.version, info.git_commit);
    }
    return 0;
  }
  if (absl::Status logging = ApplyLogging(flags.logging); !logging.ok()) {
    fmt::print(stderr, "{}\n", std::string(logging.message()));
    return 1;
  }
  for (const std::string& warning : flags.warnings) SPDLOG_WARN("{}", warning);
  // As upstream (the registry's Set), the emulation and minimum compatibility versions, then the
  // feature gates at those versions, before the other options are validated.
  absl::StatusOr<CompatibilityVersions> versions =
      ParseCompatibilityVersions(flags.emulated_version, flags.min_compatibility_version);
  if (!versions.ok()) return Fail(std::string(versions.status().message()));
  std::vector<std::string> gate_notices;
  absl::StatusOr<FeatureGates> gates = FeatureGates::Parse(flags.feature_gates, *versions, &gate_notices);
  if (!gates.ok()) return Fail(std::string(gates.status().message()));
  // Options.Validate: the registry's (versions in range), then serving's and metrics', aggregated.
  std::vector<std::string> invalid = ValidateCompatibilityVersions(*versions);
  if (absl::Status serving = ValidateServing(flags.serving); !serving.ok()) invalid.emplace_back(serving.message());
  for (std::string& error : ValidateMetricsFlags(flags.metrics)) invalid.push_back(std::move(error));
  if (invalid.size() == 1) return Fail(invalid.front());
  if (invalid.size() > 1) {
    std::string joined;
    for (const std::string& error : invalid) {
      if (!joined.empty()) joined += ", ";
      joined += error;
    }
    return Fail("[" + joined + "]");
  }
  if (absl::Status implemented = CheckImplementedGates(*gates); !implemented.ok()) {
    return Fail(std::string(implemented.message()));  // one line: the notices would not matter
  }
  for (const std::string& notice : gate_notices) SPDLOG_INFO("{}", notice);
  if (const std::string alpha = gates->AlphaWarning(); !alpha.empty()) SPDLOG_WARN("{}", alpha);

  // What the gates change, set before anything reads it: the framework's and plugins' features
  // (process-wide, as upstream's DefaultFeatureGate), the configuration's defaults.
  framework::SetProcessFeatures(FrameworkFeaturesOf(*gates));
  std::vector<std::string> warnings;
  absl::StatusOr<config::KubeSchedulerConfiguration> cfg =
      ResolveComponentConfig(flags, ConfigGatesOf(*gates), &warnings);
  for (const std::string& warning : warnings) SPDLOG_WARN("{}", warning);
  if (!cfg.ok()) return Fail(std::string(cfg.status().message()));
  if (absl::Status applied = ApplyExtenderEffects(*cfg); !applied.ok()) {
    return Fail("couldn't create scheduler: " + std::string(applied.message()));
  }

  warnings.clear();
  absl::StatusOr<client::RestConfig> rest =
      client::BuildConfigFromFlags(flags.master, cfg->client_connection.kubeconfig, &warnings);
  for (const std::string& warning : warnings) SPDLOG_WARN("{}", warning);
  if (!rest.ok()) return Fail(std::string(rest.status().message()));
  rest->qps = cfg->client_connection.qps;
  rest->burst = cfg->client_connection.burst;
  rest->content_type = cfg->client_connection.content_type;
  if (absl::Status supported = client::CheckContentType(rest->content_type); !supported.ok()) {
    return Fail("clientConnection.contentType: " + std::string(supported.message()));
  }

  // SIGTERM and SIGINT are taken by sigwait below: block them before any thread starts.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  // SIGUSR2 dumps the cache and the queue (upstream's cache debugger); SIGUSR1 is ignored, as the
  // Go runtime ignores it. Neither may kill the daemon.
  sigaddset(&signals, SIGUSR1);
  sigaddset(&signals, SIGUSR2);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  // Outlives everything that reports to it (declared first, destroyed last).
  metrics::MetricsOptions metrics_options;
  metrics_options.disabled_metrics = flags.metrics.disabled_metrics;
  metrics_options.show_hidden_metrics = !flags.metrics.show_hidden_metrics_for_version.empty();
  metrics_options.emulation_version = versions->emulation.String();
  metrics_options.min_compatibility_version = versions->min_compatibility.String();
  metrics::Metrics metrics(std::move(metrics_options));
  metrics::AddFeatureMetrics(metrics.registry(), *gates, metrics.registered_families());
  const framework::Registry registry = plugins::NewInTreeRegistry();
  std::vector<std::string> left_out;
  SchedulerAppOptions options;
  options.rest_config = *rest;
  options.hostname = Hostname();
  options.profiles = config::ToProfileConfigs(*cfg, registry, &left_out);
  options.parallelism = cfg->parallelism;
  options.percentage_of_nodes_to_score = cfg->percentage_of_nodes_to_score.value_or(0);
  options.queue = QueueOptions(*cfg, flags);
  options.queue.pop_from_backoff_q = gates->Enabled("SchedulerPopFromBackoffQ");
  options.metrics = &metrics;
  options.extenders = cfg->extenders;
  options.nominated_node_name_for_expectation = gates->Enabled("NominatedNodeNameForExpectation");
  absl::StatusOr<std::unique_ptr<SchedulerApp>> app = SchedulerApp::Create(std::move(options), registry);
  if (!app.ok()) {
    return Fail("initializing profiles: " + std::string(app.status().message()));
  }
  // Upstream completes the profiles of the configuration it shows (/configz, the -v=2 log) only
  // when it logs at -v=2 or writes the file.
  if (flags.logging.verbosity >= 2 || !flags.write_config_to.empty()) {
    *cfg = config::WithCompletedProfiles(*std::move(cfg));
    SPDLOG_DEBUG("Using component config config=\"\n{}\"", config::WriteConfigYaml(*cfg));
  }
  if (!flags.write_config_to.empty()) {
    if (absl::Status written = WriteConfigTo(flags.write_config_to, *cfg); !written.ok()) {
      return Fail(std::string(written.message()));
    }
    SPDLOG_INFO("Wrote configuration file=\"{}\"", flags.write_config_to);
    return 0;
  }

  SchedulerApp& scheduler = **app;
  SchedulerServerState server_state;
  server_state.informer_pods = [&scheduler] { return scheduler.InformerPods(); };

  // Leader election: its own client with few retries (a renewal stuck in retries cannot be
  // abandoned at renewDeadline), as upstream's separate leader-election client.
  std::shared_ptr<client::RestClient> election_client;
  std::unique_ptr<client::LeaderElector> elector;
  std::thread activation;  // delayCacheUntilActive: informers start once leading
  if (cfg->leader_election.leader_elect) {
    absl::StatusOr<std::string> identity = client::MakeLeaderElectionIdentity();
    if (!identity.ok()) return Fail(std::string(identity.status().message()));
    client::LeaderElectionConfig election;
    election.lease_namespace = cfg->leader_election.resource_namespace;
    election.lease_name = cfg->leader_election.resource_name;
    election.identity = *identity;
    election.lease_duration = cfg->leader_election.lease_duration;
    election.renew_deadline = cfg->leader_election.renew_deadline;
    election.retry_period = cfg->leader_election.retry_period;
    election.event_component =
        cfg->profiles.empty() ? std::string(config::kDefaultSchedulerName) : cfg->profiles[0].scheduler_name;
    client::RestClientOptions election_options;
    election_options.max_retries = 1;
    election_options.observer = metrics.rest_client_observer();
    election_options.exec_observer = metrics.exec_plugin_observer();
    absl::StatusOr<std::shared_ptr<client::RestClient>> made = client::NewRestClient(*rest, election_options);
    if (!made.ok()) return Fail(std::string(made.status().message()));
    election_client = *made;
    const bool delay_cache = cfg->delay_cache_until_active;
    client::LeaderCallbacks callbacks;
    callbacks.on_started_leading = [&scheduler, &activation, &server_state, &metrics, delay_cache] {
      SPDLOG_INFO("became leader: scheduling");
      metrics.SetLeaderElectionMasterStatus("kube-scheduler", true);
      server_state.leading = true;
      if (!delay_cache) {
        scheduler.StartScheduling();
        return;
      }
      // Callbacks must return promptly: the elector renews on this thread.
      activation = std::thread([&scheduler, &server_state] {
        SPDLOG_INFO("Starting informers and waiting for sync...");
        if (absl::Status synced = scheduler.StartInformers(kInformerSyncTimeout); !synced.ok()) {
          SPDLOG_ERROR("informers did not sync: {}", std::string(synced.message()));
          return;
        }
        SPDLOG_INFO("Sync completed");
        server_state.handlers_synced = true;
        scheduler.StartScheduling();
      });
    };
    callbacks.on_stopped_leading = [&metrics](client::LeadershipEnd end) {
      metrics.SetLeaderElectionMasterStatus("kube-scheduler", false);
      if (end == client::LeadershipEnd::kStopped) return;  // SIGTERM: the main thread goes on
      // As upstream: another replica may lead now; exit at once (binds in flight may fail, the
      // API server refuses a second binding of a pod).
      SPDLOG_ERROR("Leaderelection lost");
      spdlog::default_logger()->flush();
      std::_Exit(1);
    };
    callbacks.on_new_leader = [identity = *identity](const std::string& leader) {
      if (!leader.empty() && leader != identity) SPDLOG_INFO("new leader elected: {}", leader);
    };
    absl::StatusOr<std::unique_ptr<client::LeaderElector>> created =
        client::LeaderElector::Create(election_client, std::move(election), std::move(callbacks));
    if (!created.ok()) {
      return Fail("couldn't create leader elector: " + std::string(created.status().message()));
    }
    elector = *std::move(created);
    metrics.SetLeaderElectionMasterStatus("kube-scheduler", false);
  }

  // As upstream, the endpoints serve before the informers sync (readyz says so meanwhile).
  std::unique_ptr<serving::SecureServer> server;
  if (flags.serving.secure_port != 0) {
    absl::StatusOr<std::unique_ptr<serving::SecureServer>> made =
        NewSchedulerServer(flags, *cfg, *gates, &metrics, server_state);
    if (!made.ok()) return Fail(std::string(made.status().message()));
    server = *std::move(made);
    if (absl::Status started = server->Start(); !started.ok()) {
      // Start's errors name what failed, as upstream's do (no common prefix).
      return Fail(std::string(started.message()));
    }
    SPDLOG_INFO("Serving securely on {}:{}", flags.serving.bind_address, server->port());
  }
  if (elector != nullptr) server_state.leader_check.SetLeaderElector(elector.get());
  SPDLOG_INFO("Starting Kubernetes Scheduler version=\"v{}\" implementation=\"kube-scheduler-cpp "
               "v{}\" server=\"{}\"", info.kubernetes_version, info.version, rest->server);
  if (!left_out.empty()) {
    std::string names;
    for (const std::string& name : left_out) names += (names.empty() ? "" : ", ") + name;
    SPDLOG_WARN("default plugins not compiled into kube-scheduler-cpp yet, left out of every "
                 "profile: {}", names);
  }

  if (elector == nullptr || !cfg->delay_cache_until_active) {
    if (absl::Status synced = scheduler.StartInformers(kInformerSyncTimeout); !synced.ok()) {
      return Fail(std::string(synced.message()));
    }
    server_state.handlers_synced = true;
  }
  if (elector != nullptr) {
    elector->Start();
  } else {
    server_state.leading = true;
    scheduler.StartScheduling();
  }
  MemoryReleaser memory_releaser;  // freed heap back to the system after bursts (memory_releaser.h)
  memory_releaser.Start();

  int signal_number = 0;
  for (;;) {
    if (sigwait(&signals, &signal_number) != 0) continue;
    if (signal_number == SIGUSR2) {
      scheduler.LogDebugDump();
      continue;
    }
    if (signal_number == SIGUSR1) continue;
    break;
  }
  SPDLOG_INFO("received {}, stopping", signal_number == SIGTERM ? "SIGTERM" : "SIGINT");
  server_state.shutting_down = true;
  // Scheduling stops and the binds in flight finish before the Lease is released, so that the
  // next leader never overlaps with this one.
  scheduler.Stop();
  if (elector != nullptr) elector->Stop();  // after this no callback runs
  if (activation.joinable()) activation.join();
  server_state.leader_check.SetLeaderElector(nullptr);
  if (server != nullptr) server->Stop();
  memory_releaser.Stop();
  const auto& stats = scheduler.scheduler().stats();
  SPDLOG_INFO("stopped: {} attempts, {} bound, {} unschedulable, {} errors", stats.attempts.load(),
               stats.scheduled.load(), stats.unschedulable.load(), stats.errors.load());
  return 0;
}

}  // namespace ksched::scheduler
