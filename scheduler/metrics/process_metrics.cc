#include "scheduler/metrics/process_metrics.h"

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "client/read_file.h"

namespace ksched::scheduler::metrics {
namespace {

// A /proc file whole; nullopt when it cannot be read (the metric is then left out).
std::optional<std::string> ReadWhole(const std::string& path) {
  absl::StatusOr<std::string> contents = client::ReadFileToString(path);
  if (!contents.ok()) return std::nullopt;
  return *std::move(contents);
}

prometheus::MetricFamily Family(std::string name, std::string help, prometheus::MetricType type,
                                double value) {
  prometheus::MetricFamily family;
  family.name = std::move(name);
  family.help = std::move(help);
  family.type = type;
  prometheus::ClientMetric metric;
  if (type == prometheus::MetricType::Counter) {
    metric.counter.value = value;
  } else {
    metric.gauge.value = value;
  }
  family.metric.push_back(std::move(metric));
  return family;
}

// The fields of /proc/<pid>/stat after the command (which may hold spaces and parentheses):
// fields[0] is field 3 (state) of proc(5).
std::optional<std::vector<std::string>> StatFields(const std::string& text) {
  const std::size_t close = text.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream in(text.substr(close + 1));
  std::vector<std::string> fields;
  for (std::string field; in >> field;) fields.push_back(std::move(field));
  if (fields.size() < 22) return std::nullopt;
  return fields;
}

// A soft limit from /proc/<pid>/limits ("Max open files  1024  4096  files"); "unlimited" is
// reported as client_golang does, the largest uint64 as a float.
std::optional<double> SoftLimit(const std::string& limits, std::string_view name) {
  const std::size_t at = limits.find(name);
  if (at == std::string::npos) return std::nullopt;
  std::istringstream in(limits.substr(at + name.size()));
  std::string soft;
  if (!(in >> soft)) return std::nullopt;
  if (soft == "unlimited") return static_cast<double>(std::numeric_limits<std::uint64_t>::max());
  try {
    return std::stod(soft);
  } catch (...) {
    return std::nullopt;
  }
}

// The boot time from /proc/stat's btime, as client_golang's procfs reads it.
std::optional<double> BootTimeSeconds(const std::string& proc_root) {
  std::optional<std::string> system = ReadWhole(proc_root + "/stat");
  if (!system) return std::nullopt;
  const std::size_t at = system->find("\nbtime ");
  if (at == std::string::npos) return std::nullopt;
  try {
    return std::stod(system->substr(at + 7));
  } catch (...) {
    return std::nullopt;
  }
}

// InOctets and OutOctets of the "IpExt:" lines of /proc/<pid>/net/netstat (a header line of names,
// then one of values), as client_golang's procfs Netstat reads them; nullopt when absent.
std::optional<std::pair<double, double>> IpExtOctets(const std::string& netstat) {
  std::istringstream lines(netstat);
  std::vector<std::string> names;
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with("IpExt:")) continue;
    std::istringstream fields(line.substr(6));
    std::vector<std::string> row;
    for (std::string field; fields >> field;) row.push_back(std::move(field));
    if (names.empty()) {
      names = std::move(row);
      continue;
    }
    std::optional<double> in, out;
    for (std::size_t i = 0; i < names.size() && i < row.size(); ++i) {
      try {
        if (names[i] == "InOctets") in = std::stod(row[i]);
        if (names[i] == "OutOctets") out = std::stod(row[i]);
      } catch (...) {
        return std::nullopt;
      }
    }
    // client_golang reports 0 for a field the kernel does not have.
    return std::pair<double, double>{in.value_or(0), out.value_or(0)};
  }
  return std::nullopt;
}

}  // namespace

