#include "client/informer_observer.h"

#include <charconv>

namespace ksched::client {

std::optional<std::int64_t> ResourceVersionForMetrics(std::string_view resource_version) {
  if (resource_version.empty()) return 0;
  // Truncated to the last 15 digits: below 2^53, exact as a float64.
  if (resource_version.size() > 15) resource_version.remove_prefix(resource_version.size() - 15);
  // strconv.ParseInt(s, 10, 64) also takes a sign.
  std::string_view digits = resource_version;
  bool negative = false;
  if (!digits.empty() && (digits.front() == '+' || digits.front() == '-')) {
    negative = digits.front() == '-';
    digits.remove_prefix(1);
  }
  std::int64_t value = 0;
  const char* const end = digits.data() + digits.size();
  const auto [ptr, ec] = std::from_chars(digits.data(), end, value);
  if (digits.empty() || digits.front() == '-' || ec != std::errc() || ptr != end) return std::nullopt;
  return negative ? -value : value;
}

}  // namespace ksched::client
