// Value: a JSON-shaped document tree (null, bool, integer, float, string, list, ordered map). The
// config layer reads YAML into it before typing anything, keeps in it the pluginConfig args of
// plugins it has no typed decoder for, and builds in it what it writes back (config/write.h).
//
// Numbers keep the distinctions upstream's decoders make (sigs.k8s.io/json with PreserveInts): an
// integer is an int64, or a uint64 when beyond int64's range; anything else is a float64. Map
// entries keep their input order; keys are unique (the YAML reader rejects duplicates).
//
// Thread-safety: a value type.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace ksched::config {

struct MapEntry;

class Value {
 public:
  enum class Kind { kNull, kBool, kInt, kUint, kFloat, kString, kList, kMap };
  using List = std::vector<Value>;
  using Map = std::vector<MapEntry>;

  Value() = default;
  static Value Bool(bool value);
  static Value Int(std::int64_t value);
  static Value Uint(std::uint64_t value);
  static Value Float(double value);
  static Value String(std::string value);
  static Value EmptyList();
  static Value EmptyMap();

  Kind kind() const noexcept { return static_cast<Kind>(data_.index()); }
  bool is_null() const noexcept { return kind() == Kind::kNull; }
  bool is_map() const noexcept { return kind() == Kind::kMap; }
  bool is_list() const noexcept { return kind() == Kind::kList; }
  bool is_string() const noexcept { return kind() == Kind::kString; }
  bool is_number() const noexcept {
    return kind() == Kind::kInt || kind() == Kind::kUint || kind() == Kind::kFloat;
  }

  // Accessors abort when the kind differs (a caller bug, not an input error).
  bool as_bool() const;
  std::int64_t as_int() const;
  std::uint64_t as_uint() const;
  double as_float() const;
  const std::string& as_string() const;
  const List& as_list() const;
  List& as_list();
  const Map& as_map() const;
  Map& as_map();

  // Map lookups; nullptr when absent (or when this is not a map).
  const Value* Find(std::string_view key) const;
  // Replaces the entry of `key` in place, or appends it. Turns a null into a map first.
  Value& Set(std::string_view key, Value value);
  // Appends to a list. Turns a null into a list first.
  Value& Append(Value value);

  friend bool operator==(const Value&, const Value&);

 private:
  std::variant<std::monostate, bool, std::int64_t, std::uint64_t, double, std::string, List, Map>
      data_;
};

struct MapEntry {
  std::string key;
  Value value;
  friend bool operator==(const MapEntry&, const MapEntry&) = default;
};

// A float32 as Go writes it (its shortest float32 digits), e.g. the qps of a client connection.
Value Float32Value(float value);

// The JSON type name Go's decoder uses in "cannot unmarshal <kind>": "string", "number", "bool",
// "array", "object", "null".
std::string_view JsonKindName(Value::Kind kind);

}  // namespace ksched::config
