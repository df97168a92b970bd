#include "client/exec_credential.h"

#include <openssl/asn1.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <unistd.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <ctime>
#include <map>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "api/outside_json.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "client/concat.h"
#include "client/subprocess.h"
#include "rapidjson/document.h"
#include "rapidjson/error/en.h"
#include "rapidjson/stringbuffer.h"
#include "rapidjson/writer.h"

namespace ksched::client {

namespace {

constexpr std::string_view kExecInfoEnv = "KUBERNETES_EXEC_INFO";
constexpr std::string_view kKind = "ExecCredential";
constexpr std::array<std::string_view, 2> kApiVersions = {"client.authentication.k8s.io/v1",
                                                          "client.authentication.k8s.io/v1beta1"};

// Upstream's installHintVerboseHelp, word for word.
constexpr std::string_view kInstallHintVerboseHelp =
    "\n\nIt looks like you are trying to use a client-go credential plugin that is not installed.\n"
    "\n"
    "To learn more about this feature, consult the documentation available at:\n"
    "      https://kubernetes.io/docs/reference/access-authn-authz/authentication/"
    "#client-go-credential-plugins";

// Sets NAME=value in a "NAME=value" list, replacing every earlier entry of that name.
void SetEnv(std::vector<std::string>* env, std::string_view name, std::string_view value) {
  const std::string prefix = Concat(name, "=");
  std::erase_if(*env, [&](const std::string& entry) { return entry.starts_with(prefix); });
  env->push_back(Concat(prefix, value));
}

void WriteString(rapidjson::Writer<rapidjson::StringBuffer>* w, std::string_view s) {
  w->String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
}

std::string ExecInfoJson(const ExecConfig& config, const ExecClusterInfo& cluster) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.StartObject();
  w.Key("kind");
  WriteString(&w, kKind);
  w.Key("apiVersion");
  WriteString(&w, config.api_version);
  w.Key("spec");
  w.StartObject();
  if (config.provide_cluster_info) {
    w.Key("cluster");
    w.StartObject();
    w.Key("server");
    WriteString(&w, cluster.server);
    if (!cluster.tls_server_name.empty()) {
      w.Key("tls-server-name");
      WriteString(&w, cluster.tls_server_name);
    }
    if (cluster.insecure_skip_tls_verify) {
      w.Key("insecure-skip-tls-verify");
      w.Bool(true);
    }
    if (!cluster.ca_pem.empty()) {
      w.Key("certificate-authority-data");
      WriteString(&w, absl::Base64Escape(cluster.ca_pem));
    }
    w.EndObject();
  }
  w.Key("interactive");
  w.Bool(false);
  w.EndObject();
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

// The first non-blank line of a plugin's stderr, trimmed and capped, for error messages.
std::string FirstLine(std::string_view text) {
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    const absl::string_view line = absl::StripAsciiWhitespace(ToAbsl(text.substr(0, end)));
    if (!line.empty()) {
      constexpr std::size_t kMax = 500;
      if (line.size() > kMax) return Concat(line.substr(0, kMax), "...");
      return std::string(line);
    }
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return "";
}

// Parses exactly `digits` decimal digits at s[*pos].
bool ParseDigits(std::string_view s, std::size_t* pos, int digits, int* out) {
  if (*pos + static_cast<std::size_t>(digits) > s.size()) return false;
  int value = 0;
  for (int i = 0; i < digits; ++i) {
    const char c = s[*pos + static_cast<std::size_t>(i)];
    if (c < '0' || c > '9') return false;
    value = value * 10 + (c - '0');
  }
  *pos += static_cast<std::size_t>(digits);
  *out = value;
  return true;
}

bool Expect(std::string_view s, std::size_t* pos, char c) {
  if (*pos >= s.size() || s[*pos] != c) return false;
  ++*pos;
  return true;
}

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
long long DaysFromCivil(long long y, unsigned m, unsigned d) {
  y -= m <= 2 ? 1 : 0;
  const long long era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<long long>(doe) - 719468;
}

bool IsLeap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

// RFC 3339 as Go's time.Parse(time.RFC3339, ...) reads it (metav1.Time):
// YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM).
std::optional<std::chrono::system_clock::time_point> ParseRfc3339(std::string_view s) {
  std::size_t pos = 0;
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!ParseDigits(s, &pos, 4, &year) || !Expect(s, &pos, '-') ||
      !ParseDigits(s, &pos, 2, &month) || !Expect(s, &pos, '-') ||
      !ParseDigits(s, &pos, 2, &day) || !Expect(s, &pos, 'T') ||
      !ParseDigits(s, &pos, 2, &hour) || !Expect(s, &pos, ':') ||
      !ParseDigits(s, &pos, 2, &minute) || !Expect(s, &pos, ':') ||
      !ParseDigits(s, &pos, 2, &second)) {
    return std::nullopt;
  }
  static constexpr std::array<int, 12> kDays = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12) return std::nullopt;
  const int days_in_month =
      kDays[static_cast<std::size_t>(month - 1)] + (month == 2 && IsLeap(year) ? 1 : 0);
  if (day < 1 || day > days_in_month || hour > 23 || minute > 59 || second > 59) {
    return std::nullopt;
  }

