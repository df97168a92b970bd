#include "plugins/dynamic_resources/cel/evaluator.h"

#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <string_view>
#include <utility>

#include "absl/status/status.h"
#include "plugins/dynamic_resources/cel/device_view.h"
#include "plugins/dynamic_resources/cel/regex.h"

namespace ksched::plugins::dynamic_resources::cel {
namespace {

enum class Op : std::uint8_t {
  kConst,
  kDevice,
  kLocal,
  kSelect,     // operand.field (test_only: has())
  kOptSelect,  // operand.?field
  kIndex,      // operand[index]
  kOptIndex,   // operand[?index]
  kAnd,
  kOr,
  kConditional,
  kNotStrictlyFalse,
  kEquals,
  kNotEquals,
  kOptionalOr,       // a.or(b)
  kOptionalOrValue,  // a.orValue(b)
  kCall,
  kList,
  kMap,  // children: key, value, key, value, ...
  kComprehension,  // children: range, accu init, condition, step, result
};

// The type names an identifier may denote, with static storage.
std::string_view StaticTypeName(std::string_view name) {
  static constexpr std::string_view kNames[] = {
      "bool", "bytes", "double", "int", "uint", "string", "list", "map", "null_type", "type", "optional_type",
      "net.IP", "net.CIDR", "google.protobuf.Timestamp", "google.protobuf.Duration"};
  for (std::string_view known : kNames) {
    if (known == name) return known;
  }
  return {};
}

bool IsConversion(std::string_view function) {
  return function == "bool" || function == "bytes" || function == "double" || function == "duration" ||
         function == "dyn" || function == "int" || function == "string" || function == "timestamp" ||
         function == "type" || function == "uint";
}

bool UsesRegex(std::string_view function) {
  return function == "matches" || function == "find" || function == "findAll";
}

Value CostError() { return Value::Error(std::string(kCostLimitExceeded)); }

// The index types cel-go's attribute qualifiers take; any other is an error (at planning time for
// a constant index).
bool IsQualifier(const Value& index) {
  switch (index.kind()) {
    case ValueKind::kString:
    case ValueKind::kInt:
    case ValueKind::kUint:
    case ValueKind::kBool:
    case ValueKind::kDouble:
      return true;
    default:
      return false;
  }
}

std::string InvalidQualifier(const Value& index) {
  return "invalid qualifier type: " + std::string(GoTypeNameOf(index));
}

}  // namespace

struct Program::Node {
  Op op = Op::kConst;
  Value value;          // kConst (owning; handed out borrowed)
  // kConst that cel-go's planner also sees as a constant (literals, type names, folded
  // conversions and literal lists/maps): only those fold with compile-time errors there.
  bool upstream_const = false;
  std::string text;     // storage of a constant string / the selected field
  bool test_only = false;
  std::size_t slot = 0;  // kLocal
  std::vector<std::unique_ptr<Node>> children;
  std::vector<bool> optional;  // kList: per element; kMap: per entry
  const FunctionDecl* function = nullptr;
  const OverloadDecl* overload = nullptr;  // the only statically matching overload, if one
  std::shared_ptr<const re2::RE2> regex;   // a constant pattern
  // kComprehension
  std::size_t iter_slot = 0;
  std::size_t iter_slot2 = 0;
  std::size_t accu_slot = 0;
  bool two_vars = false;
};

namespace {

using Node = Program::Node;

struct Slot {
  Value value;
  const Node* init = nullptr;  // evaluated on first use (a comprehension's accumulator)
  bool initialized = true;
};

class Evaluation {
 public:
  Evaluation(const CelDevice* device, std::size_t slots) : device_(device), budget_(kEvalBudget) {
    if (slots > inline_slots_.size()) {
      heap_slots_.resize(slots);
      slots_ = heap_slots_.data();
    } else {
      slots_ = inline_slots_.data();
    }
  }
  Evaluation(const Evaluation&) = delete;
  Evaluation& operator=(const Evaluation&) = delete;

