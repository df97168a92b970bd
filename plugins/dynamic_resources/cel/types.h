// Static CEL types as cel-go's checker sees them (common/types.Type), with its unification rules
// (checker/types.go: isAssignable with type-parameter substitutions, mostGeneral, substitute) and
// its two ways of printing a type: FormatType for checker messages ("list(int)", "null", "any",
// "!error!") and TypeString for the output-type message ("null_type", "google.protobuf.Any").
//
// Kubernetes' Quantity, Semver and URL are struct types named "kubernetes.Quantity",
// "kubernetes.Semver" and "kubernetes.URL"; its IP and CIDR are the opaque "net.IP" and
// "net.CIDR"; the `device` variable is the struct "kubernetes.DRADevice"; optional values are the
// opaque "optional_type(T)".
//
// Thread-safety: types are immutable and shared; TypeMapping is a value owned by one checker.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ksched::plugins::dynamic_resources::cel {

enum class TypeKind : std::uint8_t {
  kDyn,
  kAny,  // the attribute values' declared type (apiserver's AnyType): dyn-like, printed "any"
  kError,
  kNull,
  kBool,
  kInt,
  kUint,
  kDouble,
  kString,
  kBytes,
  kTimestamp,  // google.protobuf.Timestamp, formatted "timestamp"
  kDuration,   // google.protobuf.Duration, formatted "duration"
  kList,       // params: element
  kMap,        // params: key, value
  kTypeParam,  // name: the parameter
  kType,       // the type of a type value; params: at most one (type(int))
  kOpaque,     // name + params: optional_type(T), net.IP, net.CIDR
  kStruct,     // name: kubernetes.DRADevice, .Quantity, .Semver, .URL, .NamedFormat, .authorization.*
};

struct Type;
using TypePtr = std::shared_ptr<const Type>;

struct Type {
  TypeKind kind = TypeKind::kDyn;
  std::string name;
  std::vector<TypePtr> params;

  static TypePtr Dyn();
  static TypePtr Any();
  static TypePtr Error();
  static TypePtr Null();
  static TypePtr Bool();
  static TypePtr Int();
  static TypePtr Uint();
  static TypePtr Double();
  static TypePtr String();
  static TypePtr Bytes();
  static TypePtr Timestamp();
  static TypePtr Duration();
  static TypePtr List(TypePtr element);
  static TypePtr Map(TypePtr key, TypePtr value);
  static TypePtr Param(std::string name);
  static TypePtr TypeOf(TypePtr type);  // nullptr: the plain `type`
  static TypePtr Optional(TypePtr value);  // null: the bare optional_type (as a type name)
  static TypePtr Struct(std::string name);
  static TypePtr Quantity();
  static TypePtr Semver();
  static TypePtr IP();
  static TypePtr CIDR();
  static TypePtr URL();

  // The runtime type name (cel-go's TypeName(): "int", "list", "map", "type", "null_type",
  // "optional_type", "kubernetes.Quantity", ...).
  std::string TypeName() const;
  bool IsOptional() const { return kind == TypeKind::kOpaque && name == "optional_type" && params.size() == 1; }
};

// cel-go's checker.FormatCELType.
std::string FormatType(const Type& type);
// cel-go's Type.String().
std::string TypeString(const Type& type);

bool IsExactType(const Type& a, const Type& b);
bool IsEquivalentType(const Type& a, const Type& b);
// The checker's isDyn: dyn or any.
bool IsDynOrAny(const Type& type);

// Type-parameter substitutions accumulated while checking one expression.
class TypeMapping {
 public:
  const TypePtr* Find(const Type& param) const;
  void Add(const Type& param, TypePtr to);

 private:
  std::map<std::string, TypePtr, std::less<>> map_;
};

// Whether t1 is assignable to t2; on success `mapping` takes the substitutions it implied, on
// failure it is left unchanged (cel-go's checker.isAssignable).
bool IsAssignable(TypeMapping& mapping, const TypePtr& t1, const TypePtr& t2);
bool IsAssignableList(TypeMapping& mapping, const std::vector<TypePtr>& l1, const std::vector<TypePtr>& l2);
// The type with bound parameters replaced (and unbound ones by dyn when `params_to_dyn`).
TypePtr Substitute(const TypeMapping& mapping, const TypePtr& type, bool params_to_dyn);
// The more general of two types known to unify.
TypePtr MostGeneral(const TypePtr& a, const TypePtr& b);

// Parses a signature type written as in the function tables: int, uint, double, bool, string,
// bytes, null, dyn, any, timestamp, duration, list(A), map(K, V), optional(V), type(A), Quantity,
// Semver, IP, CIDR, URL, NamedFormat, any other qualified name as a struct type
// (kubernetes.authorization.Decision); single capital letters are type parameters. Returns null
// on a malformed spec.
TypePtr ParseTypeSpec(std::string_view spec);

}  // namespace ksched::plugins::dynamic_resources::cel