std::optional<double> ProcessMetrics::StartTimeSeconds() const {
  std::optional<std::string> stat = ReadWhole(proc_self_ + "/stat");
  if (!stat) return std::nullopt;
  std::optional<std::vector<std::string>> fields = StatFields(*stat);
  std::optional<double> boot = BootTimeSeconds(proc_root_);
  if (!fields || !boot) return std::nullopt;
  try {
    return *boot + std::stod((*fields)[19]) / static_cast<double>(sysconf(_SC_CLK_TCK));  // starttime, field 22
  } catch (...) {
    return std::nullopt;
  }
}

ProcessMetrics::ProcessMetrics(std::string proc_self, std::string proc_root)
    : proc_self_(std::move(proc_self)), proc_root_(std::move(proc_root)) {}

std::vector<prometheus::MetricFamily> ProcessMetrics::Collect() const {
  using prometheus::MetricType;
  std::vector<prometheus::MetricFamily> out;
  const double ticks = static_cast<double>(sysconf(_SC_CLK_TCK));
  const double page_size = static_cast<double>(sysconf(_SC_PAGESIZE));

  if (std::optional<std::string> stat = ReadWhole(proc_self_ + "/stat")) {
    if (std::optional<std::vector<std::string>> fields = StatFields(*stat)) {
      try {
        // proc(5): utime 14, stime 15, starttime 22, vsize 23, rss 24 (1-based field numbers).
        const double utime = std::stod((*fields)[11]);
        const double stime = std::stod((*fields)[12]);
        const double start_ticks = std::stod((*fields)[19]);
        const double vsize = std::stod((*fields)[20]);
        const double rss = std::stod((*fields)[21]);
        out.push_back(Family("process_cpu_seconds_total",
                             "Total user and system CPU time spent in seconds.",
                             MetricType::Counter, (utime + stime) / ticks));
        out.push_back(Family("process_virtual_memory_bytes", "Virtual memory size in bytes.",
                             MetricType::Gauge, vsize));
        out.push_back(Family("process_resident_memory_bytes", "Resident memory size in bytes.",
                             MetricType::Gauge, rss * page_size));
        if (std::optional<double> boot = BootTimeSeconds(proc_root_)) {
          out.push_back(Family("process_start_time_seconds",
                               "Start time of the process since unix epoch in seconds.",
                               MetricType::Gauge, *boot + start_ticks / ticks));
        }
      } catch (...) {
        // A malformed stat line: these metrics are left out of this scrape.
      }
    }
  }

  if (std::optional<std::string> netstat = ReadWhole(proc_self_ + "/net/netstat")) {
    if (std::optional<std::pair<double, double>> octets = IpExtOctets(*netstat)) {
      out.push_back(Family("process_network_receive_bytes_total",
                           "Number of bytes received by the process over the network.", MetricType::Counter,
                           octets->first));
      out.push_back(Family("process_network_transmit_bytes_total",
                           "Number of bytes sent by the process over the network.", MetricType::Counter,
                           octets->second));
    }
  }

  std::error_code error;
  std::size_t open_fds = 0;
  for (std::filesystem::directory_iterator it(proc_self_ + "/fd", error), end; !error && it != end;
       it.increment(error)) {
    ++open_fds;
  }
  if (!error) {
    out.push_back(Family("process_open_fds", "Number of open file descriptors.", MetricType::Gauge,
                         static_cast<double>(open_fds)));
  }

  if (std::optional<std::string> limits = ReadWhole(proc_self_ + "/limits")) {
    if (std::optional<double> max_fds = SoftLimit(*limits, "Max open files")) {
      out.push_back(Family("process_max_fds", "Maximum number of open file descriptors.",
                           MetricType::Gauge, *max_fds));
    }
    if (std::optional<double> max_vm = SoftLimit(*limits, "Max address space")) {
      out.push_back(Family("process_virtual_memory_max_bytes",
                           "Maximum amount of virtual memory available in bytes.",
                           MetricType::Gauge, *max_vm));
    }
  }
  return out;
}

}  // namespace ksched::scheduler::metrics
