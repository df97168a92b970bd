// The Prometheus-metrics score plugins of the seed article: cputraffic, memorytraffic,
// diskspacetraffic, disktraffic and networktraffic. One class, parameterised by MetricKind; the
// PromQL of each and the direction of its score are documented in plugins/metrics_traffic/queries.h
// (free CPU, memory and disk space score high; disk and network traffic score low). Args:
// plugins/metrics_traffic/args.h.
//
// How it scores: the factory registers the plugin's query with the Handle's NodeMetricsProvider
// (framework/node_metrics.h), which runs it in the background for every node at once. Score only
// reads the cached value (no I/O, no allocation): raw = value * 1000, or kNoData when the node has
// no fresh value. NormalizeScore maps the raw values onto [0, 100] as the article does, dividing by
// the largest (value * 100 / max, or 100 - value * 100 / max for traffic), but: a max of 0 (every
// node at 0) gives 0 (or 100 for traffic) instead of dividing by zero, and nodes without fresh data
// get the neutral score 50 and are reported to the provider (metric + rate-limited log line).
// No provider (a Handle without one): every node neutral.
//
// Errors: the factory rejects bad args (kInvalidArgument naming the field) and a query the provider
// refuses; Score and NormalizeScore always succeed: missing data never fails a pod.
// Thread-safety: Score is safe concurrently (reads the provider); NormalizeScore from one thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "framework/handle.h"
#include "framework/interface.h"
#include "framework/node_metrics.h"
#include "framework/registry.h"
#include "plugins/metrics_traffic/args.h"
#include "plugins/metrics_traffic/queries.h"

namespace ksched::plugins::metrics_traffic {

// Raw score of a node without fresh data.
inline constexpr std::int64_t kNoData = -1;
// Normalized score of such a node: the middle of the range, neither favoured nor avoided.
inline constexpr std::int64_t kNeutralScore = 50;
// Raw scores are value * kScale (keeps three decimals of percents and bytes/s).
inline constexpr double kScale = 1000.0;

class MetricsTraffic final : public framework::ScorePlugin, public framework::ScoreExtensions {
 public:
  // `provider` may be nullptr (no data: every node neutral); `query` is its registration.
  MetricsTraffic(MetricKind kind, framework::NodeMetricsProvider* provider,
                 framework::QueryId query);
  std::string_view Name() const override { return PluginName(kind_); }
  std::pair<std::int64_t, framework::Status> Score(const framework::CycleState& state,
                                                   const api::Pod& pod,
                                                   const framework::NodeInfo& node) override;
  framework::ScoreExtensions* GetScoreExtensions() override { return this; }
  framework::Status NormalizeScore(const framework::CycleState& state, const api::Pod& pod,
                                   std::vector<framework::NodeScore>& scores) override;

 private:
  const MetricKind kind_;
  framework::NodeMetricsProvider* const provider_;
  const framework::QueryId query_;
};

// The raw-score mapping and normalization, exposed for tests.
std::int64_t RawScore(const framework::NodeMetricSample& sample);
// Returns how many scores were kNoData (set to kNeutralScore).
std::size_t NormalizeRawScores(bool higher_is_better, std::vector<framework::NodeScore>& scores);

// The query spec a plugin of `kind` registers for `args`.
framework::QuerySpec MakeQuerySpec(MetricKind kind, const MetricsTrafficArgs& args);

// Factories (framework::PluginFactory): args must be framework::RawPluginArgs (JSON).
framework::PluginFactory FactoryFor(MetricKind kind);

}  // namespace ksched::plugins::metrics_traffic
