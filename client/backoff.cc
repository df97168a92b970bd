#include "client/backoff.h"

#include <algorithm>

namespace ksched::client {

Backoff::Backoff(Duration initial, Duration cap, double factor, double jitter, std::uint64_t seed)
    : initial_(initial), cap_(cap), factor_(factor), jitter_(jitter), current_(initial), rng_(seed) {}

Backoff::Duration Backoff::Next() {
  Duration delay = current_;
  if (jitter_ > 0) {
    std::uniform_real_distribution<double> dist(0.0, jitter_);
    delay += Duration(static_cast<Duration::rep>(static_cast<double>(delay.count()) * dist(rng_)));
  }
  const auto grown = static_cast<Duration::rep>(static_cast<double>(current_.count()) * factor_);
  current_ = std::min(cap_, Duration(std::max<Duration::rep>(grown, current_.count())));
  return std::min(delay, cap_ + Duration(static_cast<Duration::rep>(
                                    static_cast<double>(cap_.count()) * jitter_)));
}

}  // namespace ksched::client
