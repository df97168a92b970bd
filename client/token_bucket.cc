#include "client/token_bucket.h"

#include <algorithm>
#include <thread>

namespace ksched::client {

TokenBucket::TokenBucket(float qps, int burst, NowFunction now)
    : qps_(qps), burst_(std::max(burst, 1)), now_(std::move(now)), tokens_(burst_), last_(now_()) {}

TokenBucket::Clock::duration TokenBucket::Reserve() {
  if (qps_ <= 0) return Clock::duration::zero();
  base::MutexLock lock(&mu_);
  const Clock::time_point now = now_();
  const double elapsed = std::chrono::duration<double>(now - last_).count();
  last_ = now;
  tokens_ = std::min<double>(burst_, tokens_ + elapsed * qps_);
  tokens_ -= 1.0;
  if (tokens_ >= 0) return Clock::duration::zero();
  // A deficit of d tokens is repaid after d / qps seconds.
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(-tokens_ / qps_));
}

void TokenBucket::Acquire() {
  const Clock::duration wait = Reserve();
  if (wait > Clock::duration::zero()) std::this_thread::sleep_for(wait);
}

}  // namespace ksched::client
