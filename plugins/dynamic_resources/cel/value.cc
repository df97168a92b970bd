#include "plugins/dynamic_resources/cel/value.h"

#include <charconv>
#include <cmath>
#include <limits>

#include "plugins/dynamic_resources/cel/device_view.h"
#include "plugins/dynamic_resources/cel/library_format.h"
#include "plugins/dynamic_resources/cel/time_zone.h"

namespace ksched::plugins::dynamic_resources::cel {

static_assert(sizeof(Value) == 48, "timestamps keep their offset and nanoseconds in Value's padding");

namespace {

constexpr double kTwoTo63 = 9223372036854775808.0;   // float64(math.MaxInt64)
constexpr double kTwoTo64 = 18446744073709551616.0;  // float64(math.MaxUint64)

int Sign3(bool less, bool greater) { return less ? -1 : (greater ? 1 : 0); }

int CompareDouble(double a, double b) { return Sign3(a < b, a > b); }
int CompareDoubleInt(double d, std::int64_t i) {
  if (d < -kTwoTo63) return -1;
  if (d > kTwoTo63) return 1;
  return CompareDouble(d, static_cast<double>(i));
}
int CompareDoubleUint(double d, std::uint64_t u) {
  if (d < 0) return -1;
  if (d > kTwoTo64) return 1;
  return CompareDouble(d, static_cast<double>(u));
}
int CompareIntUint(std::int64_t i, std::uint64_t u) {
  if (i < 0 || u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return -1;
  const std::int64_t diff = i - static_cast<std::int64_t>(u);
  return Sign3(diff < 0, diff > 0);
}

}  // namespace

bool SameMapKey(const Value& a, const Value& b) {
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case ValueKind::kBool: return a.bool_value() == b.bool_value();
    case ValueKind::kInt: return a.int_value() == b.int_value();
    case ValueKind::kUint: return a.uint_value() == b.uint_value();
    case ValueKind::kDouble: return a.double_value() == b.double_value();
    case ValueKind::kString:
    case ValueKind::kBytes: return a.text() == b.text();
    case ValueKind::kNull: return true;
    default: return EqualBool(a, b);
  }
}

namespace {

const Value* FindLiteral(const MapData& map, const Value& key) {
  for (const auto& [k, v] : map.entries) {
    if (SameMapKey(k, key)) return &v;
  }
  return nullptr;
}

// refValMapAccessor.Find: the key itself, then its numeric equivalents.
const Value* FindLiteralNumeric(const MapData& map, const Value& key) {
  if (const Value* found = FindLiteral(map, key); found != nullptr) return found;
  switch (key.kind()) {
    case ValueKind::kDouble: {
      const double d = key.double_value();
      if (d >= -kTwoTo63 && d < kTwoTo63 && d == std::trunc(d)) {
        if (const Value* found = FindLiteral(map, Value::Int(static_cast<std::int64_t>(d))); found != nullptr) {
          return found;
        }
      }
      if (d >= 0 && d < kTwoTo64 && d == std::trunc(d)) {
        return FindLiteral(map, Value::Uint(static_cast<std::uint64_t>(d)));
      }
      return nullptr;
    }
    case ValueKind::kInt:
      if (key.int_value() >= 0) return FindLiteral(map, Value::Uint(static_cast<std::uint64_t>(key.int_value())));
      return nullptr;
    case ValueKind::kUint:
      if (key.uint_value() <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
        return FindLiteral(map, Value::Int(static_cast<std::int64_t>(key.uint_value())));
      }
      return nullptr;
    default:
      return nullptr;
  }
}

}  // namespace

Value Value::Bool(bool value) {
  Value v;
  v.kind_ = ValueKind::kBool;
  v.b_ = value;
  return v;
}
Value Value::Int(std::int64_t value) {
  Value v;
  v.kind_ = ValueKind::kInt;
  v.i_ = value;
  return v;
}
Value Value::Uint(std::uint64_t value) {
  Value v;
  v.kind_ = ValueKind::kUint;
  v.u_ = value;
  return v;
}
Value Value::Double(double value) {
  Value v;
  v.kind_ = ValueKind::kDouble;
  v.d_ = value;
  return v;
}
Value Value::BorrowedString(std::string_view value) {
  Value v;
  v.kind_ = ValueKind::kString;
  v.text_ = value;
  return v;
}
Value Value::String(std::string value) {
  auto owned = std::make_shared<const std::string>(std::move(value));
  Value v;
  v.kind_ = ValueKind::kString;
  v.text_ = *owned;
  v.owner_ = std::move(owned);
  return v;
}
Value Value::BorrowedBytes(std::string_view value) {
  Value v = BorrowedString(value);
  v.kind_ = ValueKind::kBytes;
  return v;
}
Value Value::Bytes(std::string value) {
  Value v = String(std::move(value));
  v.kind_ = ValueKind::kBytes;
  return v;
}
Value Value::List(std::vector<Value> elements) {
  return List(std::make_shared<const ListData>(ListData{std::move(elements)}));
}
Value Value::List(std::shared_ptr<const ListData> list) {
  Value v;
  v.kind_ = ValueKind::kList;
  v.p_ = list.get();
  v.owner_ = std::move(list);
  return v;
}
Value Value::Map(std::shared_ptr<const MapData> map) {
  Value v;
  v.kind_ = ValueKind::kMap;
  v.map_rep_ = MapRep::kLiteral;
  v.p_ = map.get();
  v.owner_ = std::move(map);
  return v;
}
Value Value::DeviceMap(MapRep rep, const CelDevice* device, std::string_view domain) {
  Value v;
  v.kind_ = ValueKind::kMap;
  v.map_rep_ = rep;
  v.p_ = device;
  v.text_ = domain;
  return v;
}
Value Value::Type(std::string_view static_name) {
  Value v;
  v.kind_ = ValueKind::kType;
  v.text_ = static_name;
  return v;
}
Value Value::Optional(Value value) {
  auto owned = std::make_shared<const Value>(std::move(value));
  Value v;
  v.kind_ = ValueKind::kOptional;
  v.p_ = owned.get();
  v.owner_ = std::move(owned);
  return v;
}
Value Value::OptionalNone() {
  Value v;
  v.kind_ = ValueKind::kOptional;
  v.p_ = nullptr;
  return v;
}
Value Value::BorrowedQuantity(const api::Quantity* quantity) {
  Value v;
  v.kind_ = ValueKind::kQuantity;
  v.p_ = quantity;
  return v;
}
template <typename T>
Value Value::Boxed(ValueKind kind, T object) {
  auto owned = std::make_shared<const T>(std::move(object));
  Value v;
  v.kind_ = kind;
  v.p_ = owned.get();
  v.owner_ = std::move(owned);
  return v;
}
Value Value::Quantity(api::Quantity quantity) { return Boxed(ValueKind::kQuantity, std::move(quantity)); }
Value Value::Semver(cel::Semver version) { return Boxed(ValueKind::kSemver, std::move(version)); }
Value Value::IP(IPAddr address) { return Boxed(ValueKind::kIP, address); }
Value Value::CIDR(IPPrefix prefix) { return Boxed(ValueKind::kCIDR, prefix); }
Value Value::URL(Url url) { return Boxed(ValueKind::kURL, std::move(url)); }
namespace {
constexpr std::int16_t kLocalOffset = std::numeric_limits<std::int16_t>::min();
}  // namespace

Value Value::Timestamp(const cel::Timestamp& t) {
  Value v;
  v.kind_ = ValueKind::kTimestamp;
  v.i_ = t.seconds;
  v.nanos_ = t.nanos;
  v.offset_minutes_ = t.local ? kLocalOffset : static_cast<std::int16_t>(t.offset_seconds / 60);
  return v;
}

cel::Timestamp Value::timestamp() const {
  if (offset_minutes_ == kLocalOffset) {
    return {i_, nanos_, static_cast<std::int32_t>(LocalOffsetAt(i_)), true};
  }
  return {i_, nanos_, std::int32_t{offset_minutes_} * 60, false};
}
Value Value::Duration(std::int64_t nanos) {
  Value v;
  v.kind_ = ValueKind::kDuration;
  v.i_ = nanos;
  return v;
}
Value Value::Format(const NamedFormat* format) {
  Value v;
  v.kind_ = ValueKind::kNamedFormat;
  v.p_ = format;
  return v;
}
Value Value::Error(std::string message) {
  Value v = String(std::move(message));
  v.kind_ = ValueKind::kError;
  return v;
}

std::string_view TypeNameOf(const Value& value) {
  switch (value.kind()) {
    case ValueKind::kNull: return "null_type";
    case ValueKind::kBool: return "bool";
    case ValueKind::kInt: return "int";
    case ValueKind::kUint: return "uint";
    case ValueKind::kDouble: return "double";
    case ValueKind::kString: return "string";
    case ValueKind::kBytes: return "bytes";
    case ValueKind::kList: return "list";
    case ValueKind::kMap: return "map";
    case ValueKind::kType: return "type";
    case ValueKind::kOptional: return "optional_type";
    case ValueKind::kQuantity: return "kubernetes.Quantity";
    case ValueKind::kSemver: return "kubernetes.Semver";
    case ValueKind::kIP: return "net.IP";
    case ValueKind::kCIDR: return "net.CIDR";
    case ValueKind::kURL: return "kubernetes.URL";
    case ValueKind::kTimestamp: return "google.protobuf.Timestamp";
    case ValueKind::kDuration: return "google.protobuf.Duration";
    case ValueKind::kNamedFormat: return "kubernetes.NamedFormat";
    case ValueKind::kError: return "*types.Err";
  }
  return "";
}

std::string_view GoTypeNameOf(const Value& value) {
  switch (value.kind()) {
    case ValueKind::kNull: return "types.Null";
    case ValueKind::kBool: return "types.Bool";
    case ValueKind::kInt: return "types.Int";
    case ValueKind::kUint: return "types.Uint";
    case ValueKind::kDouble: return "types.Double";
    case ValueKind::kString: return "types.String";
    case ValueKind::kBytes: return "types.Bytes";
    case ValueKind::kType: return "*types.Type";
    case ValueKind::kOptional: return "*types.Optional";
    case ValueKind::kQuantity: return "cel.Quantity";
    case ValueKind::kSemver: return "cel.Semver";
    case ValueKind::kIP: return "cel.IP";
    case ValueKind::kCIDR: return "cel.CIDR";
    case ValueKind::kURL: return "cel.URL";
    case ValueKind::kTimestamp: return "types.Timestamp";
    case ValueKind::kDuration: return "types.Duration";
    case ValueKind::kNamedFormat: return "cel.Format";
    case ValueKind::kList: return "*types.baseList";
    case ValueKind::kMap:
      return value.map_rep() == MapRep::kDeviceAttributes || value.map_rep() == MapRep::kDeviceCapacity
                 ? "cel.mapper"
                 : "*types.baseMap";
    default: return "types.Val";
  }
}

Value Equal(const Value& lhs, const Value& rhs) {
  const bool lhs_null = lhs.kind() == ValueKind::kNull;
  const bool rhs_null = rhs.kind() == ValueKind::kNull;
  if (lhs_null || rhs_null) return Value::Bool(lhs_null == rhs_null);
  switch (lhs.kind()) {
    case ValueKind::kBool:
      return Value::Bool(rhs.kind() == ValueKind::kBool && lhs.bool_value() == rhs.bool_value());
    case ValueKind::kInt:
      switch (rhs.kind()) {
        case ValueKind::kInt: return Value::Bool(lhs.int_value() == rhs.int_value());
        case ValueKind::kUint: return Value::Bool(CompareIntUint(lhs.int_value(), rhs.uint_value()) == 0);
        case ValueKind::kDouble:
          return Value::Bool(!std::isnan(rhs.double_value()) &&
                             CompareDoubleInt(rhs.double_value(), lhs.int_value()) == 0);
        default: return Value::Bool(false);
      }
    case ValueKind::kUint:
      switch (rhs.kind()) {
        case ValueKind::kUint: return Value::Bool(lhs.uint_value() == rhs.uint_value());
        case ValueKind::kInt: return Value::Bool(CompareIntUint(rhs.int_value(), lhs.uint_value()) == 0);
        case ValueKind::kDouble:
          return Value::Bool(!std::isnan(rhs.double_value()) &&
                             CompareDoubleUint(rhs.double_value(), lhs.uint_value()) == 0);
        default: return Value::Bool(false);
      }
    case ValueKind::kDouble: {
      const double d = lhs.double_value();
      if (std::isnan(d)) return Value::Bool(false);
      switch (rhs.kind()) {
        case ValueKind::kDouble: return Value::Bool(d == rhs.double_value());
        case ValueKind::kInt: return Value::Bool(CompareDoubleInt(d, rhs.int_value()) == 0);
        case ValueKind::kUint: return Value::Bool(CompareDoubleUint(d, rhs.uint_value()) == 0);
        default: return Value::Bool(false);
      }
    }
    case ValueKind::kString:
    case ValueKind::kBytes:
      return Value::Bool(rhs.kind() == lhs.kind() && lhs.text() == rhs.text());
    case ValueKind::kType:
      return Value::Bool(rhs.kind() == ValueKind::kType && lhs.text() == rhs.text());
    case ValueKind::kList: {
      if (rhs.kind() != ValueKind::kList) return Value::Bool(false);
      const auto& a = lhs.list().elements;
      const auto& b = rhs.list().elements;
      if (a.size() != b.size()) return Value::Bool(false);
      for (std::size_t i = 0; i < a.size(); ++i) {
        const Value eq = Equal(a[i], b[i]);
        if (eq.kind() == ValueKind::kBool && !eq.bool_value()) return Value::Bool(false);
      }
      return Value::Bool(true);
    }
    case ValueKind::kMap: {
      if (rhs.kind() != ValueKind::kMap) return Value::Bool(false);
      if (MapSize(lhs) != MapSize(rhs)) return Value::Bool(false);
      for (const Value& key : MapKeys(lhs)) {
        std::optional<Value> mine = MapFind(lhs, key);
        std::optional<Value> theirs = MapFind(rhs, key);
        if (!theirs.has_value()) return Value::Bool(false);
        const Value eq = Equal(*mine, *theirs);
        if (eq.kind() == ValueKind::kBool && !eq.bool_value()) return Value::Bool(false);
      }
      return Value::Bool(true);
    }
    case ValueKind::kOptional: {
      if (rhs.kind() != ValueKind::kOptional) return Value::Bool(false);
      if (lhs.optional_value() == nullptr) return Value::Bool(rhs.optional_value() == nullptr);
      if (rhs.optional_value() == nullptr) return Value::Bool(false);
      return Equal(*lhs.optional_value(), *rhs.optional_value());
    }
    case ValueKind::kQuantity:
      if (rhs.kind() != ValueKind::kQuantity) return Value::Error("no such overload");
      return Value::Bool(lhs.quantity().Cmp(rhs.quantity()) == 0);
    case ValueKind::kSemver:
      if (rhs.kind() != ValueKind::kSemver) return Value::Error("no such overload");
      return Value::Bool(CompareSemver(lhs.semver(), rhs.semver()) == 0);
    case ValueKind::kIP:
      if (rhs.kind() != ValueKind::kIP) return Value::Error("no such overload");
      return Value::Bool(lhs.ip() == rhs.ip());
    case ValueKind::kCIDR:
      if (rhs.kind() != ValueKind::kCIDR) return Value::Error("no such overload");
      return Value::Bool(lhs.cidr() == rhs.cidr());
    case ValueKind::kURL:
      // URLs are equal when they print the same (cel.URL.Equal).
      if (rhs.kind() != ValueKind::kURL) return Value::Error("no such overload");
      return Value::Bool(lhs.url().ToString() == rhs.url().ToString());
    case ValueKind::kTimestamp:
      return Value::Bool(rhs.kind() == ValueKind::kTimestamp &&
                         CompareTimestamps(lhs.timestamp(), rhs.timestamp()) == 0);
    case ValueKind::kDuration:
      return Value::Bool(rhs.kind() == ValueKind::kDuration && lhs.duration_nanos() == rhs.duration_nanos());
    case ValueKind::kNamedFormat:
      if (rhs.kind() != ValueKind::kNamedFormat) return Value::Error("no such overload");
      return Value::Bool(lhs.named_format().name == rhs.named_format().name);
    case ValueKind::kNull:
    case ValueKind::kError:
      break;
  }
  return Value::Bool(false);
}

bool EqualBool(const Value& lhs, const Value& rhs) {
  const Value eq = Equal(lhs, rhs);
  return eq.kind() == ValueKind::kBool && eq.bool_value();
}

bool IsComparable(const Value& value) {
  switch (value.kind()) {
    case ValueKind::kBool:
    case ValueKind::kInt:
    case ValueKind::kUint:
    case ValueKind::kDouble:
    case ValueKind::kString:
    case ValueKind::kBytes:
    case ValueKind::kTimestamp:
    case ValueKind::kDuration:
      return true;
    default:
      return false;
  }
}

Value Compare(const Value& lhs, const Value& rhs) {
  static const std::string_view kNaN = "NaN values cannot be ordered";
  switch (lhs.kind()) {
    case ValueKind::kBool:
      if (rhs.kind() != ValueKind::kBool) break;
      return Value::Int(Sign3(!lhs.bool_value() && rhs.bool_value(), lhs.bool_value() && !rhs.bool_value()));
    case ValueKind::kString:
    case ValueKind::kBytes: {
      if (rhs.kind() != lhs.kind()) break;
      const int c = lhs.text().compare(rhs.text());
      return Value::Int(Sign3(c < 0, c > 0));
    }
    case ValueKind::kInt:
      switch (rhs.kind()) {
        case ValueKind::kInt:
          return Value::Int(Sign3(lhs.int_value() < rhs.int_value(), lhs.int_value() > rhs.int_value()));
        case ValueKind::kUint: return Value::Int(CompareIntUint(lhs.int_value(), rhs.uint_value()));
        case ValueKind::kDouble:
          if (std::isnan(rhs.double_value())) return Value::Error(std::string(kNaN));
          return Value::Int(-CompareDoubleInt(rhs.double_value(), lhs.int_value()));
        default: break;
      }
      break;
    case ValueKind::kUint:
      switch (rhs.kind()) {
        case ValueKind::kUint:
          return Value::Int(Sign3(lhs.uint_value() < rhs.uint_value(), lhs.uint_value() > rhs.uint_value()));
        case ValueKind::kInt: return Value::Int(-CompareIntUint(rhs.int_value(), lhs.uint_value()));
        case ValueKind::kDouble:
          if (std::isnan(rhs.double_value())) return Value::Error(std::string(kNaN));
          return Value::Int(-CompareDoubleUint(rhs.double_value(), lhs.uint_value()));
        default: break;
      }
      break;
    case ValueKind::kDouble: {
      const double d = lhs.double_value();
      if (std::isnan(d)) return Value::Error(std::string(kNaN));
      switch (rhs.kind()) {
        case ValueKind::kDouble:
          if (std::isnan(rhs.double_value())) return Value::Error(std::string(kNaN));
          return Value::Int(CompareDouble(d, rhs.double_value()));
        case ValueKind::kInt: return Value::Int(CompareDoubleInt(d, rhs.int_value()));
        case ValueKind::kUint: return Value::Int(CompareDoubleUint(d, rhs.uint_value()));
        default: break;
      }
      break;
    }
    case ValueKind::kTimestamp:
      if (rhs.kind() != ValueKind::kTimestamp) break;
      return Value::Int(CompareTimestamps(lhs.timestamp(), rhs.timestamp()));
    case ValueKind::kDuration:
      if (rhs.kind() != ValueKind::kDuration) break;
      return Value::Int(
          Sign3(lhs.duration_nanos() < rhs.duration_nanos(), lhs.duration_nanos() > rhs.duration_nanos()));
    default:
      break;
  }
  if (rhs.IsError()) return rhs;
  return Value::Error("no such overload");
}

std::size_t MapSize(const Value& map) {
  switch (map.map_rep()) {
    case MapRep::kLiteral: return map.map_data().entries.size();
    case MapRep::kDevice: return 3;
    case MapRep::kDeviceAttributes: return DomainCount(map.device(), false);
    case MapRep::kDeviceCapacity: return DomainCount(map.device(), true);
    case MapRep::kDomainAttributes: return DomainEntryCount(map.device(), false, map.text());
    case MapRep::kDomainCapacity: return DomainEntryCount(map.device(), true, map.text());
  }
  return 0;
}

std::optional<Value> MapFind(const Value& map, const Value& key) {
  if (map.map_rep() == MapRep::kLiteral) {
    const Value* found = FindLiteralNumeric(map.map_data(), key);
    if (found == nullptr) return std::nullopt;
    return *found;
  }
  const bool is_string = key.kind() == ValueKind::kString;
  switch (map.map_rep()) {
    case MapRep::kDevice:
      if (!is_string) return std::nullopt;
      return DeviceField(map.device(), key.text());
    case MapRep::kDeviceAttributes:
    case MapRep::kDeviceCapacity: {
      const MapRep inner =
          map.map_rep() == MapRep::kDeviceAttributes ? MapRep::kDomainAttributes : MapRep::kDomainCapacity;
      // A missing domain (or a key of another type) reads as an empty map. The domain may be a
      // computed string: the view keeps it alive.
      Value domain = Value::DeviceMap(inner, &map.device(), is_string ? key.text() : std::string_view("\x01"));
      domain.ShareOwner(key);
      return domain;
    }
    case MapRep::kDomainAttributes:
    case MapRep::kDomainCapacity:
      if (!is_string) return std::nullopt;
      return DomainEntry(map.device(), map.map_rep() == MapRep::kDomainCapacity, map.text(), key.text());
    case MapRep::kLiteral:
      break;
  }
  return std::nullopt;
}

bool MapContains(const Value& map, const Value& key) {
  switch (map.map_rep()) {
    case MapRep::kDeviceAttributes:
    case MapRep::kDeviceCapacity:
      return key.kind() == ValueKind::kString &&
             HasDomain(map.device(), map.map_rep() == MapRep::kDeviceCapacity, key.text());
    default:
      return MapFind(map, key).has_value();
  }
}

std::vector<Value> MapKeys(const Value& map) {
  std::vector<Value> keys;
  switch (map.map_rep()) {
    case MapRep::kLiteral:
      keys.reserve(map.map_data().entries.size());
      for (const auto& entry : map.map_data().entries) keys.push_back(entry.first);
      break;
    case MapRep::kDevice:
      for (std::string_view field : {"driver", "attributes", "capacity"}) keys.push_back(Value::BorrowedString(field));
      break;
    case MapRep::kDeviceAttributes:
    case MapRep::kDeviceCapacity:
      for (std::string_view domain : Domains(map.device(), map.map_rep() == MapRep::kDeviceCapacity)) {
        keys.push_back(Value::BorrowedString(domain));
      }
      break;
    case MapRep::kDomainAttributes:
    case MapRep::kDomainCapacity:
      for (std::string_view id : DomainIds(map.device(), map.map_rep() == MapRep::kDomainCapacity, map.text())) {
        keys.push_back(Value::BorrowedString(id));
      }
      break;
  }
  return keys;
}

std::string FormatDouble(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  // The shortest digits that round-trip, in scientific form: d[.ddd]e[+-]x.
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value, std::chars_format::scientific);
  const std::string_view sci(buffer, static_cast<std::size_t>(result.ptr - buffer));
  const std::size_t e = sci.find('e');
  std::string_view mantissa = sci.substr(0, e);
  const int exp = std::stoi(std::string(sci.substr(e + 1)));
  std::string sign;
  if (!mantissa.empty() && mantissa[0] == '-') {
    sign = "-";
    mantissa.remove_prefix(1);
  }
  std::string digits;
  for (char c : mantissa) {
    if (c != '.') digits.push_back(c);
  }
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  // %g with the shortest precision switches to an exponent from 1e+06 up (eprec = 6) and below
  // 1e-04.
  std::string out = sign;
  if (exp < -4 || exp >= 6) {
    out += digits[0];
    if (digits.size() > 1) {
      out += '.';
      out += digits.substr(1);
    }
    out += 'e';
    out += exp < 0 ? '-' : '+';
    const int abs_exp = exp < 0 ? -exp : exp;
    if (abs_exp < 10) out += '0';
    out += std::to_string(abs_exp);
    return out;
  }
  if (exp < 0) {
    out += "0.";
    out += std::string(static_cast<std::size_t>(-exp - 1), '0');
    out += digits;
    return out;
  }
  const auto int_digits = static_cast<std::size_t>(exp) + 1;
  if (digits.size() <= int_digits) {
    out += digits;
    out += std::string(int_digits - digits.size(), '0');
  } else {
    out += digits.substr(0, int_digits);
    out += '.';
    out += digits.substr(int_digits);
  }
  return out;
}

