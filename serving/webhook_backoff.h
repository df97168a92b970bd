// WebhookBackoff: the retry policy of upstream's delegated TokenReview / SubjectAccessReview calls
// (apiserver DefaultAuthWebhookRetryBackoff: 500ms, factor 1.5, jitter 0.2, 5 steps; retried only
// on transient failures: webhook.DefaultShouldRetry).
//
// Thread-safety: CallWithBackoff is reentrant; the policy is a plain value.
#pragma once

#include <chrono>
#include <functional>

#include "absl/status/status.h"

namespace ksched::serving {

struct WebhookBackoff {
  std::chrono::milliseconds initial{500};
  double factor = 1.5;
  double jitter = 0.2;
  int steps = 5;  // attempts in all; <= 1: no retry
};

// Transient: a failed connection or timeout (no HTTP status), or HTTP 429, 500, 503 and 504.
bool IsRetryableReviewError(const absl::Status& status);

// Calls `attempt` until it succeeds, fails with a non-retryable error or `backoff.steps` attempts
// were made, sleeping between attempts; returns the last result.
absl::Status CallWithBackoff(const WebhookBackoff& backoff, const std::function<absl::Status()>& attempt);

}  // namespace ksched::serving
