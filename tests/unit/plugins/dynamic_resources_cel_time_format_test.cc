// Timestamps and durations, string.format and the Kubernetes format library in DRA device
// selectors (plugins/dynamic_resources/cel/library_time.cc, timestamp.cc, time_zone.cc,
// library_strings_format.cc, library_format.cc, api/name_validation.cc).
//
// Ported upstream cases: cel-go v0.26.0's interpreter/interpreter_test.go (timestamp_methods,
// the timestamp comparisons and conversions), cel/cel_test.go (TestDefaultUTCTimeZone, its
// "enabled" column: apiserver's base environment sets DefaultUTCTimeZone(true)),
// common/types/timestamp_test.go (TestTimestampOperators, written as CEL), ext/formatting_test.go
// (TestStringFormat: every case without another locale or a protobuf message) and apiserver
// v0.34.4's pkg/cel/library/format_test.go (TestFormat). Upstream evaluates each expression to a
// value; a selector must be a bool, so a case here is `(<expression>) == <expected>`, and a
// runtime error is expected from `(<expression>) == dyn(null)`.
//
// Every expectation, ported or added, was checked against upstream expression by expression: the
// DRA environment of k8s.io/dynamic-resource-allocation v0.34.4 (cel-go v0.26.0, and
// golang.org/x/text v0.23.0 as Kubernetes v1.34.4 pins it). Where that differs from the ported
// test's own expectation, the environment wins: cel-go's test expects "2.718280 × 10⁰⁰" from %e,
// the x/text Kubernetes builds with prints "2.718280×10⁰⁰". The time-zone cases read the system's
// tzdata (/usr/share/zoneinfo), as Go's time.LoadLocation does.
#include "plugins/dynamic_resources/cel/device_selector.h"

#include "cel_case_checks.h"

#include <catch2/catch.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace {

using ksched::plugins::dynamic_resources::CelDevice;
using ksched::plugins::dynamic_resources::CompiledSelector;

using Case = ksched::plugins::dynamic_resources::testing::CelCase;

// Error cases compare with dyn(null): the error is the expression's own.
void CheckCases(const std::vector<Case>& cases) {
  ksched::plugins::dynamic_resources::testing::CheckCelCases(cases, CelDevice{"time.example.com", {}, {}}, "dyn(null)");
}

}  // namespace

TEST_CASE("DynamicResources CEL time: upstream timestamp methods and conversions",
          "[plugins][dynamic_resources][cel][cel_time]") {
  CheckCases({
      {"timestamp methods in UTC",
       "cel.bind(x, timestamp(7506) + duration(\"1ms\"), x.getFullYear() == 1970 && x.getMonth() == 0 && "
       "x.getDayOfYear() == 0 && x.getDayOfMonth() == 0 && x.getDate() == 1 && x.getDayOfWeek() == 4 && "
       "x.getHours() == 2 && x.getMinutes() == 5 && x.getSeconds() == 6 && x.getMilliseconds() == 1)",
       "true"},
      {"default-local-year", "cel.bind(x, timestamp(7506) + duration(\"1ms\"), x.getFullYear())", "1970"},
      {"default-local-day-of-year", "cel.bind(x, timestamp(7506) + duration(\"1ms\"), x.getDayOfYear())", "0"},
      {"default-local-month", "cel.bind(x, timestamp(7506) + duration(\"1ms\"), x.getMonth())", "0"},
      {"default-local-day-of-month",
       "cel.bind(x, timestamp(7506) + duration(\"1ms\"), x.getDayOfMonth() == 30 && x.getDate() == 31)",
       "false"},
      {"default-local-dates", "cel.bind(x, timestamp(7506) + duration(\"1ms\"), x.getDayOfWeek())", "4"},
      {"default-local-times",
       "cel.bind(x, timestamp(7506) + duration(\"1ms\"), x.getHours() == 18 && x.getMinutes() == 5 && "
       "x.getSeconds() == 6 && x.getMilliseconds() == 1)",
       "false"},
      {"explicit -07:30",
       "cel.bind(x, timestamp(7506) + duration(\"1ms\"), x.getFullYear('-07:30') == 1969 && "
       "x.getDayOfYear('-07:30') == 364 && x.getMonth('-07:30') == 11 && x.getDayOfMonth('-07:30') == 30 && "
       "x.getDate('-07:30') == 31 && x.getDayOfWeek('-07:30') == 3 && x.getHours('-07:30') == 18 && "
       "x.getMinutes('-07:30') == 35 && x.getSeconds('-07:30') == 6 && x.getMilliseconds('-07:30') == 1)",
       "true"},
      {"explicit 23:15",
       "cel.bind(x, timestamp(7506) + duration(\"1ms\"), x.getFullYear('23:15') == 1970 && "
       "x.getDayOfYear('23:15') == 1 && x.getMonth('23:15') == 0 && x.getDayOfMonth('23:15') == 1 && "
       "x.getDate('23:15') == 2 && x.getDayOfWeek('23:15') == 5 && x.getHours('23:15') == 1 && "
       "x.getMinutes('23:15') == 20 && x.getSeconds('23:15') == 6 && x.getMilliseconds('23:15') == 1)",
       "true"},
      {"timestamp equality", "timestamp(0) == timestamp(0)", "true"},
      {"timestamp inequality", "timestamp(1) != timestamp(2)", "true"},
      {"timestamp less", "timestamp(0) < timestamp(1)", "true"},
      {"timestamp less equals", "timestamp(2) <= timestamp(2)", "true"},
      {"timestamp greater", "timestamp(1) > timestamp(0)", "true"},
      {"timestamp greater equals", "timestamp(2) >= timestamp(2)", "true"},
      {"conversion duration('12hh3')",
       "duration('12hh3')",
       "",
       "",
       "compilation failed: ERROR: <input>:1:10: invalid duration argument\n | duration('12hh3')\n | .........^"},
      {"conversion duration('12s')", "duration('12s')", "duration('12000ms')"},
      {"conversion timestamp('123')",
       "timestamp('123')",
       "",
       "",
       "compilation failed: ERROR: <input>:1:11: invalid timestamp argument\n | timestamp('123')\n | "
       "..........^"},
      {"conversion timestamp(123)", "timestamp(123)", "timestamp('1970-01-01T00:02:03Z')"},
      {"type of timestamp(int('123'))", "type(timestamp(int('123')))", "google.protobuf.Timestamp"},
  });
}

