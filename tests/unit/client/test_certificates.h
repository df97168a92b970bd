// Test support: self-signed client certificates (EC P-256, valid for a day) made in memory with
// OpenSSL, as PEM text, and their JSON-string form for ExecCredential outputs. Throws on an
// OpenSSL failure (a broken test environment).
#pragma once

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <atomic>
#include <memory>
#include <stdexcept>
#include <string>

namespace ksched::client::testing {

// A fresh EC P-256 key. (EVP_EC_gen's macro casts its argument to char*: a mutable buffer keeps
// clang's -Wcast-qual quiet.)
inline EVP_PKEY* NewP256Key() {
  char curve[] = "P-256";
  return EVP_EC_gen(curve);
}

struct TestKeyPair {
  std::string cert_pem;
  std::string key_pem;
};

inline std::string BioText(BIO* bio) {
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio, &data);
  return std::string(data, static_cast<std::size_t>(size));
}

// A certificate for CN=<common_name>, signed by its own key.
inline TestKeyPair SelfSignedPair(const std::string& common_name) {
  static std::atomic<long> serial{1};
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(NewP256Key(), EVP_PKEY_free);
  std::unique_ptr<X509, decltype(&X509_free)> cert(X509_new(), X509_free);
  if (!key || !cert) throw std::runtime_error("OpenSSL: cannot make a key or certificate");
  X509_set_version(cert.get(), 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), serial++);
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -60);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), 86400);
  X509_set_pubkey(cert.get(), key.get());
  X509_NAME* name = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                             reinterpret_cast<const unsigned char*>(common_name.c_str()), -1, -1, 0);
  X509_set_issuer_name(cert.get(), name);
  if (X509_sign(cert.get(), key.get(), EVP_sha256()) == 0) {
    throw std::runtime_error("OpenSSL: cannot sign the certificate");
  }
  std::unique_ptr<BIO, decltype(&BIO_free)> cert_bio(BIO_new(BIO_s_mem()), BIO_free);
  std::unique_ptr<BIO, decltype(&BIO_free)> key_bio(BIO_new(BIO_s_mem()), BIO_free);
  if (PEM_write_bio_X509(cert_bio.get(), cert.get()) != 1 ||
      PEM_write_bio_PrivateKey(key_bio.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1) {
    throw std::runtime_error("OpenSSL: cannot write PEM");
  }
  return TestKeyPair{BioText(cert_bio.get()), BioText(key_bio.get())};
}

// PEM text as the inside of a JSON string (newlines as \n; PEM has no other special characters).
inline std::string JsonPem(const std::string& pem) {
  std::string out;
  for (const char c : pem) {
    if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

}  // namespace ksched::client::testing
