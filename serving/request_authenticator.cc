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

absl::StatusOr<UserInfo> RequestAuthenticator::Authenticate(std::string_view authorization_header) {
  if (reviewer_ == nullptr) return UserInfo::Anonymous();
  const std::string_view token = BearerToken(authorization_header);
  if (token.empty()) return UserInfo::Anonymous();

  const std::string key = TokenKey(token);
  if (std::optional<CachedReview> cached = cache_.Get(key)) {
    if (cached->authenticated) return WithAuthenticatedGroup(cached->user);
    return absl::UnauthenticatedError("invalid bearer token");
  }

  absl::StatusOr<TokenReviewResult> review = reviewer_->Review(token);
  if (!review.ok()) {
    return absl::UnauthenticatedError("TokenReview failed: " + std::string(review.status().message()));
  }
  if (review->authenticated) {
    cache_.Put(key, CachedReview{true, review->user}, options_.success_ttl);
    return WithAuthenticatedGroup(std::move(review->user));
  }
  if (!review->error.empty()) return absl::UnauthenticatedError(review->error);
  cache_.Put(key, CachedReview{false, {}}, options_.failure_ttl);
  return absl::UnauthenticatedError("invalid bearer token");
}

}  // namespace ksched::serving