TEST_CASE("DynamicResources CEL time: upstream TestTimestampOperators", "[plugins][dynamic_resources][cel][cel_time]") {
  CheckCases({
      {"DateAddOneHourMinusOneMilli",
       "timestamp(3506) + (duration(\"1h\") - duration(\"1ms\"))",
       "timestamp(7106) - duration(\"1ms\")"},
      {"DateAddOneHourOneNano",
       "timestamp(3506) + (duration(\"1h\") + duration(\"1ns\"))",
       "timestamp(7106) + duration(\"1ns\")"},
      {"MaxTimestampAddOneSecond", "timestamp(253402300799) + duration(\"1s\")", "", "timestamp overflow"},
      {"SecondsWithNanosNegative",
       "(timestamp(1) + duration(\"1ns\")) + duration(\"-999999999ns\")",
       "timestamp(0) + duration(\"2ns\")"},
      {"SecondsWithNanosPositive",
       "(timestamp(1) + duration(\"999999999ns\")) + duration(\"999999999ns\")",
       "timestamp(2) + duration(\"999999998ns\")"},
      {"DateAddDateError", "dyn(timestamp(1)) + dyn(timestamp(1))", "", "no such overload"},
      {"DateCompareEqual", "timestamp(1000) == timestamp(1000)", "true"},
      {"DateCompareBefore", "timestamp(1000) < timestamp(2000)", "true"},
      {"DateCompareAfter", "timestamp(2000) > timestamp(1000)", "true"},
      {"DateCompareError", "dyn(timestamp(1000)) < dyn(duration(\"1000ns\"))", "", "no such overload"},
      {"TimeSubOneSecond", "timestamp(100) - timestamp(1)", "duration(\"99s\")"},
      {"DateSubOneHour", "timestamp(3506) - duration(\"1h\")", "timestamp(-94)"},
      {"MinTimestampSubOneSecond", "timestamp(-62135596800) - duration(\"1s\")", "", "timestamp overflow"},
      {"MinTimestampSubMinusOneViaNanos",
       "(timestamp(-62135596800) + duration(\"2ns\")) - duration(\"-999999999ns\")",
       "timestamp(-62135596799) + duration(\"1ns\")"},
      {"TimeWithNanosPositive",
       "(timestamp(2) + duration(\"1ns\")) - (timestamp(1) + duration(\"2ns\"))",
       "duration(\"999999999ns\")"},
      {"TimeWithNanosNegative",
       "(timestamp(1) + duration(\"1ns\")) - (timestamp(2) + duration(\"999999999ns\"))",
       "duration(\"-1999999998ns\")"},
      {"MinTimestampMinusOne", "timestamp(-62135596800) - duration(\"1ns\")", "", "timestamp overflow"},
      {"DateSubMinDuration", "timestamp(1) - duration(\"-2562047h47m16.854775808s\")", "", "integer overflow"},
      {"DurationAddOverflow", "duration(\"2562047h47m16.854775807s\") + duration(\"1ns\")", "", "integer overflow"},
      {"DurationSubOverflow", "duration(\"-2562047h47m16.854775808s\") - duration(\"1ns\")", "", "integer overflow"},
      {"DurationNegateOverflow (negation is not declared for durations; dyn reaches Negate)",
       "-dyn(duration(\"-2562047h47m16.854775808s\"))",
       "",
       "integer overflow"},
      {"negation of a duration does not type-check",
       "-duration(\"1s\") == duration(\"-1s\")",
       "",
       "",
       "compilation failed: ERROR: <input>:1:1: found no matching overload for '-_' applied to '(duration)'\n "
       "| -duration(\"1s\") == duration(\"-1s\")\n | ^"},
      {"DateMinusDateDurationOverflow", "timestamp(253402300799) - timestamp(-62135596800)", "", "integer overflow"},
  });
}

