#include "client/authenticator.h"

#include <utility>

#include "absl/strings/escaping.h"
#include "client/concat.h"

namespace ksched::client {

namespace {

Authenticator::Kind KindFor(const RestConfig& config) {
  if (config.exec.has_value()) return Authenticator::Kind::kExec;
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

absl::Status CertificateUnsupported(const ExecCredentialProvider& exec) {
  return absl::UnimplementedError(Concat(
      "exec: executable ", exec.config().command,
      " returned a client certificate and no token: exec-provided client certificates are not "
      "supported"));
}

}  // namespace

Authenticator::Authenticator(Kind kind, const RestConfig& config, ExecProviderOptions exec_options)
    : kind_(kind), static_header_(StaticHeader(kind, config)), fallback_token_(config.bearer_token) {
  if (kind_ == Kind::kTokenFile) token_file_ = std::make_unique<BearerTokenFile>(config.bearer_token_file);
  if (kind_ == Kind::kExec) {
    exec_ = std::make_unique<ExecCredentialProvider>(*config.exec, ExecClusterInfoFromRestConfig(config),
                                                     std::move(exec_options));
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
      absl::StatusOr<Credential> credential = exec_->Get();
      if (!credential.ok()) return credential.status();
      if (credential->token.empty()) return CertificateUnsupported(*exec_);
      exec_generation_.store(credential->generation);
      return "Bearer " + credential->token;
    }
  }
  return std::string();
}

AuthorizationSource Authenticator::Source() {
  std::shared_ptr<Authenticator> self = shared_from_this();
  return [self]() { return self->Authorization(); };
}

void Authenticator::OnUnauthorized() {
  if (kind_ != Kind::kExec) return;
  const std::uint64_t generation = exec_generation_.load();
  if (generation != 0) exec_->Invalidate(generation);
}

}  // namespace ksched::client
