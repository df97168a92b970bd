// Authenticator: the Authorization header for requests to the API server, from a RestConfig's
// credentials, as client-go's transport layer chooses them:
//   1. an exec credential plugin (RestConfig::exec), when configured: "Bearer <token>" from
//      ExecCredentialProvider, re-run when the credential expires or after OnUnauthorized();
//   2. else a bearer token file (bearer_token_file), re-read when it changes (BearerTokenFile),
//      with the static bearer_token serving only while the file cannot be read;
//   3. else the static bearer_token;
//   4. else basic auth: "Basic base64(username:password)";
//   5. else nothing (client certificates, or an unauthenticated server): an empty header value.
// A config with both a username/password and a bearer token (or token file) is rejected, as
// client-go rejects it.
//
// Create() runs the exec plugin once, so that a broken plugin is reported at startup. Exec plugins
// that return a client certificate instead of a token are not supported yet: kUnimplemented, at
// Create() or, if a later run returns one, from Authorization().
//
// OnUnauthorized(): the API server answered 401 to a request made with the current credential.
// The exec credential handed out last is dropped (only that generation: many concurrent 401s cause
// one re-run), so the next Authorization() runs the plugin again. Token files and static
// credentials have nothing to refresh.
//
// Thread-safety: all methods may be called concurrently. Authorization() may block while the exec
// plugin runs (ExecProviderOptions::timeout at most), and OnUnauthorized() while another thread's
// run finishes; the token file is stat'ed on every call.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "client/bearer_token_file.h"
#include "client/exec_credential.h"
#include "client/http_transport.h"
#include "client/rest_config.h"

namespace ksched::client {

class Authenticator : public std::enable_shared_from_this<Authenticator> {
 public:
  enum class Kind { kNone, kExec, kTokenFile, kToken, kBasic };

  static absl::StatusOr<std::shared_ptr<Authenticator>> Create(const RestConfig& config,
                                                               ExecProviderOptions exec_options = {});
  Authenticator(const Authenticator&) = delete;
  Authenticator& operator=(const Authenticator&) = delete;

  // The Authorization header value for the next request ("Bearer ...", "Basic ...", or "").
  absl::StatusOr<std::string> Authorization();
  // An AuthorizationSource for HttpTransport::Create; it keeps this Authenticator alive.
  AuthorizationSource Source();
  void OnUnauthorized();

  Kind kind() const { return kind_; }

 private:
  Authenticator(Kind kind, const RestConfig& config, ExecProviderOptions exec_options);

  const Kind kind_;
  const std::string static_header_;            // kToken, kBasic
  const std::string fallback_token_;           // kTokenFile: the static token while unreadable
  std::unique_ptr<BearerTokenFile> token_file_;  // kTokenFile
  std::unique_ptr<ExecCredentialProvider> exec_;  // kExec
  std::atomic<std::uint64_t> exec_generation_{0};  // generation handed out last (0: none)
};

}  // namespace ksched::client
