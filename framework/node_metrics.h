// NodeMetricsProvider: per-node metric values that score plugins read without doing any I/O
// themselves (the Prometheus-metrics plugins, plugins/metrics_traffic/). The scheduler layer
// implements it (scheduler/prometheus_collector.h): one background query per registered spec per
// refresh interval covering every node, values cached with their timestamps.
//
// Contract:
//   - Register is called from plugin factories (profile construction, one thread). Specs that are
//     equal (QuerySpec::SameQuery: everything but `owner`) share one query and one QueryId. Errors
//     (kInvalidArgument) name the bad field; they fail the profile.
//   - Lookup is called from Score, concurrently for different nodes: it never blocks on I/O, never
//     allocates, and answers from the cache. A node the last answer did not cover is kMissing; a
//     value older than the spec's staleness limit is kStale (its last value is still given).
//   - ReportNeutralScores is called once per NormalizeScore with the number of nodes that got the
//     neutral score: the provider counts them in a metric and logs a rate-limited line.
//
// Thread-safety: Lookup and ReportNeutralScores from any thread; Register from one thread before
// scheduling starts. Ownership: the scheduler layer owns the provider; it outlives the profiles.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace ksched::framework {

// What to ask Prometheus (or another source) for, and how to reach it.
struct QuerySpec {
  std::string prometheus_url;  // "http://host:9090" or "https://...", optionally with a path prefix
  std::string promql;          // an instant-vector expression with one series per node
  std::string node_label;      // the result label holding the Kubernetes node name
  std::chrono::milliseconds refresh_interval{15'000};
  std::chrono::milliseconds staleness_limit{120'000};
  std::chrono::milliseconds timeout{5'000};
  std::string bearer_token;       // sent as "Authorization: Bearer ..."; empty: none
  std::string bearer_token_file;  // re-read at every query; wins over bearer_token
  std::string ca_file;            // PEM bundle for https; empty: the system store
  // Who asked (a plugin name), for metrics labels and log lines; not part of the query's identity.
  std::string owner;

  bool SameQuery(const QuerySpec& other) const {
    return prometheus_url == other.prometheus_url && promql == other.promql &&
           node_label == other.node_label && refresh_interval == other.refresh_interval &&
           staleness_limit == other.staleness_limit && timeout == other.timeout &&
           bearer_token == other.bearer_token && bearer_token_file == other.bearer_token_file &&
           ca_file == other.ca_file;
  }
};

// A registered query's handle: an index into the provider's table.
struct QueryId {
  std::uint32_t index = 0;
};

struct NodeMetricSample {
  enum class State : std::uint8_t { kFresh, kStale, kMissing };
  State state = State::kMissing;
  double value = 0;  // the last value (kFresh, kStale); 0 when kMissing
  // When the value was current (the query's evaluation time); epoch when kMissing.
  std::chrono::system_clock::time_point timestamp{};
};

class NodeMetricsProvider {
 public:
  virtual ~NodeMetricsProvider() = default;
  virtual absl::StatusOr<QueryId> Register(const QuerySpec& spec) = 0;
  virtual NodeMetricSample Lookup(QueryId id, std::string_view node) const = 0;
  // `neutral` of `total` nodes scored neutral this cycle; `example_node` names one of them.
  virtual void ReportNeutralScores(QueryId id, std::string_view plugin, std::size_t neutral,
                                   std::size_t total, std::string_view example_node) = 0;
};

}  // namespace ksched::framework
