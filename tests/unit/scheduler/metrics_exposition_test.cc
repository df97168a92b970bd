// The /metrics text of scheduler/metrics/metrics.h on its own: upstream's names, help texts with
// their stability prefixes, label values, bucket boundaries; REST client series fed through a real
// RestClient; leader election; process metrics from /proc.
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <ctime>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "answering_transport.h"
#include "client/rest_client.h"
#include "scheduler/metrics/buckets.h"
#include "scheduler/metrics/metrics.h"
#include "metrics_test_support.h"
#include "scheduler/metrics/text_format.h"

namespace ksched::scheduler {
namespace {

using metrics::Metrics;
using metrics::MetricsOptions;

using testing::HasLine;
using testing::NoProcess;

// The value of the series line starting with `series` + " ", or -1 when absent.
double ValueOf(const std::string& text, const std::string& series) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(series + " ", 0) == 0) return std::stod(line.substr(series.size() + 1));
  }
  return -1;
}

TEST_CASE("ExponentialBuckets are client_golang's") {
  struct Case {
    double start, factor;
    int count;
    std::vector<double> expected_head;
    double expected_last;
  };
  const std::vector<Case> cases = {
      {0.001, 2, 15, {0.001, 0.002, 0.004, 0.008}, 16.384},
      {0.0001, 2, 12, {0.0001, 0.0002, 0.0004}, 0.2048},
      {0.01, 2, 20, {0.01, 0.02, 0.04}, 5242.88},
      {1, 2, 5, {1, 2, 4, 8}, 16},
      {0.00001, 1.5, 20, {0.00001, 0.000015, 0.0000225}, 0.022168378200531},
  };
  for (const Case& c : cases) {
    const std::vector<double> buckets = metrics::ExponentialBuckets(c.start, c.factor, c.count);
    REQUIRE(buckets.size() == static_cast<std::size_t>(c.count));
    for (std::size_t i = 0; i < c.expected_head.size(); ++i) {
      CHECK(buckets[i] == Approx(c.expected_head[i]).epsilon(1e-12));
    }
    CHECK(buckets.back() == Approx(c.expected_last).epsilon(1e-9));
  }
}

TEST_CASE("numbers are printed as Go's strconv.FormatFloat(v, 'g', -1, 64)") {
  // Expected strings printed by Go 1.24 for the same doubles.
  const std::vector<std::pair<double, std::string>> cases = {
      {0, "0"},
      {1, "1"},
      {-1, "-1"},
      {0.5, "0.5"},
      {100, "100"},
      {999999, "999999"},
      {123456.5, "123456.5"},
      {1e6, "1e+06"},
      {1234567, "1.234567e+06"},
      {1.79603121101e+09, "1.79603121101e+09"},
      {18446744073709551615.0, "1.8446744073709552e+19"},
      {0.0001, "0.0001"},
      {0.00001, "1e-05"},
      {7.2295e-05, "7.2295e-05"},
      {-2.5e-7, "-2.5e-07"},
      {std::numeric_limits<double>::infinity(), "+Inf"},
      {-std::numeric_limits<double>::infinity(), "-Inf"},
      {std::nan(""), "NaN"},
  };
  for (const auto& [value, expected] : cases) {
    INFO(expected);
    CHECK(metrics::FormatGoFloat(value) == expected);
  }
  // Upstream's plugin buckets, exactly as its /metrics prints their le labels.
  const std::vector<std::string> go = {
      "1e-05", "1.5000000000000002e-05", "2.2500000000000005e-05", "3.375000000000001e-05",
      "5.062500000000001e-05", "7.593750000000002e-05", "0.00011390625000000003",
      "0.00017085937500000006", "0.0002562890625000001", "0.00038443359375000017",
      "0.0005766503906250003", "0.0008649755859375004", "0.0012974633789062506",
      "0.0019461950683593758", "0.0029192926025390638", "0.004378938903808595",
      "0.006568408355712893", "0.009852612533569338", "0.014778918800354007", "0.02216837820053101"};
  const std::vector<double> buckets = metrics::ExponentialBuckets(0.00001, 1.5, 20);
  REQUIRE(buckets.size() == go.size());
  for (std::size_t i = 0; i < go.size(); ++i) CHECK(metrics::FormatGoFloat(buckets[i]) == go[i]);
}

