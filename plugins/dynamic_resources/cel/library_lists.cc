// List and set functions: the Kubernetes lists library (isSorted, sum, min, max, indexOf,
// lastIndexOf), cel-go's ext.Lists at version 3 (slice, flatten, sort, sortBy's
// @sortByAssociatedKeys, lists.range, reverse, distinct), ext.Sets (sets.contains,
// sets.equivalent, sets.intersects) and the two-variable comprehensions' cel.@mapInsert.
#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "plugins/dynamic_resources/cel/functions.h"

namespace ksched::plugins::dynamic_resources::cel {
namespace {

const std::vector<Value>& Elements(const Value& list) { return list.list().elements; }

// traits.Lister.Contains: element.Equal(item) for some item.
bool ListContains(const Value& list, const Value& element) {
  for (const Value& item : Elements(list)) {
    if (EqualBool(element, item)) return true;
  }
  return false;
}

Value IsSorted(CallContext&, std::span<const Value> args) {
  const Value* previous = nullptr;
  for (const Value& next : Elements(args[0])) {
    if (!IsComparable(next)) return ErrorOrNoSuchOverload(next);
    if (previous != nullptr) {
      const Value cmp = Compare(*previous, next);
      if (cmp.kind() == ValueKind::kInt && cmp.int_value() == 1) return Value::Bool(false);
    }
    previous = &next;
  }
  return Value::Bool(true);
}

template <ValueKind kZero>
Value Sum(CallContext& ctx, std::span<const Value> args) {
  Value acc = kZero == ValueKind::kInt        ? Value::Int(0)
              : kZero == ValueKind::kUint     ? Value::Uint(0)
              : kZero == ValueKind::kDuration ? Value::Duration(0)
                                              : Value::Double(0);
  const FunctionDecl* add = Functions().Find("_+_");
  for (const Value& next : Elements(args[0])) {
    if (!next.IsNumber() && next.kind() != ValueKind::kString && next.kind() != ValueKind::kBytes &&
        next.kind() != ValueKind::kList && next.kind() != ValueKind::kTimestamp &&
        next.kind() != ValueKind::kDuration) {
      return ErrorOrNoSuchOverload(next);
    }
    const Value operands[] = {acc, next};
    acc = add->singleton(ctx, std::span<const Value>(operands));
    if (acc.IsError()) return acc;
  }
  return acc;
}

template <int kPrefer>
Value MinMax(CallContext&, std::span<const Value> args) {
  const Value* result = nullptr;
  for (const Value& next : Elements(args[0])) {
    if (!IsComparable(next)) return ErrorOrNoSuchOverload(next);
    if (result == nullptr) {
      result = &next;
      continue;
    }
    const Value cmp = Compare(*result, next);
    if (cmp.kind() == ValueKind::kInt && cmp.int_value() == kPrefer) result = &next;
  }
  if (result == nullptr) return Value::Error(std::string(kPrefer == 1 ? "min" : "max") + " called on empty list");
  return *result;
}

Value ListIndexOf(CallContext&, std::span<const Value> args) {
  const auto& elements = Elements(args[0]);
  for (std::size_t i = 0; i < elements.size(); ++i) {
    if (EqualBool(elements[i], args[1])) return Value::Int(static_cast<std::int64_t>(i));
  }
  return Value::Int(-1);
}

Value ListLastIndexOf(CallContext&, std::span<const Value> args) {
  const auto& elements = Elements(args[0]);
  for (std::size_t i = elements.size(); i > 0; --i) {
    if (EqualBool(elements[i - 1], args[1])) return Value::Int(static_cast<std::int64_t>(i - 1));
  }
  return Value::Int(-1);
}

Value Slice(CallContext& ctx, std::span<const Value> args) {
  const auto& elements = Elements(args[0]);
  const std::int64_t start = args[1].int_value();
  const std::int64_t end = args[2].int_value();
  const std::string prefix = "cannot slice(" + std::to_string(start) + ", " + std::to_string(end) + "), ";
  if (start < 0 || end < 0) return Value::Error(prefix + "negative indexes not supported");
  if (start > end) return Value::Error(prefix + "start index must be less than or equal to end index");
  if (static_cast<std::int64_t>(elements.size()) < end) {
    return Value::Error(prefix + "list is length " + std::to_string(elements.size()));
  }
  return MakeList(ctx, std::vector<Value>(elements.begin() + start, elements.begin() + end));
}

void FlattenInto(const Value& list, std::int64_t depth, std::vector<Value>& out) {
  for (const Value& element : Elements(list)) {
    if (element.kind() != ValueKind::kList || depth == 0) {
      out.push_back(element);
    } else {
      FlattenInto(element, depth - 1, out);
    }
  }
}

// Without type guards upstream (DisableTypeGuards): any list flattens, whatever its elements.
Value Flatten(CallContext& ctx, std::span<const Value> args) {
  if (args[0].kind() != ValueKind::kList || (args.size() > 1 && args[1].kind() != ValueKind::kInt)) {
    std::string signature = "no such overload: " + std::string(TypeNameOf(args[0])) + ".flatten(";
    if (args.size() > 1) signature += TypeNameOf(args[1]);
    return Value::Error(signature + ")");
  }
  const std::int64_t depth = args.size() > 1 ? args[1].int_value() : 1;
  if (depth < 0) return Value::Error("level must be non-negative");
  std::vector<Value> out;
  FlattenInto(args[0], std::min<std::int64_t>(depth, 1000), out);
  return MakeList(ctx, std::move(out));
}

// sortListByAssociatedKeys (a stable sort; upstream's sort.Slice is not, so elements with equal
// keys may come out in another order than upstream's).
Value SortByKeys(CallContext& ctx, const Value& list, const Value& keys) {
  const auto& elements = Elements(list);
  const auto& key_values = Elements(keys);
  if (elements.size() != key_values.size()) {
    return Value::Error(
        "@sortByAssociatedKeys() expected a list of the same size as the associated keys list, but got " +
        std::to_string(elements.size()) + " and " + std::to_string(key_values.size()) + " elements respectively");
  }
  if (elements.empty()) return list;
  if (!IsComparable(key_values[0])) return Value::Error("list elements must be comparable");
  const ValueKind kind = key_values[0].kind();
  for (const Value& key : key_values) {
    if (key.kind() != kind) return Value::Error("list elements must have the same type");
  }
  std::vector<std::size_t> order(elements.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const Value cmp = Compare(key_values[a], key_values[b]);
    return cmp.kind() == ValueKind::kInt && cmp.int_value() < 0;
  });
  std::vector<Value> out;
  out.reserve(order.size());
  for (std::size_t i : order) out.push_back(elements[i]);
  return MakeList(ctx, std::move(out));
}

// Singletons over traits.Lister: another receiver is "no such overload: sort" (a plain "no such
// overload" for a string, which cel-go lets try its receiver methods).
Value NotALister(std::string_view function, const Value& receiver) {
  if (receiver.kind() == ValueKind::kString) return Value::Error("no such overload");
  return Value::Error("no such overload: " + std::string(function));
}

Value Sort(CallContext& ctx, std::span<const Value> args) {
  if (args[0].kind() != ValueKind::kList) return NotALister("sort", args[0]);
  return SortByKeys(ctx, args[0], args[0]);
}

Value SortByAssociatedKeys(CallContext& ctx, std::span<const Value> args) {
  if (args[0].kind() != ValueKind::kList) return NotALister("@sortByAssociatedKeys", args[0]);
  if (args[1].kind() != ValueKind::kList) return Value::Error("no such overload");
  return SortByKeys(ctx, args[0], args[1]);
}

Value Range(CallContext& ctx, std::span<const Value> args) {
  const std::int64_t n = args[0].int_value();
  if (n > 0 && ctx.budget != nullptr && !ctx.budget->Charge(static_cast<std::uint64_t>(n))) {
    return Value::Error(std::string(kCostLimitExceeded));
  }
  std::vector<Value> out;
  for (std::int64_t i = 0; i < n; ++i) out.push_back(Value::Int(i));
  return Value::List(std::move(out));
}

Value Reverse(CallContext& ctx, std::span<const Value> args) {
  std::vector<Value> out(Elements(args[0]).rbegin(), Elements(args[0]).rend());
  return MakeList(ctx, std::move(out));
}

Value Distinct(CallContext& ctx, std::span<const Value> args) {
  const auto& elements = Elements(args[0]);
  if (elements.empty()) return args[0];
  std::vector<Value> out;
  for (const Value& element : elements) {
    bool seen = false;
    for (const Value& kept : out) {
      if (EqualBool(element, kept)) {
        seen = true;
        break;
      }
    }
    if (!seen) out.push_back(element);
  }
  return MakeList(ctx, std::move(out));
}

Value SetsContains(CallContext&, std::span<const Value> args) {
  for (const Value& element : Elements(args[1])) {
    if (!ListContains(args[0], element)) return Value::Bool(false);
  }
  return Value::Bool(true);
}

Value SetsEquivalent(CallContext& ctx, std::span<const Value> args) {
  const Value forward = SetsContains(ctx, args);
  if (!forward.bool_value()) return forward;
  const Value reversed[] = {args[1], args[0]};
  return SetsContains(ctx, std::span<const Value>(reversed));
}

Value SetsIntersects(CallContext&, std::span<const Value> args) {
  for (const Value& element : Elements(args[0])) {
    if (ListContains(args[1], element)) return Value::Bool(true);
  }
  return Value::Bool(false);
}

// types.InsertMapKeyValue into a copy of the accumulator map.
Value MapInsert(CallContext& ctx, std::span<const Value> args) {
  if (args[0].kind() != ValueKind::kMap || args[0].map_rep() != MapRep::kLiteral) {
    return NoSuchOverload("cel.@mapInsert", args);
  }
  auto out = std::make_shared<MapData>(args[0].map_data());
  auto insert = [&](const Value& key, const Value& value) -> Value {
    if (MapFind(Value::Map(out), key).has_value()) {
      return Value::Error("insert failed: key " + FormatValue(key) + " already exists");
    }
    out->entries.emplace_back(key, value);
    return Value();
  };
  if (args.size() == 3) {
    if (Value error = insert(args[1], args[2]); error.IsError()) return error;
  } else {
    if (args[1].kind() != ValueKind::kMap) return NoSuchOverload("cel.@mapInsert", args);
    for (const Value& key : MapKeys(args[1])) {
      if (Value error = insert(key, *MapFind(args[1], key)); error.IsError()) return error;
    }
  }
  if (ctx.budget != nullptr && !ctx.budget->Charge(out->entries.size())) {
    return Value::Error(std::string(kCostLimitExceeded));
  }
  return Value::Map(std::move(out));
}

}  // namespace