  long long nanos = 0;
  if (pos < s.size() && s[pos] == '.') {
    ++pos;
    int digits = 0;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
      if (digits < 9) {
        nanos = nanos * 10 + (s[pos] - '0');
        ++digits;
      }
      ++pos;
    }
    if (digits == 0) return std::nullopt;
    for (int i = digits; i < 9; ++i) nanos *= 10;
  }
  long long offset_seconds = 0;
  if (pos < s.size() && s[pos] == 'Z') {
    ++pos;
  } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
    const bool negative = s[pos] == '-';
    ++pos;
    int off_h = 0, off_m = 0;
    if (!ParseDigits(s, &pos, 2, &off_h) || !Expect(s, &pos, ':') ||
        !ParseDigits(s, &pos, 2, &off_m) || off_h > 23 || off_m > 59) {
      return std::nullopt;
    }
    offset_seconds = (off_h * 3600LL + off_m * 60LL) * (negative ? -1 : 1);
  } else {
    return std::nullopt;
  }
  if (pos != s.size()) return std::nullopt;

  const long long days =
      DaysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
  const long long seconds =
      days * 86400 + hour * 3600LL + minute * 60LL + second - offset_seconds;
  // Go's time covers years 0000-9999; system_clock's nanoseconds only ~1678-2262. Beyond that the
  // time saturates (the credential long expired, or never expiring), as Go would compare it.
  using Clock = std::chrono::system_clock;
  constexpr long long kMaxSeconds =
      std::chrono::duration_cast<std::chrono::seconds>(Clock::duration::max()).count() - 1;
  if (seconds >= kMaxSeconds) return Clock::time_point::max();
  if (seconds <= -kMaxSeconds) return Clock::time_point::min();
  return Clock::time_point(
      std::chrono::duration_cast<Clock::duration>(std::chrono::seconds(seconds) + std::chrono::nanoseconds(nanos)));
}

// Reads an optional string member: absent or null → "", a string → it, anything else → error.
absl::Status OptionalString(const rapidjson::Value& object, const char* name, std::string* out) {
  const auto it = object.FindMember(name);
  if (it == object.MemberEnd() || it->value.IsNull()) return absl::OkStatus();
  if (!it->value.IsString()) {
    return absl::InvalidArgumentError(Concat("decoding stdout: ", name, " is not a string"));
  }
  out->assign(it->value.GetString(), it->value.GetStringLength());
  return absl::OkStatus();
}

// This thread's OpenSSL error queue as text (and emptied), for messages.
std::string DrainOpenSslErrors() {
  std::string text;
  while (const unsigned long code = ERR_get_error()) {
    char buf[256];
    ERR_error_string_n(code, buf, sizeof(buf));
    if (!text.empty()) text += "; ";
    text += buf;
  }
  return text.empty() ? "no details from OpenSSL" : text;
}

struct BioFree {
  void operator()(BIO* bio) const { BIO_free(bio); }
};
struct X509Free {
  void operator()(X509* cert) const { X509_free(cert); }
};
struct PkeyFree {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};

