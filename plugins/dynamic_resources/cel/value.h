// Runtime CEL values, with cel-go's semantics for equality (heterogeneous: 1 == 1u == 1.0, values
// of different types are unequal rather than an error, except that a Quantity, Semver, IP, CIDR,
// URL or NamedFormat compared with another type is "no such overload" as upstream), ordering
// (Comparer types: bool, int, uint, double, string, bytes, timestamp, duration; NaN cannot be
// ordered) and map lookup (numeric keys match across int, uint and whole doubles). Timestamps are
// equal and ordered by instant, whatever offset they print with.
//
// A Value is 48 bytes and does not allocate for null, bool, numbers, timestamps, durations, types,
// formats, strings it borrows, Quantities it borrows and the views of the `device` variable: string data may
// point into the compiled program (literals) or into the CelDevice being evaluated (attribute
// values, the driver), and the device's maps are views answered from the CelDevice's sorted spans.
// Values computed at runtime (concatenations, lists, Semvers, IPs, CIDRs, URLs, errors) own their
// data through a shared_ptr. A Value borrowing device data must not outlive the evaluation (Matches
// returns a bool only).
//
// Thread-safety: immutable once built; copies share owned data read-only.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/quantity.h"
#include "plugins/dynamic_resources/cel/netip.h"
#include "plugins/dynamic_resources/cel/semver.h"
#include "plugins/dynamic_resources/cel/timestamp.h"
#include "plugins/dynamic_resources/cel/url.h"

namespace ksched::plugins::dynamic_resources {
struct CelDevice;
}

namespace ksched::plugins::dynamic_resources::cel {

enum class ValueKind : std::uint8_t {
  kNull,
  kBool,
  kInt,
  kUint,
  kDouble,
  kString,
  kBytes,
  kList,
  kMap,
  kType,
  kOptional,
  kQuantity,
  kSemver,
  kIP,    // net.IP
  kCIDR,  // net.CIDR
  kURL,   // kubernetes.URL
  kTimestamp,  // google.protobuf.Timestamp
  kDuration,   // google.protobuf.Duration
  kNamedFormat,  // kubernetes.NamedFormat (the format library's formats)
  kError,
};

// What backs a map value.
enum class MapRep : std::uint8_t {
  kLiteral,           // MapData
  kDevice,            // `device`: driver, attributes, capacity
  kDeviceAttributes,  // device.attributes: domain -> attributes of the domain
  kDeviceCapacity,    // device.capacity: domain -> capacities of the domain
  kDomainAttributes,  // device.attributes[domain]: id -> value
  kDomainCapacity,    // device.capacity[domain]: id -> Quantity
};

class Value;
struct NamedFormat;

struct ListData {
  std::vector<Value> elements;
};

// Entries in insertion order with distinct keys.
struct MapData {
  std::vector<std::pair<Value, Value>> entries;
};

class Value {
 public:
  Value() : kind_(ValueKind::kNull), map_rep_(MapRep::kLiteral), i_(0) {}

  static Value Null() { return Value(); }
  static Value Bool(bool value);
  static Value Int(std::int64_t value);
  static Value Uint(std::uint64_t value);
  static Value Double(double value);
  // A string whose data outlives the value (program literals, device data).
  static Value BorrowedString(std::string_view value);
  static Value String(std::string value);
  static Value BorrowedBytes(std::string_view value);
  static Value Bytes(std::string value);
  static Value List(std::vector<Value> elements);
  static Value List(std::shared_ptr<const ListData> list);
  static Value Map(std::shared_ptr<const MapData> map);
  // A view of (part of) the `device` variable; `domain` for the per-domain maps.
  static Value DeviceMap(MapRep rep, const CelDevice* device, std::string_view domain = {});
  // A type value named by a string with static storage ("int", "map", "kubernetes.Quantity"...).
  static Value Type(std::string_view static_name);
  static Value Optional(Value value);
  static Value OptionalNone();
  static Value BorrowedQuantity(const api::Quantity* quantity);
  static Value Quantity(api::Quantity quantity);
  static Value Semver(cel::Semver version);
  static Value IP(IPAddr address);
  static Value CIDR(IPPrefix prefix);
  static Value URL(Url url);
  // `t.offset_seconds` must be whole minutes (as RFC 3339 offsets are).
  static Value Timestamp(const cel::Timestamp& t);
  static Value Duration(std::int64_t nanos);
  // One of the format library's formats (static storage).
  static Value Format(const NamedFormat* format);
  static Value Error(std::string message);

