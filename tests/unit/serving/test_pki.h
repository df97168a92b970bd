// A throwaway certificate authority for tests: a CA and the client certificates it signs
// (subject CN and O values, validity and extended key usage chosen by the test). PEM and DER out.
#pragma once

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <atomic>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace ksched::serving::testing {

// A fresh EC P-256 key. (EVP_EC_gen's macro casts its argument to char*: a mutable buffer keeps
// clang's -Wcast-qual quiet.)
inline EVP_PKEY* NewP256Key() {
  char curve[] = "P-256";
  return EVP_EC_gen(curve);
}

struct IssuedCertificate {
  std::string cert_pem;
  std::string key_pem;
  std::string cert_der;
};

struct LeafSpec {
  std::string common_name;
  std::vector<std::string> organizations;
  long not_before_offset_seconds = -60;
  long not_after_offset_seconds = 86400;
  const char* extended_key_usage = "clientAuth";  // nullptr: no extension
  std::vector<std::string> uids = {};              // subject attributes 1.3.6.1.4.1.57683.2
};

class TestCa {
 public:
  explicit TestCa(const std::string& name) : key_(NewP256Key(), EVP_PKEY_free), cert_(X509_new(), X509_free) {
    if (!key_ || !cert_) throw std::runtime_error("OpenSSL: cannot make the CA");
    Fill(cert_.get(), key_.get(), {name, {}, -60, 86400 * 30, nullptr});
    X509_set_issuer_name(cert_.get(), X509_get_subject_name(cert_.get()));
    Sign(cert_.get(), cert_.get(), key_.get(), true);
  }

  std::string pem() const { return Pem(cert_.get()); }

  IssuedCertificate Issue(const LeafSpec& spec) const {
    std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(NewP256Key(), EVP_PKEY_free);
    std::unique_ptr<X509, decltype(&X509_free)> cert(X509_new(), X509_free);
    Fill(cert.get(), key.get(), spec);
    X509_set_issuer_name(cert.get(), X509_get_subject_name(cert_.get()));
    Sign(cert.get(), cert_.get(), key_.get(), false, spec.extended_key_usage);
    std::unique_ptr<BIO, decltype(&BIO_free)> key_bio(BIO_new(BIO_s_mem()), BIO_free);
    PEM_write_bio_PrivateKey(key_bio.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr);
    unsigned char* der = nullptr;
    const int length = i2d_X509(cert.get(), &der);
    IssuedCertificate out{Pem(cert.get()), Text(key_bio.get()), std::string(reinterpret_cast<char*>(der), length)};
    OPENSSL_free(der);
    return out;
  }

 private:
  static std::string Text(BIO* bio) {
    char* data = nullptr;
    const long size = BIO_get_mem_data(bio, &data);
    return std::string(data, static_cast<std::size_t>(size));
  }
  static std::string Pem(X509* cert) {
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), BIO_free);
    PEM_write_bio_X509(bio.get(), cert);
    return Text(bio.get());
  }
  static void Fill(X509* cert, EVP_PKEY* key, const LeafSpec& spec) {
    static std::atomic<long> serial{1000};
    X509_set_version(cert, 2);
    ASN1_INTEGER_set(X509_get_serialNumber(cert), serial++);
    X509_gmtime_adj(X509_getm_notBefore(cert), spec.not_before_offset_seconds);
    X509_gmtime_adj(X509_getm_notAfter(cert), spec.not_after_offset_seconds);
    X509_set_pubkey(cert, key);
    X509_NAME* name = X509_get_subject_name(cert);
    for (const std::string& o : spec.organizations) {
      X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC, reinterpret_cast<const unsigned char*>(o.c_str()), -1, -1, 0);
    }
    for (const std::string& uid : spec.uids) {
      X509_NAME_add_entry_by_txt(name, "1.3.6.1.4.1.57683.2", MBSTRING_UTF8,
                                 reinterpret_cast<const unsigned char*>(uid.c_str()), static_cast<int>(uid.size()), -1, 0);
    }
    if (!spec.common_name.empty()) {
      X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                                 reinterpret_cast<const unsigned char*>(spec.common_name.c_str()), -1, -1, 0);
    }
  }
  static void AddExtension(X509* cert, X509* issuer, int nid, const char* value) {
    X509V3_CTX ctx;
    X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
    X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value);
    if (ext == nullptr) throw std::runtime_error("OpenSSL: bad extension");
    X509_add_ext(cert, ext, -1);
    X509_EXTENSION_free(ext);
  }
  static void Sign(X509* cert, X509* issuer, EVP_PKEY* issuer_key, bool ca, const char* eku = nullptr) {
    if (ca) {
      AddExtension(cert, issuer, NID_basic_constraints, "critical,CA:TRUE");
      AddExtension(cert, issuer, NID_key_usage, "critical,keyCertSign,cRLSign");
      AddExtension(cert, issuer, NID_subject_key_identifier, "hash");
    } else {
      AddExtension(cert, issuer, NID_key_usage, "critical,digitalSignature");
      if (eku != nullptr) AddExtension(cert, issuer, NID_ext_key_usage, eku);
      AddExtension(cert, issuer, NID_authority_key_identifier, "keyid");
    }
    if (X509_sign(cert, issuer_key, EVP_sha256()) == 0) throw std::runtime_error("OpenSSL: cannot sign");
  }

  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key_;
  std::unique_ptr<X509, decltype(&X509_free)> cert_;
};

}  // namespace ksched::serving::testing