std::unique_ptr<BIO, BioFree> MemoryBio(const std::string& pem) {
  return std::unique_ptr<BIO, BioFree>(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
}

// What CheckKeyPair reads of the certificate.
struct CertificateValidity {
  std::chrono::system_clock::time_point not_before;
  std::chrono::system_clock::time_point not_after;
};

std::optional<std::chrono::system_clock::time_point> Asn1Time(const ASN1_TIME* time) {
  std::tm tm{};
  if (time == nullptr || ASN1_TIME_to_tm(time, &tm) != 1) return std::nullopt;
  return std::chrono::system_clock::from_time_t(timegm(&tm));
}

// The checks of upstream's tls.X509KeyPair: the first PEM block of the certificate data is a
// certificate, the key data holds a private key, and the key belongs to that certificate.
absl::StatusOr<CertificateValidity> CheckKeyPair(const std::string& cert_pem, const std::string& key_pem) {
  ERR_clear_error();  // whatever an earlier caller left on this thread is not ours to report
  std::unique_ptr<BIO, BioFree> cert_bio = MemoryBio(cert_pem);
  std::unique_ptr<BIO, BioFree> key_bio = MemoryBio(key_pem);
  if (!cert_bio || !key_bio) return absl::ResourceExhaustedError("out of memory");
  std::unique_ptr<X509, X509Free> cert(PEM_read_bio_X509(cert_bio.get(), nullptr, nullptr, nullptr));
  if (!cert) {
    return absl::InvalidArgumentError(
        Concat("clientCertificateData: not a PEM certificate: ", DrainOpenSslErrors()));
  }
  std::unique_ptr<EVP_PKEY, PkeyFree> key(
      PEM_read_bio_PrivateKey(key_bio.get(), nullptr, nullptr, nullptr));
  if (!key) {
    return absl::InvalidArgumentError(
        Concat("clientKeyData: not a PEM private key: ", DrainOpenSslErrors()));
  }
  if (X509_check_private_key(cert.get(), key.get()) != 1) {
    return absl::InvalidArgumentError(
        Concat("clientCertificateData/clientKeyData: the private key does not match the "
               "certificate: ",
               DrainOpenSslErrors()));
  }
  const std::optional<std::chrono::system_clock::time_point> not_before = Asn1Time(X509_get0_notBefore(cert.get()));
  const std::optional<std::chrono::system_clock::time_point> not_after = Asn1Time(X509_get0_notAfter(cert.get()));
  ERR_clear_error();
  // Go's x509 parser refuses a certificate whose validity does not parse, as tls.X509KeyPair's
  // x509.ParseCertificate does.
  if (!not_before || !not_after) {
    return absl::InvalidArgumentError("clientCertificateData: the certificate's validity is not a valid time");
  }
  return CertificateValidity{*not_before, *not_after};
}


}  // namespace

absl::StatusOr<Credential> DecodeExecCredential(std::string_view data,
                                                std::string_view api_version) {
  rapidjson::Document doc;
  if (absl::Status parsed = api::ParseOutsideJson(data, doc); !parsed.ok()) {
    return absl::InvalidArgumentError(Concat("decoding stdout: ", parsed.message()));
  }
  if (!doc.IsObject()) return absl::InvalidArgumentError("decoding stdout: not a JSON object");

  std::string got_version;
  std::string kind;
  if (absl::Status s = OptionalString(doc, "apiVersion", &got_version); !s.ok()) return s;
  if (absl::Status s = OptionalString(doc, "kind", &kind); !s.ok()) return s;
  if (got_version.empty()) {
    return absl::InvalidArgumentError("decoding stdout: apiVersion is missing");
  }
  if (got_version != api_version) {
    return absl::InvalidArgumentError(Concat("exec plugin is configured to use API version ",
                                             api_version, ", plugin returned version ",
                                             got_version));
  }
  if (kind != kKind) {
    return absl::InvalidArgumentError(
        Concat("decoding stdout: kind is \"", kind, "\", want \"", kKind, "\""));
  }

  const auto status_it = doc.FindMember("status");
  if (status_it == doc.MemberEnd() || status_it->value.IsNull()) {
    return absl::InvalidArgumentError("exec plugin didn't return a status field");
  }
  const rapidjson::Value& status = status_it->value;
  if (!status.IsObject()) {
    return absl::InvalidArgumentError("decoding stdout: status is not an object");
  }

  Credential credential;
  std::string expiration;
  if (absl::Status s = OptionalString(status, "token", &credential.token); !s.ok()) return s;
  if (absl::Status s = OptionalString(status, "clientCertificateData", &credential.client_cert_pem);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = OptionalString(status, "clientKeyData", &credential.client_key_pem);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = OptionalString(status, "expirationTimestamp", &expiration); !s.ok()) {
    return s;
  }

  if (credential.token.empty() && credential.client_cert_pem.empty() &&
      credential.client_key_pem.empty()) {
    return absl::InvalidArgumentError("exec plugin didn't return a token or cert/key pair");
  }
  if (credential.client_cert_pem.empty() != credential.client_key_pem.empty()) {
    return absl::InvalidArgumentError("exec plugin returned only certificate or key, not both");
  }
  if (!expiration.empty()) {
    credential.expiration = ParseRfc3339(expiration);
    if (!credential.expiration) {
      return absl::InvalidArgumentError(Concat(
          "decoding stdout: expirationTimestamp \"", expiration, "\" is not an RFC 3339 time"));
    }
  }
  if (!credential.client_cert_pem.empty()) {
    absl::StatusOr<CertificateValidity> pair = CheckKeyPair(credential.client_cert_pem, credential.client_key_pem);
    if (!pair.ok()) {
      return absl::Status(pair.status().code(), Concat("failed parsing client key/certificate: ",
                                                       pair.status().message()));
    }
    credential.certificate_not_before = pair->not_before;
    credential.certificate_not_after = pair->not_after;
  }
  return credential;
}

