// The CEL abstract syntax tree, shaped as cel-go's (common/ast): literals, identifiers, field
// selections (and has() presence tests), calls (operators are calls of "_+_", "_[_]", ...; a call
// with a target is a receiver-style call), list and map literals, message literals (parsed, then
// rejected by the checker as cel-go does for undeclared types) and comprehensions (the macros all,
// exists, map, filter, cel.bind, ... expand into them at parse time).
//
// Every node has an id, unique within its tree; the parser records the source offset of each id.
//
// Thread-safety: plain data.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ksched::plugins::dynamic_resources::cel {

// A literal value.
struct Constant {
  enum class Kind : std::uint8_t { kNull, kBool, kInt, kUint, kDouble, kString, kBytes };
  Kind kind = Kind::kNull;
  bool bool_value = false;
  std::int64_t int_value = 0;
  std::uint64_t uint_value = 0;
  double double_value = 0;
  std::string string_value;  // kString (UTF-8) and kBytes
};

enum class ExprKind : std::uint8_t {
  kConstant,
  kIdent,
  kSelect,
  kCall,
  kList,
  kMap,
  kStruct,
  kComprehension,
};

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct MapEntry {
  std::int64_t id = 0;
  ExprPtr key;
  ExprPtr value;
  bool optional = false;  // {?key: value}
};

struct StructField {
  std::int64_t id = 0;
  std::string name;
  ExprPtr value;
  bool optional = false;
};

struct Expr {
  std::int64_t id = 0;
  ExprKind kind = ExprKind::kConstant;

  Constant constant;  // kConstant
  // kIdent: the name; kSelect: the field; kCall: the function; kStruct: the message type name.
  std::string name;
  // kSelect: the operand; kCall: the receiver (null for a global call).
  ExprPtr operand;
  bool test_only = false;  // kSelect: has(operand.name)
  // kCall: the arguments; kList: the elements.
  std::vector<ExprPtr> args;
  std::vector<std::int32_t> optional_indices;  // kList: elements written [?e]
  std::vector<MapEntry> entries;               // kMap
  std::vector<StructField> fields;             // kStruct

  // kComprehension (cel-go's fold): for each element (list) or key (map) of iter_range, bound to
  // iter_var (with iter_var2: index/key and value), while loop_condition holds, accu_var =
  // loop_step; then result. accu_init is evaluated on the first use of accu_var.
  std::string iter_var;
  std::string iter_var2;  // empty: one-variable comprehension
  std::string accu_var;
  ExprPtr iter_range;
  ExprPtr accu_init;
  ExprPtr loop_condition;
  ExprPtr loop_step;
  ExprPtr result;
};

// The hidden accumulator of the macros (cel-go's parser.HiddenAccumulatorName) and the legacy one
// an iteration variable may not be named either.
inline constexpr const char* kAccumulatorName = "@result";
inline constexpr const char* kLegacyAccumulatorName = "__result__";

}  // namespace ksched::plugins::dynamic_resources::cel
