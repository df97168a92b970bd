#include "scheduler/memory_limit.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>
#include <string_view>

namespace ksched::scheduler {
namespace {

// v1 reports "no limit" as the largest page-aligned int64; anything that large is no limit.
constexpr std::uint64_t kNoLimitAbove = std::uint64_t{1} << 62;

std::optional<std::uint64_t> ReadLimitFile(const std::string& path) {
  std::ifstream in(path);
  std::string text;
  if (!in || !std::getline(in, text)) return std::nullopt;
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end == text.data() || value >= kNoLimitAbove) return std::nullopt;  // "max"
  return value;
}

// The smallest limit in `dir` and its parents up to `root`.
std::optional<std::uint64_t> SmallestUpTo(const std::string& root, std::string dir, const std::string& file) {
  std::optional<std::uint64_t> smallest;
  for (;;) {
    if (std::optional<std::uint64_t> limit = ReadLimitFile(root + dir + (dir.ends_with('/') ? "" : "/") + file)) {
      smallest = smallest ? std::min(*smallest, *limit) : *limit;
    }
    if (dir.empty() || dir == "/") break;
    const std::size_t slash = dir.find_last_of('/');
    dir = slash == std::string::npos || slash == 0 ? "/" : dir.substr(0, slash);
  }
  return smallest;
}

}  // namespace

std::optional<std::uint64_t> CgroupMemoryLimitBytes(const std::string& proc_self_cgroup, const std::string& cgroup_root) {
  std::ifstream in(proc_self_cgroup);
  std::string line;
  std::optional<std::uint64_t> v1;
  while (in && std::getline(in, line)) {
    // "hierarchy-ID:controllers:path": v2 is "0::/path"; v1's memory line names "memory".
    const std::size_t first = line.find(':');
    const std::size_t second = first == std::string::npos ? first : line.find(':', first + 1);
    if (second == std::string::npos) continue;
    const std::string_view controllers(line.data() + first + 1, second - first - 1);
    const std::string path = line.substr(second + 1);
    if (line.compare(0, first, "0") == 0 && controllers.empty()) {
      if (std::optional<std::uint64_t> limit = SmallestUpTo(cgroup_root, path, "memory.max")) return limit;
    } else {
      std::stringstream list{std::string(controllers)};
      for (std::string c; std::getline(list, c, ',');) {
        if (c == "memory") v1 = SmallestUpTo(cgroup_root + "/memory", path, "memory.limit_in_bytes");
      }
    }
  }
  return v1;
}

int MaxConnectionsForMemoryLimit(std::optional<std::uint64_t> limit) {
  if (!limit) return 0;
  const std::uint64_t connections = *limit / 2 / kBytesPerConnection;
  return static_cast<int>(std::clamp<std::uint64_t>(connections, kMinConnections, 1'000'000));
}

}  // namespace ksched::scheduler