  bool exhausted() const { return budget_.exhausted(); }

  Value Eval(const Node& node) {
    switch (node.op) {
      case Op::kConst:
        return node.value.Borrowed();
      case Op::kDevice:
        return Value::DeviceMap(MapRep::kDevice, device_);
      case Op::kLocal:
        return Local(node.slot);
      case Op::kSelect:
        return EvalSelect(node);
      case Op::kOptSelect:
        return EvalOptSelect(node);
      case Op::kIndex:
      case Op::kOptIndex:
        return EvalIndex(node, node.op == Op::kOptIndex);
      case Op::kAnd:
      case Op::kOr:
        return EvalLogical(node, node.op == Op::kAnd);
      case Op::kConditional: {
        const Value condition = Eval(*node.children[0]);
        if (condition.kind() == ValueKind::kBool) return Eval(*node.children[condition.bool_value() ? 1 : 2]);
        return ErrorOrNoSuchOverload(condition);
      }
      case Op::kNotStrictlyFalse: {
        Value v = Eval(*node.children[0]);
        return v.kind() == ValueKind::kBool ? v : Value::Bool(true);
      }
      case Op::kEquals:
      case Op::kNotEquals: {
        const Value lhs = Eval(*node.children[0]);
        const Value rhs = Eval(*node.children[1]);
        if (lhs.IsError()) return lhs;
        if (rhs.IsError()) return rhs;
        if (node.op == Op::kEquals) return Equal(lhs, rhs);
        return Value::Bool(!EqualBool(lhs, rhs));
      }
      case Op::kOptionalOr:
      case Op::kOptionalOrValue: {
        Value lhs = Eval(*node.children[0]);
        if (lhs.kind() != ValueKind::kOptional) return lhs;
        if (lhs.optional_value() != nullptr) return node.op == Op::kOptionalOr ? lhs : *lhs.optional_value();
        return Eval(*node.children[1]);
      }
      case Op::kCall:
        return EvalCall(node);
      case Op::kList:
        return EvalList(node);
      case Op::kMap:
        return EvalMap(node);
      case Op::kComprehension:
        return EvalComprehension(node);
    }
    return Value::Error("unknown node");
  }

 private:
  Value Local(std::size_t index) {
    Slot& slot = slots_[index];
    if (!slot.initialized) {
      const Node* init = slot.init;
      slot.init = nullptr;
      slot.initialized = true;
      Value v = Eval(*init);
      slots_[index].value = std::move(v);
    }
    return slots_[index].value;
  }

  // The entry `key` of a container: its value, nullopt when absent, or an error value for an
  // unusable list index.
  static std::optional<Value> Lookup(const Value& container, const Value& key) {
    if (container.kind() == ValueKind::kMap) return MapFind(container, key);
    if (container.kind() != ValueKind::kList) return std::nullopt;
    std::int64_t index = 0;
    switch (key.kind()) {
      case ValueKind::kInt:
        index = key.int_value();
        break;
      case ValueKind::kUint:
        if (key.uint_value() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
          return Value::Error("unsupported index value " + FormatValue(key) + " in list");
        }
        index = static_cast<std::int64_t>(key.uint_value());
        break;
      case ValueKind::kDouble: {
        const double d = key.double_value();
        if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0) || d != std::trunc(d)) {
          return Value::Error("unsupported index value " + FormatValue(key) + " in list");
        }
        index = static_cast<std::int64_t>(d);
        break;
      }
      default:
        return Value::Error("unsupported index type '" + std::string(TypeNameOf(key)) + "' in list");
    }
    const auto& elements = container.list().elements;
    if (index < 0 || index >= static_cast<std::int64_t>(elements.size())) return std::nullopt;
    return elements[static_cast<std::size_t>(index)];
  }

