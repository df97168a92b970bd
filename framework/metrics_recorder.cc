#include "framework/metrics_recorder.h"

#include <array>
#include <cstdlib>

namespace ksched::framework {

std::string_view ExtensionPointName(ExtensionPoint point) {
  static constexpr std::array<std::string_view, kExtensionPointCount> kNames = {
      "PreEnqueue", "PreFilter", "Filter",    "PreFilterExtensionAddPod", "PreFilterExtensionRemovePod",
      "PostFilter", "PreScore",  "Score",     "ScoreExtensionNormalize",  "Reserve",
      "Unreserve",  "Permit",    "PreBind",   "Bind",                     "PostBind",
      "PreBindPreFlight"};
  const auto index = static_cast<std::size_t>(point);
  if (index >= kNames.size()) std::abort();  // an out-of-range enum is a broken invariant
  return kNames[index];
}

}  // namespace ksched::framework
