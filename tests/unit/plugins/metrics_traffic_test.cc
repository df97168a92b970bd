// The Prometheus-metrics score plugins (plugins/metrics_traffic/) against a fake
// NodeMetricsProvider: args parsing and the field named in errors, the PromQL each kind runs,
// Score reading the cache only, NormalizeScore (the article's division by the maximum, max 0,
// neutral score for missing and stale nodes and its report), sharing of equal queries.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "framework/cycle_state.h"
#include "framework/handle.h"
#include "framework/node_metrics.h"
#include "framework/raw_plugin_args.h"
#include "plugins/in_tree_registry.h"
#include "plugins/metrics_traffic/args.h"
#include "plugins/metrics_traffic/metrics_traffic.h"
#include "plugins/metrics_traffic/queries.h"
#include "test_objects.h"

namespace {

using ksched::framework::NodeMetricSample;
using ksched::framework::QueryId;
using ksched::framework::QuerySpec;
namespace framework = ksched::framework;
namespace mt = ksched::plugins::metrics_traffic;
namespace pt = ksched::plugins::testing;

class FakeProvider final : public framework::NodeMetricsProvider {
 public:
  absl::StatusOr<QueryId> Register(const QuerySpec& spec) override {
    if (refuse) return absl::InvalidArgumentError("args.caFile: cannot read /nope");
    for (std::size_t i = 0; i < specs.size(); ++i) {
      if (specs[i].SameQuery(spec)) return QueryId{static_cast<std::uint32_t>(i)};
    }
    specs.push_back(spec);
    return QueryId{static_cast<std::uint32_t>(specs.size() - 1)};
  }
  NodeMetricSample Lookup(QueryId, std::string_view node) const override {
    ++lookups;
    auto it = samples.find(std::string(node));
    return it == samples.end() ? NodeMetricSample{} : it->second;
  }
  void ReportNeutralScores(QueryId, std::string_view plugin, std::size_t neutral, std::size_t total,
                           std::string_view example) override {
    reports.push_back(std::string(plugin) + " " + std::to_string(neutral) + "/" +
                      std::to_string(total) + " " + std::string(example));
  }

  bool refuse = false;
  std::vector<QuerySpec> specs;
  std::map<std::string, NodeMetricSample> samples;
  mutable int lookups = 0;
  std::vector<std::string> reports;
};

class MetricsHandle final : public framework::Handle {
 public:
  explicit MetricsHandle(framework::NodeMetricsProvider* provider) : provider_(provider) {}
  const framework::Snapshot& snapshot() const override { std::abort(); }
  framework::ClusterApi& cluster_api() override { std::abort(); }
  framework::EventRecorder& event_recorder() override { std::abort(); }
  framework::Parallelizer& parallelizer() override { std::abort(); }
  const std::string& profile_name() const override { return name_; }
  std::optional<ksched::api::Labels> NamespaceLabels(std::string_view) const override {
    return std::nullopt;
  }
  void IterateOverWaitingPods(const std::function<void(framework::WaitingPod&)>&) override {}
  bool RejectWaitingPod(std::string_view) override { return false; }
  framework::NodeMetricsProvider* node_metrics() override { return provider_; }

