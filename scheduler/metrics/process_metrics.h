// ProcessMetrics: client_golang's process collector for Linux, read from /proc at scrape time
// (prometheus-cpp has none): process_cpu_seconds_total, process_open_fds, process_max_fds,
// process_virtual_memory_bytes, process_virtual_memory_max_bytes, process_resident_memory_bytes,
// process_start_time_seconds, process_network_receive_bytes_total and
// process_network_transmit_bytes_total (IpExt InOctets / OutOctets of <proc_self>/net/netstat: the
// process's network namespace, as client_golang reads them). Names and help texts are
// client_golang's (no stability prefix: component-base registers that collector raw).
//
// Errors: a /proc file that cannot be read or parsed leaves its metrics out of that scrape (as
// client_golang reports a collection error for them); nothing is fatal.
// Thread-safety: Collect is safe from any thread (it holds no state).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <prometheus/metric_family.h>

namespace ksched::scheduler::metrics {

class ProcessMetrics {
 public:
  // `proc_self`: the /proc directory of the process ("/proc/self"); tests point it elsewhere.
  explicit ProcessMetrics(std::string proc_self = "/proc/self", std::string proc_root = "/proc");

  std::vector<prometheus::MetricFamily> Collect() const;
  // The process's start time (seconds since the epoch); nullopt when /proc cannot tell.
  std::optional<double> StartTimeSeconds() const;

 private:
  const std::string proc_self_;
  const std::string proc_root_;
};

}  // namespace ksched::scheduler::metrics
