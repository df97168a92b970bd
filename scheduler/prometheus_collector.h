// PrometheusCollector: the NodeMetricsProvider (framework/node_metrics.h) of the metrics plugins.
// One background thread runs, for every registered query, one instant query per refresh
// interval against Prometheus' HTTP API (POST /api/v1/query, form-encoded), covering every node at
// once; the per-node values are cached with the time they were fetched. Score-time lookups read
// that cache only. Queries do not depend on the pod rate: the query rate is (number of distinct
// queries) / (refresh interval), whatever the scheduler does.
//
// Failures never fail scheduling: an unreachable Prometheus, a timeout, an HTTP error status, an
// error answer, a malformed body (whole query failed: the previous values are kept and age), or a
// non-numeric / NaN / infinite sample (that node skipped) each give a log line (at most one per
// query per 30 s, plus one when the query recovers) and a count in
// ksched_node_metrics_query_errors_total{query,reason}. Values older than the query's staleness
// limit are reported kStale (ksched_node_metrics_stale_nodes{query}); the plugins score such
// nodes neutral.
//
// Registration validates the reachability configuration (URL syntax, CA file readable and PEM),
// creating one transport (client::HttpTransport, or the factory's) per query; equal specs share
// a query. Start() starts the thread (no-op without queries); Stop() joins it and is idempotent.
//
// Thread-safety: Register before Start, from one thread. Lookup / ReportNeutralScores from any
// thread (Lookup: a per-query mutex held for a shared_ptr copy, no allocation). RefreshAllNow is
// for tests (not concurrently with a running thread).
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "base/mutex.h"
#include "client/transport.h"
#include "framework/node_metrics.h"
#include "scheduler/metrics/metrics.h"

namespace ksched::scheduler {

struct PrometheusCollectorOptions {
  // Makes the transport of a query (tests give a fake). Default: client::HttpTransport to
  // spec.prometheus_url with spec.ca_file, the bearer token (file re-read at every request) and
  // spec.timeout as connect and request timeout.
  std::function<absl::StatusOr<std::unique_ptr<client::Transport>>(const framework::QuerySpec&)>
      transport_factory;
  // Wall clock for staleness (tests move it).
  std::function<std::chrono::system_clock::time_point()> clock;
  metrics::Metrics* metrics = nullptr;  // nullable; must outlive the collector
  std::chrono::seconds log_every{30};   // rate limit of repeated warnings per query
};

class PrometheusCollector final : public framework::NodeMetricsProvider {
 public:
  explicit PrometheusCollector(PrometheusCollectorOptions options = {});
  ~PrometheusCollector() override;
  PrometheusCollector(const PrometheusCollector&) = delete;
  PrometheusCollector& operator=(const PrometheusCollector&) = delete;

  // --- framework::NodeMetricsProvider --------------------------------------------------------------
  absl::StatusOr<framework::QueryId> Register(const framework::QuerySpec& spec) override;
  framework::NodeMetricSample Lookup(framework::QueryId id, std::string_view node) const override;
  void ReportNeutralScores(framework::QueryId id, std::string_view plugin, std::size_t neutral,
                           std::size_t total, std::string_view example_node) override;

  std::size_t query_count() const { return queries_.size(); }
  void Start();
  void Stop();
  // Runs every query once, synchronously (tests).
  void RefreshAllNow();

 private:
  struct Snapshot {
    absl::flat_hash_map<std::string, framework::NodeMetricSample> values;
    std::chrono::system_clock::time_point fetched_at{};
  };
  struct Query {
    framework::QuerySpec spec;
    std::unique_ptr<client::Transport> transport;
    metrics::NodeMetricsQuerySeries* series = nullptr;  // nullptr without metrics
    std::chrono::steady_clock::time_point next_due{};   // collector thread only
    mutable base::Mutex mu;
    std::shared_ptr<const Snapshot> snapshot ABSL_GUARDED_BY(mu) = std::make_shared<const Snapshot>();
    // Logging state (collector thread only).
    std::chrono::steady_clock::time_point last_warning{};
    std::uint64_t failures_in_a_row = 0;
  };

  void Run();
  void Refresh(Query& query);
  void Fail(Query& query, std::size_t reason, const std::string& message);
  void UpdateStaleGauge(Query& query) const;
  std::chrono::system_clock::time_point Now() const;

  PrometheusCollectorOptions options_;
  std::vector<std::unique_ptr<Query>> queries_;  // fixed after Start

  base::Mutex neutral_log_mu_;
  std::chrono::steady_clock::time_point last_neutral_log_ ABSL_GUARDED_BY(neutral_log_mu_){};

  base::Mutex run_mu_;
  base::CondVar run_cv_;
  bool stopping_ ABSL_GUARDED_BY(run_mu_) = false;
  std::thread thread_;  // Register, Start and Stop come from the owner's thread
};

}  // namespace ksched::scheduler
