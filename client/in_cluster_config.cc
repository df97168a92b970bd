#include "client/in_cluster_config.h"

#include <cstdlib>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "client/concat.h"
#include "client/read_file.h"
#include "client/server_url.h"

namespace ksched::client {

namespace {

std::optional<std::string> ProcessGetenv(const std::string& name) {
  const char* value = std::getenv(name.c_str());
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

std::string ServiceAccountDir(std::string_view root) {
  while (!root.empty() && root.back() == '/') root.remove_suffix(1);
  return Concat(root, kServiceAccountDir);
}

}  // namespace

absl::StatusOr<RestConfig> InClusterConfig(std::vector<std::string>* warnings) {
  return InClusterConfig(InClusterEnvironment{}, warnings);
}

absl::StatusOr<RestConfig> InClusterConfig(const InClusterEnvironment& environment,
                                           std::vector<std::string>* warnings) {
  const std::function<std::optional<std::string>(const std::string&)> lookup =
      environment.getenv ? environment.getenv : ProcessGetenv;
  const std::string host = lookup("KUBERNETES_SERVICE_HOST").value_or("");
  const std::string port = lookup("KUBERNETES_SERVICE_PORT").value_or("");
  if (host.empty() || port.empty()) {
    return absl::FailedPreconditionError(
        "unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and "
        "KUBERNETES_SERVICE_PORT must be defined");
  }

  const std::string dir = ServiceAccountDir(environment.root);
  const std::string token_file = dir + "/token";
  const std::string ca_file = dir + "/ca.crt";

  absl::StatusOr<std::string> token = ReadFileToString(token_file);
  if (!token.ok()) {
    return absl::Status(token.status().code(),
                        Concat("unable to load in-cluster configuration: reading the service "
                               "account token ",
                               token.status().message()));
  }

  RestConfig config;
  config.server = Concat("https://", JoinHostPort(host, port));
  config.source = "in-cluster";
  config.bearer_token = std::string(absl::StripAsciiWhitespace(*token));
  config.bearer_token_file = token_file;

  absl::StatusOr<std::string> ca = ReadFileToString(ca_file);
  if (ca.ok() && !absl::StrContains(*ca, "-----BEGIN CERTIFICATE-----")) {
    ca = absl::InvalidArgumentError(Concat(ca_file, ": no PEM certificate found"));
  }
  if (ca.ok()) {
    config.tls.ca_pem = *std::move(ca);
    config.tls.ca_source = ca_file;
  } else if (warnings != nullptr) {
    warnings->push_back(Concat("Expected to load root CA config from ", ca_file,
                               ", but got err: ", ca.status().message(),
                               "; using the system trust store"));
  }
  return config;
}

}  // namespace ksched::client
