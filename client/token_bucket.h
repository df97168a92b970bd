// TokenBucket: client-side QPS/burst limit, as client-go's token-bucket rate limiter
// (flowcontrol.NewTokenBucketRateLimiter): `burst` tokens at most, refilled at `qps` per second.
//
// Reserve() takes one token now or in the future and returns how long the caller must wait before
// using it; reservations queue fairly in call order. qps <= 0 disables limiting (every wait is zero),
// as client-go does for a negative QPS.
//
// Thread-safety: all methods may be called concurrently. The clock is injectable for tests.
#pragma once

#include <chrono>
#include <functional>

#include "base/mutex.h"

namespace ksched::client {

class TokenBucket {
 public:
  using Clock = std::chrono::steady_clock;
  using NowFunction = std::function<Clock::time_point()>;

  TokenBucket(float qps, int burst, NowFunction now = [] { return Clock::now(); });

  // Takes a token; returns the delay after which the caller may proceed (zero if one was free).
  Clock::duration Reserve();
  // Reserve() and sleep for the returned delay. Not for the I/O thread.
  void Acquire();

  float qps() const { return qps_; }
  int burst() const { return burst_; }

 private:
  const float qps_;
  const int burst_;
  const NowFunction now_;
  base::Mutex mu_;
  double tokens_ ABSL_GUARDED_BY(mu_);  // may go negative: outstanding reservations
  Clock::time_point last_ ABSL_GUARDED_BY(mu_);
};

}  // namespace ksched::client
