#include "plugins/dynamic_resources/cel/checker.h"

#include <map>
#include <optional>
#include <string>
#include <utility>

#include "plugins/dynamic_resources/cel/library_strings_format.h"
#include "plugins/dynamic_resources/cel/library_time.h"
#include "plugins/dynamic_resources/cel/regex.h"

namespace ksched::plugins::dynamic_resources::cel {
namespace {

constexpr std::string_view kDeviceStruct = "kubernetes.DRADevice";

// The field types of the struct types the environment knows; null when the field is undefined.
TypePtr FieldType(const Type& structure, std::string_view field) {
  if (structure.name != kDeviceStruct) return nullptr;
  static const TypePtr kAttributes = Type::Map(Type::String(), Type::Map(Type::String(), Type::Any()));
  static const TypePtr kCapacity = Type::Map(Type::String(), Type::Map(Type::String(), Type::Quantity()));
  if (field == "driver") return Type::String();
  if (field == "attributes") return kAttributes;
  if (field == "capacity") return kCapacity;
  return nullptr;
}

// A literal's runtime value (strings borrow the AST).
Value ConstantValue(const Constant& c) {
  switch (c.kind) {
    case Constant::Kind::kNull: return Value::Null();
    case Constant::Kind::kBool: return Value::Bool(c.bool_value);
    case Constant::Kind::kInt: return Value::Int(c.int_value);
    case Constant::Kind::kUint: return Value::Uint(c.uint_value);
    case Constant::Kind::kDouble: return Value::Double(c.double_value);
    case Constant::Kind::kString: return Value::BorrowedString(c.string_value);
    case Constant::Kind::kBytes: return Value::BorrowedBytes(c.string_value);
  }
  return Value::Null();
}

std::string_view StripLeadingDot(std::string_view name) {
  if (!name.empty() && name[0] == '.') name.remove_prefix(1);
  return name;
}

class Checker {
 public:
  explicit Checker(const std::vector<std::int32_t>& offsets) : offsets_(offsets) {
    result_.types.resize(offsets.size());
    result_.calls.resize(offsets.size());
  }

  CheckResult Run(const Expr& root) {
    Check(root);
    for (TypePtr& type : result_.types) {
      if (type) type = Substitute(mapping_, type, true);
    }
    if (result_.issues.empty()) Validate(root);
    return std::move(result_);
  }

 private:
  std::int32_t OffsetOf(std::int64_t id) const { return offsets_[static_cast<std::size_t>(id)]; }
  void Report(std::int64_t id, std::string message) { result_.issues.push_back({OffsetOf(id), std::move(message)}); }
  void SetType(const Expr& e, TypePtr type) { result_.types[static_cast<std::size_t>(e.id)] = std::move(type); }
  TypePtr TypeOf(const Expr& e) const {
    const TypePtr& t = result_.types[static_cast<std::size_t>(e.id)];
    return t ? t : Type::Error();
  }
  TypePtr NewTypeVar() { return Type::Param("_var" + std::to_string(next_type_var_++)); }
  bool Assignable(const TypePtr& t1, const TypePtr& t2) { return IsAssignable(mapping_, t1, t2); }

  // Identifiers: comprehension variables (innermost first), then the declarations.
  TypePtr LookupIdent(std::string_view name) const {
    if (name.empty() || name[0] != '.') {
      for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) {
        auto it = scope->find(name);
        if (it != scope->end()) return it->second;
      }
    }
    name = StripLeadingDot(name);
    if (name == "device") return DeviceType();
    return TypeIdentifier(name);
  }

  void Check(const Expr& e) {
    switch (e.kind) {
      case ExprKind::kConstant:
        SetType(e, ConstantType(e.constant));
        return;
      case ExprKind::kIdent: {
        TypePtr type = LookupIdent(e.name);
        if (!type) {
          Report(e.id, "undeclared reference to '" + e.name + "' (in container '')");
          type = Type::Error();
        }
        SetType(e, std::move(type));
        return;
      }
      case ExprKind::kSelect: {
        // A dotted name may denote a type (net.IP), whatever its first segment is bound to, as
        // cel-go resolves qualified names before field selections.
        if (std::optional<std::string> name = QualifiedName(e); name.has_value()) {
          if (TypePtr type = TypeIdentifier(StripLeadingDot(*name)); type) {
            SetType(e, std::move(type));
            return;
          }
        }
        TypePtr type = CheckSelectField(e, *e.operand, e.name, false);
        if (e.test_only) type = Type::Bool();
        SetType(e, Substitute(mapping_, type, false));
        return;
      }
      case ExprKind::kCall:
        CheckCall(e);
        return;
      case ExprKind::kList:
        CheckList(e);
        return;
      case ExprKind::kMap:
        CheckMap(e);
        return;
      case ExprKind::kStruct:
        Report(e.id, "undeclared reference to '" + e.name + "' (in container '')");
        SetType(e, Type::Error());
        return;
      case ExprKind::kComprehension:
        CheckComprehension(e);
        return;
    }
  }

