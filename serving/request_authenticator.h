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
//   - concurrent requests carrying the same uncached token share one TokenReview (upstream's
//     singleflight group), and TokenCacheObserver sees the cache as upstream's
//     authentication_token_cache_* metrics count it.
//   - before the token, a client certificate when options.client_certificates is set
//     (client_certificate_authenticator.h): verified -> that user plus system:authenticated; a
//     certificate that fails verification is an error unless the bearer token authenticates the
//     request (upstream's union of authenticators, failing on error before anonymous); no
//     certificate, or one without a CommonName -> the token decides as above. This holds with or
//     without a TokenReviewer.
//   Request-header (front-proxy) authentication is not implemented.
//
// TryAuthenticateLocally decides without a TokenReview when it can (no token to review, or the
// token's verdict cached) and answers nullopt otherwise, so that the server can keep requests
// that need a review from delaying those that do not (probes under a flood of unknown tokens).
//
// Errors: kUnauthenticated with the reason, for the log (the client only sees "Unauthorized").
// Thread-safety: Authenticate may be called concurrently; the reviewer must allow it too.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "serving/client_certificate_authenticator.h"
#include "serving/expiring_cache.h"
#include "serving/single_flight.h"
#include "serving/token_reviewer.h"
#include "serving/user_info.h"

namespace ksched::serving {

// What the token cache tells about itself (apiserver pkg/authentication/token/cache stats.go); each
// member may be empty. Called from the server's worker threads.
struct TokenCacheObserver {
  // One bearer token looked up: `hit` when the cache answered, else after the (shared) review;
  // `elapsed` from the lookup's start.
  std::function<void(bool hit, std::chrono::steady_clock::duration elapsed)> request;
  // A gauge moved by `delta`: "blocked" (callers that missed the cache, until they have the answer)
  // or "in_flight" (reviews being fetched).
  std::function<void(std::string_view status, int delta)> active_fetches;
  // One fetch ended: `ok` unless the review failed or the server refused the token with a
  // status.error (upstream: the webhook authenticator's error).
  std::function<void(bool ok)> fetched;
};

struct RequestAuthenticatorOptions {
  std::chrono::steady_clock::duration success_ttl = std::chrono::seconds(10);
  std::chrono::steady_clock::duration failure_ttl = std::chrono::seconds(10);
  std::size_t cache_capacity = 4096;
  SteadyNow now;  // empty: steady_clock::now
  TokenCacheObserver observer;
  // --client-ca-file (or the cluster's client CA); null: client certificates are not looked at.
  std::shared_ptr<const ClientCertificateAuthenticator> client_certificates;
};

class RequestAuthenticator {
 public:
  // `reviewer`: null means anonymous only (see above).
  explicit RequestAuthenticator(std::shared_ptr<TokenReviewer> reviewer,
                                RequestAuthenticatorOptions options = {});

  // `peer_certificates`: what the client sent in the TLS handshake, leaf first (DER).
  absl::StatusOr<UserInfo> Authenticate(std::string_view authorization_header,
                                        const std::vector<std::string>& peer_certificates = {});
  // As Authenticate, or nullopt (nothing counted, nothing asked) when that would take a TokenReview.
  std::optional<absl::StatusOr<UserInfo>> TryAuthenticateLocally(
      std::string_view authorization_header, const std::vector<std::string>& peer_certificates = {});

 private:
  struct CachedReview {
    bool authenticated = false;
    UserInfo user;
  };

  // One fetch for the token with cache key `key`: the cache again (a fetch may have just filled
  // it), else a review, whose answer is cached as the header comment says.
  absl::StatusOr<TokenReviewResult> Fetch(const std::string& key, std::string_view token);
  enum class Reviews { kAllowed, kNotAllowed };
  // Authenticate's decision; nullopt only with Reviews::kNotAllowed when a review is needed.
  std::optional<absl::StatusOr<UserInfo>> Decide(std::string_view authorization_header,
                                                 const std::vector<std::string>& peer_certificates, Reviews reviews);
  // The bearer token's verdict: kNotFound when there is none to review (no reviewer, no token),
  // kUnavailable when only a review can tell and `reviews` forbids one.
  absl::StatusOr<UserInfo> AuthenticateToken(std::string_view authorization_header, Reviews reviews);

  const std::shared_ptr<TokenReviewer> reviewer_;
  const RequestAuthenticatorOptions options_;
  ExpiringCache<CachedReview> cache_;
  SingleFlight<absl::StatusOr<TokenReviewResult>> fetches_;
};

// The bearer token of an Authorization header value as upstream's bearertoken authenticator reads
// it; empty when there is none (no header, another scheme, "Bearer" without a token).
std::string_view BearerToken(std::string_view authorization_header);

}  // namespace ksched::serving