  Value EvalSelect(const Node& node) {
    const Value operand = Eval(*node.children[0]);
    if (operand.IsError()) return operand;
    const Value key = Value::BorrowedString(node.text);
    if (operand.kind() == ValueKind::kOptional) {
      if (operand.optional_value() == nullptr) return node.test_only ? Value::Bool(false) : Value::OptionalNone();
      std::optional<Value> found = Lookup(*operand.optional_value(), key);
      if (node.test_only) return Value::Bool(found.has_value());
      return found.has_value() ? Value::Optional(*std::move(found)) : Value::OptionalNone();
    }
    std::optional<Value> found = operand.kind() == ValueKind::kMap ? MapFind(operand, key) : std::nullopt;
    if (node.test_only) return Value::Bool(found.has_value());
    if (!found.has_value()) return Value::Error("no such key: " + node.text);
    return *std::move(found);
  }

  Value EvalOptSelect(const Node& node) {
    Value operand = Eval(*node.children[0]);
    if (operand.IsError()) return operand;
    if (operand.kind() == ValueKind::kOptional) {
      if (operand.optional_value() == nullptr) return operand;
      operand = *operand.optional_value();
    }
    std::optional<Value> found =
        operand.kind() == ValueKind::kMap ? MapFind(operand, Value::BorrowedString(node.text)) : std::nullopt;
    return found.has_value() ? Value::Optional(*std::move(found)) : Value::OptionalNone();
  }

  Value EvalIndex(const Node& node, bool optional_index) {
    Value operand = Eval(*node.children[0]);
    const Value index = Eval(*node.children[1]);
    if (operand.IsError()) return operand;
    if (index.IsError()) return index;
    if (!IsQualifier(index)) return Value::Error(InvalidQualifier(index));
    bool wrap = optional_index;
    if (operand.kind() == ValueKind::kOptional) {
      if (operand.optional_value() == nullptr) return operand;
      operand = *operand.optional_value();
      wrap = true;
    }
    std::optional<Value> found = Lookup(operand, index);
    if (found.has_value() && found->IsError()) return *std::move(found);
    if (wrap) return found.has_value() ? Value::Optional(*std::move(found)) : Value::OptionalNone();
    if (found.has_value()) return *std::move(found);
    if (operand.kind() == ValueKind::kList) return Value::Error("index out of bounds: " + FormatValue(index));
    return Value::Error("no such key: " + FormatValue(index));
  }

  // cel-go's evalAnd / evalOr over two terms: a deciding value wins over an error.
  Value EvalLogical(const Node& node, bool is_and) {
    const bool decisive = !is_and;  // && is decided by false, || by true
    Value lhs = Eval(*node.children[0]);
    if (lhs.kind() == ValueKind::kBool && lhs.bool_value() == decisive) return lhs;
    Value rhs = Eval(*node.children[1]);
    if (rhs.kind() == ValueKind::kBool && rhs.bool_value() == decisive) return rhs;
    if (lhs.kind() != ValueKind::kBool) return ErrorOrNoSuchOverload(lhs);
    if (rhs.kind() != ValueKind::kBool) return ErrorOrNoSuchOverload(rhs);
    return Value::Bool(!decisive);
  }

  Value EvalCall(const Node& node) {
    const std::size_t n = node.children.size();
    std::array<Value, 4> small;
    std::vector<Value> large;
    Value* args = small.data();
    if (n > small.size()) {
      large.resize(n);
      args = large.data();
    }
    for (std::size_t i = 0; i < n; ++i) {
      args[i] = Eval(*node.children[i]);
      if (args[i].IsError()) return args[i];
    }
    const std::span<const Value> span(args, n);
    CallContext ctx{&budget_, node.regex.get()};
    const FunctionDecl& fn = *node.function;
    if (fn.singleton != nullptr) return fn.singleton(ctx, span);
    const OverloadDecl* overload = node.overload;
    if (overload != nullptr) {
      if (!MatchesRuntimeSignature(*overload, span)) overload = nullptr;
    } else {
      overload = MatchOverload(fn, span);
    }
    if (overload == nullptr || overload->impl == nullptr) {
      // A constant pattern replaced the call by one that checks its arguments itself (cel-go's
      // regex optimizations), failing with a plain "no such overload".
      if (node.regex) return Value::Error("no such overload");
      return NoSuchOverload(fn.name, span);
    }
    return overload->impl(ctx, span);
  }

