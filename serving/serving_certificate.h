// ServingCertificate: the server's certificate chain and private key (PEM), loaded from
// --tls-cert-file / --tls-private-key-file or self-signed, as apiserver's
// SecureServingOptions.MaybeDefaultWithSelfSignedCerts and ApplyTo do.
//
// Errors (values, never aborts): kInvalidArgument naming the file and what is wrong with it
// (unreadable, not PEM, key not matching the certificate, only one of the pair given);
// kInternal when OpenSSL cannot generate a key or certificate; kFailedPrecondition when cert_dir
// cannot be written.
// Thread-safety: free functions without shared state.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "serving/secure_serving_options.h"

namespace ksched::serving {

struct ServingCertificate {
  std::string cert_pem;  // leaf first, then any intermediates
  std::string key_pem;
  std::string source;    // "files /a.crt, /a.key", "self-signed in memory", ... for logs
};

// The certificate the options ask for (see SecureServingOptions). Logs "Generated self-signed cert
// (...)" / "Generated self-signed cert in-memory" as upstream does.
absl::StatusOr<ServingCertificate> LoadServingCertificate(const SecureServingOptions& options);

// A self-signed certificate (ECDSA P-256, one year, CN "localhost@<unix seconds>") valid for these
// DNS names and IP addresses.
absl::StatusOr<ServingCertificate> GenerateSelfSignedCertificate(const std::vector<std::string>& dns_names,
                                                                 const std::vector<std::string>& ip_addresses);

// Checks that `cert_pem` holds at least one certificate and `key_pem` the matching private key.
// `cert_what` / `key_what` name them in the error ("--tls-cert-file /path").
absl::Status ValidateCertificatePair(const std::string& cert_pem, const std::string& key_pem,
                                     const std::string& cert_what, const std::string& key_what);

}  // namespace ksched::serving
