// BuildConfigFromFlags: kube-scheduler's --master and --kubeconfig flags turned into a RestConfig
// with client-go's clientcmd.BuildConfigFromFlags semantics:
//
//   kubeconfig_path set   LoadKubeconfig({kubeconfig_path, current-context, master})
//   only master set       server = master (a URL without scheme gets http://), no credentials,
//                         source "--master"
//   neither               warning "Neither --kubeconfig nor --master was specified.  Using the
//                         inClusterConfig.  This might not work."; InClusterConfig(); when that
//                         fails, warning "error creating inClusterConfig, falling back to default
//                         config: <error>" and the default config, which without a file and a
//                         server is upstream's "no configuration has been provided" error
//                         (kInvalidArgument, naming the in-cluster failure too)
//
// Only the explicit path is read: $KUBECONFIG and ~/.kube/config are not consulted, exactly as
// upstream's BuildConfigFromFlags (its loading rules hold ExplicitPath alone).
//
// `warnings`, when not null, receives what upstream logs with klog.Warning, for the caller to log.
// Errors: those of LoadKubeconfig, InClusterConfig and NormalizeServerUrl.
// Thread-safety: as LoadKubeconfig and InClusterConfig.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "client/in_cluster_config.h"
#include "client/rest_config.h"

namespace ksched::client {

absl::StatusOr<RestConfig> BuildConfigFromFlags(std::string_view master,
                                                std::string_view kubeconfig_path,
                                                std::vector<std::string>* warnings = nullptr);

// As above, with the in-cluster environment injected (tests).
absl::StatusOr<RestConfig> BuildConfigFromFlags(std::string_view master,
                                                std::string_view kubeconfig_path,
                                                const InClusterEnvironment& in_cluster,
                                                std::vector<std::string>* warnings);

}  // namespace ksched::client