  Value EvalList(const Node& node) {
    std::vector<Value> elements;
    elements.reserve(node.children.size());
    for (std::size_t i = 0; i < node.children.size(); ++i) {
      Value v = Eval(*node.children[i]);
      if (v.IsError()) return v;
      if (node.optional[i]) {
        if (v.kind() != ValueKind::kOptional) {
          return Value::Error("cannot initialize optional list element from non-optional value " + FormatValue(v));
        }
        if (v.optional_value() == nullptr) continue;
        v = *v.optional_value();
      }
      elements.push_back(std::move(v));
    }
    if (!budget_.Charge(1 + elements.size())) return CostError();
    return Value::List(std::move(elements));
  }

  Value EvalMap(const Node& node) {
    auto map = std::make_shared<MapData>();
    for (std::size_t i = 0; i + 1 < node.children.size(); i += 2) {
      Value key = Eval(*node.children[i]);
      if (key.IsError()) return key;
      Value value = Eval(*node.children[i + 1]);
      if (value.IsError()) return value;
      auto existing = std::find_if(map->entries.begin(), map->entries.end(),
                                   [&](const auto& entry) { return SameMapKey(entry.first, key); });
      if (node.optional[i / 2]) {
        if (value.kind() != ValueKind::kOptional) {
          return Value::Error("cannot initialize optional entry '" + FormatValue(key) +
                              "' from non-optional value " + FormatValue(value));
        }
        if (value.optional_value() == nullptr) {
          if (existing != map->entries.end()) map->entries.erase(existing);
          continue;
        }
        value = *value.optional_value();
      }
      if (existing != map->entries.end()) {
        existing->second = std::move(value);
      } else {
        map->entries.emplace_back(std::move(key), std::move(value));
      }
    }
    if (!budget_.Charge(1 + map->entries.size())) return CostError();
    return Value::Map(std::move(map));
  }

  // One iteration: false when the loop is over (condition false, budget exhausted).
  bool Iterate(const Node& node) {
    if (!budget_.Charge(1)) return false;
    const Value condition = Eval(*node.children[2]);
    if (condition.kind() == ValueKind::kBool && !condition.bool_value()) return false;
    Value accu = Eval(*node.children[3]);
    Slot& slot = slots_[node.accu_slot];
    slot.value = std::move(accu);
    slot.initialized = true;
    slot.init = nullptr;
    return true;
  }

  void Bind(std::size_t index, Value value) {
    Slot& slot = slots_[index];
    slot.value = std::move(value);
    slot.initialized = true;
    slot.init = nullptr;
  }

  Value EvalComprehension(const Node& node) {
    const Value range = Eval(*node.children[0]);
    if (range.IsError()) return range;
    Slot& accu = slots_[node.accu_slot];
    accu.value = Value();
    accu.init = node.children[1].get();
    accu.initialized = false;
    if (range.kind() == ValueKind::kList) {
      const auto& elements = range.list().elements;
      for (std::size_t i = 0; i < elements.size(); ++i) {
        if (node.two_vars) {
          Bind(node.iter_slot, Value::Int(static_cast<std::int64_t>(i)));
          Bind(node.iter_slot2, elements[i]);
        } else {
          Bind(node.iter_slot, elements[i]);
        }
        if (!Iterate(node)) break;
      }
    } else if (range.kind() == ValueKind::kMap) {
      for (const Value& key : MapKeys(range)) {
        Bind(node.iter_slot, key);
        if (node.two_vars) Bind(node.iter_slot2, *MapFind(range, key));
        if (!Iterate(node)) break;
      }
    } else if (node.two_vars) {
      return Value::Error("unsupported comprehension range type: " + std::string(GoTypeNameOf(range)));
    } else {
      return Value::Error("got '" + std::string(GoTypeNameOf(range)) + "', expected iterable type");
    }
    if (budget_.exhausted()) return CostError();
    return Eval(*node.children[4]);
  }