TEST_CASE("DynamicResources CEL time: conversions, validators, types and lists",
          "[plugins][dynamic_resources][cel][cel_time]") {
  CheckCases({
      {"string of a UTC timestamp", "string(timestamp(\"2023-01-02T03:04:05.120Z\"))", "\"2023-01-02T03:04:05.12Z\""},
      {"string keeps the literal's offset",
       "string(timestamp(\"2023-01-02T03:04:05+05:30\"))",
       "\"2023-01-02T03:04:05+05:30\""},
      {"arithmetic keeps the offset",
       "string(timestamp(\"2023-01-02T23:30:00-08:00\") + duration(\"1h\"))",
       "\"2023-01-03T00:30:00-08:00\""},
      {"offset +00:00 prints as Z", "string(timestamp(\"2023-01-02T03:04:05-00:00\"))", "\"2023-01-02T03:04:05Z\""},
      {"Go's parser: one-digit hour, comma fraction, offset 24:60",
       "string(timestamp(\"2023-01-02T3:04:05,5+24:60\"))",
       "\"2023-01-02T03:04:05.5+25:00\""},
      {"fraction past nanoseconds is truncated",
       "int(timestamp(\"1970-01-01T00:00:01.9999999999Z\") - timestamp(0))",
       "1999999999"},
      {"int of a timestamp is floor seconds", "int(timestamp(\"1969-12-31T23:59:59.5Z\"))", "-1"},
      {"int of a duration is nanoseconds", "int(duration(\"-1.5us\"))", "-1500"},
      {"string of durations",
       "[string(duration(\"1h30m\")), string(duration(\"-1.5s\")), string(duration(\"1ns\")), "
       "string(duration(\"0\"))]",
       "[\"5400s\", \"-1.5s\", \"0.000000001s\", \"0s\"]"},
      {"duration units",
       "[duration(\"1.5h\"), duration(\"2us\"), duration(\"2µs\"), duration(\"2μs\"), duration(\".5s\"), "
       "duration(\"1h1h\")]",
       "[duration(\"5400s\"), duration(\"2000ns\"), duration(\"2000ns\"), duration(\"2000ns\"), "
       "duration(\"500ms\"), duration(\"7200s\")]"},
      {"duration getters truncate",
       "[duration(\"3h59m\").getHours(), duration(\"-3h59m\").getMinutes(), duration(\"-1.999s\").getSeconds(),"
       " duration(\"1.999999s\").getMilliseconds()]",
       "[3, -239, -1, 1999]"},
      {"timestamp at year 9999 is valid", "timestamp(\"9999-12-31T23:59:59.999999999Z\").getFullYear()", "9999"},
      {"year 0 overflows at runtime", "[\"0000-12-31T23:59:59Z\"].map(s, timestamp(s))", "", "timestamp overflow"},
      {"a bad string fails at runtime",
       "[\"2023-02-29T00:00:00Z\"].map(s, timestamp(s))",
       "",
       "type conversion error from 'string' to 'google.protobuf.Timestamp'"},
      {"hour 24 does not parse",
       "timestamp(\"2023-01-01T24:00:00Z\") == timestamp(1)",
       "",
       "",
       "compilation failed: ERROR: <input>:1:11: invalid timestamp argument\n | "
       "timestamp(\"2023-01-01T24:00:00Z\") == timestamp(1)\n | ..........^"},
      {"Go's parser rejects: a one-digit month, minute 60, offset 24:61, an empty fraction, a lower-case t",
       "[\"2023-1-01T00:00:00Z\", \"2023-01-01T00:60:00Z\", \"2023-01-01T00:00:00+24:61\", "
       "\"2023-01-01T00:00:00.Z\", \"2023-01-01t00:00:00Z\"].exists(s, [\"x\"].all(y, string(timestamp(s)) != "
       "\"\"))",
       "",
       "type conversion error from 'string' to 'google.protobuf.Timestamp'"},
      {"a bad duration fails at runtime",
       "[\"1d\"].map(s, duration(s))",
       "",
       "type conversion error from 'string' to 'google.protobuf.Duration'"},
      {"int to timestamp out of range", "[253402300800].map(i, timestamp(i))", "", "timestamp overflow"},
      {"duration(int) does not convert",
       "[1].map(i, duration(i))",
       "",
       "type conversion error from 'int' to 'google.protobuf.Duration'"},
      {"constant conversions fold at planning",
       "duration(dyn(1)) == duration(\"1s\")",
       "",
       "",
       "program instantiation failed: type conversion error from 'int' to 'google.protobuf.Duration'"},
      {"timestamp(double) has no overload",
       "timestamp(dyn(1.5)) == timestamp(1)",
       "",
       "",
       "program instantiation failed: no such overload: timestamp(double)"},
      {"validator: out-of-range int literal",
       "timestamp(253402300800) == timestamp(1)",
       "",
       "",
       "compilation failed: ERROR: <input>:1:11: invalid timestamp argument\n | timestamp(253402300800) == "
       "timestamp(1)\n | ..........^"},
      {"validator: int duration literal",
       "duration(1) == duration(\"1s\")",
       "",
       "",
       "compilation failed: ERROR: <input>:1:10: invalid duration argument\n | duration(1) == "
       "duration(\"1s\")\n | .........^"},
      {"type names",
       "[type(timestamp(1)) == google.protobuf.Timestamp, type(duration(\"1s\")) == google.protobuf.Duration, "
       "type(duration(\"1s\")) == google.protobuf.Timestamp]",
       "[true, true, false]"},
      {"timestamp is a type name the planner rejects",
       "type(timestamp(1)) == timestamp",
       "",
       "",
       "program instantiation failed: reference to undefined type: timestamp"},
      {"timestamp as a value is checked as a type",
       "duration == 1",
       "",
       "",
       "compilation failed: ERROR: <input>:1:10: found no matching overload for '_==_' applied to "
       "'(type(duration), int)'\n | duration == 1\n | .........^"},
      {"a timestamp selector must still be bool",
       "timestamp(1)",
       "",
       "",
       "must evaluate to bool or the unknown type, not google.protobuf.Timestamp"},
      {"sum of durations", "[duration(\"1s\"), duration(\"2s\")].sum()", "duration(\"3s\")"},
      {"min of timestamps", "[timestamp(2), timestamp(1)].min()", "timestamp(1)"},
      {"sort of durations", "[duration(\"2s\"), duration(\"1s\")].sort()", "[duration(\"1s\"), duration(\"2s\")]"},
      {"empty duration sum", "[duration(\"1s\")].filter(d, false).sum()", "duration(\"0s\")"},
      {"timestamps are receivers: no operator trait", "dyn(duration(\"1s\")) * 2", "", "no such overload"},
      {"different types are unequal", "dyn(timestamp(1)) == 1 || dyn(duration(\"1s\")) == 1000000000", "false"},
  });
}

TEST_CASE("DynamicResources CEL time: time zones as Go's time.LoadLocation resolves them",
          "[plugins][dynamic_resources][cel][cel_time]") {
  CheckCases({
      {"IANA zone", "timestamp(\"2023-07-01T12:00:00Z\").getHours(\"America/New_York\")", "8"},
      {"IANA zone in winter", "timestamp(\"2023-01-01T12:00:00Z\").getHours(\"America/New_York\")", "7"},
      {"half-hour zone", "timestamp(\"2023-01-01T12:00:00Z\").getMinutes(\"Asia/Kolkata\")", "30"},
      {"date line", "timestamp(\"2023-01-01T12:00:00Z\").getDayOfWeek(\"Pacific/Kiritimati\")", "1"},
      {"UTC and empty", "[timestamp(0).getHours(\"UTC\"), timestamp(0).getHours(\"\")]", "[0, 0]"},
      {"fixed offsets as cel-go reads them",
       "[timestamp(0).getHours(\"+05:30\"), timestamp(0).getMinutes(\"-0:30\"), "
       "timestamp(0).getMinutes(\"+1:-30\"), timestamp(0).getHours(\"-01:00\")]",
       "[5, 30, 30, 23]"},
      {"unknown zone", "timestamp(0).getHours(\"Mars/Olympus\")", "", "unknown time zone Mars/Olympus"},
      {"zone names are case-sensitive", "timestamp(0).getHours(\"utc\")", "", "unknown time zone utc"},
      {"dot-dot is rejected", "timestamp(0).getHours(\"../zoneinfo/UTC\")", "", "time: invalid location name"},
      {"absolute paths are rejected", "timestamp(0).getHours(\"/etc/localtime\")", "", "time: invalid location name"},
      {"a directory", "timestamp(0).getHours(\"America\")", "", "is a directory"},
      {"a file that is not TZif", "timestamp(0).getHours(\"zone.tab\")", "", "malformed time zone information"},
      {"a bad offset", "timestamp(0).getHours(\"x:30\")", "", "strconv.Atoi: parsing \"x\": invalid syntax"},
      {"an offset out of int range",
       "timestamp(0).getHours(\"+1:99999999999999999999\")",
       "",
       "strconv.Atoi: parsing \"99999999999999999999\": value out of range"},
      {"the zone argument is checked at runtime",
       "timestamp(0).getHours(dyn(1))",
       "",
       "no such overload: getHours(google.protobuf.Timestamp, int)"},
  });
}