  static TypePtr ConstantType(const Constant& c) {
    switch (c.kind) {
      case Constant::Kind::kNull: return Type::Null();
      case Constant::Kind::kBool: return Type::Bool();
      case Constant::Kind::kInt: return Type::Int();
      case Constant::Kind::kUint: return Type::Uint();
      case Constant::Kind::kDouble: return Type::Double();
      case Constant::Kind::kString: return Type::String();
      case Constant::Kind::kBytes: return Type::Bytes();
    }
    return Type::Dyn();
  }

  TypePtr CheckSelectField(const Expr& e, const Expr& operand, const std::string& field, bool optional) {
    Check(operand);
    TypePtr target = Substitute(mapping_, TypeOf(operand), false);
    const bool is_optional = target->IsOptional();
    if (is_optional) target = target->params[0];
    TypePtr result = Type::Error();
    switch (target->kind) {
      case TypeKind::kMap:
        result = target->params[1];
        break;
      case TypeKind::kStruct:
        if (target->name != kDeviceStruct) {
          // Quantity and Semver are opaque to the type provider.
          Report(e.id, "unexpected failed resolution of '" + target->name + "'");
        } else if (TypePtr field_type = FieldType(*target, field); field_type) {
          result = std::move(field_type);
        } else {
          Report(e.id, "undefined field '" + field + "'");
        }
        break;
      case TypeKind::kTypeParam:
        Assignable(Type::Dyn(), target);
        result = Type::Dyn();
        break;
      default:
        if (!IsDynOrAny(*target) && target->kind != TypeKind::kError) {
          Report(e.id, "type '" + FormatType(*target) + "' does not support field selection");
        }
        result = Type::Dyn();
        break;
    }
    if (is_optional || optional) return Type::Optional(result);
    return result;
  }

  void CheckCall(const Expr& e) {
    if (e.name == "_?._" && e.args.size() == 2 && e.args[1]->kind == ExprKind::kConstant &&
        e.args[1]->constant.kind == Constant::Kind::kString) {
      const TypePtr type = CheckSelectField(e, *e.args[0], e.args[1]->constant.string_value, true);
      SetType(e, Substitute(mapping_, type, false));
      return;
    }
    for (const ExprPtr& arg : e.args) Check(*arg);
    const FunctionRegistry& functions = Functions();
    if (!e.operand) {
      const FunctionDecl* fn = functions.Find(StripLeadingDot(e.name));
      if (fn == nullptr) {
        Report(e.id, "undeclared reference to '" + e.name + "' (in container '')");
        SetType(e, Type::Error());
        return;
      }
      ResolveOverload(e, *fn, nullptr, false);
      return;
    }
    // target.f(...) may name a namespaced function (sets.contains, optional.of, ...).
    if (std::optional<std::string> prefix = QualifiedName(*e.operand); prefix.has_value()) {
      if (const FunctionDecl* fn = functions.Find(StripLeadingDot(*prefix + "." + e.name)); fn != nullptr) {
        ResolveOverload(e, *fn, nullptr, true);
        return;
      }
    }
    Check(*e.operand);
    const FunctionDecl* fn = functions.Find(e.name);
    if (fn == nullptr) {
      SetType(e, Type::Error());
      Report(e.id, "undeclared reference to '" + e.name + "' (in container '')");
      return;
    }
    ResolveOverload(e, *fn, e.operand.get(), false);
  }

