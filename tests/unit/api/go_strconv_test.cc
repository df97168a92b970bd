#include "api/go_strconv.h"

#include <cmath>
#include <cstdlib>
#include <string>
#include <type_traits>

#include <catch2/catch.hpp>

namespace ksched::api {
namespace {

// Every row is what Go 1.26's strconv printed for the input (a throwaway `go run` over this list):
// the value (%v) or the error's text. Kinds: int<base>/<bits> ParseInt, uint10/32 ParseUint,
// atoi Atoi, bool ParseBool, float<bits> ParseFloat.
struct Case {
  const char* kind;
  const char* input;
  bool ok;
  const char* expected;  // the value as Go printed it, or the error
};
constexpr Case kCases[] = {
      {"int0/64", "0x10", true, "16"},
      {"int0/64", "0o17", true, "15"},
      {"int0/64", "0b101", true, "5"},
      {"int0/64", "017", true, "15"},
      {"int0/64", "0", true, "0"},
      {"int0/64", "-0x10", true, "-16"},
      {"int0/64", "+5", true, "5"},
      {"int0/64", "1_000", true, "1000"},
      {"int0/64", "_1", false, "strconv.ParseInt: parsing \"_1\": invalid syntax"},
      {"int0/64", "1__0", false, "strconv.ParseInt: parsing \"1__0\": invalid syntax"},
      {"int0/64", "0x_1", true, "1"},
      {"int0/64", "0x", false, "strconv.ParseInt: parsing \"0x\": invalid syntax"},
      {"int0/64", "08", false, "strconv.ParseInt: parsing \"08\": invalid syntax"},
      {"int0/64", "9223372036854775807", true, "9223372036854775807"},
      {"int0/64", "9223372036854775808", false, "strconv.ParseInt: parsing \"9223372036854775808\": value out of range"},
      {"int0/64", "-9223372036854775808", true, "-9223372036854775808"},
      {"int0/64", "-9223372036854775809", false, "strconv.ParseInt: parsing \"-9223372036854775809\": value out of range"},
      {"int0/64", "99999999999999999999x", false, "strconv.ParseInt: parsing \"99999999999999999999x\": value out of range"},
      {"int0/64", "12a", false, "strconv.ParseInt: parsing \"12a\": invalid syntax"},
      {"int0/64", "", false, "strconv.ParseInt: parsing \"\": invalid syntax"},
      {"int0/64", "+", false, "strconv.ParseInt: parsing \"+\": invalid syntax"},
      {"int0/64", "-", false, "strconv.ParseInt: parsing \"-\": invalid syntax"},
      {"int0/64", " 1", false, "strconv.ParseInt: parsing \" 1\": invalid syntax"},
      {"int0/64", "0_7", true, "7"},
      {"int0/64", "1_", false, "strconv.ParseInt: parsing \"1_\": invalid syntax"},
      {"int0/32", "2147483647", true, "2147483647"},
      {"int0/32", "2147483648", false, "strconv.ParseInt: parsing \"2147483648\": value out of range"},
      {"int0/32", "-2147483648", true, "-2147483648"},
      {"int0/32", "-2147483649", false, "strconv.ParseInt: parsing \"-2147483649\": value out of range"},
      {"int0/32", "0x7fffffff", true, "2147483647"},
      {"int0/32", "0x80000000", false, "strconv.ParseInt: parsing \"0x80000000\": value out of range"},
      {"int10/32", "0x10", false, "strconv.ParseInt: parsing \"0x10\": invalid syntax"},
      {"int10/32", "1_0", false, "strconv.ParseInt: parsing \"1_0\": invalid syntax"},
      {"int10/32", "-5", true, "-5"},
      {"int10/32", "2147483648", false, "strconv.ParseInt: parsing \"2147483648\": value out of range"},
      {"int10/32", "007", true, "7"},
      {"uint10/32", "4294967295", true, "4294967295"},
      {"uint10/32", "4294967296", false, "strconv.ParseUint: parsing \"4294967296\": value out of range"},
      {"uint10/32", "-1", false, "strconv.ParseUint: parsing \"-1\": invalid syntax"},
      {"uint10/32", "+1", false, "strconv.ParseUint: parsing \"+1\": invalid syntax"},
      {"uint10/32", "3000000000", true, "3000000000"},
      {"uint10/32", "99999999999999999999x", false, "strconv.ParseUint: parsing \"99999999999999999999x\": value out of range"},
      {"uint10/32", "18446744073709551616", false, "strconv.ParseUint: parsing \"18446744073709551616\": value out of range"},
      {"atoi", "12", true, "12"},
      {"atoi", "-12", true, "-12"},
      {"atoi", "+", false, "strconv.Atoi: parsing \"+\": invalid syntax"},
      {"atoi", "x", false, "strconv.Atoi: parsing \"x\": invalid syntax"},
      {"atoi", "9223372036854775808", false, "strconv.Atoi: parsing \"9223372036854775808\": value out of range"},
      {"atoi", "12345678901234567890", false, "strconv.Atoi: parsing \"12345678901234567890\": value out of range"},
      {"atoi", "-0", true, "0"},
      {"bool", "T", true, "true"},
      {"bool", "yes", false, "strconv.ParseBool: parsing \"yes\": invalid syntax"},
      {"bool", "", false, "strconv.ParseBool: parsing \"\": invalid syntax"},
      {"bool", "FALSE", true, "false"},
      {"bool", "fAlse", false, "strconv.ParseBool: parsing \"fAlse\": invalid syntax"},
      {"float32", "1.5", true, "1.5"},
      {"float32", "3.4028235e38", true, "3.4028234663852886e+38"},
      {"float32", "3.4028236e38", false, "strconv.ParseFloat: parsing \"3.4028236e38\": value out of range"},
      {"float32", "3.5e38", false, "strconv.ParseFloat: parsing \"3.5e38\": value out of range"},
      {"float32", "1e39", false, "strconv.ParseFloat: parsing \"1e39\": value out of range"},
      {"float32", "-1e39", false, "strconv.ParseFloat: parsing \"-1e39\": value out of range"},
      {"float32", "1e-50", true, "0"},
      {"float32", "0x1p-2", true, "0.25"},
      {"float32", "0x1.8p1", true, "3"},
      {"float32", "0x1", false, "strconv.ParseFloat: parsing \"0x1\": invalid syntax"},
      {"float32", "1_000.5", true, "1000.5"},
      {"float32", "1__0", false, "strconv.ParseFloat: parsing \"1__0\": invalid syntax"},
      {"float32", "inf", true, "inf"},
      {"float32", "-Infinity", true, "-inf"},
      {"float32", "+INF", true, "inf"},
      {"float32", "infin", false, "strconv.ParseFloat: parsing \"infin\": invalid syntax"},
      {"float32", "nan", true, "nan"},
      {"float32", "NaN", true, "nan"},
      {"float32", "-nan", false, "strconv.ParseFloat: parsing \"-nan\": invalid syntax"},
      {"float32", "1e", false, "strconv.ParseFloat: parsing \"1e\": invalid syntax"},
      {"float32", ".5", true, "0.5"},
      {"float32", "5.", true, "5"},
      {"float32", ".", false, "strconv.ParseFloat: parsing \".\": invalid syntax"},
      {"float32", "1.5.3", false, "strconv.ParseFloat: parsing \"1.5.3\": invalid syntax"},
      {"float32", "0x1p128", false, "strconv.ParseFloat: parsing \"0x1p128\": value out of range"},
      {"float32", "", false, "strconv.ParseFloat: parsing \"\": invalid syntax"},
      {"float32", " 1", false, "strconv.ParseFloat: parsing \" 1\": invalid syntax"},
      {"float32", "1e+", false, "strconv.ParseFloat: parsing \"1e+\": invalid syntax"},
      {"float32", "2.5e-3", true, "0.0024999999441206455"},
      {"float32", "0x_1p0", true, "1"},
      {"float32", "1e1_0", true, "1e+10"},
      {"float32", "0.1", true, "0.10000000149011612"},
      {"float32", "infx", false, "strconv.ParseFloat: parsing \"infx\": invalid syntax"},
      {"float32", "1E5", true, "100000"},
      {"float64", "1e309", false, "strconv.ParseFloat: parsing \"1e309\": value out of range"},
      {"float64", "1e-400", true, "0"},
      {"float64", "1.7976931348623157e308", true, "1.7976931348623157e+308"},
      {"float64", "0x1.fffffffffffffp1023", true, "1.7976931348623157e+308"},
      {"float64", "4.9e-324", true, "5e-324"},
      {"float64", "0.1", true, "0.1"},
};

// The parser's outcome as the row spells it: the error text, or the value.
std::string Outcome(const Case& c, double* float_value) {
  const std::string kind = c.kind;
  auto text = [](const auto& result) -> std::string {
    if (!result.ok()) return std::string(result.status().message());
    if constexpr (std::is_same_v<std::decay_t<decltype(*result)>, bool>) {
      return *result ? "true" : "false";
    } else {
      return std::to_string(*result);
    }
  };
  if (kind == "int0/64") return text(GoParseInt(c.input, 0, 64));
  if (kind == "int0/32") return text(GoParseInt(c.input, 0, 32));
  if (kind == "int10/32") return text(GoParseInt(c.input, 10, 32));
  if (kind == "uint10/32") return text(GoParseUint(c.input, 10, 32));
  if (kind == "atoi") return text(GoAtoi(c.input));
  if (kind == "bool") return text(GoParseBool(c.input));
  const absl::StatusOr<double> value = GoParseFloat(c.input, kind == "float32" ? 32 : 64);
  if (!value.ok()) return std::string(value.status().message());
  *float_value = *value;
  return "<float>";
}

TEST_CASE("Go strconv parsers give Go's values and errors", "[api][go_strconv]") {
  for (const Case& c : kCases) {
    INFO(c.kind << " \"" << c.input << "\"");
    double float_value = 0;
    const std::string got = Outcome(c, &float_value);
    if (!c.ok || got != "<float>") {
      CHECK(got == c.expected);
      continue;
    }
    // Go printed the shortest text that reads back as the same double.
    const double expected = std::strtod(c.expected, nullptr);
    if (std::isnan(expected)) {
      CHECK(std::isnan(float_value));
    } else {
      CHECK(float_value == expected);
    }
  }
}

TEST_CASE("Go strconv reports the function the caller used", "[api][go_strconv]") {
  CHECK(GoAtoi("1x").status().message() == "strconv.Atoi: parsing \"1x\": invalid syntax");
  CHECK(GoParseInt("1x", 10, 64).status().message() == "strconv.ParseInt: parsing \"1x\": invalid syntax");
  // The input is quoted as strconv.Quote does.
  CHECK(GoParseBool("a\"b\n").status().message() == "strconv.ParseBool: parsing \"a\\\"b\\n\": invalid syntax");
}

}  // namespace
}  // namespace ksched::api
