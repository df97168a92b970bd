// DurationHistograms on its own: after Flush its histograms hold what prometheus-cpp's own
// Histogram::Observe would (same buckets, boundary values included, same sum), nothing is counted
// twice across flushes, and observations from several threads at once all arrive.
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <thread>
#include <vector>

#include <prometheus/histogram.h>
#include <prometheus/registry.h>

#include "scheduler/metrics/duration_histograms.h"

namespace ksched::scheduler::metrics {
namespace {

using framework::Code;
using framework::ExtensionPoint;
using std::chrono::nanoseconds;

const std::vector<double> kBounds{0.001, 0.002, 0.004};

struct Fixture {
  prometheus::Registry registry;
  prometheus::Family<prometheus::Histogram>& family =
      prometheus::BuildHistogram().Name("test_duration_seconds").Help("test").Register(registry);
  DurationHistograms sink{family, {{"plugin", "P"}}, kBounds};

  // The child for (Filter, Success), as the exposition would show it.
  prometheus::ClientMetric::Histogram Filter() {
    return family.Add({{"plugin", "P"}, {"extension_point", "Filter"}, {"status", "Success"}}, kBounds)
        .Collect()
        .histogram;
  }
};

TEST_CASE("DurationHistograms: after Flush, the buckets and sum prometheus-cpp's Observe gives") {
  Fixture fixture;
  prometheus::Histogram reference(kBounds);
  // Below, on and above each bound (an observation equal to a bound is in that bucket), and past the last.
  const std::vector<nanoseconds> values{nanoseconds(500'000), nanoseconds(1'000'000), nanoseconds(1'000'001),
                                        nanoseconds(2'000'000), nanoseconds(3'999'999), nanoseconds(4'000'000),
                                        nanoseconds(9'000'000), nanoseconds(0)};
  for (nanoseconds value : values) {
    fixture.sink.Observe(ExtensionPoint::kFilter, Code::kSuccess, value);
    reference.Observe(std::chrono::duration<double>(value).count());
  }
  // Nothing reaches the histogram before the flush.
  CHECK(fixture.Filter().sample_count == 0);
  fixture.sink.Flush();
  const auto got = fixture.Filter();
  const auto want = reference.Collect().histogram;
  REQUIRE(got.bucket.size() == want.bucket.size());
  for (std::size_t i = 0; i < got.bucket.size(); ++i) {
    INFO("bucket " << i);
    CHECK(got.bucket[i].cumulative_count == want.bucket[i].cumulative_count);
  }
  CHECK(got.sample_count == values.size());
  CHECK(std::abs(got.sample_sum - want.sample_sum) < 1e-12);

  // A second flush adds nothing; later observations add to what is there.
  fixture.sink.Flush();
  CHECK(fixture.Filter().sample_count == values.size());
  fixture.sink.Observe(ExtensionPoint::kFilter, Code::kSuccess, nanoseconds(1'500'000));
  fixture.sink.Flush();
  CHECK(fixture.Filter().sample_count == values.size() + 1);
  CHECK(fixture.Filter().bucket[1].cumulative_count == want.bucket[1].cumulative_count + 1);
}

TEST_CASE("DurationHistograms: label sets appear when first observed, many threads lose nothing") {
  Fixture fixture;
  fixture.sink.Flush();
  CHECK(fixture.family.Collect().empty());  // no child before an observation

  constexpr int kThreads = 6;
  constexpr int kEach = 20'000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&fixture, t] {
      for (int i = 0; i < kEach; ++i) {
        fixture.sink.Observe(ExtensionPoint::kFilter, Code::kSuccess, nanoseconds(1'000'000 * (t % 3) + 1));
        if (i % 1000 == 0) fixture.sink.Flush();  // flushing while others observe
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  fixture.sink.Flush();
  const auto got = fixture.Filter();
  CHECK(got.sample_count == kThreads * kEach);
  // t % 3 == 0: 1 ns (first bucket); 1: 1 ms + 1 ns (second); 2: 2 ms + 1 ns (third).
  CHECK(got.bucket[0].cumulative_count == 2 * kEach);
  CHECK(got.bucket[1].cumulative_count == 4 * kEach);
  CHECK(got.bucket[2].cumulative_count == 6 * kEach);
  const double want_sum = 2.0 * kEach * (1e-9 + 1.000001e-3 + 2.000001e-3);
  CHECK(std::abs(got.sample_sum - want_sum) < 1e-6);
}

}  // namespace
}  // namespace ksched::scheduler::metrics
