#include "framework/cpu_quota.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <sstream>

namespace ksched::framework {
namespace {

std::optional<std::int64_t> ParsePositive(std::string_view text) {
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value <= 0) return std::nullopt;
  return value;
}

std::optional<std::string> ReadWholeFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::ostringstream contents;
  contents << in.rdbuf();
  return contents.str();
}

}  // namespace

std::optional<double> ParseCpuMax(std::string_view contents) {
  while (!contents.empty() && (contents.back() == '\n' || contents.back() == ' ')) {
    contents.remove_suffix(1);
  }
  const std::size_t space = contents.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  const std::optional<std::int64_t> quota = ParsePositive(contents.substr(0, space));
  const std::optional<std::int64_t> period = ParsePositive(contents.substr(space + 1));
  if (!quota.has_value() || !period.has_value()) return std::nullopt;  // "max" included
  return static_cast<double>(*quota) / static_cast<double>(*period);
}

std::optional<std::string> CgroupV2Path(std::string_view proc_self_cgroup) {
  while (!proc_self_cgroup.empty()) {
    const std::size_t newline = proc_self_cgroup.find('\n');
    const std::string_view line = proc_self_cgroup.substr(0, newline);
    if (line.starts_with("0::")) return std::string(line.substr(3));
    if (newline == std::string_view::npos) break;
    proc_self_cgroup.remove_prefix(newline + 1);
  }
  return std::nullopt;
}

std::optional<double> CgroupCpuLimit() {
  const std::optional<std::string> cgroups = ReadWholeFile("/proc/self/cgroup");
  if (!cgroups.has_value()) return std::nullopt;
  const std::optional<std::string> path = CgroupV2Path(*cgroups);
  if (!path.has_value()) return std::nullopt;
  const std::optional<std::string> cpu_max = ReadWholeFile("/sys/fs/cgroup" + *path + "/cpu.max");
  if (!cpu_max.has_value()) return std::nullopt;
  return ParseCpuMax(*cpu_max);
}

int CapByCpuLimit(int cpus, std::optional<double> limit) {
  if (!limit.has_value()) return cpus;
  const int from_limit = std::max(2, static_cast<int>(std::ceil(*limit)));
  return std::min(cpus, from_limit);
}

}  // namespace ksched::framework
