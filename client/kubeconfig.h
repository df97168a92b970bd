// LoadKubeconfig: a RestConfig from one kubeconfig file, as client-go's clientcmd builds a
// rest.Config from ClientConfigLoadingRules{ExplicitPath: path} and ConfigOverrides{ClusterInfo:
// {Server: master}, CurrentContext: context} (loader.go, client_config.go, validation.go).
//
// What is read (kubeconfig v1; unknown fields are ignored, as upstream):
//   clusters[].cluster  server, certificate-authority, certificate-authority-data (base64),
//                       insecure-skip-tls-verify, tls-server-name
//   users[].user        client-certificate, client-certificate-data, client-key, client-key-data,
//                       token, tokenFile, username, password, as, as-groups, exec (command, args,
//                       env, apiVersion, installHint, provideClusterInfo, interactiveMode)
//   contexts[].context  cluster, user, namespace
//   current-context
// Relative file paths (certificate-authority, client-certificate, client-key, tokenFile, and an
// exec command containing '/') are resolved against the kubeconfig file's directory. PEM files and
// base64 data are read and decoded now, into RestConfig::tls; a tokenFile is read now (it must
// exist) and kept as bearer_token_file for the transport to re-read; an exec plugin is not run.
//
// Selection: options.context, else current-context. options.master (--master) replaces the
// cluster's server and clears its tls-server-name (upstream's override rule); it also makes a
// kubeconfig without any context usable (server only, no credentials). A server without a scheme
// gets https:// when the cluster has TLS settings, http:// otherwise. As upstream
// (IsConfigTransportTLS), an http:// server gets no credentials and no TLS settings: nothing
// secret is ever sent in clear.
//
// Errors (absl::Status; messages name the file, the context and the offending field):
//   kNotFound, kPermissionDenied, ...  the kubeconfig cannot be read (the read error's code,
//                     clientcmd's message: "stat <path>: no such file or directory", else
//                     `error loading config file "<path>": open <path>: permission denied`,
//                     `... read <path>: is a directory`)
//   kInvalidArgument  a malformed file (`error loading config file "<path>": ...`),
//                     a duplicate name in clusters/users/contexts, a requested context that does
//                     not exist (`context "foo" does not exist in kubeconfig <path>`), or an
//                     invalid selected context: `invalid configuration in kubeconfig <path>,
//                     context "<name>": <error>[; <error>...]` where each error is one of
//                     clientcmd's validation errors (no server, certificate-authority together
//                     with certificate-authority-data, a client certificate without key, more than
//                     one authentication method, an exec entry without command/apiVersion/
//                     interactiveMode, groups without `as`, a referenced file that cannot be read,
//                     illegal base64 data, CA together with insecure-skip-tls-verify ...)
// Only the selected context, its cluster and its user are validated, as ConfirmUsable does; unlike
// upstream, a context naming a user or cluster that does not exist is an error (upstream silently
// falls back to an anonymous user / an empty cluster), and so is a field this client cannot honour
// (auth-provider, proxy-url, as-uid, as-user-extra) rather than being ignored.
//
// Thread-safety: reads files only; call from any thread.
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "client/rest_config.h"

namespace ksched::client {

struct KubeconfigOptions {
  std::string path;     // the kubeconfig file (required; $KUBECONFIG is not consulted)
  std::string context;  // the context to use; empty: the file's current-context
  std::string master;   // --master: replaces the selected cluster's server; empty: no override
};

absl::StatusOr<RestConfig> LoadKubeconfig(const KubeconfigOptions& options);

}  // namespace ksched::client
