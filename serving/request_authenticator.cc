#include "serving/request_authenticator.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include <openssl/sha.h>

namespace ksched::serving {
namespace {

std::string_view TrimSpace(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  return text;
}

std::string TokenKey(std::string_view token) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(token.data()), token.size(), digest);
  return std::string(reinterpret_cast<const char*>(digest), sizeof(digest));
}

// group.AuthenticatedGroupAdder.
UserInfo WithAuthenticatedGroup(UserInfo user) {
  if (user.name == kAnonymousUser) return user;
  for (const std::string& group : user.groups) {
    if (group == kAuthenticatedGroup || group == kUnauthenticatedGroup) return user;
  }
  user.groups.emplace_back(kAuthenticatedGroup);
  return user;
}

}  // namespace

std::string_view BearerToken(std::string_view authorization_header) {
  const std::string_view auth = TrimSpace(authorization_header);
  if (auth.empty()) return {};
  // strings.SplitN(auth, " ", 3): the scheme, then the token up to the next space.
  const std::size_t first_space = auth.find(' ');
  if (first_space == std::string_view::npos) return {};
  std::string scheme(auth.substr(0, first_space));
  std::transform(scheme.begin(), scheme.end(), scheme.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (scheme != "bearer") return {};
  std::string_view token = auth.substr(first_space + 1);
  return token.substr(0, token.find(' '));
}

RequestAuthenticator::RequestAuthenticator(std::shared_ptr<TokenReviewer> reviewer,
                                           RequestAuthenticatorOptions options)
    : reviewer_(std::move(reviewer)), options_(options), cache_(options.cache_capacity, options.now) {}

absl::StatusOr<UserInfo> RequestAuthenticator::Authenticate(std::string_view authorization_header,
                                                            const std::vector<std::string>& peer_certificates) {
  return *Decide(authorization_header, peer_certificates, Reviews::kAllowed);
}

std::optional<absl::StatusOr<UserInfo>> RequestAuthenticator::TryAuthenticateLocally(
    std::string_view authorization_header, const std::vector<std::string>& peer_certificates) {
  return Decide(authorization_header, peer_certificates, Reviews::kNotAllowed);
}

std::optional<absl::StatusOr<UserInfo>> RequestAuthenticator::Decide(
    std::string_view authorization_header, const std::vector<std::string>& peer_certificates, Reviews reviews) {
  std::string certificate_error;
  if (options_.client_certificates != nullptr && !peer_certificates.empty()) {
    absl::StatusOr<std::optional<UserInfo>> by_certificate = options_.client_certificates->Authenticate(peer_certificates);
    if (!by_certificate.ok()) {
      certificate_error = std::string(by_certificate.status().message());
    } else if (by_certificate->has_value()) {
      return WithAuthenticatedGroup(**std::move(by_certificate));
    }
  }
  absl::StatusOr<UserInfo> by_token = AuthenticateToken(authorization_header, reviews);
  if (by_token.ok()) return *std::move(by_token);
  if (absl::IsUnavailable(by_token.status())) return std::nullopt;  // only a review can tell
  const bool has_token = !absl::IsNotFound(by_token.status());
  // Upstream's union: every authenticator's error, then (FailOnError) no fallback to anonymous.
  if (!certificate_error.empty()) {
    // utilerrors.Aggregate: one error as itself, several as "[a, b]".
    if (!has_token) return absl::StatusOr<UserInfo>(absl::UnauthenticatedError(certificate_error));
    return absl::StatusOr<UserInfo>(absl::UnauthenticatedError(
        "[" + certificate_error + ", " + std::string(by_token.status().message()) + "]"));
  }
  if (has_token) return by_token;
  return UserInfo::Anonymous();
}

absl::StatusOr<UserInfo> RequestAuthenticator::AuthenticateToken(std::string_view authorization_header,
                                                                 Reviews reviews) {
  if (reviewer_ == nullptr) return absl::NotFoundError("no token reviewer");
  const std::string_view token = BearerToken(authorization_header);
  if (token.empty()) return absl::NotFoundError("no bearer token");

  const TokenCacheObserver& observer = options_.observer;
  const auto start = std::chrono::steady_clock::now();
  const std::string key = TokenKey(token);
  absl::StatusOr<TokenReviewResult> review;
  if (std::optional<CachedReview> cached = cache_.Get(key)) {
    if (observer.request) observer.request(true, std::chrono::steady_clock::now() - start);
    review = TokenReviewResult{cached->authenticated, std::move(cached->user), {}};
  } else if (reviews == Reviews::kNotAllowed) {
    return absl::UnavailableError("a TokenReview is needed");
  } else {
    if (observer.active_fetches) observer.active_fetches("blocked", +1);
    review = fetches_.Do(key, [&] { return Fetch(key, token); });
    // Upstream's deferred calls, last registered first: the request, then the blocked gauge.
    if (observer.request) observer.request(false, std::chrono::steady_clock::now() - start);
    if (observer.active_fetches) observer.active_fetches("blocked", -1);
  }

  if (!review.ok()) {
    return absl::UnauthenticatedError("TokenReview failed: " + std::string(review.status().message()));
  }
  if (review->authenticated) return WithAuthenticatedGroup(std::move(review->user));
  if (!review->error.empty()) return absl::UnauthenticatedError(review->error);
  return absl::UnauthenticatedError("invalid bearer token");
}

absl::StatusOr<TokenReviewResult> RequestAuthenticator::Fetch(const std::string& key, std::string_view token) {
  const TokenCacheObserver& observer = options_.observer;
  if (observer.active_fetches) observer.active_fetches("in_flight", +1);
  absl::StatusOr<TokenReviewResult> review;
  if (std::optional<CachedReview> cached = cache_.Get(key)) {
    review = TokenReviewResult{cached->authenticated, std::move(cached->user), {}};
  } else {
    review = reviewer_->Review(token);
    // Failed reviews and refusals with a status.error are not cached (upstream's cacheErrs false).
    if (review.ok() && review->authenticated) {
      cache_.Put(key, CachedReview{true, review->user}, options_.success_ttl);
    } else if (review.ok() && review->error.empty()) {
      cache_.Put(key, CachedReview{false, {}}, options_.failure_ttl);
    }
  }
  if (observer.fetched) observer.fetched(review.ok() && review->error.empty());
  if (observer.active_fetches) observer.active_fetches("in_flight", -1);
  return review;
}

}  // namespace ksched::serving
