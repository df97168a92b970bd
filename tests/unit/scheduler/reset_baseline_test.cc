// ResetBaseline on hand-made collections: what component-base's KubeRegistry.Reset leaves of each
// kind of series, per policy.
#include "scheduler/metrics/reset_baseline.h"

#include <catch2/catch.hpp>

#include <limits>
#include <string>
#include <vector>

namespace ksched::scheduler::metrics {
namespace {

using prometheus::ClientMetric;
using prometheus::MetricFamily;
using prometheus::MetricType;
using Policy = ResetBaseline::Policy;

ClientMetric Counter(std::vector<ClientMetric::Label> labels, double value) {
  ClientMetric series;
  series.label = std::move(labels);
  series.counter.value = value;
  return series;
}

ClientMetric Gauge(std::vector<ClientMetric::Label> labels, double value) {
  ClientMetric series;
  series.label = std::move(labels);
  series.gauge.value = value;
  return series;
}

// A histogram with buckets le=1 and le=+Inf holding `below_one` and `count` observations.
ClientMetric Histogram(std::vector<ClientMetric::Label> labels, std::uint64_t below_one, std::uint64_t count, double sum) {
  ClientMetric series;
  series.label = std::move(labels);
  series.histogram.sample_count = count;
  series.histogram.sample_sum = sum;
  series.histogram.bucket = {{below_one, 1.0}, {count, std::numeric_limits<double>::infinity()}};
  return series;
}

MetricFamily Family(std::string name, MetricType type, std::vector<ClientMetric> series) {
  MetricFamily family;
  family.name = std::move(name);
  family.type = type;
  family.metric = std::move(series);
  return family;
}

const ClientMetric* Find(const std::vector<MetricFamily>& families, const std::string& name,
                         const std::vector<ClientMetric::Label>& labels) {
  for (const MetricFamily& family : families) {
    if (family.name != name) continue;
    for (const ClientMetric& series : family.metric) {
      if (series.label == labels) return &series;
    }
  }
  return nullptr;
}

const std::vector<ClientMetric::Label> kScheduled = {{"result", "scheduled"}};
const std::vector<ClientMetric::Label> kError = {{"result", "error"}};

TEST_CASE("before a reset the collection is left as it is") {
  ResetBaseline baseline([](std::string_view) { return Policy::kReset; });
  std::vector<MetricFamily> families = {Family("attempts_total", MetricType::Counter, {Counter(kScheduled, 5)})};
  baseline.Apply(families);
  CHECK_FALSE(baseline.active());
  REQUIRE(Find(families, "attempts_total", kScheduled) != nullptr);
  CHECK(Find(families, "attempts_total", kScheduled)->counter.value == 5);
}

TEST_CASE("a reset hides labelled series until they move, then counts them from the reset") {
  ResetBaseline baseline([](std::string_view) { return Policy::kReset; });
  baseline.Reset({Family("attempts_total", MetricType::Counter, {Counter(kScheduled, 5), Counter(kError, 1)}),
                  Family("duration_seconds", MetricType::Histogram, {Histogram(kScheduled, 3, 5, 2.5)}),
                  Family("running", MetricType::Gauge, {Gauge(kScheduled, 2)})});
  CHECK(baseline.active());

  std::vector<MetricFamily> unchanged = {
      Family("attempts_total", MetricType::Counter, {Counter(kScheduled, 5), Counter(kError, 1)}),
      Family("duration_seconds", MetricType::Histogram, {Histogram(kScheduled, 3, 5, 2.5)}),
      Family("running", MetricType::Gauge, {Gauge(kScheduled, 2)})};
  baseline.Apply(unchanged);
  for (const MetricFamily& family : unchanged) CHECK(family.metric.empty());

  std::vector<MetricFamily> later = {
      Family("attempts_total", MetricType::Counter, {Counter(kScheduled, 7), Counter(kError, 1)}),
      Family("duration_seconds", MetricType::Histogram, {Histogram(kScheduled, 4, 7, 4.0)}),
      Family("running", MetricType::Gauge, {Gauge(kScheduled, 1)}),
      Family("new_total", MetricType::Counter, {Counter(kError, 3)})};
  baseline.Apply(later);
  REQUIRE(Find(later, "attempts_total", kScheduled) != nullptr);
  CHECK(Find(later, "attempts_total", kScheduled)->counter.value == 2);
  CHECK(Find(later, "attempts_total", kError) == nullptr);
  const ClientMetric* histogram = Find(later, "duration_seconds", kScheduled);
  REQUIRE(histogram != nullptr);
  CHECK(histogram->histogram.sample_count == 2);
  CHECK(histogram->histogram.sample_sum == 1.5);
  CHECK(histogram->histogram.bucket[0].cumulative_count == 1);
  CHECK(histogram->histogram.bucket[1].cumulative_count == 2);
  // A gauge moved by Inc/Dec: its new child starts at 0, as upstream's.
  REQUIRE(Find(later, "running", kScheduled) != nullptr);
  CHECK(Find(later, "running", kScheduled)->gauge.value == -1);
  // Created after the reset: as is.
  REQUIRE(Find(later, "new_total", kError) != nullptr);
  CHECK(Find(later, "new_total", kError)->counter.value == 3);
}

TEST_CASE("series without labels: counters restart from 0, histograms and gauges keep their values") {
  ResetBaseline baseline([](std::string_view) { return Policy::kReset; });
  auto collect = [](double attempts, std::uint64_t observed, double start_time) {
    return std::vector<MetricFamily>{Family("preemption_attempts_total", MetricType::Counter, {Counter({}, attempts)}),
                                     Family("algorithm_seconds", MetricType::Histogram, {Histogram({}, observed, observed, 0.5)}),
                                     Family("start_time", MetricType::Gauge, {Gauge({}, start_time)})};
  };
  baseline.Reset(collect(4, 9, 1700000000));
  std::vector<MetricFamily> families = collect(4, 9, 1700000000);
  baseline.Apply(families);
  REQUIRE(Find(families, "preemption_attempts_total", {}) != nullptr);
  CHECK(Find(families, "preemption_attempts_total", {})->counter.value == 0);
  REQUIRE(Find(families, "algorithm_seconds", {}) != nullptr);
  CHECK(Find(families, "algorithm_seconds", {})->histogram.sample_count == 9);
  REQUIRE(Find(families, "start_time", {}) != nullptr);
  CHECK(Find(families, "start_time", {})->gauge.value == 1700000000);

  families = collect(6, 10, 1700000000);
  baseline.Apply(families);
  CHECK(Find(families, "preemption_attempts_total", {})->counter.value == 2);
  CHECK(Find(families, "algorithm_seconds", {})->histogram.sample_count == 10);
}

TEST_CASE("the policies: kept, set on change, gone") {
  ResetBaseline baseline([](std::string_view family) {
    if (family == "cache_size") return Policy::kKeep;
    if (family == "leader") return Policy::kSetOnChange;
    if (family == "pending") return Policy::kGone;
    return Policy::kReset;
  });
  auto collect = [](double cache, double leader, double pending) {
    return std::vector<MetricFamily>{Family("cache_size", MetricType::Gauge, {Gauge(kScheduled, cache)}),
                                     Family("leader", MetricType::Gauge, {Gauge(kScheduled, leader)}),
                                     Family("pending", MetricType::Gauge, {Gauge(kScheduled, pending)})};
  };
  baseline.Reset(collect(3, 1, 4));
  std::vector<MetricFamily> families = collect(3, 1, 4);
  baseline.Apply(families);
  REQUIRE(Find(families, "cache_size", kScheduled) != nullptr);
  CHECK(Find(families, "cache_size", kScheduled)->gauge.value == 3);
  CHECK(Find(families, "leader", kScheduled) == nullptr);
  CHECK(Find(families, "pending", kScheduled) == nullptr);

  families = collect(5, 0, 6);
  baseline.Apply(families);
  CHECK(Find(families, "cache_size", kScheduled)->gauge.value == 5);
  REQUIRE(Find(families, "leader", kScheduled) != nullptr);
  CHECK(Find(families, "leader", kScheduled)->gauge.value == 0);  // the value set, not a difference
  CHECK(Find(families, "pending", kScheduled) == nullptr);        // the recorders' children are detached
}

TEST_CASE("a second reset counts from the second") {
  ResetBaseline baseline([](std::string_view) { return Policy::kReset; });
  baseline.Reset({Family("attempts_total", MetricType::Counter, {Counter(kScheduled, 5)})});
  baseline.Reset({Family("attempts_total", MetricType::Counter, {Counter(kScheduled, 8)})});
  std::vector<MetricFamily> families = {Family("attempts_total", MetricType::Counter, {Counter(kScheduled, 9)})};
  baseline.Apply(families);
  REQUIRE(Find(families, "attempts_total", kScheduled) != nullptr);
  CHECK(Find(families, "attempts_total", kScheduled)->counter.value == 1);
}

}  // namespace
}  // namespace ksched::scheduler::metrics
