// TokenReviewer: asks the API server who a bearer token belongs to (TokenReview,
// authentication.k8s.io/v1), as upstream's delegated webhook token authenticator does.
// RestTokenReviewer is the real one; unit tests use a fake.
//
// Errors: a Status when the review could not be made (transport failure, HTTP error after the
// retries of WebhookBackoff, undecodable response); an answered review is a TokenReviewResult even
// when the token is not authenticated.
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

struct TokenReviewResult {
  bool authenticated = false;
  UserInfo user;       // when authenticated
  std::string error;   // status.error: why the token was refused, if the server said
};

class TokenReviewer {
 public:
  virtual ~TokenReviewer() = default;
  virtual absl::StatusOr<TokenReviewResult> Review(std::string_view token) = 0;
};

class RestTokenReviewer final : public TokenReviewer {
 public:
  // `client`: not null. `timeout`: per attempt (upstream's TokenRequestTimeout, 10s).
  RestTokenReviewer(std::shared_ptr<client::RestClient> client, WebhookBackoff backoff = {},
                    std::chrono::milliseconds timeout = std::chrono::seconds(10), ReviewRequestObserver observer = {});
  absl::StatusOr<TokenReviewResult> Review(std::string_view token) override;

 private:
  const std::shared_ptr<client::RestClient> client_;
  const WebhookBackoff backoff_;
  const std::chrono::milliseconds timeout_;
  const ReviewRequestObserver observer_;
};

// The TokenReview request body for `token`, and the decoding of a TokenReview response (exposed
// for tests).
std::string TokenReviewRequestJson(std::string_view token);
absl::StatusOr<TokenReviewResult> ParseTokenReviewResponse(std::string_view json);

}  // namespace ksched::serving