TEST_CASE("the text format orders histogram lines and escapes as expfmt") {
  prometheus::MetricFamily family;
  family.name = "h";
  family.help = "a \\ b\nc \"q\"";
  family.type = prometheus::MetricType::Histogram;
  prometheus::ClientMetric metric;
  metric.label = {{"a", "x\"y\\z\nw"}};
  metric.histogram.sample_count = 3;
  metric.histogram.sample_sum = 0.25;
  metric.histogram.bucket = {{1, 0.1}, {3, std::numeric_limits<double>::infinity()}};
  family.metric.push_back(metric);
  std::ostringstream out;
  metrics::WriteTextFormat(out, {family});
  CHECK(out.str() ==
        "# HELP h a \\\\ b\\nc \"q\"\n"
        "# TYPE h histogram\n"
        "h_bucket{a=\"x\\\"y\\\\z\\nw\",le=\"0.1\"} 1\n"
        "h_bucket{a=\"x\\\"y\\\\z\\nw\",le=\"+Inf\"} 3\n"
        "h_sum{a=\"x\\\"y\\\\z\\nw\"} 0.25\n"
        "h_count{a=\"x\\\"y\\\\z\\nw\"} 3\n");
}

TEST_CASE("an idle scheduler exposes upstream's always-present series and no empty families") {
  Metrics metrics(NoProcess());
  const std::string text = metrics.SerializeText();
  INFO(text);
  // Help texts with component-base's stability prefixes.
  CHECK(HasLine(text,
                "# HELP scheduler_pending_pods [STABLE] Number of pending pods, by the queue type. "
                "'active' means number of pods in activeQ; 'backoff' means number of pods in "
                "backoffQ; 'unschedulable' means number of pods in unschedulablePods that the "
                "scheduler attempted to schedule and failed; 'gated' is the number of "
                "unschedulable pods that the scheduler never attempted to schedule because they "
                "are gated."));
  CHECK(HasLine(text, "# TYPE scheduler_pending_pods gauge"));
  CHECK(HasLine(text,
                "# HELP scheduler_scheduling_algorithm_duration_seconds [ALPHA] Scheduling "
                "algorithm latency in seconds"));
  CHECK(HasLine(text,
                "# HELP scheduler_pod_scheduling_attempts [STABLE] Number of attempts to "
                "successfully schedule a pod."));
  CHECK(HasLine(text,
                "# HELP scheduler_preemption_attempts_total [STABLE] Total preemption attempts in "
                "the cluster till now"));
  for (const char* queue : {"active", "backoff", "unschedulable", "gated"}) {
    CHECK(HasLine(text, std::string("scheduler_pending_pods{queue=\"") + queue + "\"} 0"));
  }
  CHECK(HasLine(text, "scheduler_preemption_attempts_total 0"));
  // Unlabelled histograms show their buckets from the start, as upstream's.
  for (const char* le : {"0.001", "0.002", "0.004", "0.008", "0.016", "0.032", "0.064", "0.128",
                         "0.256", "0.512", "1.024", "2.048", "4.096", "8.192", "16.384", "+Inf"}) {
    CHECK(HasLine(text, std::string("scheduler_scheduling_algorithm_duration_seconds_bucket{le=\"") +
                            le + "\"} 0"));
  }
  for (const char* le : {"1", "2", "4", "8", "16", "+Inf"}) {
    CHECK(HasLine(text, std::string("scheduler_pod_scheduling_attempts_bucket{le=\"") + le + "\"} 0"));
  }
  for (const char* le : {"1", "2", "4", "8", "16", "32", "64", "+Inf"}) {
    CHECK(HasLine(text, std::string("scheduler_preemption_victims_bucket{le=\"") + le + "\"} 0"));
  }
  // Vectors without series are left out entirely, as client_golang's gatherer does.
  CHECK(text.find("scheduler_schedule_attempts_total") == std::string::npos);
  CHECK(text.find("scheduler_framework_extension_point_duration_seconds") == std::string::npos);
  CHECK(text.find("rest_client_requests_total") == std::string::npos);
  CHECK(text.find("leader_election_master_status") == std::string::npos);
  CHECK(text.find("process_") == std::string::npos);
}

