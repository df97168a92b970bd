// SubjectAccessReviewer: asks the API server whether a user may use a verb on a non-resource path
// (SubjectAccessReview, authorization.k8s.io/v1, spec.nonResourceAttributes), as upstream's
// delegated webhook authorizer does. RestSubjectAccessReviewer is the real one; unit tests use a
// fake.
//
// Errors: a Status when the review could not be made (transport failure, HTTP error after the
// retries of WebhookBackoff, undecodable response).
// Thread-safety: implementations must allow concurrent Review calls (server worker threads).
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "client/rest_client.h"
#include "serving/user_info.h"
#include "serving/webhook_backoff.h"

namespace ksched::serving {

struct AccessReviewResult {
  bool allowed = false;
  bool denied = false;     // an explicit deny (RBAC never says it; other authorizers may)
  std::string reason;
  std::string evaluation_error;
};

class SubjectAccessReviewer {
 public:
  virtual ~SubjectAccessReviewer() = default;
  virtual absl::StatusOr<AccessReviewResult> Review(const UserInfo& user, std::string_view verb,
                                                    std::string_view path) = 0;
};

class RestSubjectAccessReviewer final : public SubjectAccessReviewer {
 public:
  // `client`: not null. `timeout`: per attempt (upstream's authorization ClientTimeout, 10s).
  RestSubjectAccessReviewer(std::shared_ptr<client::RestClient> client, WebhookBackoff backoff = {},
                            std::chrono::milliseconds timeout = std::chrono::seconds(10), ReviewRequestObserver observer = {});
  absl::StatusOr<AccessReviewResult> Review(const UserInfo& user, std::string_view verb,
                                            std::string_view path) override;

 private:
  const std::shared_ptr<client::RestClient> client_;
  const WebhookBackoff backoff_;
  const std::chrono::milliseconds timeout_;
  const ReviewRequestObserver observer_;
};

// The spec of the review as JSON: the request body's "spec" and the authorizer's cache key.
std::string SubjectAccessReviewSpecJson(const UserInfo& user, std::string_view verb,
                                        std::string_view path);
absl::StatusOr<AccessReviewResult> ParseSubjectAccessReviewResponse(std::string_view json);

}  // namespace ksched::serving