TEST_CASE("DynamicResources CEL format: upstream TestStringFormat", "[plugins][dynamic_resources][cel][cel_format]") {
  CheckCases({
      {"no-op", "\"no substitution\".format([])", "\"no substitution\""},
      {"mid-string substitution",
       "\"str is %s and some more\".format([\"filler\"])",
       "\"str is filler and some more\""},
      {"percent escaping", "\"%% and also %%\".format([])", "\"% and also %\""},
      {"substution inside escaped percent signs", "\"%%%s%%\".format([\"text\"])", "\"%text%\""},
      {"substitution with one escaped percent sign on the right",
       "\"%s%%\".format([\"percent on the right\"])",
       "\"percent on the right%\""},
      {"substitution with one escaped percent sign on the left",
       "\"%%%s\".format([\"percent on the left\"])",
       "\"%percent on the left\""},
      {"multiple substitutions",
       "\"%d %d %d, %s %s %s, %d %d %d, %s %s %s\".format([1, 2, 3, \"A\", \"B\", \"C\", 4, 5, 6, \"D\", \"E\","
       " \"F\"])",
       "\"1 2 3, A B C, 4 5 6, D E F\""},
      {"percent sign escape sequence support", "\"%%escaped %s%%\".format([\"percent\"])", "\"%escaped percent%\""},
      {"fixed point formatting clause", "\"%.3f\".format([1.2345])", "\"1.234\""},
      {"binary formatting clause", "\"this is 5 in binary: %b\".format([5])", "\"this is 5 in binary: 101\""},
      {"negative binary formatting clause",
       "\"this is -5 in binary: %b\".format([-5])",
       "\"this is -5 in binary: -101\""},
      {"uint support for binary formatting",
       "\"unsigned 64 in binary: %b\".format([uint(64)])",
       "\"unsigned 64 in binary: 1000000\""},
      {"bool support for binary formatting", "\"bit set from bool: %b\".format([true])", "\"bit set from bool: 1\""},
      {"octal formatting clause", "\"%o\".format([11])", "\"13\""},
      {"negative octal formatting clause", "\"%o\".format([-11])", "\"-13\""},
      {"uint support for octal formatting clause",
       "\"this is an unsigned octal: %o\".format([uint(65535)])",
       "\"this is an unsigned octal: 177777\""},
      {"lowercase hexadecimal formatting clause",
       "\"%x is 30 in hexadecimal\".format([30])",
       "\"1e is 30 in hexadecimal\""},
      {"uppercase hexadecimal formatting clause",
       "\"%X is 20 in hexadecimal\".format([30])",
       "\"1E is 20 in hexadecimal\""},
      {"negative hexadecimal formatting clause",
       "\"%x is -30 in hexadecimal\".format([-30])",
       "\"-1e is -30 in hexadecimal\""},
      {"unsigned support for hexadecimal formatting clause",
       "\"%X is 6000 in hexadecimal\".format([uint(6000)])",
       "\"1770 is 6000 in hexadecimal\""},
      {"string support with hexadecimal formatting clause",
       "\"%x\".format([\"Hello world!\"])",
       "\"48656c6c6f20776f726c6421\""},
      {"string support with uppercase hexadecimal formatting clause",
       "\"%X\".format([\"Hello world!\"])",
       "\"48656C6C6F20776F726C6421\""},
      {"byte support with hexadecimal formatting clause",
       "\"%x\".format([b\"byte string\"])",
       "\"6279746520737472696e67\""},
      {"byte support with hexadecimal formatting clause leading zero",
       "\"%x\".format([b\"\\x00\\x00byte string\\x00\"])",
       "\"00006279746520737472696e6700\""},
      {"byte support with uppercase hexadecimal formatting clause",
       "\"%X\".format([b\"byte string\"])",
       "\"6279746520737472696E67\""},
      {"scientific notation formatting clause", "\"%.6e\".format([1052.032911275])", "\"1.052033×10⁰³\""},
      {"default precision for fixed-point clause", "\"%f\".format([2.71828])", "\"2.718280\""},
      {"default precision for scientific notation", "\"%e\".format([2.71828])", "\"2.718280×10⁰⁰\""},
      {"default precision for string", "\"%s\".format([2.71])", "\"2.71\""},
      {"default list precision for string", "\"%s\".format([[2.71]])", "\"[2.710000]\""},
      {"default scientific notation for string", "\"%s\".format([0.000000002])", "\"2e-09\""},
      {"default list scientific notation for string", "\"%s\".format([[0.000000002]])", "\"[0.000000]\""},
      {"unicode output for scientific notation",
       "\"unescaped unicode: %e, escaped unicode: %e\".format([2.71828, 2.71828])",
       "\"unescaped unicode: 2.718280×10⁰⁰, escaped unicode: 2.718280×10⁰⁰\""},
      {"NaN support for fixed-point", "\"%f\".format([\"NaN\"])", "\"NaN\""},
      {"positive infinity support for fixed-point", "\"%f\".format([\"Infinity\"])", "\"∞\""},
      {"negative infinity support for fixed-point", "\"%f\".format([\"-Infinity\"])", "\"-∞\""},
      {"NaN support for string", "\"%s\".format([double(\"NaN\")])", "\"NaN\""},
      {"positive infinity support for string", "\"%s\".format([double(\"Inf\")])", "\"+Inf\""},
      {"negative infinity support for string", "\"%s\".format([double(\"-Inf\")])", "\"-Inf\""},
      {"infinity list support for string",
       "\"%s\".format([[double(\"NaN\"),double(\"+Inf\"), double(\"-Inf\")]])",
       "\"[\\\"NaN\\\", \\\"+Inf\\\", \\\"-Inf\\\"]\""},
      {"uint support for decimal clause", "\"%d\".format([uint(64)])", "\"64\""},
      {"null support for string", "\"null: %s\".format([null])", "\"null: null\""},
      {"int support for string", "\"%s\".format([999999999999])", "\"999999999999\""},
      {"bytes support for string", "\"some bytes: %s\".format([b\"xyz\"])", "\"some bytes: xyz\""},
      {"type() support for string", "\"type is %s\".format([type(\"test string\")])", "\"type is string\""},
      {"timestamp support for string",
       "\"%s\".format([timestamp(\"2023-02-03T23:31:20+00:00\")])",
       "\"2023-02-03T23:31:20Z\""},
      {"duration support for string", "\"%s\".format([duration(\"1h45m47s\")])", "\"6347s\""},
      {"small duration support for string", "\"%s\".format([duration(\"2ns\")])", "\"0.000000002s\""},
      {"list support for string",
       "\"%s\".format([[\"abc\", 3.14, null, [9, 8, 7, 6], timestamp(\"2023-02-03T23:31:20Z\")]])",
       "\"[\\\"abc\\\", 3.140000, null, [9, 8, 7, 6], timestamp(\\\"2023-02-03T23:31:20Z\\\")]\""},
      {"map support (all key types)",
       "\"map with multiple key types: %s\".format([{1: \"value1\", uint(2): \"value2\", true: "
       "double(\"NaN\")}])",
       "\"map with multiple key types: {1:\\\"value1\\\", 2:\\\"value2\\\", true:\\\"NaN\\\"}\""},
      {"boolean support for %s",
       "\"true bool: %s, false bool: %s\".format([true, false])",
       "\"true bool: true, false bool: false\""},
      {"dyntype support for string formatting clause",
       "cel.bind(dynStr, dyn(\"a string\"), \"dynamic string: %s\".format([dynStr]))",
       "\"dynamic string: a string\""},
      {"dyntype support for numbers with string formatting clause",
       "cel.bind(dynDoubleStr, dyn(56.8), cel.bind(dynIntStr, dyn(32), \"dynIntStr: %s dynDoubleStr: "
       "%s\".format([dynIntStr, dynDoubleStr])))",
       "\"dynIntStr: 32 dynDoubleStr: 56.8\""},
      {"dyntype support for integer formatting clause",
       "cel.bind(dynInt, dyn(128), \"dynamic int: %d\".format([dynInt]))",
       "\"dynamic int: 128\""},
      {"dyntype support for integer formatting clause (unsigned)",
       "cel.bind(dynUnsignedInt, dyn(256u), \"dynamic unsigned int: %d\".format([dynUnsignedInt]))",
       "\"dynamic unsigned int: 256\""},
      {"dyntype support for hex formatting clause",
       "cel.bind(dynHexInt, dyn(22), \"dynamic hex int: %x\".format([dynHexInt]))",
       "\"dynamic hex int: 16\""},
      {"dyntype support for hex formatting clause (uppercase)",
       "cel.bind(dynHexInt, dyn(26), \"dynamic hex int: %X (uppercase)\".format([dynHexInt]))",
       "\"dynamic hex int: 1A (uppercase)\""},
      {"dyntype support for unsigned hex formatting clause",
       "cel.bind(dynUnsignedHexInt, dyn(500u), \"dynamic hex int: %x (unsigned)\".format([dynUnsignedHexInt]))",
       "\"dynamic hex int: 1f4 (unsigned)\""},
      {"dyntype support for fixed-point formatting clause",
       "cel.bind(dynDouble, dyn(4.5), \"dynamic double: %.3f\".format([dynDouble]))",
       "\"dynamic double: 4.500\""},
      {"dyntype support for scientific notation",
       "cel.bind(dynE, dyn(2.71828), \"(dyntype) e: %e\".format([dynE]))",
       "\"(dyntype) e: 2.718280×10⁰⁰\""},
      {"dyntype NaN/infinity support for fixed-point",
       "cel.bind(dynInf, dyn(1.0/0.0), cel.bind(dynNaN, dyn(0.0/0.0), \"NaN: %f, infinity: %f\".format([dynNaN,"
       " dynInf])))",
       "\"NaN: NaN, infinity: ∞\""},
      {"dyntype support for timestamp",
       "cel.bind(dynTime, dyn(timestamp(\"2009-11-10T23:00:00Z\")), \"dyntype timestamp: "
       "%s\".format([dynTime]))",
       "\"dyntype timestamp: 2009-11-10T23:00:00Z\""},
      {"dyntype support for duration",
       "cel.bind(dynDuration, dyn(duration(\"2h25m47s\")), \"dyntype duration: %s\".format([dynDuration]))",
       "\"dyntype duration: 8747s\""},
      {"dyntype support for lists",
       "cel.bind(dynList, dyn([dyn(6), dyn(4.2), dyn(\"a string\")]), \"dyntype list: %s\".format([dynList]))",
       "\"dyntype list: [6, 4.200000, \\\"a string\\\"]\""},
      {"dyntype support for maps",
       "cel.bind(dynMap, dyn({dyn(\"strKey\"): dyn(\"x\"), dyn(true): dyn(42), dyn(6): "
       "dyn(duration(\"7m2s\"))}), \"dyntype map: %s\".format([dynMap]))",
       "\"dyntype map: {\\\"strKey\\\":\\\"x\\\", 6:duration(\\\"422s\\\"), true:42}\""},
      {"unrecognized formatting clause",
       "\"%a\".format([1])",
       "",
       "",
       "compilation failed: ERROR: <input>:1:12: could not parse formatting clause: unrecognized formatting "
       "clause \"a\"\n | \"%a\".format([1])\n | ...........^"},
      {"out of bounds arg index",
       "\"%d %d %d\".format([0, 1])",
       "",
       "",
       "compilation failed: ERROR: <input>:1:18: index 2 out of range\n | \"%d %d %d\".format([0, 1])\n | "
       ".................^"},
      {"string substitution is not allowed with binary clause",
       "\"string is %b\".format([\"abc\"])",
       "",
       "",
       "compilation failed: ERROR: <input>:1:24: error during formatting: only integers and bools can be "
       "formatted as binary, was given string\n | \"string is %b\".format([\"abc\"])\n | "
       ".......................^"},
      {"duration substitution not allowed with decimal clause",
       "\"%d\".format([duration(\"30m2s\")])",
       "",
       "",
       "compilation failed: ERROR: <input>:1:22: error during formatting: decimal clause can only be used on "
       "integers, was given google.protobuf.Duration\n | \"%d\".format([duration(\"30m2s\")])\n | "
       ".....................^"},
      {"string substitution not allowed with octal clause",
       "\"octal: %o\".format([\"a string\"])",
       "",
       "",
       "compilation failed: ERROR: <input>:1:21: error during formatting: octal clause can only be used on "
       "integers, was given string\n | \"octal: %o\".format([\"a string\"])\n | ....................^"},
      {"double substitution not allowed with hex clause",
       "\"double is %x\".format([0.5])",
       "",
       "",
       "compilation failed: ERROR: <input>:1:24: error during formatting: only integers, byte buffers, and "
       "strings can be formatted as hex, was given double\n | \"double is %x\".format([0.5])\n | "
       ".......................^"},
      {"uppercase not allowed for scientific clause",
       "\"double is %E\".format([0.5])",
       "",
       "",
       "compilation failed: ERROR: <input>:1:22: could not parse formatting clause: unrecognized formatting "
       "clause \"E\"\n | \"double is %E\".format([0.5])\n | .....................^"},
      {"null not allowed for %d",
       "\"null: %d\".format([null])",
       "",
       "",
       "compilation failed: ERROR: <input>:1:20: error during formatting: decimal clause can only be used on "
       "integers, was given null_type\n | \"null: %d\".format([null])\n | ...................^"},
      {"null not allowed for %e",
       "\"null: %e\".format([null])",
       "",
       "",
       "compilation failed: ERROR: <input>:1:20: error during formatting: scientific clause can only be used "
       "on doubles, was given null_type\n | \"null: %e\".format([null])\n | ...................^"},
      {"null not allowed for %f",
       "\"null: %f\".format([null])",
       "",
       "",
       "compilation failed: ERROR: <input>:1:20: error during formatting: fixed-point clause can only be used "
       "on doubles, was given null_type\n | \"null: %f\".format([null])\n | ...................^"},
      {"null not allowed for %x",
       "\"null: %x\".format([null])",
       "",
       "",
       "compilation failed: ERROR: <input>:1:20: error during formatting: only integers, byte buffers, and "
       "strings can be formatted as hex, was given null_type\n | \"null: %x\".format([null])\n | "
       "...................^"},
      {"null not allowed for %X",
       "\"null: %X\".format([null])",
       "",
       "",
       "compilation failed: ERROR: <input>:1:20: error during formatting: only integers, byte buffers, and "
       "strings can be formatted as hex, was given null_type\n | \"null: %X\".format([null])\n | "
       "...................^"},
      {"null not allowed for %b",
       "\"null: %b\".format([null])",
       "",
       "",
       "compilation failed: ERROR: <input>:1:20: error during formatting: only integers and bools can be "
       "formatted as binary, was given null_type\n | \"null: %b\".format([null])\n | ...................^"},
      {"null not allowed for %o",
       "\"null: %o\".format([null])",
       "",
       "",
       "compilation failed: ERROR: <input>:1:20: error during formatting: octal clause can only be used on "
       "integers, was given null_type\n | \"null: %o\".format([null])\n | ...................^"},
      {"compile-time cardinality check (too few for string)",
       "\"%s %s\".format([\"abc\"])",
       "",
       "",
       "compilation failed: ERROR: <input>:1:15: index 1 out of range\n | \"%s %s\".format([\"abc\"])\n | "
       "..............^"},
      {"compile-time cardinality check (too many for string)",
       "\"%s %s\".format([\"abc\", \"def\", \"ghi\"])",
       "",
       "",
       "compilation failed: ERROR: <input>:1:15: too many arguments supplied to string.format (expected 2, got "
       "3)\n | \"%s %s\".format([\"abc\", \"def\", \"ghi\"])\n | ..............^"},
      {"compile-time syntax check (unexpected end of string)",
       "\"filler %\".format([])",
       "",
       "",
       "compilation failed: ERROR: <input>:1:18: unexpected end of string\n | \"filler %\".format([])\n | "
       ".................^"},
      {"compile-time syntax check (unrecognized formatting clause)",
       "\"%j\".format([123])",
       "",
       "",
       "compilation failed: ERROR: <input>:1:12: could not parse formatting clause: unrecognized formatting "
       "clause \"j\"\n | \"%j\".format([123])\n | ...........^"},
      {"compile-time %d check",
       "\"int is %d\".format([5.2])",
       "",
       "",
       "compilation failed: ERROR: <input>:1:21: error during formatting: decimal clause can only be used on "
       "integers, was given double\n | \"int is %d\".format([5.2])\n | ....................^"},
      {"compile-time %f check",
       "\"double is %f\".format([true])",
       "",
       "",
       "compilation failed: ERROR: <input>:1:24: error during formatting: fixed-point clause can only be used "
       "on doubles, was given bool\n | \"double is %f\".format([true])\n | .......................^"},
      {"compile-time precision syntax check",
       "\"double is %.34\".format([5.0])",
       "",
       "",
       "compilation failed: ERROR: <input>:1:24: could not parse formatting clause: error while parsing "
       "precision: could not find end of precision specifier\n | \"double is %.34\".format([5.0])\n | "
       ".......................^"},
      {"compile-time %e check",
       "\"double is %e\".format([true])",
       "",
       "",
       "compilation failed: ERROR: <input>:1:24: error during formatting: scientific clause can only be used "
       "on doubles, was given bool\n | \"double is %e\".format([true])\n | .......................^"},
      {"compile-time %b check",
       "\"string is %b\".format([\"a string\"])",
       "",
       "",
       "compilation failed: ERROR: <input>:1:24: error during formatting: only integers and bools can be "
       "formatted as binary, was given string\n | \"string is %b\".format([\"a string\"])\n | "
       ".......................^"},
      {"compile-time %x check",
       "\"%x is a double\".format([2.5])",
       "",
       "",
       "compilation failed: ERROR: <input>:1:26: error during formatting: only integers, byte buffers, and "
       "strings can be formatted as hex, was given double\n | \"%x is a double\".format([2.5])\n | "
       ".........................^"},
      {"compile-time %X check",
       "\"%X is a double\".format([2.5])",
       "",
       "",
       "compilation failed: ERROR: <input>:1:26: error during formatting: only integers, byte buffers, and "
       "strings can be formatted as hex, was given double\n | \"%X is a double\".format([2.5])\n | "
       ".........................^"},
      {"compile-time %o check",
       "\"an octal: %o\".format([3.14])",
       "",
       "",
       "compilation failed: ERROR: <input>:1:24: error during formatting: octal clause can only be used on "
       "integers, was given double\n | \"an octal: %o\".format([3.14])\n | .......................^"},
  });
}

