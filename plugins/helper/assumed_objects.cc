#include "plugins/helper/assumed_objects.h"

#include <charconv>

namespace ksched::plugins::helper {

std::uint64_t ResourceVersionNumber(std::string_view resource_version) {
  std::uint64_t value = 0;
  auto [end, error] = std::from_chars(resource_version.data(), resource_version.data() + resource_version.size(), value);
  if (error != std::errc() || end != resource_version.data() + resource_version.size()) return 0;
  return value;
}

}  // namespace ksched::plugins::helper
