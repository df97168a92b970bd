// ReadYaml: YAML 1.1 scalar resolution as go-yaml v2 does it, duplicate keys, first document only,
// errors.
#include <catch2/catch.hpp>
#include <string>

#include "config/value.h"
#include "config/yaml_reader.h"

namespace {

using ksched::config::ReadYaml;
using ksched::config::Value;

Value Scalar(const std::string& text) {
  auto value = ReadYaml("v: " + text);
  REQUIRE(value.ok());
  const Value* v = value->Find("v");
  REQUIRE(v != nullptr);
  return *v;
}

TEST_CASE("yaml: plain scalars resolve by YAML 1.1 rules", "[config][yaml]") {
  struct Case {
    const char* text;
    Value want;
  };
  const Case cases[] = {
      {"", Value()},
      {"~", Value()},
      {"null", Value()},
      {"Null", Value()},
      {"NULL", Value()},
      {"true", Value::Bool(true)},
      {"yes", Value::Bool(true)},
      {"Y", Value::Bool(true)},
      {"on", Value::Bool(true)},
      {"False", Value::Bool(false)},
      {"no", Value::Bool(false)},
      {"n", Value::Bool(false)},
      {"OFF", Value::Bool(false)},
      {"10", Value::Int(10)},
      {"-7", Value::Int(-7)},
      {"+5", Value::Int(5)},
      {"1_000", Value::Int(1000)},
      {"0777", Value::Int(511)},
      {"0x10", Value::Int(16)},
      {"0b11", Value::Int(3)},
      {"0o17", Value::Int(15)},
      {"9223372036854775807", Value::Int(INT64_MAX)},
      {"-9223372036854775808", Value::Int(INT64_MIN)},
      {"9223372036854775808", Value::Uint(9223372036854775808ULL)},
      {"100000000000000000000000", Value::Float(1e23)},
      {"1.5", Value::Float(1.5)},
      {".5", Value::Float(0.5)},
      {"5.", Value::Float(5.0)},
      {"1e3", Value::Float(1000.0)},
      {"-2.5E-3", Value::Float(-0.0025)},
      {"2001-12-14", Value::String("2001-12-14")},
      {"1:20", Value::String("1:20")},
      {"0x", Value::String("0x")},
      {"-a", Value::String("-a")},
      {"yess", Value::String("yess")},
      {"\"10\"", Value::String("10")},
      {"'true'", Value::String("true")},
      {"!!str 10", Value::String("10")},
      {"\"\"", Value::String("")},
      {"http://a:9090", Value::String("http://a:9090")},
  };
  for (const Case& c : cases) {
    INFO("text: " << c.text);
    CHECK(Scalar(c.text) == c.want);
  }
}

TEST_CASE("yaml: maps keep their order, nested values convert", "[config][yaml]") {
  auto value = ReadYaml("b: 1\na:\n  - x\n  - {c: [1, 2]}\n1: one\ntrue: t\n");
  REQUIRE(value.ok());
  REQUIRE(value->is_map());
  const auto& map = value->as_map();
  REQUIRE(map.size() == 4);
  CHECK(map[0].key == "b");
  CHECK(map[1].key == "a");
  CHECK(map[2].key == "1");
  CHECK(map[3].key == "true");
  const Value* a = value->Find("a");
  REQUIRE(a != nullptr);
  REQUIRE(a->as_list().size() == 2);
  CHECK(a->as_list()[0] == Value::String("x"));
  CHECK(a->as_list()[1].Find("c")->as_list()[1] == Value::Int(2));
}

TEST_CASE("yaml: a repeated key is a strict error naming each line", "[config][yaml]") {
  auto value = ReadYaml("a: 1\nb:\n  c: 1\n  c: 2\na: 3\n");
  REQUIRE_FALSE(value.ok());
  CHECK(std::string(value.status().message()) ==
        "strict decoding error: yaml: unmarshal errors:\n"
        "  line 4: key \"c\" already set in map\n"
        "  line 5: key \"a\" already set in map");
}

TEST_CASE("yaml: only the first document is read, empty text is null", "[config][yaml]") {
  auto value = ReadYaml("a: 1\n---\nb: 2\n");
  REQUIRE(value.ok());
  CHECK(value->Find("a") != nullptr);
  CHECK(value->Find("b") == nullptr);
  auto empty = ReadYaml("");
  REQUIRE(empty.ok());
  CHECK(empty->is_null());
  auto comment = ReadYaml("# nothing\n");
  REQUIRE(comment.ok());
  CHECK(comment->is_null());
}

TEST_CASE("yaml: syntax errors name the line, .inf has no JSON form", "[config][yaml]") {
  auto bad = ReadYaml("a: b\nprofiles:\n  - a: b\n   c: d\n");
  REQUIRE_FALSE(bad.ok());
  CHECK(std::string(bad.status().message()).rfind("yaml: line 4: ", 0) == 0);
  auto inf = ReadYaml("a: .inf\n");
  REQUIRE_FALSE(inf.ok());
  CHECK(std::string(inf.status().message()) == "json: unsupported value: +Inf");
}

}  // namespace
