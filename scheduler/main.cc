// kube-scheduler-cpp: entry point.
//
// Until the scheduling loop lands (issue #4) the daemon parses its flags, checks the kubeconfig it
// was given, says what it would connect to and stops: it never binds anything.
// Exit status: 0 on a clean run, 1 on bad input (flags, files), as upstream's kube-scheduler.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include "api/build_info.h"

namespace {

int Run(int argc, char** argv) {
  CLI::App app{"kube-scheduler-cpp: a C++ replacement for kube-scheduler", "kube-scheduler-cpp"};
  std::string kubeconfig;
  std::string config;
  int verbosity = 0;
  bool show_version = false;
  app.add_option("--kubeconfig", kubeconfig, "Path to a kubeconfig file");
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

  fmt::print(stderr, "kube-scheduler-cpp v{} starting (Kubernetes v{} semantics)\n", info.version,
             info.kubernetes_version);
  for (const auto& [flag, path] : {std::pair{"--kubeconfig", &kubeconfig}, {"--config", &config}}) {
    if (path->empty()) continue;
    std::ifstream file(*path);
    if (!file) {
      fmt::print(stderr, "error: {} {}: cannot open the file\n", flag, *path);
      return 1;
    }
    fmt::print(stderr, "{} {} ({} bytes)\n", flag, *path, std::filesystem::file_size(*path));
  }
  fmt::print(stderr,
             "the scheduling loop is not built yet (issue #4): no pod will be bound; exiting\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return Run(argc, argv); }
