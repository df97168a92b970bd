// ReadYaml: YAML 1.1 scalar resolution as go-yaml v2 does it, duplicate keys, first document only,
// errors.
#include <catch2/catch.hpp>
#include <initializer_list>
#include <string>
#include <string_view>

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

TEST_CASE("yaml: maps come sorted by key (as upstream's YAML -> JSON through a Go map), nested values convert",
          "[config][yaml]") {
  auto value = ReadYaml("b: 1\na:\n  - x\n  - {c: [1, 2]}\n1: one\ntrue: t\n");
  REQUIRE(value.ok());
  REQUIRE(value->is_map());
  const auto& map = value->as_map();
  REQUIRE(map.size() == 4);
  CHECK(map[0].key == "1");
  CHECK(map[1].key == "a");
  CHECK(map[2].key == "b");
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

// Concatenation without std::string temporaries (GCC 12 warns falsely about their operator+).
static std::string Cat(std::initializer_list<std::string_view> parts) {
  std::string out;
  for (std::string_view part : parts) out.append(part);
  return out;
}

TEST_CASE("yaml: what go-yaml refuses is refused before yaml-cpp reads it (issue #44)", "[config][yaml]") {
  const auto error = [](const std::string& text) {
    const auto value = ReadYaml(text);
    return value.ok() ? std::string("ok") : std::string(value.status().message());
  };
  // Control characters anywhere (yaml-cpp dropped them silently: a path changed meaning).
  CHECK(error("kubeconfig: /etc/kube\x01config\n") == "yaml: control characters are not allowed");
  CHECK(error("a: \"x\x7fy\"\n") == "yaml: control characters are not allowed");
  CHECK(error("a: \xc2\x9b\n") == "yaml: control characters are not allowed");
  CHECK(error("a: b\tc\r\nd: \xc2\x85 \xc2\xa0 \xc3\xa9\n") == "ok");  // tab, CR, NEL, NBSP, other text
  // Flow collections nested past 10,000 levels, on the line where it happens.
  const std::string opens(20000, '[');
  const std::string closes(20000, ']');
  CHECK(error(Cat({"a: 1\nb: 2\nx: ", opens, closes, "\n"})) == "yaml: line 3: exceeded max depth of 10000");
  CHECK(error(Cat({"x: ", std::string(100, '['), std::string(100, ']'), "\n"})) == "ok");
  // Brackets in quoted scalars and comments do not nest.
  CHECK(error(Cat({"a: \"", opens, "\"  # ", std::string(20000, '{'), "\nb: '[['\n"})) == "ok");
  // A billion laughs: nine levels of ten aliases each.
  std::string bomb = "a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n";
  std::string previous = "a";
  for (int i = 1; i <= 8; ++i) {
    std::string name = "x";
    name.append(std::to_string(i));
    bomb.append(Cat({name, ": &", name, " ["}));
    for (int j = 0; j < 10; ++j) bomb.append(Cat({j == 0 ? "*" : ", *", previous}));
    bomb.append("]\n");
    previous = name;
  }
  CHECK(error(bomb) == "yaml: document contains excessive aliasing");
  // Modest aliasing stays allowed.
  CHECK(error("a: &a {b: 1}\nc: *a\nd: *a\n") == "ok");
}

TEST_CASE("yaml: a quoted scalar left open is go-yaml's end-of-stream error, not the rest of the file",
          "[config][yaml]") {
  const auto error = [](const std::string& text) {
    const auto value = ReadYaml(text);
    return value.ok() ? std::string("ok") : std::string(value.status().message());
  };
  // Each as upstream v1.37.2's kube-scheduler --config answers it: the line after the last line
  // break (yaml-cpp read the rest of the file into the scalar, and the profiles after it vanished).
  const std::string head = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n";
  CHECK(error(Cat({head, "clientConnection:\n  kubeconfig: \"/etc/kubernetes/scheduler.conf\nprofiles:\n",
                   "- schedulerName: a\n- schedulerName: b\n"})) == "yaml: line 8: found unexpected end of stream");
  CHECK(error(Cat({head, "clientConnection:\n  kubeconfig: '/etc/kubernetes/scheduler.conf\nprofiles:\n",
                   "- schedulerName: a\n"})) == "yaml: line 7: found unexpected end of stream");
  CHECK(error(Cat({head, "profiles:\n- schedulerName: \"a"})) == "yaml: line 4: found unexpected end of stream");
  CHECK(error("a: [\"x, y]\n") == "yaml: line 2: found unexpected end of stream");
  CHECK(error("a: 'it''s\n") == "yaml: line 2: found unexpected end of stream");

  // What is not an open quote.
  CHECK(error("a: it's\nb: \"x\"\n") == "ok");                          // inside a plain scalar
  CHECK(error("a: x # it's\n# don't\nb: 1\n") == "ok");                 // comments
  CHECK(error("a: |\n  it's \"here\n  and 'there\n\n  still\nb: 1\n") == "ok");  // a block scalar
  CHECK(error("- >-\n  it's\n- b\n") == "ok");
  CHECK(error("- key: |\n    don't\n  other: 1\n") == "ok");
  CHECK(error("a: \"two\n  lines\"\nb: 'it''s'\n") == "ok");            // multi-line and escaped quotes
  CHECK(error("a: \"x\\\"y\"\n") == "ok");
  CHECK(error("\"quoted key\": 'v'\n? 'k'\n: v\n") == "ok");
  CHECK(error("a: &anchor 'x'\nb: !!str \"y\"\nc: *anchor\n") == "ok");
  CHECK(error("a: {b: 'x', c: \"y\", d: [e, 'f']}\n") == "ok");
  CHECK(error("a: plain text\n  it's folded\nb: 1\n") == "ok");         // a plain value over two lines
  CHECK(error("image: registry.k8s.io/pause:3.10\nurl: http://x'y\n") == "ok");
  CHECK(error("--- 'x'\n") == "ok");
}

TEST_CASE("yaml: a key repeated among 200,000 is still found", "[config][yaml]") {
  std::string text;
  for (int i = 0; i < 200000; ++i) text.append(Cat({"k", std::to_string(i), ": 1\n"}));
  const auto value = ReadYaml(text);
  REQUIRE(value.ok());
  CHECK(value->as_map().size() == 200000);
  CHECK(value->as_map().back().key == "k99999");  // sorted as strings
  text.append("k5: 2\n");
  const auto repeated = ReadYaml(text);
  REQUIRE_FALSE(repeated.ok());
  CHECK(std::string(repeated.status().message()) ==
        "strict decoding error: yaml: unmarshal errors:\n  line 200001: key \"k5\" already set in map");
}