  void ResolveOverload(const Expr& call, const FunctionDecl& fn, const Expr* target, bool namespaced) {
    std::vector<TypePtr> arg_types;
    if (target != nullptr) arg_types.push_back(TypeOf(*target));
    for (const ExprPtr& arg : call.args) arg_types.push_back(TypeOf(*arg));

    CallReference& reference = result_.calls[static_cast<std::size_t>(call.id)];
    reference.function = &fn;
    reference.namespaced = namespaced;

    if (fn.name == "_&&_" || fn.name == "_||_") {
      bool ok = true;
      for (std::size_t i = 0; i < arg_types.size(); ++i) {
        if (!Assignable(arg_types[i], Type::Bool())) {
          Report(call.args[i]->id, "expected type 'bool' but found '" + FormatType(*arg_types[i]) + "'");
          ok = false;
        }
      }
      SetType(call, ok ? Type::Bool() : Type::Error());
      if (ok) reference.overloads.push_back(0);
      return;
    }

    TypePtr result;
    for (std::size_t i = 0; i < fn.overloads.size(); ++i) {
      const OverloadDecl& overload = fn.overloads[i];
      if ((target == nullptr) == overload.member) continue;
      std::vector<TypePtr> params = overload.params;
      TypePtr overload_result = overload.result;
      if (!overload.type_params.empty()) {
        TypeMapping fresh;
        for (const std::string& name : overload.type_params) fresh.Add(*Type::Param(name), NewTypeVar());
        for (TypePtr& param : params) param = Substitute(fresh, param, false);
        overload_result = Substitute(fresh, overload_result, false);
      }
      if (!IsAssignableList(mapping_, arg_types, params)) continue;
      reference.overloads.push_back(i);
      TypePtr fn_result = Substitute(mapping_, overload_result, false);
      if (!result) {
        result = std::move(fn_result);
      } else if (!IsDynOrAny(*result) && !IsExactType(*fn_result, *result)) {
        result = Type::Dyn();
      }
    }
    if (!result) {
      std::string signature;
      std::size_t first = 0;
      if (target != nullptr) {
        signature = FormatType(*Substitute(mapping_, arg_types[0], true)) + ".";
        first = 1;
      }
      signature += "(";
      for (std::size_t i = first; i < arg_types.size(); ++i) {
        if (i > first) signature += ", ";
        signature += FormatType(*Substitute(mapping_, arg_types[i], true));
      }
      signature += ")";
      Report(call.id, "found no matching overload for '" + fn.name + "' applied to '" + signature + "'");
      SetType(call, Type::Error());
      return;
    }
    SetType(call, std::move(result));
  }

  TypePtr JoinTypes(const Expr&, const TypePtr& previous, const TypePtr& current) {
    if (!previous) return current;
    if (Assignable(previous, current)) return MostGeneral(previous, current);
    return Type::Dyn();
  }

  void CheckList(const Expr& e) {
    TypePtr element_type;
    for (std::size_t i = 0; i < e.args.size(); ++i) {
      const Expr& element = *e.args[i];
      Check(element);
      TypePtr type = TypeOf(element);
      if (IsOptionalIndex(e, i)) {
        if (type->IsOptional()) {
          type = type->params[0];
        } else if (!IsDynOrAny(*type)) {
          Report(element.id, "expected type '" + FormatType(*Type::Optional(type)) + "' but found '" +
                                 FormatType(*type) + "'");
        }
      }
      element_type = JoinTypes(element, element_type, type);
    }
    if (!element_type) element_type = NewTypeVar();
    SetType(e, Type::List(element_type));
  }

  static bool IsOptionalIndex(const Expr& list, std::size_t i) {
    for (std::int32_t index : list.optional_indices) {
      if (static_cast<std::size_t>(index) == i) return true;
    }
    return false;
  }

  void CheckMap(const Expr& e) {
    TypePtr key_type;
    TypePtr value_type;
    for (const MapEntry& entry : e.entries) {
      Check(*entry.key);
      key_type = JoinTypes(*entry.key, key_type, TypeOf(*entry.key));
      Check(*entry.value);
      TypePtr type = TypeOf(*entry.value);
      if (entry.optional) {
        if (type->IsOptional()) {
          type = type->params[0];
        } else if (!IsDynOrAny(*type)) {
          Report(entry.value->id, "expected type '" + FormatType(*Type::Optional(type)) + "' but found '" +
                                      FormatType(*type) + "'");
        }
      }
      value_type = JoinTypes(*entry.value, value_type, type);
    }
    if (!key_type) {
      key_type = NewTypeVar();
      value_type = NewTypeVar();
    }
    SetType(e, Type::Map(key_type, value_type));
  }

