// Backoff: exponential delays with jitter for retries and reconnects (client-go's wait.Backoff and
// the reflector's backoff manager): initial, doubled per failure up to `cap`, with up to `jitter`
// (fraction) added at random, and reset after a success.
//
// Thread-safety: not synchronised; one owner (a reflector thread, one retry loop).
#pragma once

#include <chrono>
#include <random>

namespace ksched::client {

class Backoff {
 public:
  using Duration = std::chrono::milliseconds;

  Backoff(Duration initial, Duration cap, double factor = 2.0, double jitter = 0.1,
          std::uint64_t seed = std::random_device{}());

  // The delay before the next attempt; each call grows the following one.
  Duration Next();
  void Reset() { current_ = initial_; }
  Duration peek() const { return current_; }

 private:
  Duration initial_;
  Duration cap_;
  double factor_;
  double jitter_;
  Duration current_;
  std::mt19937_64 rng_;
};

}  // namespace ksched::client
