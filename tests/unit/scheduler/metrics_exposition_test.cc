// The /metrics text of scheduler/metrics/metrics.h on its own: upstream's names, help texts with
// their stability prefixes, label values, bucket boundaries; REST client series fed through a real
// RestClient; leader election; process metrics from /proc.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "answering_transport.h"
#include "api/build_info.h"
#include "client/rest_client.h"
#include "scheduler/metrics/buckets.h"
#include "scheduler/metrics/metrics.h"
#include "scheduler/metrics/process_metrics.h"
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
                "backoffQ; 'unschedulable' means number of pods in unschedulableEntities that the "
                "scheduler attempted to schedule and failed; 'gated' is the number of "
                "unschedulable pods that the scheduler never attempted to schedule because they "
                "are gated; 'incomplete' means number of pods in incompletePodGroupPods; 'pending' "
                "means number of pods in pendingPodGroupPods."));
  CHECK(HasLine(text, "# TYPE scheduler_pending_pods gauge"));
  CHECK(HasLine(text,
                "# HELP scheduler_scheduling_algorithm_duration_seconds [BETA] Scheduling "
                "algorithm latency in seconds"));
  CHECK(HasLine(text,
                "# HELP scheduler_pod_scheduling_attempts [STABLE] Number of attempts to "
                "successfully schedule a pod."));
  CHECK(HasLine(text,
                "# HELP scheduler_preemption_attempts_total [STABLE] Total preemption attempts in "
                "the cluster till now"));
  // v1.37: the pod-group pools' "incomplete" and "pending" series too.
  for (const char* queue : {"active", "backoff", "unschedulable", "gated", "incomplete", "pending"}) {
    CHECK(HasLine(text, std::string("scheduler_pending_pods{queue=\"") + queue + "\"} 0"));
  }
  CHECK(HasLine(text, "scheduler_preemption_attempts_total 0"));
  CHECK(HasLine(text, "scheduler_pod_scheduled_after_flush_total 0"));
  CHECK(HasLine(text, "# HELP scheduler_pod_scheduled_after_flush_total [ALPHA] Number of pods that were "
                      "successfully scheduled after being flushed from unschedulableEntities due to timeout. "
                      "This metric helps detect potential queueing hint misconfigurations or event handling "
                      "issues."));
  CHECK(text.find("scheduler_queued_entities") == std::string::npos);  // no queue has had a pod yet
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

TEST_CASE("component-base's own series: build info, version info and the registration counts") {
  Metrics metrics(NoProcess());
  const std::string text = metrics.SerializeText();
  INFO(text);
  const api::BuildInfo& info = api::GetBuildInfo();
  CHECK(HasLine(text, "kubernetes_build_info{build_date=\"" + std::string(info.commit_date) + "\",compiler=\"" +
                          std::string(info.compiler) + "\",git_commit=\"" + std::string(info.git_commit) +
                          "\",git_tree_state=\"" + std::string(info.git_tree_state) + "\",git_version=\"v" +
                          std::string(info.kubernetes_version) + "\",go_version=\"\",major=\"1\",minor=\"37\","
                          "platform=\"" + std::string(info.platform) + "\"} 1"));
  CHECK(HasLine(text, "version_info{binary=\"1.37.2\",component=\"kube\",emulation=\"1.37\",min_compat=\"1.36\"} 1"));
  CHECK(text.find("# HELP kubernetes_build_info [BETA] A metric with a constant '1' value") != std::string::npos);
  CHECK(HasLine(text, "cardinality_enforcement_unexpected_categorizations_total 0"));
  CHECK(HasLine(text, "disabled_metrics_total 0"));
  // scheduler_preemption_goroutines_duration_seconds: ALPHA, deprecated in 1.37.0, hidden in 1.37.
  CHECK(HasLine(text, "hidden_metrics_total 1"));
  CHECK(HasLine(text, "# HELP registered_metrics_total [BETA] The count of registered metrics broken by stability "
                      "level and deprecation version."));
  // Every family registered counts once by its help's stability prefix: the three BETA meta
  // families are among them.
  const double beta = ValueOf(text, "registered_metrics_total{deprecated_version=\"\",stability_level=\"BETA\"}");
  CHECK(beta >= 3);
  CHECK(ValueOf(text, "registered_metrics_total{deprecated_version=\"\",stability_level=\"STABLE\"}") >= 5);
  // Counted once: a second scrape reads the same.
  CHECK(ValueOf(metrics.SerializeText(), "registered_metrics_total{deprecated_version=\"\",stability_level=\"BETA\"}") ==
        beta);
}

