// InClusterConfig: the RestConfig of a pod talking to its own cluster, as client-go's
// rest.InClusterConfig builds it.
//
//   server             "https://" + KUBERNETES_SERVICE_HOST ":" KUBERNETES_SERVICE_PORT (an IPv6
//                      host is bracketed, as net.JoinHostPort does)
//   bearer_token_file  <root>/var/run/secrets/kubernetes.io/serviceaccount/token; it must be
//                      readable now, and its content (whitespace-trimmed) is also put in
//                      bearer_token. The kubelet rotates this token: the transport re-reads the
//                      file (BearerTokenFile)
//   tls.ca_pem         <root>/var/run/secrets/kubernetes.io/serviceaccount/ca.crt. As upstream, a
//                      missing or unusable CA file is not an error: a warning is added and the
//                      system trust store is used
//   source             "in-cluster"
//
// Errors:
//   kFailedPrecondition  either variable unset or empty, message exactly upstream's
//                        ErrNotInCluster:
//                        "unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and
//                        KUBERNETES_SERVICE_PORT must be defined"
//   the token file's read error (kNotFound, kPermissionDenied, ...), message
//                        "unable to load in-cluster configuration: reading the service account
//                        token <path>: <reason>"
//
// `warnings`, when not null, receives messages the caller should log (one per line, no newline).
//
// Thread-safety: reads the environment and files only; safe to call from any thread as long as
// nothing calls setenv() concurrently (the default environment lookup is std::getenv).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "client/rest_config.h"

namespace ksched::client {

inline constexpr std::string_view kServiceAccountDir =
    "/var/run/secrets/kubernetes.io/serviceaccount";

// Where InClusterConfig looks: tests point `root` at a fake tree and `getenv` at a map.
struct InClusterEnvironment {
  std::string root = "/";  // the service-account directory is read at root + kServiceAccountDir
  // Returns the variable's value, or nullopt when unset. Empty: the process environment.
  std::function<std::optional<std::string>(const std::string& name)> getenv;
};

absl::StatusOr<RestConfig> InClusterConfig(std::vector<std::string>* warnings = nullptr);
absl::StatusOr<RestConfig> InClusterConfig(const InClusterEnvironment& environment,
                                           std::vector<std::string>* warnings = nullptr);

}  // namespace ksched::client
