// DelegatingAuthOptions: how the secure server authenticates and authorizes requests, the
// equivalent of kube-scheduler's --authentication-kubeconfig, --authorization-kubeconfig,
// --authorization-always-allow-paths and the webhook cache TTL flags (apiserver
// DelegatingAuthenticationOptions / DelegatingAuthorizationOptions with kube-scheduler's settings).
//
// Building the clients is the caller's job, as upstream's getClient(): from the kubeconfig flag, or
// else the in-cluster config, or else none (kube-scheduler marks both kubeconfigs optional). With
// no authentication client every request is anonymous; with no authorization client only the
// always-allow groups and paths are allowed (see request_authenticator.h, request_authorizer.h).
// Upstream gives these clients QPS 200 / burst 400 and a 10s timeout: build them that way.
//
// Plain value type.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "client/rest_client.h"
#include "serving/client_certificate_authenticator.h"
#include "serving/handler_chain.h"
#include "serving/request_authenticator.h"
#include "serving/subject_access_reviewer.h"
#include "serving/token_reviewer.h"
#include "serving/user_info.h"
#include "serving/webhook_backoff.h"

namespace ksched::serving {

struct DelegatingAuthOptions {
  std::shared_ptr<client::RestClient> authentication_client;  // TokenReview; null: anonymous only
  std::shared_ptr<client::RestClient> authorization_client;   // SubjectAccessReview; null: none
  std::vector<std::string> always_allow_paths{"/healthz", "/readyz", "/livez"};
  std::vector<std::string> always_allow_groups{kMastersGroup};
  std::chrono::steady_clock::duration token_cache_ttl = std::chrono::seconds(10);
  std::chrono::steady_clock::duration authorized_cache_ttl = std::chrono::seconds(10);
  std::chrono::steady_clock::duration unauthorized_cache_ttl = std::chrono::seconds(10);
  WebhookBackoff webhook_backoff;
  // Told about every TokenReview / SubjectAccessReview request of the REST reviewers (metrics).
  ReviewRequestObserver token_review_observer;
  ReviewRequestObserver access_review_observer;
  // Told about every request's authentication and authorization (metrics).
  ChainObservers chain_observers;
  // Told about the bearer token cache's lookups and fetches (metrics).
  TokenCacheObserver token_cache_observer;

  // Client certificate authentication (--client-ca-file, or the cluster's client CA); null: none,
  // and the TLS handshake asks for no client certificate. `client_certificates_source`, when set,
  // is asked for it by Start() once the serving certificate has loaded (upstream applies the
  // serving options before the authentication options: their errors and warnings come in that
  // order); its error fails Start().
  std::shared_ptr<const ClientCertificateAuthenticator> client_certificates;
  std::function<absl::StatusOr<std::shared_ptr<const ClientCertificateAuthenticator>>()> client_certificates_source;

  // Instead of the REST reviewers built from the clients above, when set (tests, other sources).
  std::shared_ptr<TokenReviewer> token_reviewer;
  std::shared_ptr<SubjectAccessReviewer> access_reviewer;
};

}  // namespace ksched::serving
