// Table checks of DRA CEL device selectors, shared by the CEL library tests: a selector's
// outcome as text, and cases of the form `(<expression>) == <expected>`.
#pragma once

#include <catch2/catch.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "plugins/dynamic_resources/cel/device_selector.h"

namespace ksched::plugins::dynamic_resources::testing {

// The selector's result on `device`: "true", "false", "error: <message>", or "compile: <message>".
inline std::string EvalSelector(std::string_view expression, const CelDevice& device) {
  auto compiled = CompiledSelector::Compile(expression);
  if (!compiled.ok()) return "compile: " + std::string(compiled.status().message());
  absl::StatusOr<bool> matched = (*compiled)->Matches(device);
  if (!matched.ok()) return "error: " + std::string(matched.status().message());
  return *matched ? "true" : "false";
}

// One case: `expected` is a CEL expression of the expected value; or `error` the expected runtime
// error; or `compile_error` the expected compile error of the expression itself.
struct CelCase {
  std::string_view name;
  std::string_view expression;
  std::string_view expected;
  std::string_view error = {};
  std::string_view compile_error = {};
};

// Checks each case on `device`: `(<expression>) == <expected>` must be true; for an error case
// `(<expression>) == <error_operand>` must fail with it (the operand: `expected` when empty).
inline void CheckCelCases(const std::vector<CelCase>& cases, const CelDevice& device,
                          std::string_view error_operand = {}) {
  for (const CelCase& c : cases) {
    INFO(c.name << ": " << c.expression);
    std::string comparison = "(";
    comparison += c.expression;
    comparison += ") == ";
    if (!c.compile_error.empty()) {
      CHECK(EvalSelector(c.expression, device) == "compile: " + std::string(c.compile_error));
    } else if (!c.error.empty()) {
      comparison += error_operand.empty() ? c.expected : error_operand;
      CHECK(EvalSelector(comparison, device) == "error: " + std::string(c.error));
    } else {
      comparison += c.expected;
      CHECK(EvalSelector(comparison, device) == "true");
    }
  }
}

}  // namespace ksched::plugins::dynamic_resources::testing
