// CEL device selectors (plugins/dynamic_resources/cel). The expected results and messages are
// those of kube-scheduler v1.34 (k8s.io/dynamic-resource-allocation@v0.34.4/cel over cel-go
// v0.26.0), checked against it expression by expression.
#include "plugins/dynamic_resources/cel/device_selector.h"

#include <catch2/catch.hpp>
#include <algorithm>
#include <atomic>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

using ksched::api::DeviceAttribute;
using ksched::api::Quantity;
using ksched::plugins::dynamic_resources::CelDevice;
using ksched::plugins::dynamic_resources::CompiledSelector;
using ksched::plugins::dynamic_resources::SelectorCache;

DeviceAttribute Int(std::int64_t v) {
  DeviceAttribute a;
  a.kind = DeviceAttribute::Kind::kInt;
  a.int_value = v;
  return a;
}
DeviceAttribute Bool(bool v) {
  DeviceAttribute a;
  a.kind = DeviceAttribute::Kind::kBool;
  a.bool_value = v;
  return a;
}
DeviceAttribute String(std::string v) {
  DeviceAttribute a;
  a.kind = DeviceAttribute::Kind::kString;
  a.string_value = std::move(v);
  return a;
}
DeviceAttribute Version(std::string v) {
  DeviceAttribute a;
  a.kind = DeviceAttribute::Kind::kVersion;
  a.string_value = std::move(v);
  return a;
}

// A device as api::Device keeps it (names sorted), viewed as a CelDevice.
struct TestDevice {
  std::string driver = "gpu.example.com";
  std::vector<std::pair<std::string, DeviceAttribute>> attributes;
  std::vector<std::pair<std::string, Quantity>> capacity;

