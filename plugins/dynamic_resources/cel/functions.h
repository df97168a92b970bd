// The functions of the DRA CEL environment: each declared with its overloads (signatures the
// checker resolves, with type parameters) and implemented for the evaluator.
//
// The environment is what k8s.io/dynamic-resource-allocation@v0.34.4/cel/compile.go compiles
// with (the StoredExpressions environment of apiserver's base EnvSet): cel-go's standard library
// with DefaultUTCTimeZone(true) (timestamps and durations included: library_time.cc),
// optional types, ext.Strings v2 (string.format and strings.quote included:
// library_strings_format.cc), ext.Lists v3, ext.Sets, two-variable comprehensions, ext.Bindings,
// the Kubernetes quantity, semver, lists, regex, url, ip, cidr and format (format.named(),
// format.dns1123Label(), ..., validate(): library_format.cc) libraries, and the AST validators
// of base.go (duration, timestamp and regex literals, homogeneous aggregate literals) and of
// ext.Strings (format calls), which the checker runs.
//
// The Kubernetes authz and authzSelectors libraries are declared only (library_authz.cc): their
// functions are members of types only the `authorizer` variable of admission environments
// yields, and DRA declares no such variable, so no call can succeed; declaring them keeps
// type-checking and the runtime "no such overload: allowed(int)" as upstream's for dyn receivers.
// Not provided at all: protobuf message types (message literals; google.protobuf.Any and the
// other well-known message names are undeclared here, where upstream type-checks them and then
// fails at program instantiation with "reference to undefined type").
//
// Runtime dispatch follows cel-go: operators ("singletons") check their operands themselves and
// fail with "no such overload" (or "no such overload: _<_" when the left operand does not support
// the operation at all); other functions pick the first overload whose declared parameter types
// the arguments match at runtime, else "no such overload: name(int, string)".
//
// Thread-safety: the registry is built once and immutable.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "plugins/dynamic_resources/cel/types.h"
#include "plugins/dynamic_resources/cel/value.h"

namespace re2 {
class RE2;
}

namespace ksched::plugins::dynamic_resources::cel {

// Upstream's cost model is not implemented (see device_selector.h); this budget only bounds the
// work and memory one evaluation may use, counting comprehension iterations, list elements and
// string bytes / 10 produced: less than upstream's cost of the same evaluation.
class EvalBudget {
 public:
  explicit EvalBudget(std::uint64_t units) : remaining_(units) {}
  // Takes `units`; false once the budget is exhausted.
  bool Charge(std::uint64_t units) {
    if (units > remaining_) {
      remaining_ = 0;
      exhausted_ = true;
      return false;
    }
    remaining_ -= units;
    return true;
  }
  bool exhausted() const { return exhausted_; }

 private:
  std::uint64_t remaining_;
  bool exhausted_ = false;
};

inline constexpr std::string_view kCostLimitExceeded = "operation cancelled: actual cost limit exceeded";

// What an implementation may use besides its arguments.
struct CallContext {
  EvalBudget* budget = nullptr;
  // The compiled pattern when the call's pattern argument is a constant (matches, find, findAll).
  const re2::RE2* regex = nullptr;
};

using FunctionImpl = Value (*)(CallContext& ctx, std::span<const Value> args);

struct OverloadDecl {
  std::string id;
  bool member = false;
  std::vector<TypePtr> params;  // the receiver first for a member overload
  TypePtr result;
  std::vector<std::string> type_params;  // the parameters' names (instantiated afresh per call)
  FunctionImpl impl = nullptr;           // null: the function's singleton (or the evaluator)
};

struct FunctionDecl {
  std::string name;
  std::vector<OverloadDecl> overloads;
  FunctionImpl singleton = nullptr;
};

class FunctionRegistry {
 public:
  // Declares (or returns) a function; `singleton` implements all its overloads.
  FunctionDecl& Function(std::string_view name, FunctionImpl singleton = nullptr);
  // Adds an overload; `signature` is "T1, T2 -> R" in ParseTypeSpec's notation (member overloads
  // list the receiver first).
  void Global(std::string_view function, std::string id, std::string_view signature, FunctionImpl impl = nullptr);
  void Member(std::string_view function, std::string id, std::string_view signature, FunctionImpl impl = nullptr);

  const FunctionDecl* Find(std::string_view name) const;

 private:
  void Add(std::string_view function, std::string id, bool member, std::string_view signature, FunctionImpl impl);
  std::vector<FunctionDecl> functions_;
};

// The environment's functions.
const FunctionRegistry& Functions();

// The overload of `fn` the arguments match at runtime (cel-go's guarded dispatch), or null.
const OverloadDecl* MatchOverload(const FunctionDecl& fn, std::span<const Value> args);
bool MatchesRuntimeSignature(const OverloadDecl& overload, std::span<const Value> args);
// "no such overload: name(int, string)" (cel-go's MaybeNoSuchOverload; an error argument wins).
Value NoSuchOverload(std::string_view function, std::span<const Value> args);
// Whether a value is an instance of a declared parameter type (dyn and type parameters accept
// anything; lists and maps are checked on their first element, as cel-go does).
bool MatchesRuntimeType(const Type& type, const Value& value);

// The libraries, one per file.
void RegisterStandardLibrary(FunctionRegistry& registry);  // operators, conversions, strings
void RegisterStringsLibrary(FunctionRegistry& registry);
void RegisterListsLibrary(FunctionRegistry& registry);
void RegisterOptionalLibrary(FunctionRegistry& registry);
void RegisterKubernetesLibrary(FunctionRegistry& registry);  // quantity, semver
void RegisterNetLibrary(FunctionRegistry& registry);         // ip, cidr, url
void RegisterTimeLibrary(FunctionRegistry& registry);        // timestamp, duration and getters
void RegisterStringFormat(FunctionRegistry& registry);       // string.format
void RegisterFormatLibrary(FunctionRegistry& registry);      // Kubernetes format.named(), ...
void RegisterAuthzLibrary(FunctionRegistry& registry);       // authz declarations (never callable)

// Helpers shared by the libraries.
Value ErrorOrNoSuchOverload(const Value& arg);  // cel-go's MaybeNoSuchOverloadErr
// A new string value, charged to the budget.
Value MakeString(CallContext& ctx, std::string value);
Value MakeList(CallContext& ctx, std::vector<Value> elements);

}  // namespace ksched::plugins::dynamic_resources::cel
