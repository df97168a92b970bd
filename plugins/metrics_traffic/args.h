// MetricsTrafficArgs: the pluginConfig args of the Prometheus-metrics score plugins
// (cputraffic, memorytraffic, diskspacetraffic, disktraffic, networktraffic), as the seed article
// writes them plus optional ones. They reach the factory as framework::RawPluginArgs (JSON text:
// the config layer has no typed decoder for these plugins) and are parsed strictly here.
//
//   ip                 string, required   Prometheus base URL, "http://host:9090" (https allowed)
//   devicename         string             network device (networktraffic; default: every device
//                                         but "lo") or disk device (disktraffic; default: every
//                                         disk); ignored by cputraffic, memorytraffic and
//                                         diskspacetraffic (the article passes "eth0" to all)
//   timerange          int >= 0           averaging window in minutes; 0: the plugin's default
//   query              string             replaces the plugin's PromQL (one series per node,
//                                         the node name in label nodeLabel)
//   refreshInterval    duration           how often the query runs (default 15s, >= 100ms)
//   stalenessLimit     duration           older values score neutral (default 2m, >= refresh)
//   nodeLabel          string             result label holding the node name (default
//                                         "nodename", joined from node_uname_info on instance)
//   timeout            duration           per query (default 5s)
//   bearerToken        string             sent as Authorization: Bearer
//   bearerTokenFile    string             re-read at every query; wins over bearerToken
//   caFile             string             PEM CA bundle for an https ip
// Durations are Go-style strings ("15s", "500ms", "1m30s") or a number of seconds.
//
// Errors: kInvalidArgument naming the plugin and the field, e.g.
//   cputraffic: args.ip: Required value: the Prometheus URL, e.g. "http://prometheus:9090"
// Thread-safety: a value type.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace ksched::plugins::metrics_traffic {

struct MetricsTrafficArgs {
  std::string ip;
  std::string device_name;
  std::int64_t timerange_minutes = 0;
  std::string query;
  std::chrono::milliseconds refresh_interval{15'000};
  std::chrono::milliseconds staleness_limit{120'000};
  std::string node_label = "nodename";
  std::chrono::milliseconds timeout{5'000};
  std::string bearer_token;
  std::string bearer_token_file;
  std::string ca_file;
};

// Parses and validates `json` (an object; empty text means no args, which fails: ip is required).
absl::StatusOr<MetricsTrafficArgs> ParseMetricsTrafficArgs(std::string_view plugin,
                                                           std::string_view json);

// "15s", "500ms", "1m30s", "2h", "1.5s" or a plain number of seconds; nullopt-like error otherwise.
absl::StatusOr<std::chrono::milliseconds> ParseDuration(std::string_view text);

}  // namespace ksched::plugins::metrics_traffic