TEST_CASE("DynamicResources CEL format: string.format clauses, printer quirks and the validator",
          "[plugins][dynamic_resources][cel][cel_format]") {
  CheckCases({
      {"%f groups thousands (x/text en_US printer)", "\"%.2f\".format([1234567.891])", "\"1,234,567.89\""},
      {"%f keeps the exact digits of the double", "\"%.20f\".format([0.1])", "\"0.10000000000000000555\""},
      {"%f of -0.0 has no sign, of a tiny negative has",
       "\"%f %f\".format([-0.0, -0.0000001])",
       "\"0.000000 -0.000000\""},
      {"%f precision is read as uint8 minimum and int16 maximum digits",
       "[\"%.300f\".format([1.5]), \"%.257f\".format([1.0])]",
       "[\"1.50000000000000000000000000000000000000000000\", \"1.0\"]"},
      {"%e: seven significant digits and a superscript exponent",
       "\"%e %e %e\".format([1052.032911275, -0.00001, 1e100])",
       "\"1.052033×10⁰³ -1.000000×10⁻⁰⁵ 1.000000×10¹⁰⁰\""},
      {"%e: the precision is the printer's width", "\"[%.10e]\".format([1.0/0.0])", "\"[         ∞]\""},
      {"%e of NaN pads to the default width 6", "\"%e\".format([0.0/0.0])", "\"   NaN\""},
      {"a precision the printer cannot parse", "\"%.99999999f\".format([1.5])", "\"%!(NOVERB)\""},
      {"%s of doubles: shortest form; in lists: %.6f",
       "\"%s %s\".format([1e21, [1e21, -0.0]])",
       "\"1e+21 [1000000000000000000000.000000, -0.000000]\""},
      {"%s quotes strings in lists as Go's %q",
       "\"%s\".format([[\"a\\nb\\u00a0é\", b\"x\"]])",
       "\"[\\\"a\\\\nb\\\\u00a0é\\\", b\\\"x\\\"]\""},
      {"%s of maps sorts by the printed key",
       "\"%s\".format([{\"b\": 1, \"a\": [true, null], \"c\": {2: 3u}}])",
       "\"{\\\"a\\\":[true, null], \\\"b\\\":1, \\\"c\\\":{2:3}}\""},
      {"%s keeps a timestamp's offset",
       "\"%s|%s\".format([timestamp(\"2023-01-02T03:04:05+05:30\"), [timestamp(1)]])",
       "\"2023-01-02T03:04:05+05:30|[timestamp(\\\"1970-01-01T00:00:01Z\\\")]\""},
      {"%x of strings and bytes: hex of the bytes",
       "\"%x %X\".format([\"héllo\", b\"\\xff\\x00\"])",
       "\"68c3a96c6c6f FF00\""},
      {"%b %o %x of negative ints", "\"%b %o %x\".format([-5, -8, -255])", "\"-101 -10 -ff\""},
      {"list literals inside format calls need not be homogeneous",
       "\"%s\".format([[1, \"a\", 2.5]])",
       "\"[1, \\\"a\\\", 2.500000]\""},
      {"the validator sees through dyn",
       "\"%d\".format([dyn(\"x\")])",
       "",
       "error during formatting: decimal clause can only be used on integers, was given string"},
      {"a missing argument at runtime is found before the end of the string",
       "dyn(\"%\").format([])",
       "",
       "index 0 out of range"},
      {"the validator finds the end of the string first",
       "\"%\".format([])",
       "",
       "",
       "compilation failed: ERROR: <input>:1:11: unexpected end of string\n | \"%\".format([])\n | ..........^"},
      {"an unrecognized clause byte is shown as a rune",
       "\"%é\".format([1])",
       "",
       "",
       "compilation failed: ERROR: <input>:1:12: could not parse formatting clause: unrecognized formatting "
       "clause \"Ã\"\n | \"%é\".format([1])\n | ..．........^"},
      {"an out-of-range precision",
       "dyn(\"%.99999999999999999999f\").format([1.0])",
       "",
       "could not parse formatting clause: error while parsing precision: error while converting precision to "
       "integer: strconv.Atoi: parsing \"99999999999999999999\": value out of range"},
      {"attribute values are google.protobuf.Any to the validator",
       "\"%s\".format([device.attributes[\"a\"][\"b\"]]) == \"\"",
       "",
       "",
       "compilation failed: ERROR: <input>:1:36: error during formatting: string clause can only be used on "
       "strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given "
       "google.protobuf.Any\n | \"%s\".format([device.attributes[\"a\"][\"b\"]]) == \"\"\n | "
       "...................................^"},
      {"unformattable values at runtime",
       "\"%s\".format(dyn([[optional.none()]]))",
       "",
       "error during formatting: no formatting function for optional_type"},
      {"bytes must be UTF-8 for %s",
       "\"%s\".format(dyn([b\"\\xff\"]))",
       "",
       "error during formatting: could not convert argument \"invalid UTF-8 in bytes, cannot convert to "
       "string\" to string"},
      {"strings.quote is provided", "strings.quote(\"a\\\"b\\n\")", "\"\\\"a\\\\\\\"b\\\\n\\\"\""},
  });
}

