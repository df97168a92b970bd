// The CEL evaluator: a checked AST planned into a tree of nodes (cel-go's interpreter.Planner with
// the Kubernetes program options), then evaluated against one device.
//
// Planning resolves identifiers (comprehension variables get frame slots, `device` the device view,
// type names constants; `timestamp` and `duration` as values fail with "reference to undefined
// type"), picks each call's implementation, and, as cel.OptOptimize does, folds type conversions of
// constants, timestamp() and duration() included (an error is a compile error, "program
// instantiation failed: integer overflow") and list/map literals of constants, compiles constant
// regex patterns of matches/find/findAll ("program instantiation failed: error parsing regexp:
// ..."), rejects constant indexes of unusable types ("invalid qualifier type: *types.Type") and
// turns `x in []` into false. Beyond upstream, and without changing any result, other calls of
// constants (quantity("10Gi"), semver("1.0.0")) are computed once when that succeeds.
//
// Evaluation follows cel-go's semantics: strict calls return their first erroneous argument;
// && and || absorb errors when the other side decides (false && error == false, error || true ==
// true); ?: evaluates one branch; comprehensions stop when their condition turns false and
// evaluate a macro's accumulator initializer (cel.bind's value) on first use; selecting a missing
// map key is "no such key: foo" while has() is false.
//
// Thread-safety: a Program is immutable; Evaluate may run on many threads at once.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "plugins/dynamic_resources/cel/ast.h"
#include "plugins/dynamic_resources/cel/checker.h"
#include "plugins/dynamic_resources/cel/functions.h"
#include "plugins/dynamic_resources/cel/value.h"

namespace ksched::plugins::dynamic_resources::cel {

// The work one evaluation may do (see EvalBudget): comprehension iterations plus list elements
// and string bytes / 10 produced. Upstream's cost limit for selectors is also 1000000, of a cost
// model that charges at least as much for the same evaluation.
inline constexpr std::uint64_t kEvalBudget = 1000000;

class Program {
 public:
  struct Node;

  ~Program();
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;

  // Plans a checked expression. Errors: InvalidArgument "program instantiation failed: ...".
  static absl::StatusOr<std::unique_ptr<const Program>> Build(const Expr& root, const CheckResult& checked);

  // The value of the expression for `device` (an error value on failure).
  Value Evaluate(const CelDevice& device) const;

 private:
  Program();

  std::unique_ptr<Node> root_;
  std::size_t slots_ = 0;
};

}  // namespace ksched::plugins::dynamic_resources::cel