TEST_CASE("REST client requests are counted per attempt and timed per request") {
  Metrics metrics(NoProcess());
  auto transport = std::make_shared<testing::AnsweringTransport>();
  int calls = 0;
  // The first GET fails with 503 then succeeds on retry; the POST fails without a response.
  transport->set_responder([&calls](const client::HttpRequest& request)
                               -> absl::StatusOr<client::HttpResponse> {
    if (request.method == client::HttpMethod::kPost) return absl::InvalidArgumentError("refused");
    return ++calls == 1 ? testing::Response(503) : testing::Response(200);
  });
  client::RestClientOptions options;
  options.qps = -1;
  options.max_retries = 2;
  options.backoff_initial = std::chrono::milliseconds(1);
  options.backoff_cap = std::chrono::milliseconds(1);
  options.observer = metrics.rest_client_observer();
  client::RestClient rest(transport, options);
  REQUIRE(rest.Get("/api/v1/nodes").ok());
  REQUIRE_FALSE(rest.Create("/api/v1/namespaces/ns/pods/p/binding", "{}").ok());

  const std::string text = metrics.SerializeText();
  INFO(text);
  CHECK(HasLine(text,
                "# HELP rest_client_requests_total [ALPHA] Number of HTTP requests, partitioned by "
                "status code, method, and host."));
  CHECK(HasLine(text,
                "# HELP rest_client_request_duration_seconds [ALPHA] Request latency in seconds. "
                "Broken down by verb, and host."));
  CHECK(HasLine(text, "rest_client_requests_total{code=\"503\",host=\"fake:6443\",method=\"GET\"} 1"));
  CHECK(HasLine(text, "rest_client_requests_total{code=\"200\",host=\"fake:6443\",method=\"GET\"} 1"));
  CHECK(HasLine(text,
                "rest_client_requests_total{code=\"<error>\",host=\"fake:6443\",method=\"POST\"} 1"));
  // One request each, retries included in the GET's latency.
  CHECK(HasLine(text, "rest_client_request_duration_seconds_count{host=\"fake:6443\",verb=\"GET\"} 1"));
  CHECK(HasLine(text, "rest_client_request_duration_seconds_count{host=\"fake:6443\",verb=\"POST\"} 1"));
  for (const char* le : {"0.005", "0.025", "0.1", "0.25", "0.5", "1", "2", "4", "8", "15", "30",
                         "60", "+Inf"}) {
    CHECK(ValueOf(text, std::string("rest_client_request_duration_seconds_bucket{host=\"fake:6443\","
                                    "verb=\"GET\",le=\"") +
                            le + "\"}") >= 0);
  }
}

TEST_CASE("leader_election_master_status follows On and Off") {
  Metrics metrics(NoProcess());
  metrics.SetLeaderElectionMasterStatus("kube-scheduler", true);
  std::string text = metrics.SerializeText();
  CHECK(HasLine(text,
                "# HELP leader_election_master_status [ALPHA] Gauge of if the reporting system is "
                "master of the relevant lease, 0 indicates backup, 1 indicates master. 'name' is "
                "the string used to identify the lease. Please make sure to group by name."));
  CHECK(HasLine(text, "leader_election_master_status{name=\"kube-scheduler\"} 1"));
  metrics.SetLeaderElectionMasterStatus("kube-scheduler", false);
  text = metrics.SerializeText();
  CHECK(HasLine(text, "leader_election_master_status{name=\"kube-scheduler\"} 0"));
}

