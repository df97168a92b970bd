// The CEL parser: text -> AST, as cel-go's parser with the options the Kubernetes CEL environment
// uses (optional syntax on, escaped identifiers off, macros: has, all, exists, exists_one, map,
// filter, the two-variable all/exists/existsOne/exists_one/transformList/transformMap/
// transformMapEntry, cel.bind, sortBy, optMap, optFlatMap).
//
// Faithful to upstream:
//   - Precedence and associativity of the grammar; chains of && and || become balanced trees.
//   - `-5` is an int literal (so -9223372036854775808 parses); `--x` is x, `!!x` is x.
//   - Literal errors ("invalid int literal", string escapes), "reserved identifier: if", macro
//     argument errors ("argument must be a simple name", "invalid argument to has() macro").
//   - Limits: more than 100000 code points; an ANTLR rule nested deeper than 250
//     ("expression recursion limit exceeded: 250", e.g. 250 nested parentheses); more than 250
//     nested operator/select/call/index nodes ("max recursion depth exceeded"). Beyond upstream,
//     a tree deeper than kMaxAstDepth is rejected the same way.
// Deviation: only the first syntax error is reported, and its wording approximates ANTLR's
// ("mismatched input '<EOF>' expecting {...}", "extraneous input '2' expecting <EOF>",
// "missing ')' at '<EOF>'", "token recognition error at: '#'").
//
// Thread-safety: a free function over its input.
#pragma once

#include <cstdint>
#include <vector>

#include "plugins/dynamic_resources/cel/ast.h"
#include "plugins/dynamic_resources/cel/source.h"

namespace ksched::plugins::dynamic_resources::cel {

struct ParseResult {
  ExprPtr expr;                       // null when there are issues
  std::vector<std::int32_t> offsets;  // by node id: byte offset of the node's location
  std::vector<Issue> issues;
};

ParseResult Parse(const Source& source);

// Upstream's limits (parser.MaxRecursionDepth, ExpressionSizeCodePointLimit defaults).
inline constexpr int kMaxRecursionDepth = 250;
inline constexpr std::size_t kMaxExpressionCodePoints = 100000;
// Beyond upstream: the checker and evaluator recurse over the tree, so a deeper tree is rejected
// ("max recursion depth exceeded"). Upstream's limits above keep any expression of the API's
// 10 KiB under it.
inline constexpr int kMaxAstDepth = 3000;

}  // namespace ksched::plugins::dynamic_resources::cel
