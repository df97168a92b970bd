#include "serving/client_certificate_authenticator.h"

#include <openssl/asn1.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

#include <cctype>
#include <utility>

#include "fmt/format.h"

namespace ksched::serving {
namespace {

// The subject attribute carrying the user's uid (upstream's uidOID).
constexpr std::string_view kUidOid = "1.3.6.1.4.1.57683.2";

struct X509Free {
  void operator()(X509* cert) const { X509_free(cert); }
};
using X509Ptr = std::unique_ptr<X509, X509Free>;

X509Ptr FromDer(const std::string& der) {
  const auto* data = reinterpret_cast<const unsigned char*>(der.data());
  return X509Ptr(d2i_X509(nullptr, &data, static_cast<long>(der.size())));
}

// Go's columnSeparatedHex: upper-case hex bytes joined by ':'.
std::string ColumnSeparatedHex(const ASN1_OCTET_STRING* bytes) {
  std::string out;
  if (bytes == nullptr) return out;
  const unsigned char* data = ASN1_STRING_get0_data(bytes);
  for (int i = 0; i < ASN1_STRING_length(bytes); ++i) {
    if (i > 0) out += ':';
    out += fmt::format("{:02X}", data[i]);
  }
  return out;
}

std::string SerialDecimal(const X509* cert) {
  BIGNUM* serial = ASN1_INTEGER_to_BN(X509_get0_serialNumber(cert), nullptr);
  if (serial == nullptr) return "?";
  char* text = BN_bn2dec(serial);
  std::string out = text != nullptr ? text : "?";
  OPENSSL_free(text);
  BN_free(serial);
  return out;
}

// upstream certificateIdentifier.
std::string CertificateIdentifier(X509* cert) {
  return fmt::format("SN={}, SKID={}, AKID={}", SerialDecimal(cert), ColumnSeparatedHex(X509_get0_subject_key_id(cert)),
                     ColumnSeparatedHex(X509_get0_authority_key_id(cert)));
}

// Go's x509 error texts for the usual failures; OpenSSL's otherwise.
std::string VerifyError(int code) {
  switch (code) {
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
    case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
    case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
    case X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
      return "x509: certificate signed by unknown authority";
    case X509_V_ERR_CERT_HAS_EXPIRED:
    case X509_V_ERR_CERT_NOT_YET_VALID:
      return "x509: certificate has expired or is not yet valid";
    case X509_V_ERR_INVALID_PURPOSE:
      return "x509: certificate specifies an incompatible key usage";
    default:
      return std::string("x509: ") + X509_verify_cert_error_string(code);
  }
}

std::string EntryText(const X509_NAME_ENTRY* entry) {
  const ASN1_STRING* data = X509_NAME_ENTRY_get_data(entry);
  unsigned char* utf8 = nullptr;
  const int length = ASN1_STRING_to_UTF8(&utf8, data);
  if (length < 0) return {};
  std::string out(reinterpret_cast<const char*>(utf8), static_cast<std::size_t>(length));
  OPENSSL_free(utf8);
  return out;
}

std::string Sha256Hex(const std::string& der) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  EVP_Digest(der.data(), der.size(), digest, &size, EVP_sha256(), nullptr);
  std::string out;
  for (unsigned int i = 0; i < size; ++i) out += fmt::format("{:02x}", digest[i]);
  return out;
}

}  // namespace

struct ClientCertificateAuthenticator::Store {
  X509_STORE* store = X509_STORE_new();
  ~Store() { X509_STORE_free(store); }
};

absl::StatusOr<std::shared_ptr<const ClientCertificateAuthenticator::Store>> ClientCertificateAuthenticator::Parse(
    std::string_view ca_pem, const std::string& source, std::vector<std::string>* subjects) {
  auto store = std::make_shared<Store>();
  if (store->store == nullptr) return absl::ResourceExhaustedError("out of memory");
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new_mem_buf(ca_pem.data(), static_cast<int>(ca_pem.size())),
                                                BIO_free);
  subjects->clear();
  ERR_clear_error();
  while (true) {
    X509Ptr cert(PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr));
    if (!cert) break;
    X509_STORE_add_cert(store->store, cert.get());
    unsigned char* der = nullptr;
    const int length = i2d_X509_NAME(X509_get_subject_name(cert.get()), &der);
    if (length > 0) subjects->emplace_back(reinterpret_cast<const char*>(der), static_cast<std::size_t>(length));
    OPENSSL_free(der);
  }
  // The loop ends at the end of the data (PEM "no start line") or at a block that does not parse.
  const unsigned long last = ERR_peek_last_error();
  ERR_clear_error();
  const bool at_end = last == 0 || (ERR_GET_LIB(last) == ERR_LIB_PEM && ERR_GET_REASON(last) == PEM_R_NO_START_LINE);
  // Messages as the apiserver library's CA bundle loader words them.
  if (!at_end) {
    return absl::InvalidArgumentError(
        fmt::format("error loading CA bundle for \"{}\": x509: malformed certificate", source));
  }
  if (subjects->empty()) {
    return absl::InvalidArgumentError(fmt::format(
        "error loading CA bundle for \"{}\": data does not contain any valid RSA or ECDSA certificates", source));
  }
  return std::shared_ptr<const Store>(std::move(store));
}

