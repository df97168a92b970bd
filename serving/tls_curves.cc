#include "serving/tls_curves.h"

#include <algorithm>
#include <string_view>
#include <utility>

namespace ksched::serving {

absl::StatusOr<std::vector<std::string>> TlsCurveGroups(const std::vector<std::int32_t>& curve_ids) {
  static constexpr std::pair<std::int32_t, std::string_view> kGroups[] = {
      {23, "P-256"},
      {24, "P-384"},
      {25, "P-521"},
      {29, "X25519"},
      {4587, "SecP256r1MLKEM768"},
      {4588, "X25519MLKEM768"},
      {4589, "SecP384r1MLKEM1024"},
  };
  std::vector<std::string> groups;
  for (std::size_t i = 0; i < curve_ids.size(); ++i) {
    const std::int32_t id = curve_ids[i];
    if (id <= 0 || id > 65535) {
      return absl::InvalidArgumentError("curve preference " + std::to_string(id) + " is out of range (must be 1-65535)");
    }
    if (std::find(curve_ids.begin(), curve_ids.begin() + static_cast<std::ptrdiff_t>(i), id) !=
        curve_ids.begin() + static_cast<std::ptrdiff_t>(i)) {
      return absl::InvalidArgumentError("duplicate curve preference " + std::to_string(id));
    }
    const auto* group = std::find_if(std::begin(kGroups), std::end(kGroups), [id](const auto& g) { return g.first == id; });
    if (group == std::end(kGroups)) {
      return absl::InvalidArgumentError("curve preference " + std::to_string(id) +
                                        " is not supported by the current Go version");
    }
    groups.emplace_back(group->second);
  }
  return groups;
}

}  // namespace ksched::serving