TEST_CASE("DynamicResources CEL format: upstream TestFormat (format library)",
          "[plugins][dynamic_resources][cel][cel_format]") {
  CheckCases({
      {"example_usage_dns1123Label", "format.dns1123Label().validate(\"my-label-name\")", "optional.none()"},
      {"example_usage_dns1123Subdomain",
       "format.dns1123Subdomain().validate(\"apiextensions.k8s.io\")",
       "optional.none()"},
      {"example_usage_qualifiedName",
       "format.qualifiedName().validate(\"apiextensions.k8s.io/v1beta1\")",
       "optional.none()"},
      {"example_usage_dns1123LabelPrefix",
       "format.dns1123LabelPrefix().validate(\"my-label-prefix-\")",
       "optional.none()"},
      {"example_usage_dns1123SubdomainPrefix",
       "format.dns1123SubdomainPrefix().validate(\"mysubdomain.prefix.-\")",
       "optional.none()"},
      {"example_usage_dns1035LabelPrefix",
       "format.dns1035LabelPrefix().validate(\"my-label-prefix-\")",
       "optional.none()"},
      {"example_usage_uri", "format.uri().validate(\"http://example.com\")", "optional.none()"},
      {"example_usage_uuid", "format.uuid().validate(\"123e4567-e89b-12d3-a456-426614174000\")", "optional.none()"},
      {"example_usage_byte", "format.byte().validate(\"aGVsbG8=\")", "optional.none()"},
      {"example_usage_date", "format.date().validate(\"2021-01-01\")", "optional.none()"},
      {"example_usage_datetime", "format.datetime().validate(\"2021-01-01T00:00:00Z\")", "optional.none()"},
      {"dns1123Label",
       "format.dns1123Label().validate(\"contains a space\")",
       "optional.of([\"a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "
       "and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for "
       "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')\"])"},
      {"dns1123Subdomain",
       "format.dns1123Subdomain().validate(\"contains a space\")",
       "optional.of([\"a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' "
       "or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for "
       "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')\"])"},
      {"dns1035Label",
       "format.dns1035Label().validate(\"contains a space\")",
       "optional.of([\"a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with "
       "an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex "
       "used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')\"])"},
      {"qualifiedName",
       "format.qualifiedName().validate(\"contains a space\")",
       "optional.of([\"name part must consist of alphanumeric characters, '-', '_' or '.', and must start and "
       "end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
       "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')\"])"},
      {"dns1123LabelPrefix",
       "format.dns1123LabelPrefix().validate(\"contains a space-\")",
       "optional.of([\"a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "
       "and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for "
       "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')\"])"},
      {"dns1123SubdomainPrefix",
       "format.dns1123SubdomainPrefix().validate(\"contains a space-\")",
       "optional.of([\"a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' "
       "or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for "
       "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')\"])"},
      {"dns1035LabelPrefix",
       "format.dns1035LabelPrefix().validate(\"contains a space-\")",
       "optional.of([\"a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with "
       "an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex "
       "used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')\"])"},
      {"dns1123Label_Success", "format.dns1123Label().validate(\"my-label-name\")", "optional.none()"},
      {"dns1123Subdomain_Success", "format.dns1123Subdomain().validate(\"example.com\")", "optional.none()"},
      {"dns1035Label_Success", "format.dns1035Label().validate(\"my-label-name\")", "optional.none()"},
      {"qualifiedName_Success", "format.qualifiedName().validate(\"my.name\")", "optional.none()"},
      {"byte_success", "format.byte().validate(\"aGVsbG8=\")", "optional.none()"},
      {"byte_failure", "format.byte().validate(\"aGVsbG8\")", "optional.of([\"invalid base64\"])"},
      {"date_success", "format.date().validate(\"2020-01-01\")", "optional.none()"},
      {"date_failure", "format.date().validate(\"2020-01-32\")", "optional.of([\"invalid date\"])"},
      {"datetime_success", "format.datetime().validate(\"2020-01-01T00:00:00Z\")", "optional.none()"},
      {"datetime_failure",
       "format.datetime().validate(\"2020-01-32T00:00:00Z\")",
       "optional.of([\"invalid datetime\"])"},
      {"unknown_format", "format.named(\"unknown\").hasValue()", "false"},
      {"labelValue_success", "format.labelValue().validate(\"my-cool-label-Value\")", "optional.none()"},
      {"labelValue_failure",
       "format.labelValue().validate(\"my-cool-label-Value!!\\n\\n!!!\")",
       "optional.of([\"a valid label must be an empty string or consist of alphanumeric characters, '-', '_' "
       "or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or "
       "'12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')\"])"},
  });
}

