#include "plugins/dynamic_resources/cel/types.h"

#include <cctype>

namespace ksched::plugins::dynamic_resources::cel {
namespace {

TypePtr Simple(TypeKind kind) {
  auto t = std::make_shared<Type>();
  t->kind = kind;
  return t;
}

// An opaque type without parameters (cel.OpaqueType("net.IP")).
TypePtr OpaqueNamed(std::string name) {
  auto t = std::make_shared<Type>();
  t->kind = TypeKind::kOpaque;
  t->name = std::move(name);
  return t;
}

// types.Type.isDyn(): dyn, any or a type parameter.
bool IsDynLike(const Type& t) {
  return t.kind == TypeKind::kDyn || t.kind == TypeKind::kAny || t.kind == TypeKind::kTypeParam;
}

bool IsDynOrError(const Type& t) { return IsDynOrAny(t) || t.kind == TypeKind::kError; }

// types.Type.IsAssignableType (the default rule): `t` accepts `from`.
bool AcceptsType(const Type& t, const Type& from) {
  if (&t == &from || IsDynLike(t)) return true;
  if (t.kind != from.kind || t.TypeName() != from.TypeName() || t.params.size() != from.params.size()) return false;
  for (std::size_t i = 0; i < t.params.size(); ++i) {
    if (!AcceptsType(*t.params[i], *from.params[i])) return false;
  }
  return true;
}

bool IsTypeInternal(const Type& t, const Type& other, bool check_param_names) {
  if (&t == &other) return true;
  if (t.kind != other.kind || t.params.size() != other.params.size()) return false;
  if ((check_param_names || t.kind != TypeKind::kTypeParam) && t.TypeName() != other.TypeName()) return false;
  for (std::size_t i = 0; i < t.params.size(); ++i) {
    if (!IsTypeInternal(*t.params[i], *other.params[i], check_param_names)) return false;
  }
  return true;
}

bool IsEqualOrLessSpecific(const Type& t1, const Type& t2) {
  if (IsDynOrAny(t1) || t1.kind == TypeKind::kTypeParam) return true;
  if (IsDynOrAny(t2) || t2.kind == TypeKind::kTypeParam) return false;
  if (t1.kind != t2.kind) return false;
  switch (t1.kind) {
    case TypeKind::kOpaque:
      if (t1.TypeName() != t2.TypeName() || t1.params.size() != t2.params.size()) return false;
      for (std::size_t i = 0; i < t1.params.size(); ++i) {
        if (!IsEqualOrLessSpecific(*t1.params[i], *t2.params[i])) return false;
      }
      return true;
    case TypeKind::kList:
      return IsEqualOrLessSpecific(*t1.params[0], *t2.params[0]);
    case TypeKind::kMap:
      return IsEqualOrLessSpecific(*t1.params[0], *t2.params[0]) && IsEqualOrLessSpecific(*t1.params[1], *t2.params[1]);
    case TypeKind::kType:
      return true;
    default:
      return IsExactType(t1, t2);
  }
}

bool IsLegacyNullable(const Type& t) {
  return t.kind == TypeKind::kOpaque || t.kind == TypeKind::kStruct || t.kind == TypeKind::kAny ||
         t.kind == TypeKind::kTimestamp || t.kind == TypeKind::kDuration;
}

bool IsAssignableNull(const Type& t) {
  return IsLegacyNullable(t) || IsDynLike(t) || t.kind == TypeKind::kNull;
}

bool NotReferencedIn(const TypeMapping& m, const Type& t, const Type& within) {
  if (IsExactType(t, within)) return false;
  switch (within.kind) {
    case TypeKind::kTypeParam: {
      const TypePtr* sub = m.Find(within);
      if (sub == nullptr) return true;
      return NotReferencedIn(m, t, **sub);
    }
    case TypeKind::kOpaque:
    case TypeKind::kList:
    case TypeKind::kMap:
    case TypeKind::kType:
      for (const TypePtr& p : within.params) {
        if (!NotReferencedIn(m, t, *p)) return false;
      }
      return true;
    default:
      return true;
  }
}

bool InternalIsAssignable(TypeMapping& m, const TypePtr& t1, const TypePtr& t2);

bool InternalIsAssignableList(TypeMapping& m, const std::vector<TypePtr>& l1, const std::vector<TypePtr>& l2) {
  if (l1.size() != l2.size()) return false;
  for (std::size_t i = 0; i < l1.size(); ++i) {
    if (!InternalIsAssignable(m, l1[i], l2[i])) return false;
  }
  return true;
}

// Whether t2 (or its substitution) is a valid substitution for t1; `has_sub` tells whether t2
// already had one.
bool IsValidTypeSubstitution(TypeMapping& m, const TypePtr& t1, const TypePtr& t2, bool& has_sub) {
  has_sub = false;
  if (t1->kind == t2->kind && IsExactType(*t1, *t2)) {
    has_sub = true;
    return true;
  }
  if (const TypePtr* found = m.Find(*t2); found != nullptr) {
    const TypePtr t2_sub = *found;
    has_sub = true;
    if (t1->kind == t2_sub->kind && IsExactType(*t1, *t2_sub)) return true;
    if (InternalIsAssignable(m, t1, t2_sub)) {
      TypePtr t2_new = MostGeneral(t1, t2_sub);
      if (NotReferencedIn(m, *t2, *t2_new)) m.Add(*t2, std::move(t2_new));
      return true;
    }
    return false;
  }
  if (NotReferencedIn(m, *t2, *t1)) {
    m.Add(*t2, t1);
    return true;
  }
  return false;
}

bool InternalIsAssignable(TypeMapping& m, const TypePtr& t1, const TypePtr& t2) {
  const TypeKind kind1 = t1->kind;
  const TypeKind kind2 = t2->kind;
  if (kind2 == TypeKind::kTypeParam) {
    bool has_sub = false;
    if (IsValidTypeSubstitution(m, t1, t2, has_sub)) return true;
    if (has_sub) return false;
  }
  if (kind1 == TypeKind::kTypeParam) {
    bool has_sub = false;
    return IsValidTypeSubstitution(m, t2, t1, has_sub);
  }
  if (IsDynOrError(*t1) || IsDynOrError(*t2)) return true;
  if (kind1 == TypeKind::kNull) return IsAssignableNull(*t2);
  if (kind2 == TypeKind::kNull) return IsAssignableNull(*t1);
  switch (kind1) {
    case TypeKind::kBool:
    case TypeKind::kBytes:
    case TypeKind::kDouble:
    case TypeKind::kInt:
    case TypeKind::kString:
    case TypeKind::kUint:
    case TypeKind::kAny:
    case TypeKind::kTimestamp:
    case TypeKind::kDuration:
    case TypeKind::kStruct:
      return AcceptsType(*t2, *t1);
    case TypeKind::kType:
      return kind2 == TypeKind::kType;
    case TypeKind::kOpaque:
    case TypeKind::kList:
    case TypeKind::kMap:
      return kind1 == kind2 && t1->TypeName() == t2->TypeName() && InternalIsAssignableList(m, t1->params, t2->params);
    default:
      return false;
  }
}

}  // namespace

TypePtr Type::Dyn() {
  static const TypePtr t = Simple(TypeKind::kDyn);
  return t;
}
TypePtr Type::Any() {
  static const TypePtr t = Simple(TypeKind::kAny);
  return t;
}
TypePtr Type::Error() {
  static const TypePtr t = Simple(TypeKind::kError);
  return t;
}
TypePtr Type::Null() {
  static const TypePtr t = Simple(TypeKind::kNull);
  return t;
}
TypePtr Type::Bool() {
  static const TypePtr t = Simple(TypeKind::kBool);
  return t;
}
TypePtr Type::Int() {
  static const TypePtr t = Simple(TypeKind::kInt);
  return t;
}
TypePtr Type::Uint() {
  static const TypePtr t = Simple(TypeKind::kUint);
  return t;
}
TypePtr Type::Double() {
  static const TypePtr t = Simple(TypeKind::kDouble);
  return t;
}
TypePtr Type::String() {
  static const TypePtr t = Simple(TypeKind::kString);
  return t;
}
TypePtr Type::Bytes() {
  static const TypePtr t = Simple(TypeKind::kBytes);
  return t;
}
TypePtr Type::Timestamp() {
  static const TypePtr t = Simple(TypeKind::kTimestamp);
  return t;
}
TypePtr Type::Duration() {
  static const TypePtr t = Simple(TypeKind::kDuration);
  return t;
}
TypePtr Type::List(TypePtr element) {
  auto t = std::make_shared<Type>();
  t->kind = TypeKind::kList;
  t->params.push_back(std::move(element));
  return t;
}
TypePtr Type::Map(TypePtr key, TypePtr value) {
  auto t = std::make_shared<Type>();
  t->kind = TypeKind::kMap;
  t->params.push_back(std::move(key));
  t->params.push_back(std::move(value));
  return t;
}
TypePtr Type::Param(std::string name) {
  auto t = std::make_shared<Type>();
  t->kind = TypeKind::kTypeParam;
  t->name = std::move(name);
  return t;
}
TypePtr Type::TypeOf(TypePtr type) {
  auto t = std::make_shared<Type>();
  t->kind = TypeKind::kType;
  if (type) t->params.push_back(std::move(type));
  return t;
}
TypePtr Type::Optional(TypePtr value) {
  auto t = std::make_shared<Type>();
  t->kind = TypeKind::kOpaque;
  t->name = "optional_type";
  if (value) t->params.push_back(std::move(value));
  return t;
}
TypePtr Type::Struct(std::string name) {
  auto t = std::make_shared<Type>();
  t->kind = TypeKind::kStruct;
  t->name = std::move(name);
  return t;
}
TypePtr Type::Quantity() {
  static const TypePtr t = Struct("kubernetes.Quantity");
  return t;
}
TypePtr Type::Semver() {
  static const TypePtr t = Struct("kubernetes.Semver");
  return t;
}
TypePtr Type::IP() {
  static const TypePtr t = OpaqueNamed("net.IP");
  return t;
}
TypePtr Type::CIDR() {
  static const TypePtr t = OpaqueNamed("net.CIDR");
  return t;
}
TypePtr Type::URL() {
  static const TypePtr t = Struct("kubernetes.URL");
  return t;
}

std::string Type::TypeName() const {
  switch (kind) {
    case TypeKind::kDyn: return "dyn";
    case TypeKind::kAny: return "google.protobuf.Any";
    case TypeKind::kError: return "*error*";
    case TypeKind::kNull: return "null_type";
    case TypeKind::kBool: return "bool";
    case TypeKind::kInt: return "int";
    case TypeKind::kUint: return "uint";
    case TypeKind::kDouble: return "double";
    case TypeKind::kString: return "string";
    case TypeKind::kBytes: return "bytes";
    case TypeKind::kTimestamp: return "google.protobuf.Timestamp";
    case TypeKind::kDuration: return "google.protobuf.Duration";
    case TypeKind::kList: return "list";
    case TypeKind::kMap: return "map";
    case TypeKind::kType: return "type";
    case TypeKind::kTypeParam:
    case TypeKind::kOpaque:
    case TypeKind::kStruct:
      return name;
  }
  return name;
}

std::string FormatType(const Type& type) {
  switch (type.kind) {
    case TypeKind::kAny: return "any";
    case TypeKind::kError: return "!error!";
    case TypeKind::kNull: return "null";
    case TypeKind::kTimestamp: return "timestamp";
    case TypeKind::kDuration: return "duration";
    case TypeKind::kTypeParam: return type.name;
    default: break;
  }
  if (type.params.empty()) return type.TypeName();
  std::string out = type.TypeName() + "(";
  for (std::size_t i = 0; i < type.params.size(); ++i) {
    if (i > 0) out += ", ";
    out += FormatType(*type.params[i]);
  }
  return out + ")";
}

std::string TypeString(const Type& type) {
  if (type.kind == TypeKind::kTypeParam) return "<" + type.name + ">";
  if (type.params.empty()) return type.TypeName();
  std::string out = type.TypeName() + "(";
  for (std::size_t i = 0; i < type.params.size(); ++i) {
    if (i > 0) out += ", ";
    out += TypeString(*type.params[i]);
  }
  return out + ")";
}

bool IsExactType(const Type& a, const Type& b) { return IsTypeInternal(a, b, true); }
bool IsEquivalentType(const Type& a, const Type& b) { return IsTypeInternal(a, b, false); }
bool IsDynOrAny(const Type& type) { return type.kind == TypeKind::kDyn || type.kind == TypeKind::kAny; }

const TypePtr* TypeMapping::Find(const Type& param) const {
  auto it = map_.find(FormatType(param));
  return it == map_.end() ? nullptr : &it->second;
}

void TypeMapping::Add(const Type& param, TypePtr to) { map_[FormatType(param)] = std::move(to); }

bool IsAssignable(TypeMapping& mapping, const TypePtr& t1, const TypePtr& t2) {
  TypeMapping copy = mapping;
  if (!InternalIsAssignable(copy, t1, t2)) return false;
  mapping = std::move(copy);
  return true;
}

bool IsAssignableList(TypeMapping& mapping, const std::vector<TypePtr>& l1, const std::vector<TypePtr>& l2) {
  TypeMapping copy = mapping;
  if (!InternalIsAssignableList(copy, l1, l2)) return false;
  mapping = std::move(copy);
  return true;
}

TypePtr Substitute(const TypeMapping& mapping, const TypePtr& type, bool params_to_dyn) {
  if (const TypePtr* sub = mapping.Find(*type); sub != nullptr) return Substitute(mapping, *sub, params_to_dyn);
  if (params_to_dyn && type->kind == TypeKind::kTypeParam) return Type::Dyn();
  switch (type->kind) {
    case TypeKind::kOpaque:
    case TypeKind::kList:
    case TypeKind::kMap:
    case TypeKind::kType: {
      if (type->params.empty()) return type;
      auto t = std::make_shared<Type>(*type);
      for (TypePtr& p : t->params) p = Substitute(mapping, p, params_to_dyn);
      return t;
    }
    default:
      return type;
  }
}

TypePtr MostGeneral(const TypePtr& a, const TypePtr& b) { return IsEqualOrLessSpecific(*a, *b) ? a : b; }

TypePtr ParseTypeSpec(std::string_view spec) {
  struct SpecParser {
    std::string_view s;
    std::size_t pos = 0;
    void Skip() {
      while (pos < s.size() && s[pos] == ' ') ++pos;
    }
    TypePtr Parse() {
      Skip();
      const std::size_t start = pos;
      while (pos < s.size() && (std::isalnum(static_cast<unsigned char>(s[pos])) || s[pos] == '_' || s[pos] == '.')) {
        ++pos;
      }
      const std::string_view name = s.substr(start, pos - start);
      std::vector<TypePtr> params;
      Skip();
      if (pos < s.size() && s[pos] == '(') {
        ++pos;
        for (;;) {
          TypePtr p = Parse();
          if (!p) return nullptr;
          params.push_back(std::move(p));
          Skip();
          if (pos < s.size() && s[pos] == ',') {
            ++pos;
            continue;
          }
          if (pos < s.size() && s[pos] == ')') {
            ++pos;
            break;
          }
          return nullptr;
        }
      }
      if (name == "int") return Type::Int();
      if (name == "uint") return Type::Uint();
      if (name == "double") return Type::Double();
      if (name == "bool") return Type::Bool();
      if (name == "string") return Type::String();
      if (name == "bytes") return Type::Bytes();
      if (name == "null") return Type::Null();
      if (name == "dyn") return Type::Dyn();
      if (name == "any") return Type::Any();
      if (name == "timestamp") return Type::Timestamp();
      if (name == "duration") return Type::Duration();
      if (name == "Quantity") return Type::Quantity();
      if (name == "NamedFormat") return Type::Struct("kubernetes.NamedFormat");
      if (name == "Semver") return Type::Semver();
      if (name == "IP") return Type::IP();
      if (name == "CIDR") return Type::CIDR();
      if (name == "URL") return Type::URL();
      if (name == "list" && params.size() == 1) return Type::List(params[0]);
      if (name == "map" && params.size() == 2) return Type::Map(params[0], params[1]);
      if (name == "optional" && params.size() == 1) return Type::Optional(params[0]);
      if (name == "type" && params.size() <= 1) return Type::TypeOf(params.empty() ? nullptr : params[0]);
      if (name.size() == 1 && std::isupper(static_cast<unsigned char>(name[0]))) return Type::Param(std::string(name));
      // Any other qualified name is a struct type (kubernetes.authorization.Decision, ...).
      if (name.find('.') != std::string_view::npos && params.empty()) return Type::Struct(std::string(name));
      return nullptr;
    }
  };
  SpecParser parser{spec};
  TypePtr t = parser.Parse();
  parser.Skip();
  return parser.pos == spec.size() ? t : nullptr;
}

}  // namespace ksched::plugins::dynamic_resources::cel