ExecClusterInfo ExecClusterInfoFromRestConfig(const RestConfig& config) {
  ExecClusterInfo info;
  info.server = config.server;
  info.tls_server_name = config.tls.server_name;
  info.insecure_skip_tls_verify = config.tls.insecure_skip_verify;
  info.ca_pem = config.tls.ca_pem;
  return info;
}

ExecCredentialProvider::ExecCredentialProvider(ExecConfig config, ExecClusterInfo cluster,
                                               ExecProviderOptions options)
    : config_(std::move(config)), cluster_(std::move(cluster)), options_(std::move(options)) {}

std::string_view ExecPluginCallStatusLabel(ExecPluginCallStatus status) {
  switch (status) {
    case ExecPluginCallStatus::kNoError:
      return "no_error";
    case ExecPluginCallStatus::kPluginExecutionError:
      return "plugin_execution_error";
    case ExecPluginCallStatus::kPluginNotFoundError:
      return "plugin_not_found_error";
    case ExecPluginCallStatus::kClientInternalError:
      return "client_internal_error";
  }
  std::abort();
}

std::chrono::system_clock::time_point ExecCredentialProvider::Now() const {
  return options_.now ? options_.now() : std::chrono::system_clock::now();
}

absl::StatusOr<Credential> ExecCredentialProvider::Get() {
  base::MutexLock lock(&mu_);
  if (cached_) {
    if (!cached_->expiration || !(Now() > *cached_->expiration)) return *cached_;
  }
  absl::StatusOr<Credential> fresh = RunPluginLocked();
  if (!fresh.ok()) return fresh.status();
  fresh->generation = ++runs_;
  ObserveCertificateLocked(*fresh);
  cached_ = *fresh;
  last_ = *fresh;
  return fresh;
}

void ExecCredentialProvider::ObserveCall(const absl::StatusOr<SubprocessResult>& run) const {
  if (!options_.observer) return;
  if (run.ok()) {
    // os/exec's ExitError.ExitCode() is -1 for a process killed by a signal.
    if (run->term_signal != 0) {
      options_.observer->OnCall(ExecPluginCallStatus::kPluginExecutionError, -1);
    } else if (run->exit_code != 0) {
      options_.observer->OnCall(ExecPluginCallStatus::kPluginExecutionError, run->exit_code);
    } else {
      options_.observer->OnCall(ExecPluginCallStatus::kNoError, 0);
    }
    return;
  }
  switch (run.status().code()) {
    case absl::StatusCode::kNotFound:
    case absl::StatusCode::kPermissionDenied:  // Go: an fs.PathError from the start
      options_.observer->OnCall(ExecPluginCallStatus::kPluginNotFoundError, 1);
      return;
    case absl::StatusCode::kDeadlineExceeded:  // killed here: as a signal's death
    case absl::StatusCode::kResourceExhausted:
      options_.observer->OnCall(ExecPluginCallStatus::kPluginExecutionError, -1);
      return;
    default:
      options_.observer->OnCall(ExecPluginCallStatus::kClientInternalError, 1);
      return;
  }
}

void ExecCredentialProvider::ObserveCertificateLocked(const Credential& fresh) {
  if (!options_.observer) return;
  // Upstream: reflect.DeepEqual of the old and new tls.Certificate (certificate and key).
  if (last_ && last_->certificate_not_before &&
      (last_->client_cert_pem != fresh.client_cert_pem || last_->client_key_pem != fresh.client_key_pem)) {
    options_.observer->OnCertificateRotated(Now() - *last_->certificate_not_before);
  }
  options_.observer->OnCertificateExpiry(this, fresh.certificate_not_after);
}

void ExecCredentialProvider::Invalidate(std::optional<std::uint64_t> generation) {
  base::MutexLock lock(&mu_);
  if (!cached_) return;
  if (!generation || cached_->generation == *generation) cached_.reset();
}