 private:
  framework::NodeMetricsProvider* provider_;
  std::string name_ = "custom-scheduler";
};

NodeMetricSample Fresh(double value) {
  NodeMetricSample sample;
  sample.state = NodeMetricSample::State::kFresh;
  sample.value = value;
  return sample;
}

std::shared_ptr<framework::RawPluginArgs> Raw(std::string json) {
  auto raw = std::make_shared<framework::RawPluginArgs>();
  raw->json = std::move(json);
  return raw;
}

constexpr char kArticleArgs[] = R"({"devicename":"eth0","ip":"http://172.19.32.140:9090","timerange":0})";

// Scores nodes a, b, c, d with the plugin of `kind` and returns the normalized scores.
std::vector<std::int64_t> ScoreNodes(mt::MetricKind kind, FakeProvider& provider,
                                     const std::vector<std::string>& names) {
  MetricsHandle handle(&provider);
  auto args = Raw(kArticleArgs);
  auto built = pt::Build<mt::MetricsTraffic>(mt::FactoryFor(kind), args.get(), handle);
  std::vector<framework::NodeInfo> infos;
  for (const std::string& name : names) infos.push_back(pt::MakeNodeInfo(pt::MakeNode(name)));
  framework::CycleState state;
  const auto pod = pt::MakePod("p");
  std::vector<framework::NodeScore> scores;
  for (const auto& info : infos) {
    auto [score, status] = built->Score(state, pod, info);
    REQUIRE(status.IsSuccess());
    scores.push_back({&info, score});
  }
  REQUIRE(built->GetScoreExtensions()->NormalizeScore(state, pod, scores).IsSuccess());
  std::vector<std::int64_t> out;
  for (const auto& score : scores) out.push_back(score.score);
  return out;
}

TEST_CASE("metrics plugins: the article's args are accepted", "[plugins][metrics_traffic]") {
  auto args = mt::ParseMetricsTrafficArgs("networktraffic",
                                          R"({"devicename":"eth0","ip":"http://172.19.32.140:9090","timerange":60})");
  REQUIRE(args.ok());
  CHECK(args->ip == "http://172.19.32.140:9090");
  CHECK(args->device_name == "eth0");
  CHECK(args->timerange_minutes == 60);
  CHECK(args->refresh_interval == std::chrono::seconds(15));
  CHECK(args->staleness_limit == std::chrono::minutes(2));
  CHECK(args->node_label == "nodename");

  auto optional = mt::ParseMetricsTrafficArgs(
      "cputraffic",
      R"({"ip":"https://prom:9090","refreshInterval":"1s","stalenessLimit":"1m30s","timeout":0.5,)"
      R"("nodeLabel":"node","bearerTokenFile":"/var/run/token","caFile":"/etc/ca.pem","query":"up"})");
  REQUIRE(optional.ok());
  CHECK(optional->refresh_interval == std::chrono::seconds(1));
  CHECK(optional->staleness_limit == std::chrono::seconds(90));
  CHECK(optional->timeout == std::chrono::milliseconds(500));
  CHECK(optional->node_label == "node");
  CHECK(optional->bearer_token_file == "/var/run/token");
  CHECK(optional->ca_file == "/etc/ca.pem");
}

TEST_CASE("metrics plugins: invalid args name the field", "[plugins][metrics_traffic]") {
  struct Case {
    const char* json;
    const char* message;
  };
  const Case cases[] = {
      {R"({})", "cputraffic: args.ip: Required value: the Prometheus URL, e.g. \"http://prometheus:9090\""},
      {"", "cputraffic: args.ip: Required value: the Prometheus URL, e.g. \"http://prometheus:9090\""},
      {R"({"ip":"172.19.32.140:9090"})",
       "cputraffic: args.ip: Invalid value: \"172.19.32.140:9090\": want an http:// or https:// URL"},
      {R"({"ip":"http://p:9090","timerange":-1})",
       "cputraffic: args.timerange: Invalid value: -1: want minutes in [0, 10080] (0: the plugin's default)"},
      {R"({"ip":"http://p:9090","timerange":"60"})",
       "cputraffic: args.timerange: Invalid value: want an integer number of minutes"},
      {R"({"ip":"http://p:9090","devicename":"eth0\"}"})",
       "cputraffic: args.devicename: Invalid value: \"eth0\"}\": want letters, digits and _ - . : / @ only"},
      {R"({"ip":"http://p:9090","refreshInterval":"soon"})",
       "cputraffic: args.refreshInterval: Invalid value: want a duration such as \"15s\" (want a number before the unit)"},
      {R"({"ip":"http://p:9090","refreshInterval":"10ms"})",
       "cputraffic: args.refreshInterval: Invalid value: must be at least 100ms"},
      {R"({"ip":"http://p:9090","refreshInterval":"30s","stalenessLimit":"10s"})",
       "cputraffic: args.stalenessLimit: Invalid value: must be at least refreshInterval (30000ms)"},
      {R"({"ip":"http://p:9090","nodeLabel":"node-name"})",
       "cputraffic: args.nodeLabel: Invalid value: \"node-name\": want a Prometheus label name"},
      {R"({"ip":"http://p:9090","timeout":"0s"})", "cputraffic: args.timeout: Invalid value: must be positive"},
      {R"({"ip":"http://p:9090","caFile":"/ca.pem"})",
       "cputraffic: args.caFile: Invalid value: only meaningful with an https:// ip"},
      {R"({"ip":"http://p:9090","timeRange":5})", "cputraffic: args: unknown field \"timeRange\""},
      {R"({"ip":5})", "cputraffic: args.ip: Invalid value: want a string"},
      {R"([1])", "cputraffic: args.: want an object"},
  };
  for (const Case& c : cases) {
    INFO(c.json);
    auto args = mt::ParseMetricsTrafficArgs("cputraffic", c.json);
    REQUIRE_FALSE(args.ok());
    CHECK(std::string(args.status().message()) == c.message);
  }
}

TEST_CASE("metrics plugins: durations", "[plugins][metrics_traffic]") {
  CHECK(*mt::ParseDuration("15s") == std::chrono::seconds(15));
  CHECK(*mt::ParseDuration("500ms") == std::chrono::milliseconds(500));
  CHECK(*mt::ParseDuration("1m30s") == std::chrono::seconds(90));
  CHECK(*mt::ParseDuration("2h") == std::chrono::hours(2));
  CHECK(*mt::ParseDuration("1.5s") == std::chrono::milliseconds(1500));
  CHECK(*mt::ParseDuration("10") == std::chrono::seconds(10));
  CHECK_FALSE(mt::ParseDuration("").ok());
  CHECK_FALSE(mt::ParseDuration("5d").ok());
  CHECK_FALSE(mt::ParseDuration("s").ok());
  CHECK_FALSE(mt::ParseDuration("1s5").ok());
}

TEST_CASE("metrics plugins: the PromQL of each kind", "[plugins][metrics_traffic]") {
  mt::MetricsTrafficArgs args;
  args.ip = "http://p:9090";
  args.device_name = "eth0";
  const std::string join = ") * on(instance) group_left(nodename) node_uname_info";
  CHECK(mt::BuildQuery(mt::MetricKind::kCpu, args) ==
        "(avg by (instance) (rate(node_cpu_seconds_total{mode=\"idle\"}[5m])) * 100" + join);
  CHECK(mt::BuildQuery(mt::MetricKind::kMemory, args) ==
        "((avg_over_time(node_memory_MemAvailable_bytes[30m]) / "
        "avg_over_time(node_memory_MemTotal_bytes[30m])) * 100" + join);
  CHECK(mt::BuildQuery(mt::MetricKind::kDiskSpace, args) ==
        "(sum by (instance) (avg_over_time(node_filesystem_avail_bytes{mountpoint=\"/\"}[30m])) / "
        "sum by (instance) (avg_over_time(node_filesystem_size_bytes{mountpoint=\"/\"}[30m])) * 100" + join);
  args.timerange_minutes = 60;
  CHECK(mt::BuildQuery(mt::MetricKind::kNetwork, args) ==
        "(sum by (instance) (rate(node_network_receive_bytes_total{device=\"eth0\"}[60m]) + "
        "rate(node_network_transmit_bytes_total{device=\"eth0\"}[60m]))" + join);
  args.device_name = "";
  args.timerange_minutes = 0;
  CHECK(mt::BuildQuery(mt::MetricKind::kNetwork, args) ==
        "(sum by (instance) (rate(node_network_receive_bytes_total{device!=\"lo\"}[5m]) + "
        "rate(node_network_transmit_bytes_total{device!=\"lo\"}[5m]))" + join);
  CHECK(mt::BuildQuery(mt::MetricKind::kDiskIo, args) ==
        "(sum by (instance) (rate(node_disk_read_bytes_total{}[5m]) + "
        "rate(node_disk_written_bytes_total{}[5m]))" + join);
  args.node_label = "node";
  CHECK(mt::BuildQuery(mt::MetricKind::kCpu, args) ==
        "avg by (node) (rate(node_cpu_seconds_total{mode=\"idle\"}[5m])) * 100");
  args.query = "my_free_cpu";
  CHECK(mt::BuildQuery(mt::MetricKind::kCpu, args) == "my_free_cpu");
  CHECK(mt::HigherIsBetter(mt::MetricKind::kCpu));
  CHECK(mt::HigherIsBetter(mt::MetricKind::kMemory));
  CHECK(mt::HigherIsBetter(mt::MetricKind::kDiskSpace));
  CHECK_FALSE(mt::HigherIsBetter(mt::MetricKind::kDiskIo));
  CHECK_FALSE(mt::HigherIsBetter(mt::MetricKind::kNetwork));
}

TEST_CASE("metrics plugins: free resources score high, traffic scores low", "[plugins][metrics_traffic]") {
  FakeProvider provider;
  provider.samples = {{"a", Fresh(80)}, {"b", Fresh(40)}, {"c", Fresh(20)}};
  // The article's memorytraffic: value * 100 / max.
  CHECK(ScoreNodes(mt::MetricKind::kMemory, provider, {"a", "b", "c"}) ==
        std::vector<std::int64_t>{100, 50, 25});
  CHECK(ScoreNodes(mt::MetricKind::kCpu, provider, {"a", "b", "c"}) ==
        std::vector<std::int64_t>{100, 50, 25});
  // networktraffic: 100 - value * 100 / max.
  CHECK(ScoreNodes(mt::MetricKind::kNetwork, provider, {"a", "b", "c"}) ==
        std::vector<std::int64_t>{0, 50, 75});
  CHECK(ScoreNodes(mt::MetricKind::kDiskIo, provider, {"a", "b", "c"}) ==
        std::vector<std::int64_t>{0, 50, 75});
  CHECK(provider.reports.empty());
  // Fractions count: 0.5 vs 1.5 bytes/s are not both 0.
  provider.samples = {{"a", Fresh(0.5)}, {"b", Fresh(1.5)}};
  CHECK(ScoreNodes(mt::MetricKind::kNetwork, provider, {"a", "b"}) == std::vector<std::int64_t>{67, 0});
}

TEST_CASE("metrics plugins: a maximum of 0 does not divide by zero", "[plugins][metrics_traffic]") {
  FakeProvider provider;
  provider.samples = {{"a", Fresh(0)}, {"b", Fresh(0)}};
  CHECK(ScoreNodes(mt::MetricKind::kMemory, provider, {"a", "b"}) == std::vector<std::int64_t>{0, 0});
  CHECK(ScoreNodes(mt::MetricKind::kNetwork, provider, {"a", "b"}) ==
        std::vector<std::int64_t>{100, 100});
  // Negative values (a counter reset seen by rate) count as 0.
  provider.samples = {{"a", Fresh(-5)}, {"b", Fresh(10)}};
  CHECK(ScoreNodes(mt::MetricKind::kCpu, provider, {"a", "b"}) == std::vector<std::int64_t>{0, 100});
}

TEST_CASE("metrics plugins: missing and stale nodes score neutral and are reported",
          "[plugins][metrics_traffic]") {
  FakeProvider provider;
  NodeMetricSample stale = Fresh(99);
  stale.state = NodeMetricSample::State::kStale;
  NodeMetricSample nan = Fresh(std::nan(""));
  provider.samples = {{"a", Fresh(80)}, {"b", Fresh(40)}, {"stale", stale}, {"nan", nan}};
  CHECK(ScoreNodes(mt::MetricKind::kCpu, provider, {"a", "b", "stale", "missing", "nan"}) ==
        std::vector<std::int64_t>{100, 50, mt::kNeutralScore, mt::kNeutralScore, mt::kNeutralScore});
  CHECK(provider.reports == std::vector<std::string>{"cputraffic 3/5 stale"});
  // Nothing known at all (Prometheus never answered): every node neutral, no failure.
  provider.samples.clear();
  provider.reports.clear();
  CHECK(ScoreNodes(mt::MetricKind::kNetwork, provider, {"a", "b"}) ==
        std::vector<std::int64_t>{mt::kNeutralScore, mt::kNeutralScore});
  CHECK(provider.reports == std::vector<std::string>{"networktraffic 2/2 a"});
}

TEST_CASE("metrics plugins: without a provider every node is neutral", "[plugins][metrics_traffic]") {
  MetricsHandle handle(nullptr);
  auto args = Raw(kArticleArgs);
  auto built = pt::Build<mt::MetricsTraffic>(mt::FactoryFor(mt::MetricKind::kCpu), args.get(), handle);
  framework::CycleState state;
  auto info = pt::MakeNodeInfo(pt::MakeNode("a"));
  std::vector<framework::NodeScore> scores = {{&info, built->Score(state, pt::MakePod("p"), info).first}};
  REQUIRE(built->NormalizeScore(state, pt::MakePod("p"), scores).IsSuccess());
  CHECK(scores[0].score == mt::kNeutralScore);
}

TEST_CASE("metrics plugins: factories register one query per distinct spec", "[plugins][metrics_traffic]") {
  FakeProvider provider;
  MetricsHandle handle(&provider);
  const ksched::framework::Registry registry = ksched::plugins::NewInTreeRegistry();
  auto args = Raw(kArticleArgs);
  for (const char* name : {"cputraffic", "memorytraffic", "diskspacetraffic", "disktraffic",
                           "networktraffic", "cputraffic"}) {
    const auto* factory = registry.Find(name);
    REQUIRE(factory != nullptr);
    auto plugin = (*factory)(args.get(), handle);
    REQUIRE(plugin.ok());
    CHECK((*plugin)->Name() == name);
  }
  // Two cputraffic (two profiles) share a query: 5, not 6.
  REQUIRE(provider.specs.size() == 5);
  CHECK(provider.specs[0].owner == "cputraffic");
  CHECK(provider.specs[0].prometheus_url == "http://172.19.32.140:9090");
  CHECK(provider.specs[0].node_label == "nodename");
  CHECK(provider.specs[0].refresh_interval == std::chrono::seconds(15));

  // Errors: bad args name the plugin and field; a refused registration fails the factory.
  auto bad = Raw(R"({"ip":"nope"})");
  auto failed = (*registry.Find("memorytraffic"))(bad.get(), handle);
  REQUIRE_FALSE(failed.ok());
  CHECK(std::string(failed.status().message()).rfind("memorytraffic: args.ip: Invalid value", 0) == 0);
  provider.refuse = true;
  auto refused = (*registry.Find("memorytraffic"))(args.get(), handle);
  REQUIRE_FALSE(refused.ok());
  CHECK(std::string(refused.status().message()) == "memorytraffic: args.caFile: cannot read /nope");
}

}  // namespace
