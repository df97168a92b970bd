// RequestAuthorizer: may this user use this verb on this path, decided as kube-scheduler's
// delegated authorization chain does (apiserver DelegatingAuthorizationOptions: a union of
// authorizers, the first Allow or Deny wins):
//
//   1. always-allow groups (default system:masters): Allow;
//   2. always-allow paths (--authorization-always-allow-paths, default /healthz,/readyz,/livez;
//      an entry ending in '*' is a prefix, '*' elsewhere is refused by Create): Allow;
//   3. a SubjectAccessReview (non-resource path + lowercase HTTP verb) when a reviewer is
//      configured: allowed -> Allow, denied -> Deny, else no opinion; a review that fails (after
//      its retries) is no opinion with an error (the server answers 500, as upstream);
//   4. otherwise no opinion, which the server turns into 403.
//   Review results are cached by their spec: allowed for `allowed_ttl`, not allowed for
//   `denied_ttl` (upstream: 10s each, --authorization-webhook-cache-{,un}authorized-ttl).
//
// TryAuthorizeLocally decides without a SubjectAccessReview when it can (steps 1, 2, 4, or a cached
// review) and answers nullopt otherwise.
//
// Thread-safety: Authorize and TryAuthorizeLocally may be called concurrently; the reviewer must allow it too.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "serving/expiring_cache.h"
#include "serving/subject_access_reviewer.h"
#include "serving/user_info.h"

namespace ksched::serving {

enum class AuthorizationDecision { kAllow, kDeny, kNoOpinion };

struct AuthorizationResult {
  AuthorizationDecision decision = AuthorizationDecision::kNoOpinion;
  std::string reason;   // for the 403 message; may be empty
  absl::Status error;   // a failed review (decision is then kNoOpinion)
};

struct RequestAuthorizerOptions {
  std::vector<std::string> always_allow_paths{"/healthz", "/readyz", "/livez"};
  std::vector<std::string> always_allow_groups{kMastersGroup};
  std::chrono::steady_clock::duration allowed_ttl = std::chrono::seconds(10);
  std::chrono::steady_clock::duration denied_ttl = std::chrono::seconds(10);
  std::size_t cache_capacity = 8192;
  SteadyNow now;  // empty: steady_clock::now
};

class RequestAuthorizer {
 public:
  // `reviewer`: null means no SubjectAccessReview (only steps 1 and 2 can allow).
  // kInvalidArgument for an always-allow path with a '*' that is not last ("only trailing * allowed
  // in \"...\"", upstream's words).
  static absl::StatusOr<std::unique_ptr<RequestAuthorizer>> Create(
      std::shared_ptr<SubjectAccessReviewer> reviewer, RequestAuthorizerOptions options = {});

  AuthorizationResult Authorize(const UserInfo& user, std::string_view verb, std::string_view path);
  // As Authorize, or nullopt (nothing asked) when that would take a SubjectAccessReview.
  std::optional<AuthorizationResult> TryAuthorizeLocally(const UserInfo& user, std::string_view verb,
                                                         std::string_view path);

 private:
  RequestAuthorizer(std::shared_ptr<SubjectAccessReviewer> reviewer, RequestAuthorizerOptions options,
                    std::vector<std::string> exact_paths, std::vector<std::string> prefixes);
  bool IsAlwaysAllowedPath(std::string_view path) const;
  enum class Reviews { kAllowed, kNotAllowed };
  std::optional<AuthorizationResult> Decide(const UserInfo& user, std::string_view verb, std::string_view path,
                                            Reviews reviews);

  const std::shared_ptr<SubjectAccessReviewer> reviewer_;
  const RequestAuthorizerOptions options_;
  const std::vector<std::string> exact_paths_;  // without the leading '/'
  const std::vector<std::string> prefixes_;     // without the leading '/' and the trailing '*'
  ExpiringCache<AccessReviewResult> cache_;
};

}  // namespace ksched::serving