  // A copy that does not share ownership: valid while this value lives (constants of a program
  // are handed out this way, sparing evaluations the reference counting).
  Value Borrowed() const {
    Value v;
    v.kind_ = kind_;
    v.map_rep_ = map_rep_;
    v.offset_minutes_ = offset_minutes_;
    v.nanos_ = nanos_;
    std::memcpy(&v.i_, &i_, sizeof(i_));  // the whole union (every member is at most 8 bytes)
    v.text_ = text_;
    return v;
  }

  // Keeps `other`'s owned data alive as long as this value (for a view computed from it).
  void ShareOwner(const Value& other) { owner_ = other.owner_; }

  ValueKind kind() const { return kind_; }
  bool IsError() const { return kind_ == ValueKind::kError; }
  bool IsNumber() const {
    return kind_ == ValueKind::kInt || kind_ == ValueKind::kUint || kind_ == ValueKind::kDouble;
  }

  bool bool_value() const { return b_; }
  std::int64_t int_value() const { return i_; }
  std::uint64_t uint_value() const { return u_; }
  double double_value() const { return d_; }
  // kString, kBytes: the data; kType: the name; kError: the message; device maps: the domain.
  std::string_view text() const { return text_; }
  const ListData& list() const { return *static_cast<const ListData*>(p_); }
  MapRep map_rep() const { return map_rep_; }
  const MapData& map_data() const { return *static_cast<const MapData*>(p_); }
  const CelDevice& device() const { return *static_cast<const CelDevice*>(p_); }
  // kOptional: the value, or null for optional.none().
  const Value* optional_value() const { return static_cast<const Value*>(p_); }
  const api::Quantity& quantity() const { return *static_cast<const api::Quantity*>(p_); }
  const cel::Semver& semver() const { return *static_cast<const cel::Semver*>(p_); }
  const IPAddr& ip() const { return *static_cast<const IPAddr*>(p_); }
  const IPPrefix& cidr() const { return *static_cast<const IPPrefix*>(p_); }
  const Url& url() const { return *static_cast<const Url*>(p_); }
  cel::Timestamp timestamp() const;
  std::int64_t duration_nanos() const { return i_; }
  const NamedFormat& named_format() const { return *static_cast<const NamedFormat*>(p_); }

 private:
  // A value of `kind` owning a heap copy of `object` (Quantity, Semver, IP, CIDR, URL).
  template <typename T>
  static Value Boxed(ValueKind kind, T object);

  ValueKind kind_;
  MapRep map_rep_;
  // kTimestamp (in what would be padding): the offset it prints with (kLocalOffset: the local
  // zone's) and the nanoseconds; the seconds are in i_.
  std::int16_t offset_minutes_ = 0;
  std::int32_t nanos_ = 0;
  union {  // 8 bytes
    bool b_;
    std::int64_t i_;
    std::uint64_t u_;
    double d_;
    const void* p_;
  };
  std::string_view text_;
  std::shared_ptr<const void> owner_;
};

// The runtime type name (cel-go's Type().TypeName()): "int", "list", "kubernetes.Quantity",
// "net.IP", ...
std::string_view TypeNameOf(const Value& value);
// The Go type cel-go names in "got 'types.Int', expected iterable type".
std::string_view GoTypeNameOf(const Value& value);

// types.Equal(lhs, rhs): Bool, or an error for a Quantity/Semver/IP/CIDR/URL compared with another
// type.
Value Equal(const Value& lhs, const Value& rhs);
bool EqualBool(const Value& lhs, const Value& rhs);  // Equal(...) is true
// traits.Comparer.Compare: Int -1/0/1 or an error ("no such overload", NaN). `lhs` must be
// comparable (IsComparable).
Value Compare(const Value& lhs, const Value& rhs);
bool IsComparable(const Value& value);

// Whether two values are the same map key (cel-go keys its maps by the value itself: 1 and 1u
// are distinct keys, found for each other only by MapFind's numeric fallback).
bool SameMapKey(const Value& a, const Value& b);

// Maps (literal or device views).
std::size_t MapSize(const Value& map);
// The value for `key`, or nullopt. The `device.attributes` / `device.capacity` maps answer every
// key (an empty map for a missing domain) as upstream's mapper with a default.
std::optional<Value> MapFind(const Value& map, const Value& key);
bool MapContains(const Value& map, const Value& key);  // membership, without that default
std::vector<Value> MapKeys(const Value& map);

// Go's %v of a value, as cel-go's messages print it ("no such key: foo", "index out of bounds: 5").
std::string FormatValue(const Value& value);
// Go's strconv.FormatFloat(d, 'g', -1, 64) (cel-go's string(double) and %v of a double).
std::string FormatDouble(double value);

}  // namespace ksched::plugins::dynamic_resources::cel
