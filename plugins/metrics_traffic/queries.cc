#include "plugins/metrics_traffic/queries.h"

#include <cstdlib>

namespace ksched::plugins::metrics_traffic {

std::string_view PluginName(MetricKind kind) {
  switch (kind) {
    case MetricKind::kCpu:
      return kCpuName;
    case MetricKind::kMemory:
      return kMemoryName;
    case MetricKind::kDiskSpace:
      return kDiskSpaceName;
    case MetricKind::kDiskIo:
      return kDiskIoName;
    case MetricKind::kNetwork:
      return kNetworkName;
  }
  std::abort();
}

bool HigherIsBetter(MetricKind kind) {
  return kind == MetricKind::kCpu || kind == MetricKind::kMemory || kind == MetricKind::kDiskSpace;
}

std::int64_t DefaultWindowMinutes(MetricKind kind) {
  switch (kind) {
    case MetricKind::kMemory:
    case MetricKind::kDiskSpace:
      return 30;
    case MetricKind::kCpu:
    case MetricKind::kDiskIo:
    case MetricKind::kNetwork:
      return 5;
  }
  std::abort();
}

std::string BuildQuery(MetricKind kind, const MetricsTrafficArgs& args) {
  if (!args.query.empty()) return args.query;
  std::string window = "[";
  window += std::to_string(args.timerange_minutes > 0 ? args.timerange_minutes
                                                      : DefaultWindowMinutes(kind));
  window += "m]";
  const bool join = args.node_label == "nodename";
  const std::string by = join ? std::string("instance") : args.node_label;
  std::string device;
  if (!args.device_name.empty()) {
    device = "device=\"";
    device += args.device_name;
    device += "\"";
  }
  std::string q;
  switch (kind) {
    case MetricKind::kCpu:
      q = "avg by (" + by + ") (rate(node_cpu_seconds_total{mode=\"idle\"}" + window + ")) * 100";
      break;
    case MetricKind::kMemory:
      q = "(avg_over_time(node_memory_MemAvailable_bytes" + window +
          ") / avg_over_time(node_memory_MemTotal_bytes" + window + ")) * 100";
      break;
    case MetricKind::kDiskSpace:
      q = "sum by (" + by + ") (avg_over_time(node_filesystem_avail_bytes{mountpoint=\"/\"}" +
          window + ")) / sum by (" + by +
          ") (avg_over_time(node_filesystem_size_bytes{mountpoint=\"/\"}" + window + ")) * 100";
      break;
    case MetricKind::kDiskIo:
      q = "sum by (" + by + ") (rate(node_disk_read_bytes_total{" + device + "}" + window +
          ") + rate(node_disk_written_bytes_total{" + device + "}" + window + "))";
      break;
    case MetricKind::kNetwork:
      if (device.empty()) device = "device!=\"lo\"";
      q = "sum by (" + by + ") (rate(node_network_receive_bytes_total{" + device + "}" + window +
          ") + rate(node_network_transmit_bytes_total{" + device + "}" + window + "))";
      break;
  }
  if (!join) return q;
  return "(" + q + ") * on(instance) group_left(nodename) node_uname_info";
}

}  // namespace ksched::plugins::metrics_traffic
