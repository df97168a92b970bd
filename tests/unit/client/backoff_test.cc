#include "client/backoff.h"

#include <catch2/catch.hpp>

using ksched::client::Backoff;
using namespace std::chrono_literals;

TEST_CASE("backoff doubles up to the cap and resets", "[client][backoff]") {
  Backoff backoff(100ms, 1000ms, 2.0, 0.0);
  CHECK(backoff.Next() == 100ms);
  CHECK(backoff.Next() == 200ms);
  CHECK(backoff.Next() == 400ms);
  CHECK(backoff.Next() == 800ms);
  CHECK(backoff.Next() == 1000ms);
  CHECK(backoff.Next() == 1000ms);
  backoff.Reset();
  CHECK(backoff.Next() == 100ms);
}

TEST_CASE("jitter adds at most the given fraction", "[client][backoff]") {
  Backoff backoff(1000ms, 1000ms, 2.0, 0.5, /*seed=*/42);
  bool saw_jitter = false;
  for (int i = 0; i < 100; ++i) {
    const auto delay = backoff.Next();
    REQUIRE(delay >= 1000ms);
    REQUIRE(delay <= 1500ms);
    saw_jitter = saw_jitter || delay > 1000ms;
  }
  CHECK(saw_jitter);
}