TEST_CASE("disabled metrics: only the scheduler's own families are hidden, as upstream's") {
  MetricsOptions options = NoProcess();
  const std::string all = Metrics(options).SerializeText();
  const double stable_all =
      ValueOf(all, "registered_metrics_total{deprecated_version=\"\",stability_level=\"STABLE\"}");
  options.disabled_metrics = {"scheduler_pending_pods", "scheduler_preemption_victims", "kubernetes_build_info",
                              "rest_client_requests_total", "no_such_metric", "scheduler_no_such_metric"};
  Metrics metrics(options);
  metrics.rest_client_observer()->OnAttempt(client::HttpMethod::kGet, "127.0.0.1:6443", 200);
  const std::string text = metrics.SerializeText();
  INFO(text);
  CHECK(text.find("scheduler_pending_pods") == std::string::npos);
  CHECK(text.find("scheduler_preemption_victims") == std::string::npos);
  CHECK(HasLine(text, "scheduler_preemption_attempts_total 0"));
  // Registered before component-base reads the flag upstream: not disabled.
  CHECK(text.find("kubernetes_build_info{") != std::string::npos);
  CHECK(HasLine(text, "rest_client_requests_total{code=\"200\",host=\"127.0.0.1:6443\",method=\"GET\"} 1"));
  CHECK(HasLine(text, "disabled_metrics_total 6"));  // every name given
  CHECK(HasLine(text, "hidden_metrics_total 3"));    // the registered families they hid, and the deprecated one
  // Both hidden families are STABLE: no longer counted as registered.
  CHECK(ValueOf(text, "registered_metrics_total{deprecated_version=\"\",stability_level=\"STABLE\"}") ==
        stable_all - 2);
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
  // Each attempt waits for the limiter (no limit here: 0 s) and sends its body; only the final
  // answer's body counts (the 503 was retried, the POST got none).
  CHECK(HasLine(text, "# HELP rest_client_rate_limiter_duration_seconds [ALPHA] Client side rate limiter latency "
                      "in seconds. Broken down by verb, and host."));
  CHECK(HasLine(text, "rest_client_rate_limiter_duration_seconds_count{host=\"fake:6443\",verb=\"GET\"} 2"));
  CHECK(HasLine(text, "rest_client_rate_limiter_duration_seconds_sum{host=\"fake:6443\",verb=\"GET\"} 0"));
  CHECK(HasLine(text, "rest_client_rate_limiter_duration_seconds_count{host=\"fake:6443\",verb=\"POST\"} 1"));
  CHECK(HasLine(text, "# HELP rest_client_request_size_bytes [ALPHA] Request size in bytes. Broken down by verb and "
                      "host."));
  CHECK(HasLine(text, "rest_client_request_size_bytes_count{host=\"fake:6443\",verb=\"GET\"} 2"));
  CHECK(HasLine(text, "rest_client_request_size_bytes_sum{host=\"fake:6443\",verb=\"POST\"} 2"));
  CHECK(HasLine(text, "rest_client_request_size_bytes_bucket{host=\"fake:6443\",verb=\"POST\",le=\"64\"} 1"));
  CHECK(HasLine(text, "# HELP rest_client_response_size_bytes [ALPHA] Response size in bytes. Broken down by verb "
                      "and host."));
  CHECK(HasLine(text, "rest_client_response_size_bytes_count{host=\"fake:6443\",verb=\"GET\"} 1"));
  CHECK(text.find("rest_client_response_size_bytes_count{host=\"fake:6443\",verb=\"POST\"}") == std::string::npos);
}

TEST_CASE("the client's QPS limit shows in rest_client_rate_limiter_duration_seconds") {
  Metrics metrics(NoProcess());
  auto transport = std::make_shared<testing::AnsweringTransport>();
  transport->set_responder([](const client::HttpRequest&) -> absl::StatusOr<client::HttpResponse> {
    return testing::Response(200);
  });
  client::RestClientOptions options;
  options.qps = 20;  // a token every 50 ms after the burst of one
  options.burst = 1;
  options.observer = metrics.rest_client_observer();
  client::RestClient rest(transport, options);
  for (int i = 0; i < 3; ++i) REQUIRE(rest.Get("/api/v1/nodes").ok());
  const std::string text = metrics.SerializeText();
  INFO(text);
  CHECK(HasLine(text, "rest_client_rate_limiter_duration_seconds_count{host=\"fake:6443\",verb=\"GET\"} 3"));
  // The second and third waited about 50 ms each (the first had the burst token).
  CHECK(ValueOf(text, "rest_client_rate_limiter_duration_seconds_sum{host=\"fake:6443\",verb=\"GET\"}") >= 0.08);
  CHECK(HasLine(text, "rest_client_rate_limiter_duration_seconds_bucket{host=\"fake:6443\",verb=\"GET\",le=\"0.005\"} 1"));
}

