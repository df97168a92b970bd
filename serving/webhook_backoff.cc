#include "serving/webhook_backoff.h"

#include <random>
#include <thread>

#include "client/api_error.h"

namespace ksched::serving {

bool IsRetryableReviewError(const absl::Status& status) {
  if (status.ok()) return false;
  const std::optional<int> http = client::HttpStatusOf(status);
  if (!http) {
    return status.code() == absl::StatusCode::kUnavailable ||
           status.code() == absl::StatusCode::kDeadlineExceeded;
  }
  return *http == 429 || *http == 500 || *http == 503 || *http == 504;
}

absl::StatusOr<client::HttpResponse> SendReviewRequest(client::RestClient& client, const client::HttpRequest& request,
                                                       const ReviewRequestObserver& observer) {
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<client::HttpResponse> response = client.Do(request);
  if (observer) {
    const int http_status = response.ok() ? response->status : client::HttpStatusOf(response.status()).value_or(0);
    observer(http_status, std::chrono::steady_clock::now() - start);
  }
  return response;
}

absl::Status CallWithBackoff(const WebhookBackoff& backoff, const std::function<absl::Status()>& attempt) {
  thread_local std::mt19937_64 random{std::random_device{}()};
  double delay_ms = static_cast<double>(backoff.initial.count());
  absl::Status status;
  for (int step = 1;; ++step) {
    status = attempt();
    if (status.ok() || !IsRetryableReviewError(status) || step >= backoff.steps) return status;
    const double jittered =
        delay_ms * (1.0 + std::uniform_real_distribution<double>(0.0, backoff.jitter)(random));
    std::this_thread::sleep_for(std::chrono::microseconds(static_cast<long long>(jittered * 1000.0)));
    delay_ms *= backoff.factor;
  }
}

}  // namespace ksched::serving