  const CelDevice* device_;
  // The comprehension variables: on the stack for the usual few (cel.bind, one macro or two).
  std::array<Slot, 6> inline_slots_;
  std::vector<Slot> heap_slots_;
  Slot* slots_ = nullptr;
  EvalBudget budget_;
};

class Builder {
 public:
  explicit Builder(const CheckResult& checked) : checked_(checked) {}

  std::unique_ptr<Node> Build(const Expr& e) {
    auto node = std::make_unique<Node>();
    switch (e.kind) {
      case ExprKind::kConstant:
        node->op = Op::kConst;
        node->upstream_const = true;
        node->value = ConstantValue(e.constant, node->text);
        break;
      case ExprKind::kIdent:
        BuildIdent(e, *node);
        break;
      case ExprKind::kSelect:
        // A dotted type name (net.IP), as the checker resolved it.
        if (std::optional<std::string> name = QualifiedName(e); name.has_value()) {
          std::string_view type_name = *name;
          if (type_name.starts_with('.')) type_name.remove_prefix(1);
          if (const std::string_view known = StaticTypeName(type_name); !known.empty()) {
            node->op = Op::kConst;
            node->upstream_const = true;
            node->value = Value::Type(known);
            break;
          }
        }
        node->op = Op::kSelect;
        node->text = e.name;
        node->test_only = e.test_only;
        node->children.push_back(Build(*e.operand));
        break;
      case ExprKind::kCall:
        BuildCall(e, *node);
        break;
      case ExprKind::kList:
        node->op = Op::kList;
        for (std::size_t i = 0; i < e.args.size(); ++i) {
          node->children.push_back(Build(*e.args[i]));
          bool optional = false;
          for (std::int32_t index : e.optional_indices) optional = optional || static_cast<std::size_t>(index) == i;
          node->optional.push_back(optional);
        }
        FoldIfConstant(*node);
        break;
      case ExprKind::kMap:
        node->op = Op::kMap;
        for (const MapEntry& entry : e.entries) {
          node->children.push_back(Build(*entry.key));
          node->children.push_back(Build(*entry.value));
          node->optional.push_back(entry.optional);
        }
        FoldIfConstant(*node);
        break;
      case ExprKind::kStruct:
        node->op = Op::kConst;
        node->value = Value::Error("message literals are not supported");
        break;
      case ExprKind::kComprehension:
        BuildComprehension(e, *node);
        break;
    }
    return node;
  }

  std::size_t slots() const { return next_slot_; }
  const std::optional<std::string>& error() const { return error_; }

 private:
  static Value ConstantValue(const Constant& c, std::string& storage) {
    switch (c.kind) {
      case Constant::Kind::kNull: return Value::Null();
      case Constant::Kind::kBool: return Value::Bool(c.bool_value);
      case Constant::Kind::kInt: return Value::Int(c.int_value);
      case Constant::Kind::kUint: return Value::Uint(c.uint_value);
      case Constant::Kind::kDouble: return Value::Double(c.double_value);
      case Constant::Kind::kString:
        storage = c.string_value;
        return Value::BorrowedString(storage);
      case Constant::Kind::kBytes:
        storage = c.string_value;
        return Value::BorrowedBytes(storage);
    }
    return Value::Null();
  }

