// ClientCertificateAuthenticator: who sent a request, from the client certificate it presented in
// the TLS handshake, as the apiserver library's x509 authenticator decides it (kube-scheduler's
// --client-ca-file, or the client-ca-file of configmap kube-system/extension-apiserver-authentication
// when that flag is empty):
//   - no certificate: no opinion (nullopt), so the next authenticator (bearer token) decides;
//   - the leaf (with the other certificates the client sent as intermediates) must chain to one of
//     the CAs, be valid now and allow client authentication (extended key usage clientAuth, or
//     none); otherwise an error "verifying certificate SN=<serial>, SKID=<hex>, AKID=<hex> failed:
//     <reason>", which refuses the request with 401 unless a bearer token authenticates it;
//   - a verified certificate without a CommonName: no opinion;
//   - else the user <CommonName> in the groups of its Organization values, with the uid of its
//     1.3.6.1.4.1.57683.2 subject attribute (none: no uid; several, or an empty one: an error, as
//     upstream's parseUIDFromCert with AllowParsingUserUIDFromCertAuth, on in v1.37.2), with extra
//     authentication.kubernetes.io/credential-id = X509SHA256=<hex of the leaf's SHA-256>
//     (CommonNameUserConversion; the caller adds system:authenticated).
// Every certificate presented is first told to `observer` with its remaining lifetime in seconds
// (apiserver_client_certificate_expiration_seconds), as upstream observes it before verifying.
//
// Reload swaps the CAs for a new bundle (upstream's dynamic CA content: a bundle that does not
// load leaves the old one in use). The TLS handshake's CA hints stay those given at Create.
//
// Thread-safety: Authenticate and Reload may be called concurrently (a verification uses the
// store current when it began; stores are read-only once built).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "base/mutex.h"
#include "serving/user_info.h"

namespace ksched::serving {

inline constexpr char kCredentialIdExtra[] = "authentication.kubernetes.io/credential-id";

class ClientCertificateAuthenticator {
 public:
  using ExpirationObserver = std::function<void(double remaining_seconds)>;

  // `ca_pem`: one or more PEM certificates; `source` names them as upstream's CA content providers
  // do ("client-ca-bundle::/etc/ca.crt"). Errors: kInvalidArgument "error loading CA bundle for
  // \"<source>\": ..." when the bundle holds no certificate or one that does not parse.
  static absl::StatusOr<std::unique_ptr<ClientCertificateAuthenticator>> Create(
      std::string_view ca_pem, std::string source, ExpirationObserver observer = nullptr);
  ~ClientCertificateAuthenticator();
  ClientCertificateAuthenticator(const ClientCertificateAuthenticator&) = delete;
  ClientCertificateAuthenticator& operator=(const ClientCertificateAuthenticator&) = delete;

  // `chain_der`: the certificates the client sent, leaf first (DER); empty when it sent none.
  absl::StatusOr<std::optional<UserInfo>> Authenticate(const std::vector<std::string>& chain_der) const;

  // Replaces the CAs with those of `ca_pem` when it differs from the bundle in use. Returns whether
  // it changed them; errors as Create's, the CAs in use unchanged.
  absl::StatusOr<bool> Reload(std::string_view ca_pem);

  // The CAs' subjects, for the TLS CertificateRequest's certificate_authorities hint (DER names).
  const std::vector<std::string>& ca_subjects_der() const { return ca_subjects_der_; }
  const std::string& source() const { return source_; }

 private:
  struct Store;
  // Parses `ca_pem` into a store and the CAs' subjects.
  static absl::StatusOr<std::shared_ptr<const Store>> Parse(std::string_view ca_pem, const std::string& source,
                                                            std::vector<std::string>* subjects);
  ClientCertificateAuthenticator(std::shared_ptr<const Store> store, std::string ca_pem, std::string source,
                                 ExpirationObserver observer, std::vector<std::string> ca_subjects_der);
  std::shared_ptr<const Store> CurrentStore() const;

  mutable base::Mutex mu_;
  std::shared_ptr<const Store> store_ ABSL_GUARDED_BY(mu_);
  std::string ca_pem_ ABSL_GUARDED_BY(mu_);  // the bundle store_ was built from
  const std::string source_;
  const ExpirationObserver observer_;
  const std::vector<std::string> ca_subjects_der_;
};

}  // namespace ksched::serving
