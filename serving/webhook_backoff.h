// WebhookBackoff: the retry policy of upstream's delegated TokenReview / SubjectAccessReview calls
// (apiserver DefaultAuthWebhookRetryBackoff: 500ms, factor 1.5, jitter 0.2, 5 steps; retried only
// on transient failures: webhook.DefaultShouldRetry).
//
// Thread-safety: CallWithBackoff is reentrant; the policy is a plain value.
#pragma once

#include <chrono>
#include <functional>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "client/rest_client.h"

namespace ksched::serving {

struct WebhookBackoff {
  std::chrono::milliseconds initial{500};
  double factor = 1.5;
  double jitter = 0.2;
  int steps = 5;  // attempts in all; <= 1: no retry
};

// Transient: a failed connection or timeout (no HTTP status), or HTTP 429, 500, 503 and 504.
bool IsRetryableReviewError(const absl::Status& status);

// Told about each review request (one per attempt): the HTTP status of its final answer (0 when
// there was none: the connection failed or timed out) and how long the request took. Upstream's
// apiserver_delegated_authn_request_* (TokenReview) and apiserver_delegated_authz_request_*
// (SubjectAccessReview). Called from the server's worker threads; may be empty.
using ReviewRequestObserver = std::function<void(int http_status, std::chrono::steady_clock::duration latency)>;

// Sends one review request through `client`, telling `observer` (when set) about it.
absl::StatusOr<client::HttpResponse> SendReviewRequest(client::RestClient& client, const client::HttpRequest& request,
                                                       const ReviewRequestObserver& observer);

// Calls `attempt` until it succeeds, fails with a non-retryable error or `backoff.steps` attempts
// were made, sleeping between attempts; returns the last result.
absl::Status CallWithBackoff(const WebhookBackoff& backoff, const std::function<absl::Status()>& attempt);

}  // namespace ksched::serving