TEST_CASE("DynamicResources CEL format: format library validators and values",
          "[plugins][dynamic_resources][cel][cel_format]") {
  CheckCases({
      {"dots in a label", "format.dns1123Label().validate(\"a.b\")", "optional.of([\"must not contain dots\"])"},
      {"too long and not starting with a letter",
       "format.dns1035Label().validate(\"1aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\")",
       "optional.of([\"must be no more than 63 characters\", \"a DNS-1035 label must consist of lower case "
       "alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric "
       "character (e.g. 'my-name',  or 'abc-123', regex used for validation is "
       "'[a-z]([-a-z0-9]*[a-z0-9])?')\"])"},
      {"a qualified name with a bad prefix",
       "format.qualifiedName().validate(\"Example.com/x\")",
       "optional.of([\"prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
       "characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', "
       "regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')\"])"},
      {"a qualified name with two slashes", "format.qualifiedName().validate(\"a/b/c\").value().size()", "1"},
      {"an empty prefix and name",
       "format.qualifiedName().validate(\"/\")",
       "optional.of([\"prefix part must be non-empty\", \"name part must be non-empty\", \"name part must "
       "consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
       "character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
       "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')\"])"},
      {"the prefix variants replace the last two characters of a name ending in '-'",
       "format.dns1123LabelPrefix().validate(\"a.b.-\")",
       "optional.of([\"must not contain dots\"])"},
      {"uri errors are net/url's",
       "[format.uri().validate(\"\"), format.uri().validate(\"http://a b\"), format.uri().validate(\"foo\")]",
       "[optional.of([\"parse \\\"\\\": empty url\"]), optional.of([\"parse \\\"http://a b\\\": invalid "
       "character \\\" \\\" in host name\"]), optional.of([\"parse \\\"foo\\\": invalid URI for request\"])]"},
      {"uuid accepts missing dashes and upper case",
       "[format.uuid().validate(\"123E4567E89B12D3A456426614174000\"), format.uuid().validate(\"123e4567-e89b-1"
       "2d3-a456-42661417400\")]",
       "[optional.none(), optional.of([\"does not match the UUID format\"])]"},
      {"base64 padding",
       "[format.byte().validate(\"aGk=\"), format.byte().validate(\"aG=k\"), format.byte().validate(\"\")]",
       "[optional.none(), optional.of([\"invalid base64\"]), optional.of([\"invalid base64\"])]"},
      {"date needs a real day",
       "[format.date().validate(\"2024-02-29\"), format.date().validate(\"2023-02-29\")]",
       "[optional.none(), optional.of([\"invalid date\"])]"},
      {"datetime: lower case, offsets, fractions, hour 24",
       "[format.datetime().validate(\"2020-01-01t10:00:00.5+05:30\"), format.datetime().validate(\"2020-01-01T2"
       "4:00:00Z\")]",
       "[optional.none(), optional.of([\"invalid datetime\"])]"},
      {"format.named",
       "[format.named(\"uuid\").hasValue(), format.named(\"URI\").hasValue(), format.named(\"uri\") == "
       "optional.of(format.uri())]",
       "[true, false, true]"},
      {"formats compare by name; other types are no such overload", "dyn(format.uri()) == 1", "", "no such overload"},
      {"a format is not a field holder",
       "format.uri().name == \"\"",
       "",
       "",
       "compilation failed: ERROR: <input>:1:13: unexpected failed resolution of 'kubernetes.NamedFormat'\n | "
       "format.uri().name == \"\"\n | ............^"},
      {"validate's argument is checked at runtime",
       "format.uri().validate(dyn(1))",
       "",
       "no such overload: validate(kubernetes.NamedFormat, int)"},
  });
}