TEST_CASE("scheduler_cache_size is read from its source at each scrape") {
  Metrics metrics(NoProcess());
  CHECK(metrics.SerializeText().find("scheduler_cache_size") == std::string::npos);
  double nodes = 3;
  metrics.SetCacheSizeSource([&nodes] { return metrics::CacheSizeSnapshot{nodes, 7, 1}; });
  std::string text = metrics.SerializeText();
  CHECK(HasLine(text,
                "# HELP scheduler_cache_size [ALPHA] Number of nodes, pods, and assumed (bound) "
                "pods in the scheduler cache."));
  CHECK(HasLine(text, "scheduler_cache_size{type=\"assumed_pods\"} 1"));
  CHECK(HasLine(text, "scheduler_cache_size{type=\"nodes\"} 3"));
  CHECK(HasLine(text, "scheduler_cache_size{type=\"pods\"} 7"));
  nodes = 4;
  text = metrics.SerializeText();
  CHECK(HasLine(text, "scheduler_cache_size{type=\"nodes\"} 4"));
  metrics.SetCacheSizeSource(nullptr);  // the last values stay, as upstream's gauges
  CHECK(HasLine(metrics.SerializeText(), "scheduler_cache_size{type=\"nodes\"} 4"));
}

TEST_CASE("skipped watch objects are counted per resource and reason from the reflectors' stats") {
  Metrics metrics;
  std::uint64_t bad_pods = 3;
  metrics.SetInformerSkipsSource([&bad_pods] {
    return std::vector<metrics::InformerSkips>{{"pods", bad_pods, 0}, {"nodes", 0, 2}};
  });
  std::string text = metrics.SerializeText();
  CHECK(HasLine(text, "# TYPE ksched_informer_skipped_objects_total counter"));
  CHECK(HasLine(text, "ksched_informer_skipped_objects_total{reason=\"decode_error\",resource=\"pods\"} 3"));
  CHECK(HasLine(text, "ksched_informer_skipped_objects_total{reason=\"oversized\",resource=\"nodes\"} 2"));
  CHECK(HasLine(text, "ksched_informer_skipped_objects_total{reason=\"oversized\",resource=\"pods\"} 0"));
  bad_pods = 5;
  text = metrics.SerializeText();
  CHECK(HasLine(text, "ksched_informer_skipped_objects_total{reason=\"decode_error\",resource=\"pods\"} 5"));
  metrics.SetInformerSkipsSource(nullptr);
}

TEST_CASE("process metrics are read from /proc with client_golang's names and help") {
  Metrics metrics;  // /proc/self
  const std::string text = metrics.SerializeText();
  INFO(text);
  CHECK(HasLine(text, "# HELP process_cpu_seconds_total Total user and system CPU time spent in seconds."));
  CHECK(HasLine(text, "# TYPE process_cpu_seconds_total counter"));
  CHECK(HasLine(text, "# HELP process_start_time_seconds Start time of the process since unix epoch in seconds."));
  CHECK(HasLine(text, "# HELP process_open_fds Number of open file descriptors."));
  CHECK(HasLine(text, "# HELP process_max_fds Maximum number of open file descriptors."));
  CHECK(HasLine(text, "# HELP process_resident_memory_bytes Resident memory size in bytes."));
  CHECK(HasLine(text, "# HELP process_virtual_memory_bytes Virtual memory size in bytes."));
  CHECK(ValueOf(text, "process_cpu_seconds_total") >= 0);
  CHECK(ValueOf(text, "process_open_fds") >= 3);
  CHECK(ValueOf(text, "process_max_fds") >= ValueOf(text, "process_open_fds"));
  CHECK(ValueOf(text, "process_resident_memory_bytes") > 1e6);
  CHECK(ValueOf(text, "process_virtual_memory_bytes") >= ValueOf(text, "process_resident_memory_bytes"));
  // Started within the last day, not in the future.
  const double now = static_cast<double>(std::time(nullptr));
  const double start = ValueOf(text, "process_start_time_seconds");
  CHECK(start <= now + 1);
  CHECK(start > now - 86400);
}

}  // namespace
}  // namespace ksched::scheduler