absl::StatusOr<Credential> ExecCredentialProvider::RunPluginLocked() {
  bool known_version = false;
  for (std::string_view v : kApiVersions) known_version = known_version || v == config_.api_version;
  if (!known_version) {
    return absl::InvalidArgumentError(
        Concat("exec plugin: invalid apiVersion \"", config_.api_version, "\""));
  }
  if (config_.interactive_mode == "Always") {
    return absl::FailedPreconditionError(
        "exec plugin cannot support interactive mode: standard input is unavailable: credential "
        "plugins run without a terminal in kube-scheduler-cpp");
  }
  if (config_.interactive_mode != "Never" && config_.interactive_mode != "IfAvailable") {
    return absl::InvalidArgumentError(
        Concat("exec plugin cannot support interactive mode: unknown interactiveMode: \"",
               config_.interactive_mode, "\""));
  }

  SubprocessSpec spec;
  spec.argv.push_back(config_.command);
  spec.argv.insert(spec.argv.end(), config_.args.begin(), config_.args.end());
  for (char** entry = ::environ; entry != nullptr && *entry != nullptr; ++entry) {
    spec.env.emplace_back(*entry);
  }
  for (const auto& [name, value] : config_.env) SetEnv(&spec.env, name, value);
  SetEnv(&spec.env, kExecInfoEnv, ExecInfoJson(config_, cluster_));
  spec.timeout = options_.timeout;
  spec.pass_through_stderr = options_.pass_through_stderr;

  absl::StatusOr<SubprocessResult> run = RunSubprocess(spec);
  ObserveCall(run);
  if (!run.ok()) {
    switch (run.status().code()) {
      case absl::StatusCode::kNotFound: {
        std::string message = Concat("exec: executable ", config_.command, " not found",
                                     kInstallHintVerboseHelp);
        if (!config_.install_hint.empty()) ConcatTo(&message, "\n\n", config_.install_hint);
        return absl::NotFoundError(message);
      }
      case absl::StatusCode::kDeadlineExceeded:
      case absl::StatusCode::kResourceExhausted:
        return absl::Status(run.status().code(),
                            Concat("exec: executable ", run.status().message()));
      default:
        return absl::Status(run.status().code(), Concat("exec: ", run.status().message()));
    }
  }
  if (run->term_signal != 0 || run->exit_code != 0) {
    std::string message =
        run->term_signal != 0
            ? Concat("exec: executable ", config_.command, " was killed by signal ",
                     run->term_signal)
            : Concat("exec: executable ", config_.command, " failed with exit code ",
                     run->exit_code);
    if (std::string line = FirstLine(run->stderr_data); !line.empty()) {
      ConcatTo(&message, ": ", line);
    }
    return absl::UnavailableError(message);
  }

  absl::StatusOr<Credential> credential =
      DecodeExecCredential(run->stdout_data, config_.api_version);
  if (!credential.ok()) {
    return absl::Status(credential.status().code(),
                        Concat("exec: executable ", config_.command, ": ",
                               credential.status().message()));
  }
  return credential;
}

namespace {

// A key naming every field of the arguments (each length-prefixed, so that no two differ only in
// where one field ends).
std::string SharedProviderKey(const ExecConfig& config, const ExecClusterInfo& cluster,
                              const ExecProviderOptions& options) {
  std::string key;
  auto add = [&key](std::string_view field) { ConcatTo(&key, field.size(), ":", field, ";"); };
  add(config.command);
  add(std::to_string(config.args.size()));
  for (const std::string& arg : config.args) add(arg);
  add(std::to_string(config.env.size()));
  for (const auto& [name, value] : config.env) {
    add(name);
    add(value);
  }
  add(config.api_version);
  add(config.install_hint);
  add(config.provide_cluster_info ? "1" : "0");
  add(config.interactive_mode);
  add(cluster.server);
  add(cluster.tls_server_name);
  add(cluster.insecure_skip_tls_verify ? "1" : "0");
  add(cluster.ca_pem);
  add(std::to_string(options.timeout.count()));
  add(options.pass_through_stderr ? "1" : "0");
  add(std::to_string(reinterpret_cast<std::uintptr_t>(options.observer.get())));
  return key;
}

}  // namespace

std::shared_ptr<ExecCredentialProvider> SharedExecCredentialProvider(const ExecConfig& config,
                                                                     const ExecClusterInfo& cluster,
                                                                     ExecProviderOptions options) {
  if (options.now) return std::make_shared<ExecCredentialProvider>(config, cluster, std::move(options));
  static base::Mutex mu;
  static auto* providers = new std::map<std::string, std::shared_ptr<ExecCredentialProvider>>();  // never freed
  std::string key = SharedProviderKey(config, cluster, options);
  base::MutexLock lock(&mu);
  std::shared_ptr<ExecCredentialProvider>& provider = (*providers)[std::move(key)];
  if (!provider) provider = std::make_shared<ExecCredentialProvider>(config, cluster, std::move(options));
  return provider;
}

}  // namespace ksched::client