std::string FormatValue(const Value& value) {
  switch (value.kind()) {
    case ValueKind::kNull: return "NULL_VALUE";
    case ValueKind::kBool: return value.bool_value() ? "true" : "false";
    case ValueKind::kInt: return std::to_string(value.int_value());
    case ValueKind::kUint: return std::to_string(value.uint_value());
    case ValueKind::kDouble: return FormatDouble(value.double_value());
    case ValueKind::kString:
    case ValueKind::kError:
    case ValueKind::kType:
      return std::string(value.text());
    case ValueKind::kBytes: {
      std::string out = "[";
      for (std::size_t i = 0; i < value.text().size(); ++i) {
        if (i > 0) out += " ";
        out += std::to_string(static_cast<unsigned char>(value.text()[i]));
      }
      return out + "]";
    }
    case ValueKind::kList: {
      std::string out = "[";
      const auto& elements = value.list().elements;
      for (std::size_t i = 0; i < elements.size(); ++i) {
        if (i > 0) out += ", ";
        out += FormatValue(elements[i]);
      }
      return out + "]";
    }
    case ValueKind::kMap: {
      std::string out = "{";
      bool first = true;
      for (const Value& key : MapKeys(value)) {
        if (!first) out += ", ";
        first = false;
        out += FormatValue(key) + ": " + FormatValue(*MapFind(value, key));
      }
      return out + "}";
    }
    case ValueKind::kOptional:
      return value.optional_value() == nullptr ? "optional.none()"
                                               : "optional.of(" + FormatValue(*value.optional_value()) + ")";
    case ValueKind::kQuantity: return value.quantity().String();
    case ValueKind::kSemver: return value.semver().ToString();
    case ValueKind::kIP: return value.ip().ToString();
    case ValueKind::kCIDR: return value.cidr().ToString();
    case ValueKind::kURL: return value.url().ToString();
    case ValueKind::kTimestamp: return FormatGoTime(value.timestamp());
    case ValueKind::kDuration: return FormatGoDuration(value.duration_nanos());
    case ValueKind::kNamedFormat: return "{" + std::string(value.named_format().name) + "}";
  }
  return "";
}

}  // namespace ksched::plugins::dynamic_resources::cel