  void BuildIdent(const Expr& e, Node& node) {
    std::string_view name = e.name;
    if (name.empty() || name[0] != '.') {
      for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) {
        for (const auto& [var, slot] : *scope) {
          if (var == name) {
            node.op = Op::kLocal;
            node.slot = slot;
            return;
          }
        }
      }
    } else {
      name.remove_prefix(1);
    }
    if (name == "device") {
      node.op = Op::kDevice;
      return;
    }
    if (name == "timestamp" || name == "duration") {
      // The checker knows these names as types (apiserver's type provider); cel-go's planner
      // does not.
      Fail("reference to undefined type: " + std::string(name));
    }
    node.op = Op::kConst;
    node.upstream_const = true;
    node.value = Value::Type(StaticTypeName(name));
  }

  void BuildCall(const Expr& e, Node& node) {
    const std::string& name = e.name;
    auto operands = [&](std::initializer_list<const Expr*> exprs) {
      for (const Expr* child : exprs) node.children.push_back(Build(*child));
    };
    if (name == "_?._") {
      node.op = Op::kOptSelect;
      node.text = e.args[1]->constant.string_value;
      operands({e.args[0].get()});
      return;
    }
    static const std::pair<std::string_view, Op> kSpecial[] = {
        {"_&&_", Op::kAnd},         {"_||_", Op::kOr},           {"_?_:_", Op::kConditional},
        {"_==_", Op::kEquals},      {"_!=_", Op::kNotEquals},    {"@not_strictly_false", Op::kNotStrictlyFalse},
        {"_[_]", Op::kIndex},       {"_[?_]", Op::kOptIndex},
    };
    if (!e.operand) {
      for (const auto& [special, op] : kSpecial) {
        if (name == special) {
          node.op = op;
          for (const ExprPtr& arg : e.args) node.children.push_back(Build(*arg));
          if ((op == Op::kIndex || op == Op::kOptIndex) && node.children[1]->upstream_const &&
              !IsQualifier(node.children[1]->value)) {
            Fail(InvalidQualifier(node.children[1]->value));
          }
          return;
        }
      }
    }
    const CallReference& reference = checked_.calls[static_cast<std::size_t>(e.id)];
    if (e.operand && !reference.namespaced && e.args.size() == 1 && (name == "or" || name == "orValue")) {
      node.op = name == "or" ? Op::kOptionalOr : Op::kOptionalOrValue;
      operands({e.operand.get(), e.args[0].get()});
      return;
    }
    node.op = Op::kCall;
    node.function = reference.function;
    if (reference.overloads.size() == 1) node.overload = &reference.function->overloads[reference.overloads[0]];
    if (e.operand && !reference.namespaced) node.children.push_back(Build(*e.operand));
    for (const ExprPtr& arg : e.args) node.children.push_back(Build(*arg));

    const std::string& fn = node.function->name;
    // x in [] is false without evaluating x (cel-go's set membership optimization).
    if (fn == "@in" && node.children[1]->upstream_const && node.children[1]->value.kind() == ValueKind::kList &&
        node.children[1]->value.list().elements.empty()) {
      node.op = Op::kConst;
      node.upstream_const = true;
      node.value = Value::Bool(false);
      return;
    }
    if (UsesRegex(fn) && node.children.size() >= 2 && node.children[1]->upstream_const &&
        node.children[1]->value.kind() == ValueKind::kString) {
      absl::StatusOr<std::shared_ptr<const re2::RE2>> re = CompileRegex(node.children[1]->value.text());
      if (!re.ok()) {
        Fail(std::string(re.status().message()));
      } else {
        node.regex = *std::move(re);
      }
    }
    bool constant = true;
    bool upstream_const = true;
    for (const auto& child : node.children) {
      constant = constant && child->op == Op::kConst;
      upstream_const = upstream_const && child->upstream_const;
    }
    if (!constant) return;
    Evaluation evaluation(nullptr, 0);
    Value folded = evaluation.Eval(node);
    if (IsConversion(fn) && node.children.size() == 1 && upstream_const) {
      // cel.OptOptimize folds conversions of constants; an error fails the compilation.
      if (folded.IsError()) {
        Fail(std::string(folded.text()));
        return;
      }
      node.upstream_const = true;
    } else if (folded.IsError() || !IsSmall(folded)) {
      // Beyond upstream, other calls of constants are computed once (quantity("10Gi")): only
      // when that succeeds (a failure stays a runtime error) and the result is small.
      return;
    }
    // The result may borrow the arguments' storage: the children stay.
    node.op = Op::kConst;
    node.value = Owned(std::move(folded), node);
  }

  static bool IsSmall(const Value& value) {
    switch (value.kind()) {
      case ValueKind::kString:
      case ValueKind::kBytes:
        return value.text().size() <= 1024;
      case ValueKind::kList:
        return value.list().elements.size() <= 64;
      case ValueKind::kMap:
      case ValueKind::kOptional:
      case ValueKind::kError:
        return false;
      default:
        return true;
    }
  }

  // A folded value that may borrow from `node`'s children: copy borrowed strings into the node.
  static Value Owned(Value value, Node& node) {
    if ((value.kind() == ValueKind::kString || value.kind() == ValueKind::kBytes)) {
      node.text = std::string(value.text());
      return value.kind() == ValueKind::kString ? Value::BorrowedString(node.text) : Value::BorrowedBytes(node.text);
    }
    return value;
  }

  void FoldIfConstant(Node& node) {
    bool upstream_const = true;
    for (const auto& child : node.children) {
      if (child->op != Op::kConst) return;
      upstream_const = upstream_const && child->upstream_const;
    }
    Evaluation evaluation(nullptr, 0);
    Value folded = evaluation.Eval(node);
    // The elements borrow the children's storage, which stays alive with the node.
    node.op = Op::kConst;
    node.upstream_const = upstream_const;
    node.value = std::move(folded);
  }

  void BuildComprehension(const Expr& e, Node& node) {
    node.op = Op::kComprehension;
    node.children.push_back(Build(*e.iter_range));
    node.children.push_back(Build(*e.accu_init));
    node.accu_slot = next_slot_++;
    scopes_.push_back({{e.accu_var, node.accu_slot}});
    node.iter_slot = next_slot_++;
    std::vector<std::pair<std::string, std::size_t>> loop{{e.iter_var, node.iter_slot}};
    if (!e.iter_var2.empty()) {
      node.two_vars = true;
      node.iter_slot2 = next_slot_++;
      loop.emplace_back(e.iter_var2, node.iter_slot2);
    }
    scopes_.push_back(std::move(loop));
    node.children.push_back(Build(*e.loop_condition));
    node.children.push_back(Build(*e.loop_step));
    scopes_.pop_back();
    node.children.push_back(Build(*e.result));
    scopes_.pop_back();
  }

  void Fail(std::string message) {
    if (!error_.has_value()) error_ = std::move(message);
  }

  const CheckResult& checked_;
  std::vector<std::vector<std::pair<std::string, std::size_t>>> scopes_;
  std::size_t next_slot_ = 0;
  std::optional<std::string> error_;
};

}  // namespace

Program::Program() = default;
Program::~Program() = default;

absl::StatusOr<std::unique_ptr<const Program>> Program::Build(const Expr& root, const CheckResult& checked) {
  Builder builder(checked);
  std::unique_ptr<Node> node = builder.Build(root);
  if (builder.error().has_value()) {
    return absl::InvalidArgumentError("program instantiation failed: " + *builder.error());
  }
  auto program = std::unique_ptr<Program>(new Program());
  program->root_ = std::move(node);
  program->slots_ = builder.slots();
  return std::unique_ptr<const Program>(std::move(program));
}

Value Program::Evaluate(const CelDevice& device) const {
  Evaluation evaluation(&device, slots_);
  Value result = evaluation.Eval(*root_);
  if (evaluation.exhausted()) return CostError();
  return result;
}

}  // namespace ksched::plugins::dynamic_resources::cel
