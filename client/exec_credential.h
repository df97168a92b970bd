// ExecCredentialProvider: credentials from a client-go credential plugin (a kubeconfig
// `users[].user.exec` entry), obtained as client-go's plugin/pkg/client/auth/exec Authenticator
// obtains them.
//
// Protocol (client.authentication.k8s.io/v1 and v1beta1):
//   - the command runs with `args`, stdin from /dev/null, stderr passed through to this process's
//     stderr (and its first line kept for error messages), the environment of this process plus
//     the config's `env` (in order, a later entry replacing an earlier one of the same name) plus
//     KUBERNETES_EXEC_INFO = {"kind":"ExecCredential","apiVersion":<config's>,"spec":{["cluster":
//     {...},]"interactive":false}}; spec.cluster (server, tls-server-name,
//     insecure-skip-tls-verify, certificate-authority-data base64) only when provide_cluster_info;
//   - stdout must be one ExecCredential JSON object of the same apiVersion, whose status holds a
//     token, or clientCertificateData + clientKeyData (PEM), or both, and optionally
//     expirationTimestamp (RFC 3339). A certificate/key pair is checked as upstream's
//     tls.X509KeyPair checks it: the certificate data starts with a PEM certificate, the key data
//     holds a PEM private key, and the key is the certificate's.
//
// Caching: the credential is kept until its expirationTimestamp has passed (none: forever) or
// until Invalidate() (call it when the API server answered 401 to a request made with it), and the
// next Get() runs the plugin again. Concurrent Get() calls share one run. A run that fails or
// whose output is rejected (a bad certificate/key pair included) changes nothing: the next Get()
// runs the plugin again.
//
// Errors (absl::Status, the message naming the command as the config gives it):
//   kNotFound            "exec: executable <cmd> not found" + upstream's help text + "\n\n" +
//                        install_hint (when the config has one)
//   kPermissionDenied    "exec: <cmd>: Permission denied": it exists but cannot be executed
//   kUnavailable         "exec: executable <cmd> failed with exit code <n>: <first stderr line>",
//                        or "... was killed by signal <n>: <first stderr line>"
//   kDeadlineExceeded    it ran longer than options.timeout and was killed
//   kInvalidArgument     the output is not a valid ExecCredential of the configured apiVersion
//                        ("exec: executable <cmd>: <what is wrong>"; a bad certificate/key pair:
//                        "exec: executable <cmd>: failed parsing client key/certificate:
//                        clientCertificateData|clientKeyData|clientCertificateData/clientKeyData:
//                        <OpenSSL's reason>"), or the config's apiVersion is not one this client
//                        speaks (`exec plugin: invalid apiVersion "<v>"`)
//   kFailedPrecondition  interactiveMode Always: plugins never get a terminal here
//
// Observer (ExecProviderOptions::observer): told how every run ended (client-go's
// incrementCallsMetric: exit 0 is no_error whatever the output; a non-zero exit its code; killed,
// timed out or over the output limit -1; not found or not executable plugin_not_found_error 1),
// the certificate's NotAfter after each successful refresh, and, when a refresh replaces a
// certificate (or drops it), how long the old one had lived since its NotBefore.
//
// Differences from upstream: a run is limited by options.timeout (upstream waits forever); the
// install hint is in every not-found error (upstream rate-limits it to 10 an hour); the
// cluster's exec extension (spec.cluster.config) is not sent.
//
// Thread-safety: Get() and Invalidate() may be called from any thread. Each run copies this
// process's environment (environ), so nothing may call setenv() concurrently. The plugin runs
// under an internal mutex (as upstream: one run at a time), so Get() can block for up to options.timeout.
// Not copyable or movable.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "base/mutex.h"
#include "client/exec_plugin_observer.h"
#include "client/rest_config.h"

