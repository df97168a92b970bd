// Toleration: core/v1 Toleration, a pod's permission to land on (or stay on) a tainted node.
//
// `op` (JSON `operator`) and `effect` are kept as decoded: an empty operator means Equal and an
// empty effect matches every effect, as upstream's Toleration.ToleratesTaint reads them. The known
// values are the constants below and kTaintEffect* in api/taint.h.
//
// Thread-safety: plain value type.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "api/interned_string.h"
namespace ksched::api {

// core/v1 TolerationOperator values.
inline constexpr std::string_view kTolerationOpExists = "Exists";
inline constexpr std::string_view kTolerationOpEqual = "Equal";

struct Toleration {
  // Interned (see api/interned_string.h): tolerations repeat across pods.
  InternedString key;
  InternedString op;  // `operator`; "" reads as Equal
  InternedString value;
  InternedString effect;  // "" tolerates every effect
  std::optional<std::int64_t> toleration_seconds;

  friend bool operator==(const Toleration&, const Toleration&) = default;
};

}  // namespace ksched::api
