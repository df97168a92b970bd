// string.format(list) as cel-go's ext.Strings at version 2 provides it (ext/formatting.go: the
// formatter before version 4, with the locale en_US) and its AST validator.
//
// Clauses: %% is a literal '%'; otherwise %[.precision]verb consumes the next argument:
//   %s  strings, bools, ints, uints, doubles (shortest form), bytes (UTF-8), null, types,
//       timestamps (RFC 3339), durations ("1.5s"), lists and maps (CEL-like literals: strings
//       quoted as Go's %q, doubles as %.6f, timestamp("...")/duration("..."), map entries sorted
//       by their printed key);
//   %d  ints and uints;  %b %o %x %X  ints and uints (Go's %b/%o/%x: "-ff"), %b also bools,
//       %x/%X also strings and bytes (hex of their bytes);
//   %f  doubles (or the strings "NaN", "Infinity", "-Infinity") as golang.org/x/text's en_US
//       printer writes them: digit grouping ("1,234.500000"), "∞", precision 6 by default;
//   %e  the same printer's scientific form "1.234500×10⁰³" (always 6 fraction digits; the
//       clause's precision becomes the printer's width, as upstream's "%<precision>e" makes it).
// Errors are cel-go's words: "index 1 out of range", "unexpected end of string",
// "could not parse formatting clause: unrecognized formatting clause \"q\"", "error during
// formatting: decimal clause can only be used on integers, was given string", ...
//
// The validator (run by the checker): a call whose receiver is a string literal and whose
// argument is a list literal is checked at compile time against the elements' static types; its
// error is reported at the offending element (type errors) or at the call, and an unused
// argument is "too many arguments supplied to string.format (expected 1, got 2)".
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "plugins/dynamic_resources/cel/ast.h"
#include "plugins/dynamic_resources/cel/types.h"

namespace ksched::plugins::dynamic_resources::cel {

struct FormatIssue {
  std::int64_t id = 0;  // the node to report at
  std::string message;
};

// Checks `format` against `arguments` (a list literal); `type_of` gives the checked type of a
// node. `call_id` is the format call's node.
std::optional<FormatIssue> ValidateFormatCall(std::string_view format, const Expr& arguments, std::int64_t call_id,
                                              const std::function<TypePtr(const Expr&)>& type_of);

}  // namespace ksched::plugins::dynamic_resources::cel
