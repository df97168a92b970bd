// RFC 3339 parsing (api/time.h). Accept/reject cases and their instants were checked against Go's
// time.Parse(time.RFC3339, ...).
#include "api/time.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <string>

namespace {

using ksched::api::ParseApiTime;
using ksched::api::ParseRfc3339;
using ksched::api::Time;

Time At(int year, unsigned month, unsigned day, int hour, int minute, int second,
        std::int64_t nanos = 0) {
  using namespace std::chrono;
  return Time{sys_days{std::chrono::year{year} / month / day}} + hours{hour} + minutes{minute} +
         seconds{second} + nanoseconds{nanos};
}

std::string ErrorOf(std::string_view text) {
  auto time = ParseRfc3339(text);
  return time.ok() ? "<ok>" : std::string(time.status().message());
}

TEST_CASE("ParseRfc3339: valid timestamps", "[api][time]") {
  CHECK(ParseRfc3339("2025-06-01T12:30:45Z").value() == At(2025, 6, 1, 12, 30, 45));
  CHECK(ParseRfc3339("1970-01-01T00:00:00Z").value().time_since_epoch().count() == 0);
  CHECK(ParseRfc3339("2025-06-01T12:30:45.123456Z").value() ==
        At(2025, 6, 1, 12, 30, 45, 123456000));
  CHECK(ParseRfc3339("2025-06-01T12:30:45.123456789123Z").value() ==
        At(2025, 6, 1, 12, 30, 45, 123456789));
  CHECK(ParseRfc3339("2025-06-01T12:30:45,5+01:30").value() == At(2025, 6, 1, 11, 0, 45, 500000000));
  CHECK(ParseRfc3339("2025-06-01T00:30:00-02:00").value() == At(2025, 6, 1, 2, 30, 0));
  CHECK(ParseRfc3339("2024-02-29T23:59:59Z").value() == At(2024, 2, 29, 23, 59, 59));
  CHECK(ParseRfc3339("2025-06-01T12:30:45+24:00").value() == At(2025, 5, 31, 12, 30, 45));
  CHECK(ParseRfc3339("1969-12-31T23:59:59.5Z").value().time_since_epoch().count() == -500000000);
}

TEST_CASE("ParseRfc3339: rejected timestamps", "[api][time]") {
  CHECK(ErrorOf("2025-02-29T00:00:00Z") == "cannot parse time \"2025-02-29T00:00:00Z\": day out of range");
  CHECK(ErrorOf("2025-13-01T00:00:00Z") == "cannot parse time \"2025-13-01T00:00:00Z\": month out of range");
  CHECK(ErrorOf("2025-06-01T24:00:00Z") == "cannot parse time \"2025-06-01T24:00:00Z\": hour out of range");
  CHECK(ErrorOf("2025-06-01T12:60:00Z") == "cannot parse time \"2025-06-01T12:60:00Z\": minute out of range");
  CHECK(ErrorOf("2025-06-01T12:30:60Z") == "cannot parse time \"2025-06-01T12:30:60Z\": second out of range");
  CHECK(ErrorOf("2025-06-01T12:30:45+25:00") ==
        "cannot parse time \"2025-06-01T12:30:45+25:00\": time zone offset out of range");
  CHECK(ErrorOf("2025-06-01t12:30:45z") ==
        "cannot parse time \"2025-06-01t12:30:45z\": not in RFC 3339 format (YYYY-MM-DDThh:mm:ssZ)");
  CHECK(ErrorOf("2025-06-01T12:30:45") ==
        "cannot parse time \"2025-06-01T12:30:45\": not in RFC 3339 format (YYYY-MM-DDThh:mm:ssZ)");
  CHECK(ErrorOf("2025-06-01T12:30:45.5") ==
        "cannot parse time \"2025-06-01T12:30:45.5\": missing time zone (Z or +hh:mm)");
  CHECK(ErrorOf("2025-06-01T12:30:45.Z") ==
        "cannot parse time \"2025-06-01T12:30:45.Z\": missing digits after the decimal point");
  CHECK(ErrorOf("2025-06-01T12:30:45+0100") ==
        "cannot parse time \"2025-06-01T12:30:45+0100\": malformed time zone offset");
  CHECK(ErrorOf("2025-06-01T12:30:45Z ") ==
        "cannot parse time \"2025-06-01T12:30:45Z \": extra text after the time zone");
  CHECK(ErrorOf(" 2025-06-01T12:30:45Z") != "<ok>");
  CHECK(ErrorOf("") != "<ok>");
  CHECK(ErrorOf("1500-01-01T00:00:00Z") ==
        "cannot parse time \"1500-01-01T00:00:00Z\": out of the representable range (years 1677 to "
        "2262)");
  CHECK(ErrorOf("9999-12-31T23:59:59Z") != "<ok>");
}

TEST_CASE("ParseApiTime: Go's zero time is unset", "[api][time]") {
  CHECK(ParseApiTime("0001-01-01T00:00:00Z").value() == std::nullopt);
  CHECK(ParseApiTime("0001-01-01T01:00:00+01:00").value() == std::nullopt);
  CHECK_FALSE(ParseApiTime("0001-01-01T00:00:01Z").ok());
  CHECK(ParseApiTime("2025-06-01T12:30:45Z").value() == At(2025, 6, 1, 12, 30, 45));
  CHECK_FALSE(ParseApiTime("nope").ok());
}

}  // namespace