  void CheckComprehension(const Expr& e) {
    Check(*e.iter_range);
    Check(*e.accu_init);
    const TypePtr range = Substitute(mapping_, TypeOf(*e.iter_range), false);
    const TypePtr accu = TypeOf(*e.accu_init);
    scopes_.push_back({{e.accu_var, accu}});
    TypePtr var_type;
    TypePtr var2_type;
    const bool two = !e.iter_var2.empty();
    switch (range->kind) {
      case TypeKind::kList:
        var_type = range->params[0];
        if (two) {
          var2_type = var_type;
          var_type = Type::Int();
        }
        break;
      case TypeKind::kMap:
        var_type = range->params[0];
        if (two) var2_type = range->params[1];
        break;
      case TypeKind::kDyn:
      case TypeKind::kError:
      case TypeKind::kTypeParam:
        Assignable(Type::Dyn(), range);
        var_type = Type::Dyn();
        if (two) var2_type = Type::Dyn();
        break;
      default:
        Report(e.iter_range->id, "expression of type '" + FormatType(*range) +
                                     "' cannot be range of a comprehension (must be list, map, or dynamic)");
        var_type = Type::Error();
        if (two) var2_type = Type::Error();
        break;
    }
    std::map<std::string, TypePtr, std::less<>> loop{{e.iter_var, var_type}};
    if (two) loop[e.iter_var2] = var2_type;
    scopes_.push_back(std::move(loop));
    Check(*e.loop_condition);
    AssertType(*e.loop_condition, Type::Bool());
    Check(*e.loop_step);
    AssertType(*e.loop_step, accu);
    scopes_.pop_back();
    Check(*e.result);
    scopes_.pop_back();
    SetType(e, Substitute(mapping_, TypeOf(*e.result), false));
  }

  void AssertType(const Expr& e, const TypePtr& expected) {
    const TypePtr actual = TypeOf(e);
    if (!Assignable(expected, actual)) {
      Report(e.id, "expected type '" + FormatType(*expected) + "' but found '" + FormatType(*actual) + "'");
    }
  }

  // --- validators -------------------------------------------------------------------------------

  // `in_format`: below a call of "format", where list and map literals need not be homogeneous
  // (the string.format validator's exemption).
  void Validate(const Expr& e, bool in_format = false) {
    switch (e.kind) {
      case ExprKind::kCall:
        ValidateFormatLiteral(e);
        if (e.name == "matches" && !e.args.empty() && e.args[0]->kind == ExprKind::kConstant &&
            e.args[0]->constant.kind == Constant::Kind::kString &&
            !CompileRegex(e.args[0]->constant.string_value).ok()) {
          Report(e.args[0]->id, "invalid matches argument");
        }
        // cel.ValidateDurationLiterals / ValidateTimestampLiterals: a literal argument must
        // convert.
        if ((e.name == "duration" || e.name == "timestamp") && !e.args.empty() &&
            e.args[0]->kind == ExprKind::kConstant) {
          const Value converted = e.name == "duration" ? ToDuration(ConstantValue(e.args[0]->constant))
                                                       : ToTimestamp(ConstantValue(e.args[0]->constant));
          if (converted.IsError()) Report(e.args[0]->id, "invalid " + e.name + " argument");
        }
        break;
      case ExprKind::kList: {
        if (in_format) break;
        TypePtr first;
        for (std::size_t i = 0; i < e.args.size(); ++i) {
          TypePtr type = TypeOf(*e.args[i]);
          if (IsOptionalIndex(e, i) && !type->params.empty()) type = type->params[0];
          if (!first) {
            first = type;
            continue;
          }
          if (!IsEquivalentType(*first, *type)) {
            Report(e.args[i]->id,
                   "expected type '" + FormatType(*first) + "' but found '" + FormatType(*type) + "'");
            break;
          }
        }
        break;
      }
      case ExprKind::kMap: {
        if (in_format) break;
        TypePtr first_key;
        TypePtr first_value;
        for (const MapEntry& entry : e.entries) {
          const TypePtr key = TypeOf(*entry.key);
          TypePtr value = TypeOf(*entry.value);
          if (entry.optional && !value->params.empty()) value = value->params[0];
          if (!first_key) {
            first_key = key;
            first_value = value;
            continue;
          }
          if (!IsEquivalentType(*first_key, *key)) {
            Report(entry.key->id,
                   "expected type '" + FormatType(*first_key) + "' but found '" + FormatType(*key) + "'");
          }
          if (!IsEquivalentType(*first_value, *value)) {
            Report(entry.value->id,
                   "expected type '" + FormatType(*first_value) + "' but found '" + FormatType(*value) + "'");
          }
        }
        break;
      }
      default:
        break;
    }
    const bool children_in_format = in_format || (e.kind == ExprKind::kCall && e.name == "format" &&
                                                  !result_.calls[static_cast<std::size_t>(e.id)].namespaced);
    if (e.operand) Validate(*e.operand, children_in_format);
    for (const ExprPtr& arg : e.args) Validate(*arg, children_in_format);
    for (const MapEntry& entry : e.entries) {
      Validate(*entry.key, children_in_format);
      Validate(*entry.value, children_in_format);
    }
    for (const StructField& field : e.fields) Validate(*field.value, children_in_format);
    for (const ExprPtr* child : {&e.iter_range, &e.accu_init, &e.loop_condition, &e.loop_step, &e.result}) {
      if (*child) Validate(**child, children_in_format);
    }
  }

