#include "serving/serving_certificate.h"

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <memory>

#include <spdlog/spdlog.h>

#include "client/read_file.h"

namespace ksched::serving {
namespace {

struct BioFree { void operator()(BIO* b) const { BIO_free(b); } };
struct X509Free { void operator()(X509* x) const { X509_free(x); } };
struct PkeyFree { void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); } };
using BioPtr = std::unique_ptr<BIO, BioFree>;
using X509Ptr = std::unique_ptr<X509, X509Free>;
using PkeyPtr = std::unique_ptr<EVP_PKEY, PkeyFree>;

std::string OpenSslError() {
  const unsigned long code = ERR_get_error();
  ERR_clear_error();
  if (code == 0) return "unknown OpenSSL error";
  char buffer[256];
  ERR_error_string_n(code, buffer, sizeof(buffer));
  return buffer;
}

BioPtr MemoryBio(const std::string& text) {
  return BioPtr(BIO_new_mem_buf(text.data(), static_cast<int>(text.size())));
}

std::string BioText(BIO* bio) {
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio, &data);
  return std::string(data, static_cast<std::size_t>(size));
}

bool FileExists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

// Created with `mode` from the start: a key file is never readable by others, even briefly.
absl::Status WriteFile(const std::string& path, const std::string& content, mode_t mode) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
  if (fd < 0) return absl::FailedPreconditionError("cannot write " + path + ": " + std::strerror(errno));
  std::size_t written = 0;
  while (written < content.size()) {
    const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int saved = errno;
      ::close(fd);
      return absl::FailedPreconditionError("cannot write " + path + ": " + std::strerror(saved));
    }
    written += static_cast<std::size_t>(n);
  }
  ::close(fd);
  return absl::OkStatus();
}

absl::Status MakeDirectories(const std::string& dir) {
  std::string partial;
  for (std::size_t i = 0; i <= dir.size(); ++i) {
    if (i == dir.size() || (dir[i] == '/' && i > 0)) {
      partial = dir.substr(0, i);
      if (::mkdir(partial.c_str(), 0755) != 0 && errno != EEXIST) {
        return absl::FailedPreconditionError("cannot create --cert-dir " + partial + ": " + std::strerror(errno));
      }
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<ServingCertificate> LoadPair(const std::string& cert_file, const std::string& key_file) {
  absl::StatusOr<std::string> cert = client::ReadFileToString(cert_file);
  if (!cert.ok()) {
    return absl::InvalidArgumentError("unable to load server certificate: " + std::string(cert.status().message()));
  }
  absl::StatusOr<std::string> key = client::ReadFileToString(key_file);
  if (!key.ok()) {
    return absl::InvalidArgumentError("unable to load server certificate key: " + std::string(key.status().message()));
  }
  absl::Status valid = ValidateCertificatePair(*cert, *key, cert_file, key_file);
  if (!valid.ok()) return valid;
  return ServingCertificate{*std::move(cert), *std::move(key), "files " + cert_file + ", " + key_file};
}

bool IsUnspecifiedAddress(const std::string& address) {
  return address.empty() || address == "0.0.0.0" || address == "::" || address == "[::]";
}

}  // namespace

absl::Status ValidateCertificatePair(const std::string& cert_pem, const std::string& key_pem,
                                     const std::string& cert_what, const std::string& key_what) {
  BioPtr cert_bio = MemoryBio(cert_pem);
  X509Ptr cert(PEM_read_bio_X509(cert_bio.get(), nullptr, nullptr, nullptr));
  if (!cert) {
    ERR_clear_error();
    return absl::InvalidArgumentError("unable to load server certificate: " + cert_what +
                                      ": no PEM certificate found");
  }
  BioPtr key_bio = MemoryBio(key_pem);
  PkeyPtr key(PEM_read_bio_PrivateKey(key_bio.get(), nullptr, nullptr, nullptr));
  if (!key) {
    ERR_clear_error();
    return absl::InvalidArgumentError("unable to load server certificate key: " + key_what +
                                      ": no PEM private key found");
  }
  if (X509_check_private_key(cert.get(), key.get()) != 1) {
    ERR_clear_error();
    return absl::InvalidArgumentError("unable to load server certificate: private key " + key_what +
                                      " does not match certificate " + cert_what);
  }
  return absl::OkStatus();
}

absl::StatusOr<ServingCertificate> GenerateSelfSignedCertificate(const std::vector<std::string>& dns_names,
                                                                 const std::vector<std::string>& ip_addresses) {
  // EVP_EC_gen's macro casts its argument to char*: a mutable buffer keeps clang's -Wcast-qual quiet.
  std::string curve = "P-256";
  PkeyPtr key(EVP_EC_gen(curve.data()));
  if (!key) return absl::InternalError("unable to generate self signed cert: " + OpenSslError());
  X509Ptr cert(X509_new());
  if (!cert) return absl::InternalError("unable to generate self signed cert: " + OpenSslError());

  const long long now = std::chrono::duration_cast<std::chrono::seconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count();
  const std::string common_name = "localhost@" + std::to_string(now);
  X509_set_version(cert.get(), 2);
  ASN1_INTEGER_set_int64(X509_get_serialNumber(cert.get()), now);
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);  // upstream backdates by an hour
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), 365L * 24 * 3600);
  X509_set_pubkey(cert.get(), key.get());
  X509_NAME* name = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>(common_name.c_str()), -1, -1, 0);
  X509_set_issuer_name(cert.get(), name);

  std::string san;
  for (const std::string& dns : dns_names) san += (san.empty() ? "DNS:" : ",DNS:") + dns;
  for (const std::string& ip : ip_addresses) san += (san.empty() ? "IP:" : ",IP:") + ip;
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, cert.get(), cert.get(), nullptr, nullptr, 0);
  const std::pair<int, std::string> extensions[] = {
      {NID_basic_constraints, "critical,CA:FALSE"},
      {NID_key_usage, "critical,digitalSignature,keyEncipherment"},
      {NID_ext_key_usage, "serverAuth"},
      {NID_subject_alt_name, san},
  };
  for (const auto& [nid, value] : extensions) {
    if (value.empty()) continue;
    X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str());
    if (ext == nullptr) return absl::InternalError("unable to generate self signed cert: " + OpenSslError());
    X509_add_ext(cert.get(), ext, -1);
    X509_EXTENSION_free(ext);
  }
  if (X509_sign(cert.get(), key.get(), EVP_sha256()) == 0) {
    return absl::InternalError("unable to generate self signed cert: " + OpenSslError());
  }

  BioPtr cert_out(BIO_new(BIO_s_mem()));
  BioPtr key_out(BIO_new(BIO_s_mem()));
  if (PEM_write_bio_X509(cert_out.get(), cert.get()) != 1 ||
      PEM_write_bio_PrivateKey(key_out.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1) {
    return absl::InternalError("unable to generate self signed cert: " + OpenSslError());
  }
  return ServingCertificate{BioText(cert_out.get()), BioText(key_out.get()), "self-signed in memory"};
}

