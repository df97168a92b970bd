#include "plugins/metrics_traffic/metrics_traffic.h"

#include <algorithm>
#include <cmath>

#include "framework/raw_plugin_args.h"

namespace ksched::plugins::metrics_traffic {

MetricsTraffic::MetricsTraffic(MetricKind kind, framework::NodeMetricsProvider* provider,
                               framework::QueryId query)
    : kind_(kind), provider_(provider), query_(query) {}

std::int64_t RawScore(const framework::NodeMetricSample& sample) {
  if (sample.state != framework::NodeMetricSample::State::kFresh) return kNoData;
  if (!std::isfinite(sample.value)) return kNoData;
  // Negative values (a counter reset seen by rate) count as 0; 1e15 bounds value * 100 * kScale.
  const double clamped = std::clamp(sample.value, 0.0, 1e12);
  return static_cast<std::int64_t>(std::llround(clamped * kScale));
}

std::pair<std::int64_t, framework::Status> MetricsTraffic::Score(const framework::CycleState&,
                                                                 const api::Pod&,
                                                                 const framework::NodeInfo& node) {
  if (provider_ == nullptr) return {kNoData, framework::Status()};
  return {RawScore(provider_->Lookup(query_, node.name())), framework::Status()};
}

std::size_t NormalizeRawScores(bool higher_is_better, std::vector<framework::NodeScore>& scores) {
  std::int64_t highest = 0;
  for (const framework::NodeScore& score : scores) highest = std::max(highest, score.score);
  std::size_t neutral = 0;
  for (framework::NodeScore& score : scores) {
    if (score.score == kNoData) {
      score.score = kNeutralScore;
      ++neutral;
      continue;
    }
    // The article divides by the highest value; when it is 0 every node is at 0: no free
    // resource anywhere (lowest score), or no traffic anywhere (highest score).
    const std::int64_t share =
        highest > 0 ? score.score * framework::kMaxNodeScore / highest : 0;
    score.score = higher_is_better ? share : framework::kMaxNodeScore - share;
  }
  return neutral;
}

framework::Status MetricsTraffic::NormalizeScore(const framework::CycleState&, const api::Pod&,
                                                 std::vector<framework::NodeScore>& scores) {
  // One node without data, named in the provider's log line (found before normalizing).
  const framework::NodeInfo* example = nullptr;
  for (const framework::NodeScore& score : scores) {
    if (score.score == kNoData) {
      example = score.node;
      break;
    }
  }
  const std::size_t neutral = NormalizeRawScores(HigherIsBetter(kind_), scores);
  if (neutral > 0 && provider_ != nullptr) {
    provider_->ReportNeutralScores(query_, Name(), neutral, scores.size(),
                                   example != nullptr ? std::string_view(example->name())
                                                      : std::string_view());
  }
  return framework::Status();
}

framework::QuerySpec MakeQuerySpec(MetricKind kind, const MetricsTrafficArgs& args) {
  framework::QuerySpec spec;
  spec.prometheus_url = args.ip;
  spec.promql = BuildQuery(kind, args);
  spec.node_label = args.node_label;
  spec.refresh_interval = args.refresh_interval;
  spec.staleness_limit = args.staleness_limit;
  spec.timeout = args.timeout;
  spec.bearer_token = args.bearer_token;
  spec.bearer_token_file = args.bearer_token_file;
  spec.ca_file = args.ca_file;
  spec.owner = std::string(PluginName(kind));
  return spec;
}

framework::PluginFactory FactoryFor(MetricKind kind) {
  return [kind](const framework::PluginArgs* args,
                framework::Handle& handle) -> absl::StatusOr<std::unique_ptr<framework::Plugin>> {
    const std::string_view name = PluginName(kind);
    std::string_view json;
    if (args != nullptr) {
      const auto* raw = dynamic_cast<const framework::RawPluginArgs*>(args);
      if (raw == nullptr) {
        return absl::InvalidArgumentError("want args of the right type for plugin " +
                                          std::string(name));
      }
      json = raw->json;
    }
    absl::StatusOr<MetricsTrafficArgs> parsed = ParseMetricsTrafficArgs(name, json);
    if (!parsed.ok()) return parsed.status();
    framework::NodeMetricsProvider* provider = handle.node_metrics();
    framework::QueryId query;
    if (provider != nullptr) {
      absl::StatusOr<framework::QueryId> registered = provider->Register(MakeQuerySpec(kind, *parsed));
      if (!registered.ok()) {
        return absl::InvalidArgumentError(std::string(name) + ": " +
                                          std::string(registered.status().message()));
      }
      query = *registered;
    }
    return std::make_unique<MetricsTraffic>(kind, provider, query);
  };
}

}  // namespace ksched::plugins::metrics_traffic
