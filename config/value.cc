#include "config/value.h"

#include <charconv>
#include <cstdlib>
#include <iostream>
#include <utility>

namespace ksched::config {
namespace {

[[noreturn]] void WrongKind(const char* wanted) {
  std::cerr << "config::Value: not a " << wanted << '\n';
  std::abort();
}

template <typename T, typename Variant>
auto& Get(Variant& data, const char* wanted) {
  auto* value = std::get_if<T>(&data);
  if (value == nullptr) WrongKind(wanted);
  return *value;
}

}  // namespace

Value Value::Bool(bool value) {
  Value v;
  v.data_ = value;
  return v;
}

Value Value::Int(std::int64_t value) {
  Value v;
  v.data_ = value;
  return v;
}

Value Value::Uint(std::uint64_t value) {
  Value v;
  v.data_ = value;
  return v;
}

Value Value::Float(double value) {
  Value v;
  v.data_ = value;
  return v;
}

Value Value::String(std::string value) {
  Value v;
  v.data_ = std::move(value);
  return v;
}

Value Value::EmptyList() {
  Value v;
  v.data_ = List{};
  return v;
}

Value Value::EmptyMap() {
  Value v;
  v.data_ = Map{};
  return v;
}

bool Value::as_bool() const { return Get<bool>(data_, "bool"); }
std::int64_t Value::as_int() const { return Get<std::int64_t>(data_, "int"); }
std::uint64_t Value::as_uint() const { return Get<std::uint64_t>(data_, "uint"); }
double Value::as_float() const { return Get<double>(data_, "float"); }
const std::string& Value::as_string() const { return Get<std::string>(data_, "string"); }
const Value::List& Value::as_list() const { return Get<List>(data_, "list"); }
Value::List& Value::as_list() { return Get<List>(data_, "list"); }
const Value::Map& Value::as_map() const { return Get<Map>(data_, "map"); }
Value::Map& Value::as_map() { return Get<Map>(data_, "map"); }

const Value* Value::Find(std::string_view key) const {
  const Map* map = std::get_if<Map>(&data_);
  if (map == nullptr) return nullptr;
  for (const MapEntry& entry : *map) {
    if (entry.key == key) return &entry.value;
  }
  return nullptr;
}

Value& Value::Set(std::string_view key, Value value) {
  if (is_null()) data_ = Map{};
  Map& map = as_map();
  for (MapEntry& entry : map) {
    if (entry.key == key) {
      entry.value = std::move(value);
      return entry.value;
    }
  }
  map.push_back(MapEntry{std::string(key), std::move(value)});
  return map.back().value;
}

Value& Value::Append(Value value) {
  if (is_null()) data_ = List{};
  List& list = as_list();
  list.push_back(std::move(value));
  return list.back();
}

bool operator==(const Value& a, const Value& b) { return a.data_ == b.data_; }

Value Float32Value(float value) {
  char buffer[32];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  (void)ec;  // 32 bytes always suffice for a float
  double wide = 0;
  std::from_chars(buffer, end, wide);
  return Value::Float(wide);
}

std::string_view JsonKindName(Value::Kind kind) {
  switch (kind) {
    case Value::Kind::kNull:
      return "null";
    case Value::Kind::kBool:
      return "bool";
    case Value::Kind::kInt:
    case Value::Kind::kUint:
    case Value::Kind::kFloat:
      return "number";
    case Value::Kind::kString:
      return "string";
    case Value::Kind::kList:
      return "array";
    case Value::Kind::kMap:
      return "object";
  }
  return "value";
}

}  // namespace ksched::config