void RegisterListsLibrary(FunctionRegistry& r) {
  static constexpr const char* kComparable[] = {"int",      "uint",      "double", "bool",
                                                "duration", "timestamp", "string", "bytes"};
  for (const char* type : kComparable) {
    const std::string t = type;
    r.Member("isSorted", "list_" + t + "_is_sorted_bool", "list(" + t + ") -> bool", IsSorted);
  }
  r.Member("sum", "list_int_sum_int", "list(int) -> int", Sum<ValueKind::kInt>);
  r.Member("sum", "list_uint_sum_uint", "list(uint) -> uint", Sum<ValueKind::kUint>);
  r.Member("sum", "list_double_sum_double", "list(double) -> double", Sum<ValueKind::kDouble>);
  r.Member("sum", "list_duration_sum_duration", "list(duration) -> duration", Sum<ValueKind::kDuration>);
  for (const char* type : kComparable) {
    const std::string t = type;
    r.Member("max", "list_" + t + "_max_" + t, "list(" + t + ") -> " + t, MinMax<-1>);
  }
  for (const char* type : kComparable) {
    const std::string t = type;
    r.Member("min", "list_" + t + "_min_" + t, "list(" + t + ") -> " + t, MinMax<1>);
  }
  r.Member("indexOf", "list_a_index_of_int", "list(A), A -> int", ListIndexOf);
  r.Member("lastIndexOf", "list_a_last_index_of_int", "list(A), A -> int", ListLastIndexOf);

  r.Member("slice", "list_slice", "list(T), int, int -> list(T)", Slice);
  r.Function("flatten", Flatten);
  r.Member("flatten", "list_flatten", "list(list(T)) -> list(T)");
  r.Member("flatten", "list_flatten_int", "list(dyn), int -> list(dyn)");
  r.Function("sort", Sort);
  r.Function("@sortByAssociatedKeys", SortByAssociatedKeys);
  for (const char* type : kComparable) {
    const std::string t = type;
    r.Member("sort", "list_" + t + "_sort", "list(" + t + ") -> list(" + t + ")");
    r.Member("@sortByAssociatedKeys", "list_" + t + "_sortByAssociatedKeys", "list(T), list(" + t + ") -> list(T)");
  }
  r.Global("lists.range", "lists_range", "int -> list(int)", Range);
  r.Member("reverse", "list_reverse", "list(T) -> list(T)", Reverse);
  r.Member("distinct", "list_distinct", "list(T) -> list(T)", Distinct);

  r.Global("sets.contains", "list_sets_contains_list", "list(T), list(T) -> bool", SetsContains);
  r.Global("sets.equivalent", "list_sets_equivalent_list", "list(T), list(T) -> bool", SetsEquivalent);
  r.Global("sets.intersects", "list_sets_intersects_list", "list(T), list(T) -> bool", SetsIntersects);

  r.Global("cel.@mapInsert", "@mapInsert_map_key_value", "map(K, V), K, V -> map(K, V)", MapInsert);
  r.Global("cel.@mapInsert", "@mapInsert_map_map", "map(K, V), map(K, V) -> map(K, V)", MapInsert);
}

}  // namespace ksched::plugins::dynamic_resources::cel