namespace ksched::client {

struct SubprocessResult;

// The cluster the credential is for, passed to the plugin when provide_cluster_info is set.
struct ExecClusterInfo {
  std::string server;
  std::string tls_server_name;
  bool insecure_skip_tls_verify = false;
  std::string ca_pem;  // sent base64-encoded as certificate-authority-data; empty: omitted
};

// The cluster fields of a loaded RestConfig (server, tls.server_name, tls.insecure_skip_verify,
// tls.ca_pem).
ExecClusterInfo ExecClusterInfoFromRestConfig(const RestConfig& config);

struct Credential {
  std::string token;            // bearer token; may be empty when a client certificate is given
  std::string client_cert_pem;  // with client_key_pem: a client certificate for mutual TLS
  std::string client_key_pem;
  std::optional<std::chrono::system_clock::time_point> expiration;  // none: does not expire
  std::uint64_t generation = 0;  // 1 for the first run of the plugin, 2 for the next, ...
  // The client certificate's validity (set when client_cert_pem is).
  std::optional<std::chrono::system_clock::time_point> certificate_not_before;
  std::optional<std::chrono::system_clock::time_point> certificate_not_after;
};

// The plugin's stdout, validated against upstream's rules (an ExecCredential of `api_version` with
// a status holding a token or a client certificate and key), decoded. Errors: kInvalidArgument
// with upstream's reason. Exposed for the fuzz target; ExecCredentialProvider calls it.
absl::StatusOr<Credential> DecodeExecCredential(std::string_view data, std::string_view api_version);

struct ExecProviderOptions {
  std::chrono::milliseconds timeout{std::chrono::minutes(1)};  // 0: no limit (as upstream)
  bool pass_through_stderr = true;  // copy the plugin's stderr to this process's stderr
  // The clock expirations are compared with. Empty: std::chrono::system_clock::now.
  std::function<std::chrono::system_clock::time_point()> now;
  // Told about every run and every certificate (client-go's exec plugin metrics); null: nobody.
  std::shared_ptr<ExecPluginObserver> observer;
};

class ExecCredentialProvider {
 public:
  ExecCredentialProvider(ExecConfig config, ExecClusterInfo cluster,
                         ExecProviderOptions options = {});
  ExecCredentialProvider(const ExecCredentialProvider&) = delete;
  ExecCredentialProvider& operator=(const ExecCredentialProvider&) = delete;

  // The cached credential, or a fresh one from a new run of the plugin when none is cached or the
  // cached one has expired (expirationTimestamp strictly before now).
  absl::StatusOr<Credential> Get();

  // Drops the cached credential so that the next Get() runs the plugin. With a generation, drops it
  // only if it is still that generation: many requests failing with 401 on the same credential
  // cause one re-run, not one each (upstream's maybeRefreshCreds).
  void Invalidate(std::optional<std::uint64_t> generation = std::nullopt);

  const ExecConfig& config() const { return config_; }

 private:
  absl::StatusOr<Credential> RunPluginLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  std::chrono::system_clock::time_point Now() const;
  // Tells the observer how a run ended (client-go's incrementCallsMetric).
  void ObserveCall(const absl::StatusOr<SubprocessResult>& run) const;
  // Tells the observer about `fresh`'s certificate and about the one it replaces.
  void ObserveCertificateLocked(const Credential& fresh) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const ExecConfig config_;
  const ExecClusterInfo cluster_;
  const ExecProviderOptions options_;

  base::Mutex mu_;
  std::optional<Credential> cached_ ABSL_GUARDED_BY(mu_);
  std::uint64_t runs_ ABSL_GUARDED_BY(mu_) = 0;  // successful runs so far
  // The last credential obtained, kept across Invalidate: upstream compares a new credential with
  // the one it replaces.
  std::optional<Credential> last_ ABSL_GUARDED_BY(mu_);
};

// The provider for `config` and `cluster` shared with every earlier caller in the process that asked
// with equal ones and equal options (client-go's globalCache of exec Authenticators: the clients
// built from one kubeconfig, e.g. the scheduler's, its events' and its leader election's, run the
// plugin once and hold one credential, not one each). Options with a `now` clock are never shared.
// Providers live as long as the process, as upstream's.
std::shared_ptr<ExecCredentialProvider> SharedExecCredentialProvider(const ExecConfig& config,
                                                                     const ExecClusterInfo& cluster,
                                                                     ExecProviderOptions options);

}  // namespace ksched::client
