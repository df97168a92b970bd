#include "client/build_config.h"

#include <utility>

#include "absl/status/status.h"
#include "client/concat.h"
#include "client/kubeconfig.h"
#include "client/server_url.h"

namespace ksched::client {

namespace {

void Warn(std::vector<std::string>* warnings, std::string message) {
  if (warnings != nullptr) warnings->push_back(std::move(message));
}

}  // namespace

absl::StatusOr<RestConfig> BuildConfigFromFlags(std::string_view master,
                                                std::string_view kubeconfig_path,
                                                std::vector<std::string>* warnings) {
  return BuildConfigFromFlags(master, kubeconfig_path, InClusterEnvironment{}, warnings);
}

absl::StatusOr<RestConfig> BuildConfigFromFlags(std::string_view master,
                                                std::string_view kubeconfig_path,
                                                const InClusterEnvironment& in_cluster,
                                                std::vector<std::string>* warnings) {
  if (!kubeconfig_path.empty()) {
    KubeconfigOptions options;
    options.path = std::string(kubeconfig_path);
    options.master = std::string(master);
    return LoadKubeconfig(options);
  }
  if (!master.empty()) {
    absl::StatusOr<std::string> server = NormalizeServerUrl(master, /*default_tls=*/false);
    if (!server.ok()) {
      return absl::InvalidArgumentError(Concat("--master: ", server.status().message()));
    }
    RestConfig config;
    config.server = *std::move(server);
    config.source = "--master";
    return config;
  }

  Warn(warnings,
       "Neither --kubeconfig nor --master was specified.  Using the inClusterConfig.  This might "
       "not work.");
  absl::StatusOr<RestConfig> config = InClusterConfig(in_cluster, warnings);
  if (config.ok()) return config;
  Warn(warnings, Concat("error creating inClusterConfig, falling back to default config: ",
                        config.status().message()));
  return absl::InvalidArgumentError(Concat(
      "invalid configuration: no configuration has been provided: pass --kubeconfig or --master, "
      "or run in a pod (in-cluster configuration: ",
      config.status().message(), ")"));
}

}  // namespace ksched::client
