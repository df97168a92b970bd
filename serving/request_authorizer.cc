#include "serving/request_authorizer.h"

#include <algorithm>
#include <utility>

#include <spdlog/spdlog.h>

namespace ksched::serving {
namespace {

std::string_view WithoutLeadingSlash(std::string_view path) {
  if (!path.empty() && path.front() == '/') path.remove_prefix(1);
  return path;
}

// upstream skips caching for very large attributes (maxControlledAttrCacheSize).
constexpr std::size_t kMaxCachedAttributeBytes = 10000;

}  // namespace

absl::StatusOr<std::unique_ptr<RequestAuthorizer>> RequestAuthorizer::Create(
    std::shared_ptr<SubjectAccessReviewer> reviewer, RequestAuthorizerOptions options) {
  std::vector<std::string> exact;
  std::vector<std::string> prefixes;
  for (const std::string& entry : options.always_allow_paths) {
    const std::string_view p = WithoutLeadingSlash(entry);
    if (p.empty()) {
      exact.emplace_back();  // matches "/"
      continue;
    }
    if (p.substr(0, p.size() - 1).find('*') != std::string_view::npos) {
      return absl::InvalidArgumentError("only trailing * allowed in \"" + std::string(p) + "\"");
    }
    if (p.back() == '*') {
      prefixes.emplace_back(p.substr(0, p.size() - 1));
    } else {
      exact.emplace_back(p);
    }
  }
  if (reviewer == nullptr) {
    SPDLOG_WARN("No authorization-kubeconfig provided, so SubjectAccessReview of authorization tokens won't work.");
  }
  return std::unique_ptr<RequestAuthorizer>(new RequestAuthorizer(
      std::move(reviewer), std::move(options), std::move(exact), std::move(prefixes)));
}

RequestAuthorizer::RequestAuthorizer(std::shared_ptr<SubjectAccessReviewer> reviewer,
                                     RequestAuthorizerOptions options, std::vector<std::string> exact_paths,
                                     std::vector<std::string> prefixes)
    : reviewer_(std::move(reviewer)),
      options_(std::move(options)),
      exact_paths_(std::move(exact_paths)),
      prefixes_(std::move(prefixes)),
      cache_(options_.cache_capacity, options_.now) {}

bool RequestAuthorizer::IsAlwaysAllowedPath(std::string_view path) const {
  const std::string_view p = WithoutLeadingSlash(path);
  if (std::find(exact_paths_.begin(), exact_paths_.end(), p) != exact_paths_.end()) return true;
  return std::any_of(prefixes_.begin(), prefixes_.end(),
                     [&](const std::string& prefix) { return p.substr(0, prefix.size()) == prefix; });
}

AuthorizationResult RequestAuthorizer::Authorize(const UserInfo& user, std::string_view verb,
                                                 std::string_view path) {
  return *Decide(user, verb, path, Reviews::kAllowed);
}

std::optional<AuthorizationResult> RequestAuthorizer::TryAuthorizeLocally(const UserInfo& user, std::string_view verb,
                                                                          std::string_view path) {
  return Decide(user, verb, path, Reviews::kNotAllowed);
}

std::optional<AuthorizationResult> RequestAuthorizer::Decide(const UserInfo& user, std::string_view verb,
                                                             std::string_view path, Reviews reviews) {
  for (const std::string& group : user.groups) {
    if (std::find(options_.always_allow_groups.begin(), options_.always_allow_groups.end(), group) !=
        options_.always_allow_groups.end()) {
      return AuthorizationResult{AuthorizationDecision::kAllow, "", absl::OkStatus()};
    }
  }
  if (IsAlwaysAllowedPath(path)) return AuthorizationResult{AuthorizationDecision::kAllow, "", absl::OkStatus()};
  if (reviewer_ == nullptr) return AuthorizationResult{};

  const std::string key = SubjectAccessReviewSpecJson(user, verb, path);
  std::optional<AccessReviewResult> review = cache_.Get(key);
  if (!review) {
    if (reviews == Reviews::kNotAllowed) return std::nullopt;
    absl::StatusOr<AccessReviewResult> fresh = reviewer_->Review(user, verb, path);
    if (!fresh.ok()) {
      SPDLOG_ERROR("Failed to make webhook authorizer request: {}", std::string(fresh.status().message()));
      return AuthorizationResult{AuthorizationDecision::kNoOpinion, "", fresh.status()};
    }
    review = *std::move(fresh);
    if (verb.size() + path.size() < kMaxCachedAttributeBytes) {
      cache_.Put(key, *review, review->allowed ? options_.allowed_ttl : options_.denied_ttl);
    }
  }
  if (review->denied && review->allowed) {
    return AuthorizationResult{AuthorizationDecision::kDeny, review->reason,
                               absl::InternalError("webhook subject access review returned both allow and deny response")};
  }
  if (review->denied) return AuthorizationResult{AuthorizationDecision::kDeny, review->reason, absl::OkStatus()};
  if (review->allowed) return AuthorizationResult{AuthorizationDecision::kAllow, review->reason, absl::OkStatus()};
  return AuthorizationResult{AuthorizationDecision::kNoOpinion, review->reason, absl::OkStatus()};
}

}  // namespace ksched::serving