  // ext.Strings' format validator: "<literal>".format([<literals>]) resolved to string_format.
  void ValidateFormatLiteral(const Expr& e) {
    if (e.name != "format" || !e.operand || e.args.size() != 1 || e.args[0]->kind != ExprKind::kList) return;
    if (e.operand->kind != ExprKind::kConstant || e.operand->constant.kind != Constant::Kind::kString) return;
    const CallReference& reference = result_.calls[static_cast<std::size_t>(e.id)];
    if (reference.function == nullptr || reference.namespaced) return;
    bool string_format = reference.overloads.empty();
    for (std::size_t index : reference.overloads) {
      string_format = string_format || reference.function->overloads[index].id == "string_format";
    }
    if (!string_format) return;
    std::optional<FormatIssue> issue = ValidateFormatCall(e.operand->constant.string_value, *e.args[0], e.id,
                                                          [this](const Expr& node) { return TypeOf(node); });
    if (issue.has_value()) Report(issue->id, std::move(issue->message));
  }

  const std::vector<std::int32_t>& offsets_;
  CheckResult result_;
  TypeMapping mapping_;
  int next_type_var_ = 0;
  std::vector<std::map<std::string, TypePtr, std::less<>>> scopes_;
};

}  // namespace

std::optional<std::string> QualifiedName(const Expr& e) {
  if (e.kind == ExprKind::kIdent) return e.name;
  if (e.kind == ExprKind::kSelect && !e.test_only && e.operand) {
    std::optional<std::string> prefix = QualifiedName(*e.operand);
    if (prefix.has_value()) return *prefix + "." + e.name;
  }
  return std::nullopt;
}

TypePtr DeviceType() {
  static const TypePtr type = Type::Struct(std::string(kDeviceStruct));
  return type;
}

TypePtr TypeIdentifier(std::string_view name) {
  if (name == "bool") return Type::TypeOf(Type::Bool());
  if (name == "bytes") return Type::TypeOf(Type::Bytes());
  if (name == "double") return Type::TypeOf(Type::Double());
  if (name == "int") return Type::TypeOf(Type::Int());
  if (name == "uint") return Type::TypeOf(Type::Uint());
  if (name == "string") return Type::TypeOf(Type::String());
  if (name == "null_type") return Type::TypeOf(Type::Null());
  if (name == "list") return Type::TypeOf(Type::List(Type::Dyn()));
  if (name == "map") return Type::TypeOf(Type::Map(Type::Dyn(), Type::Dyn()));
  if (name == "type") return Type::TypeOf(Type::TypeOf(nullptr));
  if (name == "optional_type") return Type::TypeOf(Type::Optional(nullptr));
  if (name == "net.IP") return Type::TypeOf(Type::IP());
  if (name == "net.CIDR") return Type::TypeOf(Type::CIDR());
  if (name == "google.protobuf.Timestamp" || name == "timestamp") return Type::TypeOf(Type::Timestamp());
  if (name == "google.protobuf.Duration" || name == "duration") return Type::TypeOf(Type::Duration());
  return nullptr;
}

CheckResult Check(const Expr& root, const std::vector<std::int32_t>& offsets) { return Checker(offsets).Run(root); }

}  // namespace ksched::plugins::dynamic_resources::cel
