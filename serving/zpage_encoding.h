// The documents /flagz and /statusz answer (k8s.io/apiserver/pkg/server/{flagz,statusz},
// v0.37.2) and the error Status of a refused negotiation, as a small ordered value, written the
// way apimachinery's serializers write them:
//   EncodeJson        json.Encoder: compact, Go's escaping (<, >, & as \u003c...), a newline
//   EncodeJsonPretty  json.MarshalIndent(v, "", "  "): no trailing newline
//   EncodeYaml        sigs.k8s.io/yaml JSONToYAML (goyaml.v2): keys sorted at every level, strings
//                     quoted as goyaml.v2 quotes them ('...' for indicators, "..." for what would
//                     read as another type), long scalars folded at spaces past column 80
// Object fields keep their order in JSON (Go struct order; maps are given sorted).
//
// Thread-safety: plain values and pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ksched::serving {

struct ZField;

struct ZValue {
  enum class Kind { kString, kInt, kStrings, kNull, kObject };
  Kind kind = Kind::kNull;
  std::string text;                                 // kString
  std::int64_t number = 0;                          // kInt
  std::vector<std::string> strings;                 // kStrings
  std::vector<ZField> fields;                       // kObject, in order

  static ZValue String(std::string value);
  static ZValue Int(std::int64_t value);
  static ZValue Strings(std::vector<std::string> values);
  static ZValue Null();
  static ZValue Object();
  // Appends a field (kObject only) and returns *this.
  ZValue& Add(std::string key, ZValue value);
};

// One field of an object. Not a std::pair: clang checks std::pair<std::string, ZValue>'s default
// constructor while ZValue is still incomplete and refuses the recursion.
struct ZField {
  std::string first;
  ZValue second;
};

// Go's encoding/json string literal, quotes included.
std::string GoJsonQuote(std::string_view text);

std::string EncodeJson(const ZValue& value);
std::string EncodeJsonPretty(const ZValue& value);
std::string EncodeYaml(const ZValue& value);

}  // namespace ksched::serving