absl::StatusOr<std::unique_ptr<ClientCertificateAuthenticator>> ClientCertificateAuthenticator::Create(
    std::string_view ca_pem, std::string source, ExpirationObserver observer) {
  std::vector<std::string> subjects;
  absl::StatusOr<std::shared_ptr<const Store>> store = Parse(ca_pem, source, &subjects);
  if (!store.ok()) return store.status();
  return std::unique_ptr<ClientCertificateAuthenticator>(new ClientCertificateAuthenticator(
      *std::move(store), std::string(ca_pem), std::move(source), std::move(observer), std::move(subjects)));
}

ClientCertificateAuthenticator::ClientCertificateAuthenticator(std::shared_ptr<const Store> store, std::string ca_pem,
                                                               std::string source, ExpirationObserver observer,
                                                               std::vector<std::string> ca_subjects_der)
    : store_(std::move(store)),
      ca_pem_(std::move(ca_pem)),
      source_(std::move(source)),
      observer_(std::move(observer)),
      ca_subjects_der_(std::move(ca_subjects_der)) {}

ClientCertificateAuthenticator::~ClientCertificateAuthenticator() = default;

std::shared_ptr<const ClientCertificateAuthenticator::Store> ClientCertificateAuthenticator::CurrentStore() const {
  base::MutexLock lock(&mu_);
  return store_;
}

absl::StatusOr<bool> ClientCertificateAuthenticator::Reload(std::string_view ca_pem) {
  {
    base::MutexLock lock(&mu_);
    if (ca_pem == ca_pem_) return false;
  }
  std::vector<std::string> subjects;
  absl::StatusOr<std::shared_ptr<const Store>> store = Parse(ca_pem, source_, &subjects);
  if (!store.ok()) return store.status();
  base::MutexLock lock(&mu_);
  store_ = *std::move(store);
  ca_pem_ = std::string(ca_pem);
  return true;
}

absl::StatusOr<std::optional<UserInfo>> ClientCertificateAuthenticator::Authenticate(
    const std::vector<std::string>& chain_der) const {
  if (chain_der.empty()) return std::optional<UserInfo>();
  X509Ptr leaf = FromDer(chain_der.front());
  if (!leaf) return absl::UnauthenticatedError("verifying certificate: x509: malformed certificate");
  if (observer_) {
    int days = 0, seconds = 0;
    if (ASN1_TIME_diff(&days, &seconds, nullptr, X509_get0_notAfter(leaf.get())) == 1) {
      observer_(static_cast<double>(days) * 86400.0 + seconds);
    }
  }
  std::unique_ptr<STACK_OF(X509), void (*)(STACK_OF(X509)*)> intermediates(
      sk_X509_new_null(), [](STACK_OF(X509)* stack) { sk_X509_pop_free(stack, X509_free); });
  for (std::size_t i = 1; i < chain_der.size(); ++i) {
    if (X509Ptr cert = FromDer(chain_der[i])) sk_X509_push(intermediates.get(), cert.release());
  }
  std::unique_ptr<X509_STORE_CTX, decltype(&X509_STORE_CTX_free)> ctx(X509_STORE_CTX_new(), X509_STORE_CTX_free);
  const std::shared_ptr<const Store> store = CurrentStore();
  if (!ctx || X509_STORE_CTX_init(ctx.get(), store->store, leaf.get(), intermediates.get()) != 1) {
    return absl::InternalError("verifying certificate: cannot set up the verification");
  }
  // Go's KeyUsages {ExtKeyUsageClientAuth}: the TLS client purpose.
  X509_STORE_CTX_set_purpose(ctx.get(), X509_PURPOSE_SSL_CLIENT);
  const int verified = X509_verify_cert(ctx.get());
  ERR_clear_error();
  if (verified != 1) {
    return absl::UnauthenticatedError(fmt::format("verifying certificate {} failed: {}", CertificateIdentifier(leaf.get()),
                                                  VerifyError(X509_STORE_CTX_get_error(ctx.get()))));
  }
  const X509_NAME* subject = X509_get_subject_name(leaf.get());
  std::string common_name;
  std::vector<std::string> organizations;
  std::vector<std::string> uids;
  for (int i = 0; i < X509_NAME_entry_count(subject); ++i) {
    const X509_NAME_ENTRY* entry = X509_NAME_get_entry(subject, i);
    const ASN1_OBJECT* type = X509_NAME_ENTRY_get_object(entry);
    const int nid = OBJ_obj2nid(type);
    if (nid == NID_commonName) common_name = EntryText(entry);  // the last one, as Go's pkix.Name
    if (nid == NID_organizationName) organizations.push_back(EntryText(entry));
    char oid[64];
    if (OBJ_obj2txt(oid, sizeof(oid), type, 1) > 0 && std::string_view(oid) == kUidOid) uids.push_back(EntryText(entry));
  }
  if (common_name.empty()) return std::optional<UserInfo>();
  // upstream parseUIDFromCert (AllowParsingUserUIDFromCertAuth, beta and on since 1.33, still in v1.37.2).
  if (uids.size() > 1) {
    std::string list;
    for (const std::string& uid : uids) list += (list.empty() ? "" : " ") + uid;
    return absl::UnauthenticatedError("expected 1 UID, but found multiple: [" + list + "]");
  }
  if (uids.size() == 1 && uids.front().empty()) return absl::UnauthenticatedError("UID cannot be an empty string");
  UserInfo user;
  user.name = std::move(common_name);
  if (!uids.empty()) user.uid = uids.front();
  user.groups = std::move(organizations);
  user.extra[kCredentialIdExtra] = {"X509SHA256=" + Sha256Hex(chain_der.front())};
  return std::optional<UserInfo>(std::move(user));
}

}  // namespace ksched::serving
