// Go duration text (time.ParseDuration / Duration.String), as metav1.Duration uses it.
#include <catch2/catch.hpp>
#include <chrono>
#include <string>

#include "api/go_duration.h"

namespace {

using ksched::api::FormatGoDuration;
using ksched::api::ParseGoDuration;
using std::chrono::nanoseconds;

TEST_CASE("duration: parses Go's syntax", "[api][duration]") {
  struct Case {
    const char* text;
    std::int64_t nanos;
  };
  const Case cases[] = {
      {"0", 0},
      {"-0", 0},
      {"0s", 0},
      {"15s", 15'000'000'000},
      {"1m30s", 90'000'000'000},
      {"1.5h", 5'400'000'000'000},
      {"-2ms", -2'000'000},
      {"+3us", 3'000},
      {"3\xC2\xB5s", 3'000},
      {"3\xCE\xBCs", 3'000},
      {"10ns", 10},
      {".5s", 500'000'000},
      {"1.s", 1'000'000'000},
      {"1h2m3s4ms5us6ns", 3'723'004'005'006},
      {"2562047h47m16.854775807s", INT64_MAX},
      {"-2562047h47m16.854775808s", INT64_MIN},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    auto parsed = ParseGoDuration(c.text);
    REQUIRE(parsed.ok());
    CHECK(parsed->count() == c.nanos);
  }
}

TEST_CASE("duration: errors carry Go's text", "[api][duration]") {
  struct Case {
    const char* text;
    const char* error;
  };
  const Case cases[] = {
      {"", "time: invalid duration \"\""},
      {"abc", "time: invalid duration \"abc\""},
      {"1", "time: missing unit in duration \"1\""},
      {"1x", "time: unknown unit \"x\" in duration \"1x\""},
      {"1sx", "time: unknown unit \"sx\" in duration \"1sx\""},
      {".s", "time: invalid duration \".s\""},
      {"-", "time: invalid duration \"-\""},
      {"2562047h47m16.854775808s", "time: invalid duration \"2562047h47m16.854775808s\""},
      {"9223372036854775808ns", "time: invalid duration \"9223372036854775808ns\""},
      {"1\xff", "time: unknown unit \"\\xff\" in duration \"1\\xff\""},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    auto parsed = ParseGoDuration(c.text);
    REQUIRE_FALSE(parsed.ok());
    CHECK(std::string(parsed.status().message()) == c.error);
  }
}

TEST_CASE("duration: formats as Duration.String", "[api][duration]") {
  struct Case {
    std::int64_t nanos;
    const char* text;
  };
  const Case cases[] = {
      {0, "0s"},
      {1, "1ns"},
      {1'100, "1.1\xC2\xB5s"},
      {2'200'000, "2.2ms"},
      {1'500'000'000, "1.5s"},
      {15'000'000'000, "15s"},
      {90'000'000'000, "1m30s"},
      {3'600'500'000'000, "1h0m0.5s"},
      {-2'000'000, "-2ms"},
      {INT64_MAX, "2562047h47m16.854775807s"},
      {INT64_MIN, "-2562047h47m16.854775808s"},
  };
  for (const Case& c : cases) {
    CHECK(FormatGoDuration(nanoseconds(c.nanos)) == c.text);
  }
}

}  // namespace
