// Authenticator: the credentials sent to the API server, from a RestConfig, chosen as client-go's
// transport layer chooses them (rest.Config.TransportConfig, exec.Authenticator.UpdateTransportConfig):
//   1. an exec credential plugin (RestConfig::exec), only when the config holds no other
//      credential (no bearer token or token file, no username, no client certificate and key):
//      client-go ignores the plugin then, and so does this class (it never runs). The plugin's
//      token becomes "Bearer <token>"; its client certificate (clientCertificateData +
//      clientKeyData) is handed to the transport through CertificateSource(); a credential may
//      carry both, and both are used. The credential is re-obtained from ExecCredentialProvider
//      when it expires or after OnUnauthorized();
//   2. else a bearer token file (bearer_token_file), re-read when it changes (BearerTokenFile),
//      with the static bearer_token serving only while the file cannot be read;
//   3. else the static bearer_token;
//   4. else basic auth: "Basic base64(username:password)";
//   5. else nothing (client certificates from the config, or an unauthenticated server): an empty
//      header value.
// A config with both a username/password and a bearer token (or token file) is rejected, as
// client-go rejects it.
//
// Create() runs the exec plugin once, so that a broken plugin, or a certificate/key pair that does
// not load, is reported at startup (the ExecCredentialProvider error, naming the command).
// Authenticators of equal exec configurations share one provider (SharedExecCredentialProvider, as
// client-go's cache of exec authenticators): one plugin run and one credential for all of them.
//
// Client certificates from the plugin: CurrentClientCertificate() returns the current pair with a
// generation that grows only when the PEM text of the pair changes (a refresh that returns the
// same pair, or only a new token, keeps the generation, so the transport keeps its connections;
// client-go closes connections only when the certificate changes, too). A plugin that stops
// returning a certificate yields a ClientCertificate with empty PEMs and a new generation. Before
// the plugin returned any certificate: null.
//
// OnUnauthorized(): the API server answered 401 to a request made with the current credential.
// The exec credential handed out last is dropped (only that generation: many concurrent 401s cause
// one re-run), so the next Authorization() runs the plugin again. Token files and static
// credentials have nothing to refresh.
//
// Thread-safety: all methods may be called concurrently. Authorization() and CurrentClientCertificate()
// may block while the exec plugin runs (ExecProviderOptions::timeout at most), and
// OnUnauthorized() while another thread's run finishes; the token file is stat'ed on every call.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "base/mutex.h"
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

  // The Authorization header value for the next request ("Bearer ...", "Basic ...", or ""). A
  // credential that is no valid header value (control characters: CR LF would inject headers) is
  // an error, as Go's net/http refuses to send it: `net/http: invalid header field value for
  // "Authorization"`.
  absl::StatusOr<std::string> Authorization();
  // The exec plugin's client certificate for new TLS connections (see above); null when the kind
  // is not kExec or the plugin never returned one.
  absl::StatusOr<std::shared_ptr<const ClientCertificate>> CurrentClientCertificate();

  // Sources for HttpTransport::Create; they keep this Authenticator alive. CertificateSource() is
  // empty (no source) unless the kind is kExec.
  AuthorizationSource Source();
  ClientCertificateSource CertificateSource();
  void OnUnauthorized();

  Kind kind() const { return kind_; }

 private:
  Authenticator(Kind kind, const RestConfig& config, ExecProviderOptions exec_options);
  absl::StatusOr<std::string> AuthorizationUnchecked();

  // The exec credential (cached or fresh); notes its generation and certificate.
  absl::StatusOr<Credential> ExecCredential();

  const Kind kind_;
  const std::string static_header_;            // kToken, kBasic
  const std::string fallback_token_;           // kTokenFile: the static token while unreadable
  std::unique_ptr<BearerTokenFile> token_file_;  // kTokenFile
  std::shared_ptr<ExecCredentialProvider> exec_;  // kExec: shared with equal configs' (SharedExecCredentialProvider)
  std::atomic<std::uint64_t> exec_generation_{0};  // generation handed out last (0: none)

  base::Mutex certificate_mu_;
  // The credential generation the certificate below was taken from.
  std::uint64_t certificate_from_credential_ ABSL_GUARDED_BY(certificate_mu_) = 0;
  // The plugin's current pair; null until it returned one.
  std::shared_ptr<const ClientCertificate> certificate_ ABSL_GUARDED_BY(certificate_mu_);
};

}  // namespace ksched::client
