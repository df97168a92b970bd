// CEL device selectors (resource.k8s.io/v1 DeviceClass and ResourceClaim `selectors[].cel`), as
// kube-scheduler v1.34 compiles and evaluates them through k8s.io/dynamic-resource-allocation
// v0.34.4's cel package (compile.go) and cel-go v0.26.0.
//
// Contract:
//   - Compile parses and type-checks an expression in the DRA environment (the variable
//     `device`; cel-go's standard library with timestamps and durations, optional types,
//     ext.Strings v2 with string.format, ext.Lists v3, ext.Sets, two-variable comprehensions,
//     cel.bind; the Kubernetes quantity, semver, lists, regex, url, ip, cidr and format libraries;
//     see cel/functions.h). Errors, word for word upstream's
//     CompilationResult.Error.Detail:
//       "compilation failed: ERROR: <input>:1:1: undeclared reference to 'foo' (in container '')
//        | foo == 1
//        | ^"                                     syntax, declarations, overloads, validators
//       "must evaluate to bool or the unknown type, not string"   (no "compilation failed: ")
//       "program instantiation failed: integer overflow"          (constant folding, regexes)
//   - Matches evaluates it for one device: true/false, or InvalidArgument with upstream's runtime
//     error ("no such key: foo", "no such overload", "integer overflow", "attribute v: parse
//     semantic version: ...", "CEL result of type int could not be converted to bool: ...").
//   - SelectorCache is upstream's cel.Cache (an LRU of compiled expressions, 10 in the scheduler);
//     unlike upstream it also keeps compile errors (compiling is deterministic, so only the cost
//     differs).
//
// Not supported (cel-go has them; an expression using them fails to compile with "undeclared
// reference to '<name>' (in container '')"): message literals and protobuf message type names; the
// authz library is declared but, as upstream in DRA, never callable. Other known deviations: Go's
// %v of a timestamp in a non-UTC local zone (only in a "no such key" message) prints an offset
// where Go prints the zone's abbreviation; time zones come from the system's tzdata only (not Go's
// embedded fallback, see cel/time_zone.h); only the first syntax error is reported, in wording
// close to ANTLR's; the order of elements with equal keys after sortBy() may differ (upstream's
// sort is unstable); maps iterate in a fixed order (names sorted, literals as written) where
// upstream's Go maps iterate randomly; a device with both "id" and "<driver>/id" reads the
// unqualified one (upstream: either); expressions nested deeper than 3000 AST levels (impossible
// within the API's 10 KiB selector limit) are rejected as "max recursion depth exceeded"; where
// cel-go panics ("internal error: ..."), an error is returned instead.
//
// Cost: upstream's cost estimation and runtime cost limit (resourceapi.CELSelectorExpressionMaxCost)
// are not implemented. Instead an evaluation has a work budget of 1000000 units (comprehension
// iterations, list elements and string bytes / 10 it produces), which upstream's cost model would
// exceed first; past it the evaluation fails with upstream's "operation cancelled: actual cost
// limit exceeded".
//
// Allocation: Matches does not copy the device: `device` is a view that answers lookups from the
// CelDevice's sorted spans, and a selector like device.attributes["x"].model == "a" evaluates
// without allocating. Comprehensions, string building and version attributes (parsed to Semver
// when read) allocate.
//
// Thread-safety: a CompiledSelector is immutable and may be evaluated from many threads at once;
// SelectorCache is internally synchronized. No exception escapes (but std::bad_alloc).
#pragma once

#include <cstddef>
#include <list>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "absl/status/statusor.h"
#include "base/mutex.h"
#include "api/resource.h"

namespace ksched::plugins::dynamic_resources {

namespace cel {
class Program;
}

// What an expression sees as `device` (upstream cel.Device): attributes and capacity keyed by
// qualified name ("domain/id", or "id" meaning the driver's own domain), sorted by name (as
// api::Device keeps them).
struct CelDevice {
  std::string_view driver;
  std::span<const std::pair<std::string, api::DeviceAttribute>> attributes;
  std::span<const std::pair<std::string, api::Quantity>> capacity;
};

class CompiledSelector {  // immutable, thread-safe
 public:
  // Parses and checks. Errors: InvalidArgument as described above.
  static absl::StatusOr<std::shared_ptr<const CompiledSelector>> Compile(std::string_view expression);

  // true/false, or a runtime error (InvalidArgument).
  absl::StatusOr<bool> Matches(const CelDevice& device) const;

  const std::string& expression() const { return expression_; }

  ~CompiledSelector();
  CompiledSelector(const CompiledSelector&) = delete;
  CompiledSelector& operator=(const CompiledSelector&) = delete;

 private:
  CompiledSelector(std::string expression, std::unique_ptr<const cel::Program> program);

  std::string expression_;
  std::unique_ptr<const cel::Program> program_;
};

// Thread-safe cache of compiled expressions (upstream cel.NewCache(10): LRU of 10). Keeps compile
// errors too.
class SelectorCache {
 public:
  explicit SelectorCache(std::size_t max_entries = 10);

  absl::StatusOr<std::shared_ptr<const CompiledSelector>> GetOrCompile(std::string_view expression);

 private:
  using Entry = std::pair<std::string, absl::StatusOr<std::shared_ptr<const CompiledSelector>>>;

  // The cached result (moved to the front), or null.
  const Entry* Lookup(std::string_view expression) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  base::Mutex mu_;
  const std::size_t max_entries_;
  std::list<Entry> lru_ ABSL_GUARDED_BY(mu_);  // most recently used first
  std::unordered_map<std::string_view, std::list<Entry>::iterator> index_ ABSL_GUARDED_BY(mu_);  // keys view lru_'s strings
};

}  // namespace ksched::plugins::dynamic_resources