TEST_CASE("delegated TokenReview and SubjectAccessReview requests by code, as the apiserver library's") {
  using namespace std::chrono_literals;
  Metrics metrics(NoProcess());
  CHECK(metrics.SerializeText().find("apiserver_delegated") == std::string::npos);
  metrics.ObserveDelegatedAuthnRequest(201, 300ms);
  metrics.ObserveDelegatedAuthnRequest(0, 12s);
  metrics.ObserveDelegatedAuthzRequest(201, 100ms);
  const std::string text = metrics.SerializeText();
  INFO(text);
  CHECK(HasLine(text, "# HELP apiserver_delegated_authn_request_total [ALPHA] Number of HTTP requests partitioned "
                      "by status code."));
  CHECK(HasLine(text, "apiserver_delegated_authn_request_total{code=\"201\"} 1"));
  CHECK(HasLine(text, "apiserver_delegated_authn_request_total{code=\"<error>\"} 1"));
  CHECK(HasLine(text, "# HELP apiserver_delegated_authn_request_duration_seconds [ALPHA] Request latency in "
                      "seconds. Broken down by status code."));
  // Buckets 0.25, 0.5, 0.7, 1, 1.5, 3, 5, 10.
  CHECK(HasLine(text, "apiserver_delegated_authn_request_duration_seconds_bucket{code=\"201\",le=\"0.25\"} 0"));
  CHECK(HasLine(text, "apiserver_delegated_authn_request_duration_seconds_bucket{code=\"201\",le=\"0.5\"} 1"));
  CHECK(HasLine(text, "apiserver_delegated_authn_request_duration_seconds_bucket{code=\"<error>\",le=\"10\"} 0"));
  CHECK(HasLine(text, "apiserver_delegated_authz_request_total{code=\"201\"} 1"));
  CHECK(HasLine(text, "apiserver_delegated_authz_request_duration_seconds_bucket{code=\"201\",le=\"0.25\"} 1"));
}

TEST_CASE("each request's authentication and authorization, with the apiserver's labels") {
  using namespace std::chrono_literals;
  Metrics metrics(NoProcess());
  const std::string anonymous = "system:anonymous";
  const std::string prometheus_sa = "system:serviceaccount:monitoring:prometheus";
  const std::string kubelet = "kubelet";
  const std::string mail = "jane@example.com";
  for (const std::string* user : {&anonymous, &prometheus_sa, &kubelet, &mail}) metrics.ObserveAuthentication(user, 2ms);
  metrics.ObserveAuthentication(nullptr, 300ms);
  metrics.ObserveAuthorization("allowed", 1ms);
  metrics.ObserveAuthorization("no-opinion", 40ms);
  const std::string text = metrics.SerializeText();
  INFO(text);
  CHECK(HasLine(text, "# HELP authentication_attempts [ALPHA] Counter of authenticated attempts."));
  CHECK(HasLine(text, "authentication_attempts{result=\"success\"} 4"));
  CHECK(HasLine(text, "authentication_attempts{result=\"error\"} 1"));
  CHECK(HasLine(text, "authentication_duration_seconds_bucket{result=\"error\",le=\"0.256\"} 0"));
  CHECK(HasLine(text, "authentication_duration_seconds_bucket{result=\"error\",le=\"0.512\"} 1"));
  // Names folded as compressUsername: known identities kept, e-mail addresses and the rest grouped.
  CHECK(HasLine(text, "authenticated_user_requests{username=\"other\"} 2"));
  CHECK(HasLine(text, "authenticated_user_requests{username=\"kubelet\"} 1"));
  CHECK(HasLine(text, "authenticated_user_requests{username=\"email_id\"} 1"));
  CHECK(HasLine(text, "# HELP authorization_attempts_total [ALPHA] Counter of authorization attempts broken down "
                      "by result. It can be either 'allowed', 'denied', 'no-opinion' or 'error'."));
  CHECK(HasLine(text, "authorization_attempts_total{result=\"allowed\"} 1"));
  CHECK(HasLine(text, "authorization_attempts_total{result=\"no-opinion\"} 1"));
  CHECK(HasLine(text, "authorization_duration_seconds_count{result=\"no-opinion\"} 1"));
}

