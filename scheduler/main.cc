// kube-scheduler-cpp: entry point.
//
// Connects to the API server named by --kubeconfig / --master (or the in-cluster configuration),
// builds the default profile from the compiled-in plugins, waits for the pod and node informers to
// sync, and schedules until SIGTERM or SIGINT, which stop it cleanly (binds in flight finish).
// The KubeSchedulerConfiguration file, leader election and the HTTPS endpoints come with issue #5:
// until then --config is refused rather than ignored.
//
// Exit status: 0 on a clean stop, 1 on bad input (flags, files, kubeconfig) or a failed start, as
// upstream's kube-scheduler.
#include <signal.h>
#include <unistd.h>

#include <csignal>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <spdlog/spdlog.h>

#include "api/build_info.h"
#include "client/build_config.h"
#include "plugins/in_tree_registry.h"
#include "scheduler/scheduler_app.h"

namespace {

std::string Hostname() {
  char buffer[256] = {};
  if (gethostname(buffer, sizeof(buffer) - 1) != 0) return "localhost";
  return buffer;
}

int Run(int argc, char** argv) {
  CLI::App app{"kube-scheduler-cpp: a C++ replacement for kube-scheduler", "kube-scheduler-cpp"};
  std::string kubeconfig;
  std::string master;
  std::string config;
  int verbosity = 0;
  bool show_version = false;
  app.add_option("--kubeconfig", kubeconfig, "Path to a kubeconfig file");
  app.add_option("--master", master, "The address of the Kubernetes API server (overrides any value in kubeconfig)");
  app.add_option("--config", config, "Path to a KubeSchedulerConfiguration file");
  app.add_option("-v,--v", verbosity, "Log level verbosity");
  app.add_flag("--version", show_version, "Print version information and quit");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help prints and exits 0; a bad flag prints the reason and exits 1, as upstream.
    return app.exit(e) == 0 ? 0 : 1;
  }

  const auto& info = ksched::api::GetBuildInfo();
  if (show_version) {
    fmt::print("kube-scheduler-cpp v{} (commit {}), behaves as Kubernetes v{}\n", info.version,
               info.git_commit, info.kubernetes_version);
    return 0;
  }
  spdlog::set_level(verbosity >= 4 ? spdlog::level::trace
                    : verbosity >= 2 ? spdlog::level::debug
                                     : spdlog::level::info);
  if (!config.empty()) {
    fmt::print(stderr, "error: --config {}: KubeSchedulerConfiguration files are not supported yet "
                       "(issue #5); run without --config to use the default profile\n", config);
    return 1;
  }

  std::vector<std::string> warnings;
  absl::StatusOr<ksched::client::RestConfig> rest =
      ksched::client::BuildConfigFromFlags(master, kubeconfig, &warnings);
  for (const std::string& warning : warnings) spdlog::warn("{}", warning);
  if (!rest.ok()) {
    fmt::print(stderr, "error: {}\n", std::string(rest.status().message()));
    return 1;
  }
  spdlog::info("kube-scheduler-cpp v{} (Kubernetes v{} semantics) connecting to {}", info.version,
               info.kubernetes_version, rest->server);

  // SIGTERM and SIGINT are taken by sigwait below: block them before any thread starts.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  ksched::scheduler::SchedulerAppOptions options;
  options.rest_config = *std::move(rest);
  options.hostname = Hostname();
  const ksched::framework::Registry registry = ksched::plugins::NewInTreeRegistry();
  absl::StatusOr<std::unique_ptr<ksched::scheduler::SchedulerApp>> scheduler =
      ksched::scheduler::SchedulerApp::Create(std::move(options), registry);
  if (!scheduler.ok()) {
    fmt::print(stderr, "error: {}\n", std::string(scheduler.status().message()));
    return 1;
  }
  if (absl::Status started = (*scheduler)->Start(std::chrono::minutes(2)); !started.ok()) {
    fmt::print(stderr, "error: {}\n", std::string(started.message()));
    return 1;
  }
  int signal_number = 0;
  sigwait(&signals, &signal_number);
  spdlog::info("received {}, stopping", signal_number == SIGTERM ? "SIGTERM" : "SIGINT");
  (*scheduler)->Stop();
  const auto& stats = (*scheduler)->scheduler().stats();
  spdlog::info("stopped: {} attempts, {} bound, {} unschedulable, {} errors", stats.attempts.load(),
               stats.scheduled.load(), stats.unschedulable.load(), stats.errors.load());
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return Run(argc, argv); }
