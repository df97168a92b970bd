// Taint: core/v1 Taint, a node's repelling mark (spec.taints).
//
// `effect` is kept as decoded (a string) so that comparisons with tolerations behave exactly as
// upstream's string comparisons, including for values this build does not know; the known values
// are the kTaintEffect* constants.
//
// Thread-safety: plain value type.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "api/time.h"

namespace ksched::api {

// core/v1 TaintEffect values.
inline constexpr std::string_view kTaintEffectNoSchedule = "NoSchedule";
inline constexpr std::string_view kTaintEffectPreferNoSchedule = "PreferNoSchedule";
inline constexpr std::string_view kTaintEffectNoExecute = "NoExecute";

struct Taint {
  std::string key;
  std::string value;
  std::string effect;
  std::optional<Time> time_added;  // set by the API server for NoExecute taints only

  friend bool operator==(const Taint&, const Taint&) = default;
};

}  // namespace ksched::api
