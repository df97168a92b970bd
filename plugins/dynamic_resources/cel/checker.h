// The CEL type checker for the DRA environment (cel-go's checker.Check followed by the
// environment's AST validators), over the parsed AST:
//   - Declarations: the variable `device` (struct kubernetes.DRADevice with fields driver: string,
//     attributes: map(string, map(string, any)), capacity: map(string, map(string,
//     kubernetes.Quantity))), the type names (int, string, list, ..., optional_type, the dotted
//     net.IP, net.CIDR, google.protobuf.Timestamp and google.protobuf.Duration, and timestamp and
//     duration, which apiserver's type provider resolves though the planner then rejects them)
//     and the functions of functions.h. Anything else is "undeclared
//     reference to 'x' (in container '')".
//   - Overload resolution with type parameters as cel-go's (a call matching no overload is "found
//     no matching overload for '_<_' applied to '(int, string)'"), field selection ("undefined
//     field 'foo'", "type 'int' does not support field selection"), comprehension ranges.
//   - Validators: homogeneous list and map literals ("expected type 'int' but found 'double'"),
//     except below a format() call; literal patterns of matches() ("invalid matches argument");
//     literal arguments of duration() and timestamp() that do not convert ("invalid duration
//     argument"); "<literal>".format([<list literal>]) calls (library_strings_format.h).
// Issues are reported all at once, as cel-go does.
//
// Thread-safety: a free function over its input.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "plugins/dynamic_resources/cel/ast.h"
#include "plugins/dynamic_resources/cel/functions.h"
#include "plugins/dynamic_resources/cel/source.h"
#include "plugins/dynamic_resources/cel/types.h"

namespace ksched::plugins::dynamic_resources::cel {

// How the checker resolved a call.
struct CallReference {
  const FunctionDecl* function = nullptr;
  // The overloads that matched statically (indexes into function->overloads).
  std::vector<std::size_t> overloads;
  // The call was written target.f(...) with `target` naming a namespace ("sets.contains(a, b)",
  // "optional.of(x)"): it is a global call of "target.f" and the target is not evaluated.
  bool namespaced = false;
};

struct CheckResult {
  std::vector<TypePtr> types;               // by node id (null for ids without a node)
  std::vector<CallReference> calls;         // by node id (meaningful for calls)
  std::vector<Issue> issues;
};

// `offsets` are the parser's (by node id).
CheckResult Check(const Expr& root, const std::vector<std::int32_t>& offsets);

// The type of the `device` variable.
TypePtr DeviceType();
// The type value of a type name usable as an identifier (int, string, map, net.IP, ...), or null.
TypePtr TypeIdentifier(std::string_view name);
// a, a.b, a.b.c: the dotted name an ident/select chain spells (a leading dot kept), if it is one.
std::optional<std::string> QualifiedName(const Expr& e);

}  // namespace ksched::plugins::dynamic_resources::cel
