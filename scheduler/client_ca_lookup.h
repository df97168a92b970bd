// LookupClientCa: the CA bundle the secure server verifies client certificates against, chosen as
// the apiserver library's DelegatingAuthenticationOptions chooses it for kube-scheduler:
//   1. --client-ca-file, when given (read at start; unreadable: an error that stops the start,
//      "unable to load client CA provider: open <path>: <reason>", as Go words it);
//   2. else, unless --authentication-skip-lookup, the "client-ca-file" key of configmap
//      kube-system/extension-apiserver-authentication, read with the authentication client (the
//      API server publishes its own --client-ca-file there). No client: the warnings upstream logs,
//      and none. The configmap missing: none. Missing the key: upstream's warning, and none. A
//      refused or failed read: with --authentication-tolerate-lookup-failure (the default) upstream's
//      three warnings and none, else an error that stops the start ("unable to load configmap based
//      request-header-client-ca-file: <error>").
// Returns nullopt when client certificates are not to be authenticated.
//
// ReadClientCaAgain reads the bundle again for ClientCaReloader (every minute, as upstream's dynamic
// CA content resyncs; upstream also reacts to file events at once).
// Thread-safety: a free function; `authentication_client` must be thread-safe (RestClient is).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "client/rest_client.h"

namespace ksched::scheduler {

struct ClientCa {
  std::string pem;
  // As upstream's CA content providers name themselves: "client-ca-bundle::<path>" (the flag) or
  // "client-ca::kube-system::extension-apiserver-authentication::client-ca-file" (the configmap).
  std::string source;
  bool from_file = false;
  std::string path;  // the file's, when from_file
};

struct ClientCaLookupFlags {
  std::string client_ca_file;
  bool skip_lookup = false;
  bool tolerate_lookup_failure = true;
};

absl::StatusOr<std::optional<ClientCa>> LookupClientCa(const ClientCaLookupFlags& flags,
                                                      client::RestClient* authentication_client);

// The bundle of `ca` read again from where LookupClientCa found it (the file, or the configmap
// with `authentication_client`). Errors: the read's; a configmap without the key is an error.
absl::StatusOr<std::string> ReadClientCaAgain(const ClientCa& ca, client::RestClient* authentication_client);

}  // namespace ksched::scheduler
