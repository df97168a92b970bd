#include "client/authenticator.h"

#include <utility>

#include "absl/strings/escaping.h"
#include "client/concat.h"
#include "client/header_value.h"

namespace ksched::client {

namespace {

// client-go's exec.Authenticator.UpdateTransportConfig: the plugin is not used when the config
// already authenticates (HasTokenAuth, HasBasicAuth, HasCertAuth).
bool HasOtherCredentials(const RestConfig& config) {
  return !config.bearer_token.empty() || !config.bearer_token_file.empty() ||
         !config.username.empty() ||
         (!config.tls.client_cert_pem.empty() && !config.tls.client_key_pem.empty());
}

Authenticator::Kind KindFor(const RestConfig& config) {
  if (config.exec.has_value() && !HasOtherCredentials(config)) return Authenticator::Kind::kExec;
  if (!config.bearer_token_file.empty()) return Authenticator::Kind::kTokenFile;
  if (!config.bearer_token.empty()) return Authenticator::Kind::kToken;
  if (!config.username.empty() || !config.password.empty()) return Authenticator::Kind::kBasic;
  return Authenticator::Kind::kNone;
}

std::string StaticHeader(Authenticator::Kind kind, const RestConfig& config) {
  if (kind == Authenticator::Kind::kToken) return "Bearer " + config.bearer_token;
  if (kind == Authenticator::Kind::kBasic) {
    return "Basic " + absl::Base64Escape(Concat(config.username, ":", config.password));
  }
  return "";
}

}  // namespace

Authenticator::Authenticator(Kind kind, const RestConfig& config, ExecProviderOptions exec_options)
    : kind_(kind), static_header_(StaticHeader(kind, config)), fallback_token_(config.bearer_token) {
  if (kind_ == Kind::kTokenFile) token_file_ = std::make_unique<BearerTokenFile>(config.bearer_token_file);
  if (kind_ == Kind::kExec) {
    exec_ = SharedExecCredentialProvider(*config.exec, ExecClusterInfoFromRestConfig(config), std::move(exec_options));
  }
}

absl::StatusOr<std::shared_ptr<Authenticator>> Authenticator::Create(const RestConfig& config,
                                                                     ExecProviderOptions exec_options) {
  const bool has_basic = !config.username.empty() || !config.password.empty();
  const bool has_token = !config.bearer_token.empty() || !config.bearer_token_file.empty();
  if (has_basic && has_token) {
    return absl::InvalidArgumentError(
        Concat("username/password or bearer token may be set, but not both (", config.source, ")"));
  }
  std::shared_ptr<Authenticator> auth(new Authenticator(KindFor(config), config, std::move(exec_options)));
  if (auth->kind_ == Kind::kExec) {
    absl::StatusOr<std::string> first = auth->Authorization();
    if (!first.ok()) return first.status();
  }
  return auth;
}

absl::StatusOr<std::string> Authenticator::Authorization() {
  absl::StatusOr<std::string> header = AuthorizationUnchecked();
  // A token (static, from a file or from an exec plugin) with CR LF would add headers of its own.
  if (header.ok() && !ValidHeaderFieldValue(*header)) return InvalidHeaderFieldValue("Authorization");
  return header;
}

absl::StatusOr<std::string> Authenticator::AuthorizationUnchecked() {
  switch (kind_) {
    case Kind::kNone: return std::string();
    case Kind::kToken:
    case Kind::kBasic: return static_header_;
    case Kind::kTokenFile: {
      absl::StatusOr<std::string> token = token_file_->Token();
      if (token.ok()) return "Bearer " + *token;
      if (!fallback_token_.empty()) return "Bearer " + fallback_token_;
      return token.status();
    }
    case Kind::kExec: {
      absl::StatusOr<Credential> credential = ExecCredential();
      if (!credential.ok()) return credential.status();
      exec_generation_.store(credential->generation);
      if (credential->token.empty()) return std::string();  // a client certificate only
      return "Bearer " + credential->token;
    }
  }
  return std::string();
}

absl::StatusOr<Credential> Authenticator::ExecCredential() {
  absl::StatusOr<Credential> credential = exec_->Get();
  if (!credential.ok()) return credential.status();
  base::MutexLock lock(&certificate_mu_);
  // Generations only grow; an older credential (a thread that lost a race) changes nothing.
  if (credential->generation <= certificate_from_credential_) return credential;
  certificate_from_credential_ = credential->generation;
  const bool had = certificate_ != nullptr;
  const bool has = !credential->client_cert_pem.empty();
  if (!had && !has) return credential;
  if (had && certificate_->cert_pem == credential->client_cert_pem &&
      certificate_->key_pem == credential->client_key_pem) {
    return credential;
  }
  auto next = std::make_shared<client::ClientCertificate>();
  next->cert_pem = credential->client_cert_pem;
  next->key_pem = credential->client_key_pem;
  next->source = Concat("exec plugin ", exec_->config().command);
  next->generation = had ? certificate_->generation + 1 : 1;
  certificate_ = std::move(next);
  return credential;
}

absl::StatusOr<std::shared_ptr<const ClientCertificate>> Authenticator::CurrentClientCertificate() {
  if (kind_ != Kind::kExec) return std::shared_ptr<const ClientCertificate>();
  absl::StatusOr<Credential> credential = ExecCredential();
  if (!credential.ok()) return credential.status();
  base::MutexLock lock(&certificate_mu_);
  return certificate_;
}

AuthorizationSource Authenticator::Source() {
  std::shared_ptr<Authenticator> self = shared_from_this();
  return [self]() { return self->Authorization(); };
}

ClientCertificateSource Authenticator::CertificateSource() {
  if (kind_ != Kind::kExec) return nullptr;
  std::shared_ptr<Authenticator> self = shared_from_this();
  return [self]() { return self->CurrentClientCertificate(); };
}

void Authenticator::OnUnauthorized() {
  if (kind_ != Kind::kExec) return;
  const std::uint64_t generation = exec_generation_.load();
  if (generation != 0) exec_->Invalidate(generation);
}

}  // namespace ksched::client
