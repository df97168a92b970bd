// RequestAuthenticator: who sent a request, decided as kube-scheduler's delegated authentication
// chain does (apiserver DelegatingAuthenticatorConfig with anonymous auth enabled):
//
//   - no TokenReviewer (no --authentication-kubeconfig and not in a cluster): every request is
//     system:anonymous (group system:unauthenticated), whatever credentials it carries;
//   - no "Authorization: Bearer <token>" header (absent, another scheme, empty token): anonymous;
//   - a bearer token: a TokenReview. Authenticated -> that user, plus group system:authenticated
//     unless the user is system:anonymous or already has system:authenticated /
//     system:unauthenticated. Not authenticated, or the review failed (after its retries) -> an
//     error: the request is refused with 401, never downgraded to anonymous.
//   - results are cached by SHA-256 of the token (the token itself is not kept): authenticated
//     for `success_ttl`, not authenticated (without a status.error) for `failure_ttl` (upstream:
//     both 10s, --authentication-token-webhook-cache-ttl); failed reviews and refusals carrying a
//     status.error are not cached, as upstream.
//   Client certificates and request-header (front-proxy) authentication are not implemented.
//
// Errors: kUnauthenticated with the reason, for the log (the client only sees "Unauthorized").
// Thread-safety: Authenticate may be called concurrently; the reviewer must allow it too.
#pragma once

#include <chrono>
#include <memory>
#include <string_view>

#include "absl/status/statusor.h"
#include "serving/expiring_cache.h"
#include "serving/token_reviewer.h"
#include "serving/user_info.h"

namespace ksched::serving {

struct RequestAuthenticatorOptions {
  std::chrono::steady_clock::duration success_ttl = std::chrono::seconds(10);
  std::chrono::steady_clock::duration failure_ttl = std::chrono::seconds(10);
  std::size_t cache_capacity = 4096;
  SteadyNow now;  // empty: steady_clock::now
};

class RequestAuthenticator {
 public:
  // `reviewer`: null means anonymous only (see above).
  explicit RequestAuthenticator(std::shared_ptr<TokenReviewer> reviewer,
                                RequestAuthenticatorOptions options = {});

  absl::StatusOr<UserInfo> Authenticate(std::string_view authorization_header);

 private:
  struct CachedReview {
    bool authenticated = false;
    UserInfo user;
  };

  const std::shared_ptr<TokenReviewer> reviewer_;
  const RequestAuthenticatorOptions options_;
  ExpiringCache<CachedReview> cache_;
};

// The bearer token of an Authorization header value as upstream's bearertoken authenticator reads
// it; empty when there is none (no header, another scheme, "Bearer" without a token).
std::string_view BearerToken(std::string_view authorization_header);

}  // namespace ksched::serving
