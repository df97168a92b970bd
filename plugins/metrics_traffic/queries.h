// The five metric kinds of the Prometheus-metrics plugins and the PromQL each runs: one instant
// query covering every node (never a query per node), the node name taken from node_uname_info's
// `nodename` label joined on `instance` (or read from a configured label, without the join).
// W is the window: `timerange` minutes, or the kind's default when timerange is 0.
//
//   cputraffic        free CPU, percent (higher scores higher), default W 5m:
//     avg by (instance) (rate(node_cpu_seconds_total{mode="idle"}[W])) * 100
//   memorytraffic     available memory, percent (higher scores higher), default W 30m (the
//                     article's query, less its per-node nodename filter):
//     (avg_over_time(node_memory_MemAvailable_bytes[W]) / avg_over_time(node_memory_MemTotal_bytes[W])) * 100
//   diskspacetraffic  free space of the root filesystem, percent (higher scores higher), W 30m:
//     sum by (instance) (avg_over_time(node_filesystem_avail_bytes{mountpoint="/"}[W]))
//       / sum by (instance) (avg_over_time(node_filesystem_size_bytes{mountpoint="/"}[W])) * 100
//   disktraffic       disk read+write bytes/s (higher scores LOWER), default W 5m:
//     sum by (instance) (rate(node_disk_read_bytes_total{D}[W]) + rate(node_disk_written_bytes_total{D}[W]))
//   networktraffic    network receive+transmit bytes/s (higher scores LOWER), default W 5m:
//     sum by (instance) (rate(node_network_receive_bytes_total{D}[W]) + rate(node_network_transmit_bytes_total{D}[W]))
// D is device="<devicename>", or every device (disks) / every device but "lo" (network).
// Each is then wrapped: (...) * on(instance) group_left(nodename) node_uname_info.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "plugins/metrics_traffic/args.h"

namespace ksched::plugins::metrics_traffic {

enum class MetricKind : std::uint8_t { kCpu, kMemory, kDiskSpace, kDiskIo, kNetwork };

inline constexpr std::string_view kCpuName = "cputraffic";
inline constexpr std::string_view kMemoryName = "memorytraffic";
inline constexpr std::string_view kDiskSpaceName = "diskspacetraffic";
inline constexpr std::string_view kDiskIoName = "disktraffic";
inline constexpr std::string_view kNetworkName = "networktraffic";

std::string_view PluginName(MetricKind kind);
// Free CPU, memory and disk space score high; disk and network traffic score low.
bool HigherIsBetter(MetricKind kind);
std::int64_t DefaultWindowMinutes(MetricKind kind);
// The PromQL the plugin runs with these args (args.query when set).
std::string BuildQuery(MetricKind kind, const MetricsTrafficArgs& args);

}  // namespace ksched::plugins::metrics_traffic