absl::StatusOr<ServingCertificate> LoadServingCertificate(const SecureServingOptions& options) {
  const bool has_cert = !options.tls_cert_file.empty();
  const bool has_key = !options.tls_private_key_file.empty();
  if (has_cert && !has_key) return absl::InvalidArgumentError("missing filename for serving key (--tls-private-key-file)");
  if (has_key && !has_cert) return absl::InvalidArgumentError("missing filename for serving cert (--tls-cert-file)");
  if (has_cert) return LoadPair(options.tls_cert_file, options.tls_private_key_file);

  std::string cert_file;
  std::string key_file;
  if (!options.cert_dir.empty()) {
    cert_file = options.cert_dir + "/" + options.pair_name + ".crt";
    key_file = options.cert_dir + "/" + options.pair_name + ".key";
    const bool cert_exists = FileExists(cert_file);
    const bool key_exists = FileExists(key_file);
    if (cert_exists && key_exists) return LoadPair(cert_file, key_file);  // a previous run's pair
    if (cert_exists != key_exists) {
      return absl::InvalidArgumentError("error reading " + (cert_exists ? key_file : cert_file) +
                                        ", certificate and key must be supplied as a pair");
    }
  }

  // upstream: localhost and 127.0.0.1, plus the bind address unless it is unspecified.
  std::vector<std::string> ips{"127.0.0.1"};
  if (!IsUnspecifiedAddress(options.bind_address) && options.bind_address != "127.0.0.1") {
    ips.push_back(options.bind_address);
  }
  absl::StatusOr<ServingCertificate> generated = GenerateSelfSignedCertificate({"localhost"}, ips);
  if (!generated.ok()) return generated.status();
  if (cert_file.empty()) {
    SPDLOG_INFO("Generated self-signed cert in-memory");
    return generated;
  }
  if (absl::Status made = MakeDirectories(options.cert_dir); !made.ok()) return made;
  if (absl::Status written = WriteFile(cert_file, generated->cert_pem, 0644); !written.ok()) return written;
  if (absl::Status written = WriteFile(key_file, generated->key_pem, 0600); !written.ok()) return written;
  SPDLOG_INFO("Generated self-signed cert ({}, {})", cert_file, key_file);
  generated->source = "self-signed, written to " + cert_file + ", " + key_file;
  return generated;
}

}  // namespace ksched::serving
