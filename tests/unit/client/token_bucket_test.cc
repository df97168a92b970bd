#include "client/token_bucket.h"

#include <catch2/catch.hpp>
#include <chrono>

using ksched::client::TokenBucket;
using namespace std::chrono_literals;

namespace {
struct FakeClock {
  TokenBucket::Clock::time_point now{};
  TokenBucket::NowFunction fn() {
    return [this] { return now; };
  }
};
}  // namespace

TEST_CASE("a full bucket serves `burst` requests without waiting, then paces at qps",
          "[client][token_bucket]") {
  FakeClock clock;
  TokenBucket bucket(10.0F, 3, clock.fn());
  CHECK(bucket.Reserve() == 0s);
  CHECK(bucket.Reserve() == 0s);
  CHECK(bucket.Reserve() == 0s);
  // The fourth waits one token's worth (100 ms at 10 qps), the fifth two.
  CHECK(std::chrono::duration_cast<std::chrono::milliseconds>(bucket.Reserve()) == 100ms);
  CHECK(std::chrono::duration_cast<std::chrono::milliseconds>(bucket.Reserve()) == 200ms);
}

TEST_CASE("tokens refill with time and never exceed burst", "[client][token_bucket]") {
  FakeClock clock;
  TokenBucket bucket(2.0F, 2, clock.fn());
  CHECK(bucket.Reserve() == 0s);
  CHECK(bucket.Reserve() == 0s);
  clock.now += 10s;  // would be 20 tokens without the cap
  CHECK(bucket.Reserve() == 0s);
  CHECK(bucket.Reserve() == 0s);
  CHECK(std::chrono::duration_cast<std::chrono::milliseconds>(bucket.Reserve()) == 500ms);
  clock.now += 500ms;  // repays the reservation exactly
  CHECK(std::chrono::duration_cast<std::chrono::milliseconds>(bucket.Reserve()) == 500ms);
}

TEST_CASE("qps <= 0 disables the limit", "[client][token_bucket]") {
  FakeClock clock;
  TokenBucket bucket(-1.0F, 1, clock.fn());
  for (int i = 0; i < 1000; ++i) REQUIRE(bucket.Reserve() == 0s);
}