  TestDevice& Attribute(std::string name, DeviceAttribute value) {
    attributes.emplace_back(std::move(name), std::move(value));
    std::sort(attributes.begin(), attributes.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    return *this;
  }
  TestDevice& Capacity(std::string name, std::string_view quantity) {
    capacity.emplace_back(std::move(name), *Quantity::Parse(quantity));
    std::sort(capacity.begin(), capacity.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    return *this;
  }
  CelDevice View() const { return CelDevice{driver, attributes, capacity}; }
};

TestDevice Gpu() {
  TestDevice d;
  d.Attribute("model", String("a100"))
      .Attribute("healthy", Bool(true))
      .Attribute("index", Int(3))
      .Attribute("dra.example.com/memory", Int(8))
      .Attribute("x/version", Version("1.2.3"))
      .Capacity("memory", "40Gi")
      .Capacity("dra.example.com/slices", "7");
  return d;
}

// The selector's result on `device`, as "true", "false" or "error: <message>"; compile errors as
// "compile: <message>".
std::string Eval(std::string_view expression, const TestDevice& device = Gpu()) {
  auto compiled = CompiledSelector::Compile(expression);
  if (!compiled.ok()) return "compile: " + std::string(compiled.status().message());
  absl::StatusOr<bool> matched = (*compiled)->Matches(device.View());
  if (!matched.ok()) return "error: " + std::string(matched.status().message());
  return *matched ? "true" : "false";
}

std::string CompileError(std::string_view expression) {
  auto compiled = CompiledSelector::Compile(expression);
  REQUIRE_FALSE(compiled.ok());
  CHECK(compiled.status().code() == absl::StatusCode::kInvalidArgument);
  return std::string(compiled.status().message());
}

}  // namespace

TEST_CASE("DynamicResources CEL: selectors evaluate upstream's typical device selectors",
          "[plugins][dynamic_resources][cel]") {
  CHECK(Eval(R"(device.driver == "gpu.example.com")") == "true");
  CHECK(Eval(R"(device.driver == "other.example.com")") == "false");
  CHECK(Eval(R"(device.attributes["gpu.example.com"].model == "a100")") == "true");
  CHECK(Eval(R"(device.attributes["dra.example.com"].memory >= 8)") == "true");
  CHECK(Eval(R"(device.attributes["dra.example.com"].memory > 8)") == "false");
  CHECK(Eval(R"(device.capacity["gpu.example.com"].memory.compareTo(quantity("10Gi")) >= 0)") == "true");
  CHECK(Eval(R"(device.capacity["gpu.example.com"].memory.isGreaterThan(quantity("40Gi")))") == "false");
  CHECK(Eval(R"(device.attributes["x"].version.isGreaterThan(semver("1.0.0")))") == "true");
  CHECK(Eval(R"(device.attributes["x"].version.isLessThan(semver("1.2.3")))") == "false");
  CHECK(Eval(R"(device.attributes["gpu.example.com"].healthy)") == "true");
  CHECK(Eval(R"(device.attributes["gpu.example.com"].healthy && device.attributes["gpu.example.com"].index < 4)") ==
        "true");
  CHECK(Eval("true") == "true");
}

TEST_CASE("DynamicResources CEL: unqualified attribute names belong to the driver's domain",
          "[plugins][dynamic_resources][cel]") {
  CHECK(Eval(R"(device.attributes["gpu.example.com"].index == 3)") == "true");
  CHECK(Eval(R"(device.capacity["gpu.example.com"].memory == quantity("40960Mi"))") == "true");
  CHECK(Eval(R"(device.capacity["dra.example.com"].slices == quantity("7"))") == "true");
  // An explicitly qualified name in the driver's own domain reads the same.
  TestDevice d = Gpu();
  d.Attribute("gpu.example.com/vendor", String("acme"));
  CHECK(Eval(R"(device.attributes["gpu.example.com"].vendor == "acme")", d) == "true");
  CHECK(Eval(R"(size(device.attributes["gpu.example.com"]) == 4)", d) == "true");
  CHECK(Eval(R"(size(device.attributes) == 3)") == "true");
  CHECK(Eval(R"(device.attributes.all(domain, domain in ["gpu.example.com", "dra.example.com", "x"]))") == "true");
  CHECK(Eval(R"(device.attributes["gpu.example.com"].exists(id, id == "model"))") == "true");
}

TEST_CASE("DynamicResources CEL: missing attributes are no such key errors but has() is false",
          "[plugins][dynamic_resources][cel]") {
  CHECK(Eval(R"(device.attributes["x.example.com"].foo == 1)") == "error: no such key: foo");
  CHECK(Eval(R"(device.attributes["gpu.example.com"].nope == 1)") == "error: no such key: nope");
  CHECK(Eval(R"(device.attributes["gpu.example.com"]["nope"] == 1)") == "error: no such key: nope");
  CHECK(Eval(R"(has(device.attributes["x.example.com"].foo))") == "false");
  CHECK(Eval(R"(has(device.attributes["gpu.example.com"].model))") == "true");
  // A missing domain reads as an empty map (upstream's mapper with a default)...
  CHECK(Eval(R"(size(device.attributes["x.example.com"]) == 0)") == "true");
  CHECK(Eval(R"(has(device.attributes.nowhere))") == "true");
  // ...but is not a member.
  CHECK(Eval(R"("x.example.com" in device.attributes)") == "false");
  CHECK(Eval(R"("dra.example.com" in device.attributes)") == "true");
  CHECK(Eval(R"("memory" in device.attributes["dra.example.com"])") == "true");
  CHECK(Eval(R"(device.attributes["gpu.example.com"].?nope.orValue("none") == "none")") == "true");
  CHECK(Eval(R"(device.capacity["x"].memory.isInteger())") == "error: no such key: memory");
}

TEST_CASE("DynamicResources CEL: logical operators absorb errors as cel-go does", "[plugins][dynamic_resources][cel]") {
  const std::string missing = R"(device.attributes["x.example.com"].foo == 1)";
  CHECK(Eval("false && " + missing) == "false");
  CHECK(Eval(missing + " && false") == "false");
  CHECK(Eval("true || " + missing) == "true");
  CHECK(Eval(missing + " || true") == "true");
  CHECK(Eval("true && " + missing) == "error: no such key: foo");
  CHECK(Eval(missing + " || false") == "error: no such key: foo");
  CHECK(Eval("(1 / 0 == 1) && (2 / 0 == 1)") == "error: division by zero");
  CHECK(Eval("false ? " + missing + " : true") == "true");
  CHECK(Eval("dyn(1) ? true : false") == "error: no such overload");
  CHECK(Eval("dyn(1) && true") == "error: no such overload");
  CHECK(Eval("!dyn(1)") == "error: no such overload");
}

TEST_CASE("DynamicResources CEL: macros over lists and maps", "[plugins][dynamic_resources][cel]") {
  CHECK(Eval("[1, 2, 3].all(x, x > 0)") == "true");
  CHECK(Eval("[1, 2, 3].exists(x, x == 2)") == "true");
  CHECK(Eval("[1, 2, 3].exists_one(x, x > 1)") == "false");
  CHECK(Eval("[1, 2, 3].map(x, x * 2) == [2, 4, 6]") == "true");
  CHECK(Eval("[1, 2, 3].map(x, x > 1, x * 2) == [4, 6]") == "true");
  CHECK(Eval("[1, 2, 3].filter(x, x > 1) == [2, 3]") == "true");
  CHECK(Eval(R"({"a": 1, "b": 2}.all(k, k != "c"))") == "true");
  // Errors are absorbed as by && and ||.
  CHECK(Eval("[0, 1].all(x, 1 / x > 0)") == "error: division by zero");
  CHECK(Eval("[1, 0].all(x, 1 / x < 0)") == "false");
  CHECK(Eval("[0, 1].exists(x, 1 / x > 0)") == "true");
  // Two-variable comprehensions.
  CHECK(Eval("[1, 2].all(i, v, i < v)") == "true");
  CHECK(Eval("[1, 2, 3].transformList(i, v, v * i) == [0, 2, 6]") == "true");
  CHECK(Eval(R"({"a": 1}.transformMap(k, v, v + 1) == {"a": 2})") == "true");
  CHECK(Eval(R"([3, 1, 2].sortBy(x, -x) == [3, 2, 1])") == "true");
  // cel.bind evaluates its value on first use only.
  CHECK(Eval("cel.bind(x, 1 + 1, x * x == 4)") == "true");
  CHECK(Eval("cel.bind(x, 1 / 0, true)") == "true");
  CHECK(Eval(R"(cel.bind(dra, device.attributes["dra.example.com"], dra.memory == 8))") == "true");
  // Over the device's maps.
  CHECK(Eval(R"(device.capacity.all(d, device.capacity[d].all(id, device.capacity[d][id].isInteger())))") ==
        "true");
  CHECK(Eval(R"(device.attributes["gpu.example.com"].filter(id, id.startsWith("m")) == ["model"])") == "true");
  CHECK(Eval("dyn(1).all(x, true)") == "error: got 'types.Int', expected iterable type");
  CHECK(CompileError("[1].all(1, true)") ==
        "compilation failed: ERROR: <input>:1:9: argument must be a simple name\n | [1].all(1, true)\n | ........^");
}

TEST_CASE("DynamicResources CEL: string functions", "[plugins][dynamic_resources][cel]") {
  CHECK(Eval(R"(device.attributes["gpu.example.com"].model.startsWith("a1"))") == "true");
  CHECK(Eval(R"("hello".contains("ell") && "hello".endsWith("lo"))") == "true");
  CHECK(Eval(R"(size("héllo") == 5 && "héllo".size() == 5 && size(b"héllo") == 6)") == "true");
  CHECK(Eval(R"("héllo".charAt(1) == "é")") == "true");
  CHECK(Eval(R"("hello".indexOf("l") == 2 && "hello".lastIndexOf("l") == 3)") == "true");
  CHECK(Eval(R"("HeLLo".lowerAscii() == "hello" && "ab".upperAscii() == "AB")") == "true");
  CHECK(Eval(R"("a.b.c".replace(".", "/") == "a/b/c" && "a.b.c".replace(".", "/", 1) == "a/b.c")") == "true");
  CHECK(Eval(R"("a,b,c".split(",") == ["a", "b", "c"] && "a,b,c".split(",", 2) == ["a", "b,c"])") == "true");
  CHECK(Eval(R"("hello".substring(1, 3) == "el" && "  hi  ".trim() == "hi")") == "true");
  CHECK(Eval(R"(["a", "b"].join("-") == "a-b")") == "true");
  CHECK(Eval(R"("hello".substring(3, 1) == "")") == "error: invalid substring range. start: 3, end: 1");
  CHECK(Eval(R"("hello".charAt(6) == "")") == "error: index out of range: 6");
  CHECK(Eval(R"(string(1.5) == "1.5" && string(1000000.0) == "1e+06" && string(42) == "42")") == "true");
  CHECK(Eval(R"(int("42") + int(" 1") == 43)") == "compile: program instantiation failed: type conversion error from "
                                                       "'string' to 'int'");
}

TEST_CASE("DynamicResources CEL: regular expressions use RE2 with Go's messages", "[plugins][dynamic_resources][cel]") {
  CHECK(Eval(R"(device.attributes["gpu.example.com"].model.matches("^a[0-9]+$"))") == "true");
  CHECK(Eval(R"(matches("abc", "b"))") == "true");
  CHECK(Eval(R"("abc123".find("[0-9]+") == "123")") == "true");
  CHECK(Eval(R"("a1b22c333".findAll("[0-9]+") == ["1", "22", "333"])") == "true");
  CHECK(Eval(R"("a1b22c333".findAll("[0-9]+", 2) == ["1", "22"])") == "true");
  CHECK(Eval(R"("abc".findAll("x*") == ["", "", "", ""])") == "true");
  CHECK(CompileError(R"("abc".matches("("))") ==
        "compilation failed: ERROR: <input>:1:15: invalid matches argument\n | \"abc\".matches(\"(\")\n"
        " | ..............^");
  CHECK(CompileError(R"("abc".find("(") == "")") ==
        "program instantiation failed: error parsing regexp: missing closing ): `(`");
  CHECK(Eval(R"("abc".matches(device.attributes["gpu.example.com"].model + "("))") ==
        "error: error parsing regexp: missing closing ): `a100(`");
  CHECK(Eval(R"(device.attributes["dra.example.com"].memory.matches("a"))") == "error: no such overload");
}

TEST_CASE("DynamicResources CEL: quantity library", "[plugins][dynamic_resources][cel]") {
  CHECK(Eval(R"(quantity("1Gi") == quantity("1024Mi"))") == "true");
  CHECK(Eval(R"(quantity("1.5").compareTo(quantity("1500m")) == 0)") == "true");
  CHECK(Eval(R"(quantity("5").add(2) == quantity("7") && quantity("5").sub(quantity("1")) == quantity("4"))") ==
        "true");
  CHECK(Eval(R"(sign(quantity("-1")) == -1)") == "true");
  CHECK(Eval(R"(isQuantity("1.3G") && !isQuantity("1,3G"))") == "true");
  CHECK(Eval(R"(quantity("50k").asInteger() == 50000 && quantity("1500m").asApproximateFloat() == 1.5)") == "true");
  CHECK(Eval(R"(quantity("1500m").isInteger())") == "false");
  CHECK(Eval(R"(quantity("1500m").asInteger() == 1)") == "error: cannot convert value to integer");
  CHECK(Eval(R"(quantity("200K").isInteger())") == "error: unable to parse quantity's suffix");
  // sign() is a global function upstream, whatever its documentation says.
  CHECK(CompileError(R"(quantity("1").sign() == 1)") ==
        "compilation failed: ERROR: <input>:1:19: found no matching overload for 'sign' applied to "
        "'kubernetes.Quantity.()'\n | quantity(\"1\").sign() == 1\n | ..................^");
  CHECK(Eval(R"(dyn(quantity("1")) == 1)") == "error: no such overload");
  CHECK(Eval(R"(1 == dyn(quantity("1")))") == "false");
}

TEST_CASE("DynamicResources CEL: semver library and version attributes", "[plugins][dynamic_resources][cel]") {
  CHECK(Eval(R"(semver("1.2.3").major() == 1 && semver("1.2.3").minor() == 2 && semver("1.2.3").patch() == 3)") ==
        "true");
  CHECK(Eval(R"(semver("1.2.3-alpha").isLessThan(semver("1.2.3")))") == "true");
  CHECK(Eval(R"(semver("v1.2", true) == semver("1.2.0") && isSemver("01.2.3", true) && !isSemver("1.2"))") ==
        "true");
  CHECK(Eval(R"(semver("1.0") == semver("1.0.0"))") == "error: No Major.Minor.Patch elements found");
  CHECK(Eval(R"(device.attributes["x"].version.compareTo(semver("1.2.3")) == 0)") == "true");
  // Upstream converts every attribute first: a bad version fails any selector on the device.
  TestDevice bad = Gpu();
  bad.Attribute("driverVersion", Version("01.0.0"));
  CHECK(Eval("true", bad) ==
        "error: attribute driverVersion: parse semantic version: Major number must not contain leading zeroes \"01\"");
}

TEST_CASE("DynamicResources CEL: lists sets and optionals", "[plugins][dynamic_resources][cel]") {
  CHECK(Eval("[1, 2, 3].isSorted() && [1, 2, 3].sum() == 6 && [1, 5, 3].max() == 5 && [1, 5, 3].min() == 1") ==
        "true");
  CHECK(Eval("[1, 2, 1].indexOf(1) == 0 && [1, 2, 1].lastIndexOf(1) == 2") == "true");
  CHECK(Eval("[].max() == 1") == "error: max called on empty list");
  CHECK(Eval("[[1], [2, 3]].flatten() == [1, 2, 3] && [3, 1, 2].sort() == [1, 2, 3]") == "true");
  CHECK(Eval("lists.range(3) == [0, 1, 2] && [1, 2, 1].distinct() == [1, 2] && [1, 2, 3].slice(1, 2) == [2]") ==
        "true");
  CHECK(Eval("sets.contains([1, 2], [2]) && sets.equivalent([1, 2], [2, 1, 1]) && !sets.intersects([1], [3])") ==
        "true");
  CHECK(Eval("1 in [1, 2] && !(3 in [1, 2]) && 1.0 in [1]") ==
        "compile: compilation failed: ERROR: <input>:1:38: found no matching overload for '@in' applied to "
        "'(double, list(int))'\n | 1 in [1, 2] && !(3 in [1, 2]) && 1.0 in [1]\n"
        " | .....................................^");
  CHECK(Eval("dyn(1.0) in [1]") == "true");
  CHECK(Eval("[1, 2, 3][5] == 1") == "error: index out of bounds: 5");
  CHECK(Eval(R"({"a": 1}["b"] == 1)") == "error: no such key: b");
  CHECK(Eval(R"({"a": 1}.?b.orValue(0) == 0 && [1, 2][?1].orValue(0) == 2)") == "true");
  CHECK(Eval("optional.none().value() == 1") == "error: optional.none() dereference");
  CHECK(Eval("[?optional.of(1), ?optional.none(), 3] == [1, 3]") == "true");
  CHECK(Eval("optional.of(1).optMap(x, x + 1).value() == 2") == "true");
}

TEST_CASE("DynamicResources CEL: integer overflow and division are errors", "[plugins][dynamic_resources][cel]") {
  CHECK(Eval("9223372036854775807 + 1 > 0") == "error: integer overflow");
  CHECK(Eval(R"(device.attributes["dra.example.com"].memory * 9223372036854775807 > 0)") ==
        "error: integer overflow");
  CHECK(Eval("-9223372036854775808 == -9223372036854775807 - 1") == "true");
  CHECK(Eval("-(-9223372036854775808) > 0") == "error: integer overflow");
  CHECK(Eval("18446744073709551615u + 1u > 0u") == "error: unsigned integer overflow");
  CHECK(Eval("1u - 2u > 0u") == "error: unsigned integer overflow");
  CHECK(Eval("1 / 0 == 1") == "error: division by zero");
  CHECK(Eval("1 % 0 == 1") == "error: modulus by zero");
  CHECK(Eval("1.0 / 0.0 > 1e308") == "true");
  // Conversions of constants fold at compile time.
  CHECK(Eval("int(1e20) > 0") == "compile: program instantiation failed: integer overflow");
  CHECK(Eval("uint(-1) > 0u") == "compile: program instantiation failed: unsigned integer overflow");
  CHECK(Eval("9223372036854775808 == 1") ==
        "compile: compilation failed: ERROR: <input>:1:1: invalid int literal\n | 9223372036854775808 == 1\n | ^");
}

TEST_CASE("DynamicResources CEL: equality is heterogeneous and ordering needs comparable operands",
          "[plugins][dynamic_resources][cel]") {
  CHECK(Eval("dyn(1) == 1.0 && dyn(1u) == 1 && dyn(1) < 1.5 && dyn(1u) > -1") == "true");
  CHECK(Eval(R"(device.attributes["gpu.example.com"].model == 1)") == "false");
  CHECK(Eval(R"(device.attributes["dra.example.com"].memory == 8.0)") == "true");
  CHECK(Eval(R"(1 < device.attributes["gpu.example.com"].model)") == "error: no such overload");
  CHECK(Eval("dyn([]) < 1") == "error: no such overload: _<_");
  CHECK(Eval(R"(dyn("a") + 1 == 1)") == "error: no such overload");
  CHECK(Eval("dyn(0.0 / 0.0) < 1") == "error: NaN values cannot be ordered");
  CHECK(Eval(R"(dyn([1, 2]) == [1, 2] && dyn({"a": 1}) == {"a": 1.0} && null == null && dyn(null) != 1)") == "true");
  CHECK(Eval("type(1) == int && type(device) == map && type(quantity(\"1\")) != int") == "true");
}

TEST_CASE("DynamicResources CEL: literals", "[plugins][dynamic_resources][cel]") {
  CHECK(Eval("0x1F == 31 && 0x1Fu == 31u && 1e3 == 1000.0 && .5 == 0.5") == "true");
  CHECK(Eval(R"("\x41\u00e9\101" == "Aé\101")") == "true");
  CHECK(Eval(R"('''triple "quoted"''' == 'triple "quoted"' && r"raw\n" == "raw\\n")") == "true");
  CHECK(Eval(R"(b"\xff" == b"\377" && bytes("abc") == b"abc" && string(b"abc") == "abc")") == "true");
  CHECK(Eval("1 == 1 // a comment") == "true");
  CHECK(Eval("--1 == 1 && ---1 == -1 && !!true") == "true");
}

TEST_CASE("DynamicResources CEL: syntax errors carry cel-go's location and message",
          "[plugins][dynamic_resources][cel]") {
  CHECK(CompileError("1 +") ==
        "compilation failed: ERROR: <input>:1:4: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', "
        "'-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | 1 +\n | ...^");
  CHECK(CompileError("(1") ==
        "compilation failed: ERROR: <input>:1:3: Syntax error: missing ')' at '<EOF>'\n | (1\n | ..^");
  CHECK(CompileError("1 2") ==
        "compilation failed: ERROR: <input>:1:3: Syntax error: extraneous input '2' expecting <EOF>\n | 1 2\n | ..^");
  CHECK(CompileError("device.") ==
        "compilation failed: ERROR: <input>:1:8: Syntax error: no viable alternative at input '.'\n | device.\n"
        " | .......^");
  CHECK(CompileError("if") == "compilation failed: ERROR: <input>:1:1: reserved identifier: if\n | if\n | ^");
  // The first error only (upstream may list more after recovering).
  CHECK(CompileError("1 # 2") ==
        "compilation failed: ERROR: <input>:1:3: Syntax error: token recognition error at: '#'\n | 1 # 2\n | ..^");
  // Columns count code points; wide characters are marked as cel-go does.
  CHECK(CompileError("\"é\" == \"é\" && bar") ==
        "compilation failed: ERROR: <input>:1:15: undeclared reference to 'bar' (in container '')\n"
        " | \"é\" == \"é\" && bar\n | .\uff0e......\uff0e.....^");
  CHECK(CompileError("true &&\n  foo") ==
        "compilation failed: ERROR: <input>:2:3: undeclared reference to 'foo' (in container '')\n |   foo\n | ..^");
}

TEST_CASE("DynamicResources CEL: checker errors for undeclared references fields and overloads",
          "[plugins][dynamic_resources][cel]") {
  CHECK(CompileError("foo == 1") ==
        "compilation failed: ERROR: <input>:1:1: undeclared reference to 'foo' (in container '')\n | foo == 1\n | ^");
  CHECK(CompileError("device.foo") ==
        "compilation failed: ERROR: <input>:1:7: undefined field 'foo'\n | device.foo\n | ......^");
  CHECK(CompileError("1.foo == 1") ==
        "compilation failed: ERROR: <input>:1:2: type 'int' does not support field selection\n | 1.foo == 1\n | .^");
  CHECK(CompileError(R"(true ? 1 : "a")") ==
        "compilation failed: ERROR: <input>:1:6: found no matching overload for '_?_:_' applied to '(bool, int, "
        "string)'\n | true ? 1 : \"a\"\n | .....^");
  CHECK(CompileError("1.0 == 1") ==
        "compilation failed: ERROR: <input>:1:5: found no matching overload for '_==_' applied to '(double, int)'\n"
        " | 1.0 == 1\n | ....^");
  CHECK(CompileError(R"([1, device.attributes["d"].i] == [])") ==
        "compilation failed: ERROR: <input>:1:27: expected type 'int' but found 'any'\n"
        " | [1, device.attributes[\"d\"].i] == []\n | ..........................^");
  // Several issues are reported together, in source order.
  CHECK(CompileError("a == b") ==
        "compilation failed: ERROR: <input>:1:1: undeclared reference to 'a' (in container '')\n | a == b\n | ^\n"
        "ERROR: <input>:1:6: undeclared reference to 'b' (in container '')\n | a == b\n | .....^");
}

TEST_CASE("DynamicResources CEL: results that are not bool", "[plugins][dynamic_resources][cel]") {
  CHECK(CompileError("device.driver") == "must evaluate to bool or the unknown type, not string");
  CHECK(CompileError("dyn(true)") == "must evaluate to bool or the unknown type, not dyn");
  CHECK(CompileError(R"(device.attributes["dra.example.com"].memory + 1)") ==
        "must evaluate to bool or the unknown type, not int");
  CHECK(CompileError("[1]") == "must evaluate to bool or the unknown type, not list(int)");
  // An attribute is of the unknown type: only its value can tell.
  CHECK(Eval(R"(device.attributes["dra.example.com"].memory)") ==
        "error: CEL result of type int could not be converted to bool: unsupported type conversion from 'int' to bool");
  CHECK(Eval(R"(device.attributes["gpu.example.com"].model)") ==
        "error: CEL result of type string could not be converted to bool: unsupported native conversion from string "
        "to 'bool'");
}

TEST_CASE("DynamicResources CEL: rejects expressions nested too deeply", "[plugins][dynamic_resources][cel]") {
  auto nested = [](std::size_t n) { return std::string(n, '(') + "true" + std::string(n, ')'); };
  CHECK(Eval(nested(249)) == "true");
  CHECK(CompileError(nested(250)) ==
        "compilation failed: ERROR: <input>:-1:0: expression recursion limit exceeded: 250");
  CHECK(CompileError(nested(100000)) ==
        "compilation failed: ERROR: <input>:-1:0: expression code point size exceeds limit: size: 200004, "
        "limit 100000");
  auto sum = [](int n) {
    std::string s = "1";
    for (int i = 1; i < n; ++i) s += " + 1";
    return s + " > 0";
  };
  CHECK(Eval(sum(250)) == "true");
  CHECK(CompileError(sum(251)) == "compilation failed: ERROR: <input>:-1:0: max recursion depth exceeded");
  // && and || chains are balanced trees, so long ones are fine.
  std::string chain = "true";
  for (int i = 0; i < 5000; ++i) chain += " && true";
  CHECK(Eval(chain) == "true");
}

TEST_CASE("DynamicResources CEL: the format and time libraries are provided", "[plugins][dynamic_resources][cel]") {
  // (The url, ip and cidr libraries: dynamic_resources_cel_net_test.cc; timestamps, durations,
  // string.format and the format library: dynamic_resources_cel_time_format_test.cc.)
  CHECK(Eval(R"(format.dns1123Label().validate("x") == optional.none())") == "true");
  CHECK(Eval(R"(duration("1h") > duration("1m"))") == "true");
}

TEST_CASE("DynamicResources CEL: evaluation stops at the work budget", "[plugins][dynamic_resources][cel]") {
  CHECK(Eval("lists.range(2000).all(i, lists.range(2000).all(j, true))") ==
        "error: operation cancelled: actual cost limit exceeded");
  // Even where an || would absorb an error, as upstream's cost limit interrupts the evaluation.
  CHECK(Eval("lists.range(2000).all(i, lists.range(2000).all(j, true)) || true") ==
        "error: operation cancelled: actual cost limit exceeded");
  CHECK(Eval("lists.range(100).all(i, lists.range(100).all(j, true))") == "true");
}

TEST_CASE("DynamicResources CEL: compiled selectors evaluate concurrently", "[plugins][dynamic_resources][cel]") {
  auto compiled = CompiledSelector::Compile(
      R"(device.attributes["gpu.example.com"].model == "a100" &&)"
      R"( [1, 2, 3].exists(x, x == device.attributes["gpu.example.com"].index))");
  REQUIRE(compiled.ok());
  CHECK((*compiled)->expression().find("a100") != std::string::npos);
  const TestDevice matching = Gpu();
  TestDevice other = Gpu();
  for (auto& [name, value] : other.attributes) {
    if (name == "index") value = Int(7);
  }
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 500; ++i) {
        if ((*compiled)->Matches(matching.View()) != absl::StatusOr<bool>(true)) ++mismatches;
        if ((*compiled)->Matches(other.View()) != absl::StatusOr<bool>(false)) ++mismatches;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  CHECK(mismatches == 0);
}

TEST_CASE("DynamicResources CEL: selector cache returns the same compiled selector",
          "[plugins][dynamic_resources][cel]") {
  SelectorCache cache(2);
  auto first = cache.GetOrCompile("device.driver == \"a\"");
  REQUIRE(first.ok());
  auto again = cache.GetOrCompile("device.driver == \"a\"");
  REQUIRE(again.ok());
  CHECK(first->get() == again->get());

  // Compile errors are kept too.
  auto error = cache.GetOrCompile("device.driver");
  REQUIRE_FALSE(error.ok());
  CHECK(error.status().message() == "must evaluate to bool or the unknown type, not string");
  auto error_again = cache.GetOrCompile("device.driver");
  CHECK(error_again.status() == error.status());

  // Two entries: "a" was used before the error, so it is evicted by a third expression...
  auto third = cache.GetOrCompile("device.driver == \"c\"");
  REQUIRE(third.ok());
  auto recompiled = cache.GetOrCompile("device.driver == \"a\"");
  REQUIRE(recompiled.ok());
  CHECK(recompiled->get() != first->get());
  // ...and the most recently used entry survives.
  auto third_again = cache.GetOrCompile("device.driver == \"c\"");
  REQUIRE(third_again.ok());
  CHECK(third_again->get() == third->get());
}

TEST_CASE("DynamicResources CEL: selector cache is safe to share between threads",
          "[plugins][dynamic_resources][cel]") {
  SelectorCache cache;
  std::vector<std::thread> threads;
  std::vector<const CompiledSelector*> seen(8, nullptr);
  for (std::size_t t = 0; t < seen.size(); ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) {
        auto compiled = cache.GetOrCompile("device.attributes[\"gpu.example.com\"].index == " + std::to_string(i % 12));
        if (compiled.ok() && i == 49) seen[t] = compiled->get();
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (const CompiledSelector* selector : seen) CHECK(selector != nullptr);
  auto compiled = cache.GetOrCompile("device.attributes[\"gpu.example.com\"].index == 3");
  REQUIRE(compiled.ok());
  CHECK((*compiled)->Matches(Gpu().View()) == absl::StatusOr<bool>(true));
}
