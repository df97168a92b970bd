// cel-go's optional types library (cel.OptionalTypes, latest version): optional.of,
// optional.ofNonZeroValue, optional.none, value, hasValue, or, orValue, first, last,
// optional.unwrap, unwrapOpt, and the declarations of `x.?f` / `x[?i]` and of indexing an
// optional. The evaluator implements the selections and the short-circuiting or/orValue.
#include <string>
#include <vector>

#include "plugins/dynamic_resources/cel/functions.h"

namespace ksched::plugins::dynamic_resources::cel {
namespace {

bool IsZeroValue(const Value& v) {
  switch (v.kind()) {
    case ValueKind::kNull: return true;
    case ValueKind::kBool: return !v.bool_value();
    case ValueKind::kInt: return v.int_value() == 0;
    case ValueKind::kUint: return v.uint_value() == 0;
    case ValueKind::kDouble: return v.double_value() == 0;
    case ValueKind::kString:
    case ValueKind::kBytes: return v.text().empty();
    case ValueKind::kList: return v.list().elements.empty();
    case ValueKind::kMap: return MapSize(v) == 0;
    case ValueKind::kOptional: return v.optional_value() == nullptr;
    default: return false;
  }
}

Value Of(CallContext&, std::span<const Value> args) { return Value::Optional(args[0]); }
Value OfNonZeroValue(CallContext&, std::span<const Value> args) {
  return IsZeroValue(args[0]) ? Value::OptionalNone() : Value::Optional(args[0]);
}
Value None(CallContext&, std::span<const Value>) { return Value::OptionalNone(); }

Value GetValue(CallContext&, std::span<const Value> args) {
  const Value* value = args[0].optional_value();
  if (value == nullptr) return Value::Error("optional.none() dereference");
  return *value;
}
Value HasValue(CallContext&, std::span<const Value> args) { return Value::Bool(args[0].optional_value() != nullptr); }

Value First(CallContext&, std::span<const Value> args) {
  const auto& elements = args[0].list().elements;
  return elements.empty() ? Value::OptionalNone() : Value::Optional(elements.front());
}
Value Last(CallContext&, std::span<const Value> args) {
  const auto& elements = args[0].list().elements;
  return elements.empty() ? Value::OptionalNone() : Value::Optional(elements.back());
}

Value Unwrap(CallContext& ctx, std::span<const Value> args) {
  std::vector<Value> out;
  for (const Value& element : args[0].list().elements) {
    if (element.kind() != ValueKind::kOptional) {
      return Value::Error("value " + FormatValue(element) + " is not optional");
    }
    if (element.optional_value() != nullptr) out.push_back(*element.optional_value());
  }
  return MakeList(ctx, std::move(out));
}

}  // namespace

void RegisterOptionalLibrary(FunctionRegistry& r) {
  r.Global("optional.of", "optional_of", "V -> optional(V)", Of);
  r.Global("optional.ofNonZeroValue", "optional_ofNonZeroValue", "V -> optional(V)", OfNonZeroValue);
  r.Global("optional.none", "optional_none", " -> optional(V)", None);
  r.Member("value", "optional_value", "optional(V) -> V", GetValue);
  r.Member("hasValue", "optional_hasValue", "optional(V) -> bool", HasValue);
  r.Member("or", "optional_or_optional", "optional(V), optional(V) -> optional(V)");
  r.Member("orValue", "optional_orValue_value", "optional(V), V -> V");
  r.Global("_?._", "select_optional_field", "dyn, string -> optional(V)");
  r.Global("_[?_]", "list_optindex_optional_int", "list(V), int -> optional(V)");
  r.Global("_[?_]", "optional_list_optindex_optional_int", "optional(list(V)), int -> optional(V)");
  r.Global("_[?_]", "map_optindex_optional_value", "map(K, V), K -> optional(V)");
  r.Global("_[?_]", "optional_map_optindex_optional_value", "optional(map(K, V)), K -> optional(V)");
  r.Global("_[_]", "optional_list_index_int", "optional(list(V)), int -> optional(V)");
  r.Global("_[_]", "optional_map_index_value", "optional(map(K, V)), K -> optional(V)");
  r.Member("last", "list_last", "list(V) -> optional(V)", Last);
  r.Member("first", "list_first", "list(V) -> optional(V)", First);
  r.Global("optional.unwrap", "optional_unwrap", "list(optional(V)) -> list(V)", Unwrap);
  r.Member("unwrapOpt", "optional_unwrapOpt", "list(optional(V)) -> list(V)", Unwrap);
}

}  // namespace ksched::plugins::dynamic_resources::cel
