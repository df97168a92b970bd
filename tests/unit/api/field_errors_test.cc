// Upstream-shaped field error messages: paths, Go %q and JSON rendering, aggregation.
// Expected strings are what Go's strconv.Quote, encoding/json and k8s.io/apimachinery's
// field.Error / errors.Aggregate produce.
#include "api/field_errors.h"

#include <catch2/catch.hpp>
#include <string>
#include <string_view>
#include <vector>

using ksched::api::FieldErrorList;
using ksched::api::FieldPath;

TEST_CASE("field paths render as field.Path.String", "[api][field_errors]") {
  CHECK(FieldPath().String().empty());
  CHECK(FieldPath().Child("key").String() == "key");
  CHECK(FieldPath().Index(0).String() == "[0]");
  CHECK(FieldPath().Index(0).Child("matchFields").Index(1).Child("values").String() ==
        "[0].matchFields[1].values");
  CHECK(FieldPath("spec").Child("containers").Index(12).Child("name").String() ==
        "spec.containers[12].name");
  CHECK(FieldPath().Child("values").Index(0).Key("kubernetes.io/os").String() ==
        "values[0][kubernetes.io/os]");
}

TEST_CASE("GoQuote is strconv.Quote", "[api][field_errors]") {
  struct Case {
    std::string in;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"", R"("")"},
      {"abc", R"("abc")"},
      {"a\"b\\c", R"("a\"b\\c")"},
      {"\a\b\f\n\r\t\v", R"("\a\b\f\n\r\t\v")"},
      {std::string("\x00\x1f\x7f", 3), R"("\x00\x1f\x7f")"},
      {"\xff\xC3", R"("\xff\xc3")"},            // invalid UTF-8, byte by byte
      {"\xC3\xA9\xE2\x82\xAC", "\"\xC3\xA9\xE2\x82\xAC\""},  // printable runes stay
      {"\xC2\x85\xC2\xA0\xC2\xAD", R"("\u0085\u00a0\u00ad")"},
      {"\xE2\x80\xA8\xEF\xBB\xBF", R"("\u2028\ufeff")"},
      {"\xF3\xA0\x80\x81", R"("\U000e0001")"},
      {"\xEF\xBF\xBD", "\"\xEF\xBF\xBD\""},  // a real U+FFFD is printable
      {"<&>", R"("<&>")"},
  };
  for (const Case& c : cases) {
    INFO(c.want);
    CHECK(ksched::api::GoQuote(c.in) == c.want);
  }
}

TEST_CASE("JsonQuote is encoding/json", "[api][field_errors]") {
  struct Case {
    std::string in;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"", R"("")"},
      {"In", R"("In")"},
      {"a\"b\\c", R"("a\"b\\c")"},
      {"\b\f\n\r\t", R"("\b\f\n\r\t")"},
      {std::string("\x00\x1f\x7f", 3), "\"\\u0000\\u001f\x7f\""},
      {"<&>", R"("\u003c\u0026\u003e")"},
      {"\xff", R"("\ufffd")"},
      {"\xC3\xA9\xE2\x80\xA8\xE2\x80\xA9", "\"\xC3\xA9\\u2028\\u2029\""},
  };
  for (const Case& c : cases) {
    INFO(c.want);
    CHECK(ksched::api::JsonQuote(c.in) == c.want);
  }
  CHECK(ksched::api::JsonStringList({}) == "null");
  const std::vector<std::string> values = {"a", "b\"c"};
  CHECK(ksched::api::JsonStringList(values) == R"(["a","b\"c"])");
}

TEST_CASE("field errors render as field.Error", "[api][field_errors]") {
  CHECK(ksched::api::InvalidValueError(FieldPath().Child("key"), R"("a b")", "detail") ==
        R"(key: Invalid value: "a b": detail)");
  CHECK(ksched::api::InvalidValueError(FieldPath().Child("key"), "null", "") ==
        "key: Invalid value: null");
  const std::vector<std::string_view> supported = {"In", "NotIn"};
  CHECK(ksched::api::UnsupportedValueError(FieldPath().Child("operator"), R"("X")", supported) ==
        R"(operator: Unsupported value: "X": supported values: "In", "NotIn")");
  CHECK(ksched::api::UnsupportedValueError(FieldPath().Child("operator"), R"("X")", {}) ==
        R"(operator: Unsupported value: "X")");
}

TEST_CASE("error lists aggregate as errors.Aggregate", "[api][field_errors]") {
  FieldErrorList errors;
  CHECK(errors.empty());
  CHECK(errors.Message().empty());
  CHECK(errors.ToStatus().ok());

  errors.Add("a: bad");
  CHECK(errors.Message() == "a: bad");
  CHECK(errors.ToStatus().code() == absl::StatusCode::kInvalidArgument);
  CHECK(errors.ToStatus().message() == "a: bad");

  errors.Add("a: bad");  // a duplicate is dropped, and one distinct message stays bare
  CHECK(errors.Message() == "a: bad");

  FieldErrorList more;
  more.Add("b: worse");
  more.Add("a: bad");
  errors.Append(more);
  CHECK(errors.size() == 4);
  CHECK(errors.Message() == "[a: bad, b: worse]");
}