TEST_CASE("the bearer token cache's lookups and fetches, as the apiserver's token cache counts them") {
  using namespace std::chrono_literals;
  Metrics metrics(NoProcess());
  // Registered from the start, as upstream's package init registers them; no series yet.
  CHECK(metrics.registered_families().Families().count("authentication_token_cache_active_fetch_count") == 1);
  CHECK(metrics.SerializeText().find("authentication_token_cache_request_total") == std::string::npos);

  metrics.AddTokenCacheActiveFetches("blocked", +1);
  metrics.AddTokenCacheActiveFetches("in_flight", +1);
  metrics.ObserveTokenCacheFetch(true);
  metrics.AddTokenCacheActiveFetches("in_flight", -1);
  metrics.ObserveTokenCacheRequest(false, 5900us);  // whole milliseconds: 0.005
  metrics.AddTokenCacheActiveFetches("blocked", -1);
  metrics.ObserveTokenCacheRequest(true, 300us);
  metrics.ObserveTokenCacheFetch(false);
  const std::string text = metrics.SerializeText();
  INFO(text);
  // No help text upstream: only the stability level.
  CHECK(HasLine(text, "# HELP authentication_token_cache_request_total [ALPHA] "));
  CHECK(HasLine(text, "# TYPE authentication_token_cache_active_fetch_count gauge"));
  CHECK(HasLine(text, "authentication_token_cache_request_total{status=\"hit\"} 1"));
  CHECK(HasLine(text, "authentication_token_cache_request_total{status=\"miss\"} 1"));
  CHECK(HasLine(text, "authentication_token_cache_request_duration_seconds_bucket{status=\"miss\",le=\"0.005\"} 1"));
  CHECK(HasLine(text, "authentication_token_cache_request_duration_seconds_sum{status=\"miss\"} 0.005"));
  CHECK(HasLine(text, "authentication_token_cache_request_duration_seconds_sum{status=\"hit\"} 0"));
  CHECK(HasLine(text, "authentication_token_cache_fetch_total{status=\"ok\"} 1"));
  CHECK(HasLine(text, "authentication_token_cache_fetch_total{status=\"error\"} 1"));
  CHECK(HasLine(text, "authentication_token_cache_active_fetch_count{status=\"blocked\"} 0"));
  CHECK(HasLine(text, "authentication_token_cache_active_fetch_count{status=\"in_flight\"} 0"));
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

TEST_CASE("upstream's families for preemption goroutines, Permit waits, volume binding errors and queueing "
          "hints appear with their first observation") {
  using namespace std::chrono_literals;
  MetricsOptions options = NoProcess();
  options.show_hidden_metrics = true;  // --show-hidden-metrics-for-version=1.36
  Metrics metrics(options);
  std::string text = metrics.SerializeText();
  for (const char* family : {"scheduler_preemption_goroutines", "scheduler_permit_wait_duration_seconds",
                             "scheduler_volume_scheduling_stage_error_total",
                             "scheduler_queueing_hint_execution_duration_seconds"}) {
    CHECK(text.find(family) == std::string::npos);
  }
  metrics.ObservePreemptionGoroutine(false, 30ms);
  metrics.ObservePreemptionGoroutine(true, 3s);
  metrics.ObservePermitWait(framework::Code::kUnschedulable, 1500ms);
  metrics.VolumeSchedulingStageFailed(framework::MetricsRecorder::VolumeStage::kBind);
  metrics.VolumeSchedulingStageFailed(framework::MetricsRecorder::VolumeStage::kPredicate);
  metrics.VolumeSchedulingStageFailed(framework::MetricsRecorder::VolumeStage::kPredicate);
  metrics.ObserveQueueingHint("NodeAffinity", "NodeAdd", "QueueSkip", 20us);
  metrics.ObserveQueueingHint("NodeAffinity", "NodeAdd", "QueueSkip", 20us);
  metrics.ObserveQueueingHint("NodeAffinity", "NodeAdd", "Queue", 20us);
  text = metrics.SerializeText();
  INFO(text);
  CHECK(HasLine(text, "# HELP scheduler_preemption_goroutines_execution_total [ALPHA] Number of preemption "
                      "goroutines executed."));
  CHECK(HasLine(text, "scheduler_preemption_goroutines_execution_total{result=\"error\"} 1"));
  CHECK(HasLine(text, "scheduler_preemption_goroutines_execution_total{result=\"success\"} 1"));
  // Deprecated in v1.37.0, ALPHA: hidden from 1.37 on, shown here by --show-hidden-metrics-for-version.
  CHECK(HasLine(text, "# HELP scheduler_preemption_goroutines_duration_seconds [ALPHA] (Deprecated since 1.37.0) "
                      "Duration in seconds for running goroutines for the preemption."));
  CHECK(ValueOf(text, "registered_metrics_total{deprecated_version=\"1.37.0\",stability_level=\"ALPHA\"}") == 1);
  // ExponentialBuckets(0.01, 2, 20): 30 ms falls in le=0.04.
  CHECK(HasLine(text, "scheduler_preemption_goroutines_duration_seconds_bucket{result=\"success\",le=\"0.02\"} 0"));
  CHECK(HasLine(text, "scheduler_preemption_goroutines_duration_seconds_bucket{result=\"success\",le=\"0.04\"} 1"));
  CHECK(HasLine(text, "scheduler_preemption_goroutines_duration_seconds_sum{result=\"error\"} 3"));
  CHECK(HasLine(text, "# HELP scheduler_permit_wait_duration_seconds [BETA] Duration of waiting on permit."));
  // ExponentialBuckets(0.001, 2, 15): 1.5 s is above 1.024 and within 2.048.
  CHECK(HasLine(text, "scheduler_permit_wait_duration_seconds_bucket{result=\"Unschedulable\",le=\"1.024\"} 0"));
  CHECK(HasLine(text, "scheduler_permit_wait_duration_seconds_bucket{result=\"Unschedulable\",le=\"2.048\"} 1"));
  CHECK(HasLine(text, "# HELP scheduler_volume_scheduling_stage_error_total [ALPHA] Volume scheduling stage error "
                      "count"));
  CHECK(HasLine(text, "scheduler_volume_scheduling_stage_error_total{operation=\"bind\"} 1"));
  CHECK(HasLine(text, "scheduler_volume_scheduling_stage_error_total{operation=\"predicate\"} 2"));
  CHECK(HasLine(text, "# HELP scheduler_queueing_hint_execution_duration_seconds [ALPHA] Duration for running a "
                      "queueing hint function of a plugin."));
  CHECK(ValueOf(text, "scheduler_queueing_hint_execution_duration_seconds_count{event=\"NodeAdd\",hint=\"QueueSkip\","
                      "plugin=\"NodeAffinity\"}") == 2);
  CHECK(ValueOf(text, "scheduler_queueing_hint_execution_duration_seconds_count{event=\"NodeAdd\",hint=\"Queue\","
                      "plugin=\"NodeAffinity\"}") == 1);
  // ExponentialBuckets(0.00001, 1.5, 20), boundaries by repeated multiplication as client_golang's:
  // 20 us is above the second and within the third.
  CHECK(ValueOf(text, "scheduler_queueing_hint_execution_duration_seconds_bucket{event=\"NodeAdd\",hint=\"Queue\","
                      "plugin=\"NodeAffinity\",le=\"1.5000000000000002e-05\"}") == 0);
  CHECK(ValueOf(text, "scheduler_queueing_hint_execution_duration_seconds_bucket{event=\"NodeAdd\",hint=\"Queue\","
                      "plugin=\"NodeAffinity\",le=\"2.2500000000000005e-05\"}") == 1);
}

TEST_CASE("credential plugin runs and certificates, as client-go's exec plugin metrics") {
  Metrics metrics(NoProcess());
  std::string text = metrics.SerializeText();
  // Shown from the start, as upstream's GaugeFunc and plain histogram.
  CHECK(HasLine(text,
                "# HELP rest_client_exec_plugin_ttl_seconds [ALPHA] Gauge of the shortest TTL (time-to-live) of the "
                "client certificate(s) managed by the auth exec plugin. The value is in seconds until certificate "
                "expiry (negative if already expired). If auth exec plugins are unused or manage no TLS "
                "certificates, the value will be +INF."));
  CHECK(HasLine(text, "rest_client_exec_plugin_ttl_seconds +Inf"));
  CHECK(HasLine(text, "rest_client_exec_plugin_certificate_rotation_age_bucket{le=\"1.24416e+08\"} 0"));
  CHECK(HasLine(text, "rest_client_exec_plugin_certificate_rotation_age_count 0"));
  CHECK(text.find("rest_client_exec_plugin_call_total") == std::string::npos);

  const std::shared_ptr<client::ExecPluginObserver> observer = metrics.exec_plugin_observer();
  REQUIRE(observer != nullptr);
  observer->OnCall(client::ExecPluginCallStatus::kNoError, 0);
  observer->OnCall(client::ExecPluginCallStatus::kNoError, 0);
  observer->OnCall(client::ExecPluginCallStatus::kPluginExecutionError, -1);
  const int a = 0, b = 0;  // two providers
  const auto now = std::chrono::system_clock::now();
  observer->OnCertificateExpiry(&a, now + std::chrono::hours(2));
  observer->OnCertificateExpiry(&b, now + std::chrono::hours(1));
  observer->OnCertificateRotated(std::chrono::hours(3));
  text = metrics.SerializeText();
  INFO(text);
  CHECK(HasLine(text,
                "# HELP rest_client_exec_plugin_call_total [ALPHA] Number of calls to an exec plugin, partitioned by "
                "the type of event encountered (no_error, plugin_execution_error, plugin_not_found_error, "
                "client_internal_error) and an optional exit code. The exit code will be set to 0 if and only if "
                "the plugin call was successful."));
  CHECK(HasLine(text, "rest_client_exec_plugin_call_total{call_status=\"no_error\",code=\"0\"} 2"));
  CHECK(HasLine(text, "rest_client_exec_plugin_call_total{call_status=\"plugin_execution_error\",code=\"-1\"} 1"));
  // The earliest expiry among the providers.
  const double ttl = ValueOf(text, "rest_client_exec_plugin_ttl_seconds");
  CHECK(ttl <= 3600);
  CHECK(ttl > 3500);
  CHECK(HasLine(text, "rest_client_exec_plugin_certificate_rotation_age_bucket{le=\"3600\"} 0"));
  CHECK(HasLine(text, "rest_client_exec_plugin_certificate_rotation_age_bucket{le=\"14400\"} 1"));
  // The provider with the earlier certificate now has none: the other's counts.
  observer->OnCertificateExpiry(&b, std::nullopt);
  CHECK(ValueOf(metrics.SerializeText(), "rest_client_exec_plugin_ttl_seconds") > 3600);
  observer->OnCertificateExpiry(&a, std::nullopt);
  CHECK(HasLine(metrics.SerializeText(), "rest_client_exec_plugin_ttl_seconds +Inf"));
}

TEST_CASE("Reset leaves what upstream's DELETE /metrics leaves") {
  Metrics metrics(NoProcess());
  metrics.ForProfile("default-scheduler").Observe(metrics::AttemptResult::kScheduled, std::chrono::milliseconds(3));
  metrics.ForProfile("default-scheduler").Observe(metrics::AttemptResult::kUnschedulable, std::chrono::milliseconds(2));
  metrics.PreemptionAttempted();
  metrics.ObservePodScheduled(1, nullptr);
  metrics.SetLeaderElectionMasterStatus("kube-scheduler", true);
  metrics.SetPendingPodsSource([] { return metrics::PendingPodsSnapshot{2, 0, 1, 0}; });
  metrics.SetCacheSizeSource([] { return metrics::CacheSizeSnapshot{3, 7, 0}; });
  const std::string attempts = "scheduler_schedule_attempts_total{profile=\"default-scheduler\",result=\"scheduled\"}";
  REQUIRE(ValueOf(metrics.SerializeText(), attempts) == 1);

  metrics.Reset();
  std::string text = metrics.SerializeText();
  INFO(text);
  // Vectors lose their children: gone until observed again, with their HELP and TYPE lines.
  CHECK(text.find("scheduler_schedule_attempts_total") == std::string::npos);
  CHECK(text.find("scheduler_scheduling_attempt_duration_seconds") == std::string::npos);
  CHECK(text.find("kubernetes_build_info") == std::string::npos);
  CHECK(text.find("registered_metrics_total") == std::string::npos);
  CHECK(text.find("leader_election_master_status") == std::string::npos);
  CHECK(text.find("scheduler_pending_pods") == std::string::npos);
  // A plain counter restarts from 0; a plain histogram has no Reset upstream.
  CHECK(HasLine(text, "scheduler_preemption_attempts_total 0"));
  CHECK(HasLine(text, "scheduler_pod_scheduling_attempts_count 1"));
  // Set every second upstream: back at once.
  CHECK(HasLine(text, "scheduler_cache_size{type=\"nodes\"} 3"));

  metrics.ForProfile("default-scheduler").Observe(metrics::AttemptResult::kScheduled, std::chrono::milliseconds(3));
  metrics.PreemptionAttempted();
  metrics.SetLeaderElectionMasterStatus("kube-scheduler", false);
  text = metrics.SerializeText();
  CHECK(ValueOf(text, attempts) == 1);
  CHECK(ValueOf(text, "scheduler_scheduling_attempt_duration_seconds_count{profile=\"default-scheduler\",result=\"scheduled\"}") == 1);
  CHECK(text.find("result=\"unschedulable\"") == std::string::npos);
  CHECK(HasLine(text, "scheduler_preemption_attempts_total 1"));
  CHECK(HasLine(text, "leader_election_master_status{name=\"kube-scheduler\"} 0"));
  // The queue's recorders hold children the reset detached: upstream never shows them again.
  CHECK(text.find("scheduler_pending_pods") == std::string::npos);
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
  CHECK(ValueOf(text, "process_network_receive_bytes_total") >= 0);  // -1: absent
  CHECK(ValueOf(text, "process_network_transmit_bytes_total") >= 0);
  // Started within the last day, not in the future.
  const double now = static_cast<double>(std::time(nullptr));
  const double start = ValueOf(text, "process_start_time_seconds");
  CHECK(start <= now + 1);
  CHECK(start > now - 86400);
}

TEST_CASE("process network bytes are the namespace's IpExt octets, as client_golang's") {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("ksched-proc-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "net");
  {
    std::ofstream netstat(dir / "net" / "netstat");
    netstat << "TcpExt: SyncookiesSent SyncookiesRecv\nTcpExt: 0 0\n"
               "IpExt: InNoRoutes InTruncatedPkts InOctets OutOctets InMcastOctets\n"
               "IpExt: 0 0 5324490505 5032499362 7\n";
  }
  const std::vector<prometheus::MetricFamily> families = metrics::ProcessMetrics(dir.string(), dir.string()).Collect();
  std::filesystem::remove_all(dir);
  std::ostringstream out;
  metrics::WriteTextFormat(out, families);
  const std::string text = out.str();
  INFO(text);
  CHECK(HasLine(text, "# HELP process_network_receive_bytes_total Number of bytes received by the process over "
                      "the network."));
  CHECK(HasLine(text, "# TYPE process_network_receive_bytes_total counter"));
  CHECK(HasLine(text, "process_network_receive_bytes_total 5.324490505e+09"));
  CHECK(HasLine(text, "# HELP process_network_transmit_bytes_total Number of bytes sent by the process over the "
                      "network."));
  CHECK(HasLine(text, "process_network_transmit_bytes_total 5.032499362e+09"));
}


TEST_CASE("v1.37 queue families: queued entities, incoming entities, pods scheduled after a flush") {
  Metrics metrics(NoProcess());
  metrics::PendingPodsSnapshot pending{0, 0, 0, 0};
  metrics.SetPendingPodsSource([&pending] { return pending; });
  CHECK(metrics.SerializeText().find("scheduler_queued_entities") == std::string::npos);
  // A pod added to activeQ: its queue's series appears, with the pods' count (a pod is its own entity).
  metrics.QueueIncomingPod(metrics::QueueName::kActive, "PodAdd", true);
  pending = {1, 0, 0, 0};
  std::string text = metrics.SerializeText();
  INFO(text);
  CHECK(HasLine(text, "# HELP scheduler_queued_entities [ALPHA] Number of queued scheduling entities ('pod' or "
                      "'podgroup'; 'pod' stands for individual pods that are not members of any podgroup) by the "
                      "queue type. 'active' means number of entities in activeQ; 'backoff' means number of entities "
                      "in backoffQ; 'unschedulable' means number of entities in unschedulableEntities that the "
                      "scheduler attempted to schedule and failed; 'gated' is the number of unschedulable entities "
                      "that the scheduler never attempted to schedule because they are gated."));
  CHECK(HasLine(text, "scheduler_queued_entities{queue=\"active\",type=\"pod\"} 1"));
  CHECK(text.find("scheduler_queued_entities{queue=\"backoff\"") == std::string::npos);
  CHECK(HasLine(text, "scheduler_queue_incoming_pods_total{event=\"PodAdd\",queue=\"active\"} 1"));
  CHECK(HasLine(text, "scheduler_queue_incoming_entities_total{event=\"PodAdd\",queue=\"active\",type=\"pod\"} 1"));
  // Popped and bound: the series stays, at 0, as upstream's recorder child.
  pending = {0, 0, 0, 0};
  text = metrics.SerializeText();
  CHECK(HasLine(text, "scheduler_queued_entities{queue=\"active\",type=\"pod\"} 0"));
  // A gated pod is seen by its count only.
  pending = {0, 0, 0, 2};
  text = metrics.SerializeText();
  CHECK(HasLine(text, "scheduler_queued_entities{queue=\"gated\",type=\"pod\"} 2"));
  // A pod that lands where its queueing strategy said counts as an incoming pod, not as an incoming
  // entity; the strategy-less events count both.
  metrics.QueueIncomingPod(metrics::QueueName::kActive, "PodAdd", false);
  metrics.QueueIncomingPod(metrics::QueueName::kUnschedulable, "ScheduleAttemptFailure");
  metrics.QueueIncomingPod(metrics::QueueName::kActive, "BackoffComplete");
  text = metrics.SerializeText();
  CHECK(HasLine(text, "scheduler_queue_incoming_pods_total{event=\"PodAdd\",queue=\"active\"} 2"));
  CHECK(HasLine(text, "scheduler_queue_incoming_entities_total{event=\"PodAdd\",queue=\"active\",type=\"pod\"} 1"));
  CHECK(HasLine(text, "scheduler_queue_incoming_pods_total{event=\"ScheduleAttemptFailure\",queue=\"unschedulable\"} 1"));
  CHECK(text.find("scheduler_queue_incoming_entities_total{event=\"ScheduleAttemptFailure\"") == std::string::npos);
  CHECK(HasLine(text, "scheduler_queue_incoming_entities_total{event=\"BackoffComplete\",queue=\"active\",type=\"pod\"} 1"));
  metrics.PodScheduledAfterFlush();
  CHECK(HasLine(metrics.SerializeText(), "scheduler_pod_scheduled_after_flush_total 1"));
}

TEST_CASE("a family past its deprecation period is hidden, as component-base's shouldHide") {
  using namespace std::chrono_literals;
  Metrics metrics(NoProcess());
  metrics.ObservePreemptionGoroutine(false, 30ms);
  const std::string text = metrics.SerializeText();
  INFO(text);
  CHECK(text.find("scheduler_preemption_goroutines_duration_seconds") == std::string::npos);
  CHECK(HasLine(text, "scheduler_preemption_goroutines_execution_total{result=\"success\"} 1"));
  CHECK(text.find("deprecated_version=\"1.37.0\"") == std::string::npos);  // not registered
  CHECK(HasLine(text, "hidden_metrics_total 1"));
}

TEST_CASE("client-go's informer families: one series per informer, named kube-scheduler") {
  using namespace std::chrono_literals;
  Metrics metrics(NoProcess());
  CHECK(metrics.SerializeText().find("informer_") == std::string::npos);
  std::shared_ptr<client::InformerObserver> pods = metrics.InformerObserverFor("/api/v1/pods");
  std::shared_ptr<client::InformerObserver> replica_sets = metrics.InformerObserverFor("/apis/apps/v1/replicasets");
  std::string text = metrics.SerializeText();
  INFO(text);
  // At 0 from the informer's start, as upstream's FIFO and store create them.
  CHECK(HasLine(text, "# HELP informer_queued_items [ALPHA] Number of items currently queued in the FIFO."));
  CHECK(HasLine(text, "informer_queued_items{group=\"\",name=\"kube-scheduler\",resource=\"pods\",version=\"v1\"} 0"));
  CHECK(HasLine(text, "informer_store_resource_version{group=\"apps\",name=\"kube-scheduler\",resource=\"replicasets\","
                      "version=\"v1\"} 0"));
  CHECK(HasLine(text, "informer_processing_latency_seconds_count{group=\"\",name=\"kube-scheduler\",resource=\"pods\","
                      "version=\"v1\"} 0"));
  pods->ObserveProcessing(3ms);
  pods->SetStoreResourceVersion("1234567890123456789");
  pods->SetStoreResourceVersion("not a number");  // kept
  text = metrics.SerializeText();
  CHECK(HasLine(text, "# HELP informer_processing_latency_seconds [ALPHA] Time taken to process events after popping "
                      "from the queue."));
  // Buckets 0.001, 0.005, ...: 3 ms falls in le=0.005.
  CHECK(HasLine(text, "informer_processing_latency_seconds_bucket{group=\"\",name=\"kube-scheduler\",resource=\"pods\","
                      "version=\"v1\",le=\"0.001\"} 0"));
  CHECK(HasLine(text, "informer_processing_latency_seconds_bucket{group=\"\",name=\"kube-scheduler\",resource=\"pods\","
                      "version=\"v1\",le=\"0.005\"} 1"));
  CHECK(HasLine(text, "# HELP informer_store_resource_version [ALPHA] The 15 least significant digits of the resource "
                      "version of the store."));
  CHECK(HasLine(text, "informer_store_resource_version{group=\"\",name=\"kube-scheduler\",resource=\"pods\","
                      "version=\"v1\"} 5.67890123456789e+14"));
  (void)replica_sets;
}

}  // namespace
}  // namespace ksched::scheduler
