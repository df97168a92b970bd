// PrometheusCollector (scheduler/prometheus_collector.h) with a scripted fake transport: the
// request it sends (one POST /api/v1/query per query, form-encoded PromQL), parsing of Prometheus'
// answers (vector, error envelope, NaN / non-numeric samples, missing node label), failures
// keeping the previous values until they turn stale, the metrics it reports, shared specs, and the
// background thread's query rate.
#include <catch2/catch.hpp>
#include <chrono>

#include <atomic>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "scheduler/metrics/metrics.h"
#include "scheduler/prometheus_collector.h"
#include "scheduler/prometheus_response.h"

namespace {

using ksched::client::HttpRequest;
using ksched::client::HttpResponse;
using ksched::framework::NodeMetricSample;
using ksched::framework::QuerySpec;
using ksched::scheduler::PrometheusCollector;
using ksched::scheduler::PrometheusCollectorOptions;
using State = NodeMetricSample::State;

// Answers each request with the next scripted result (the last one repeats).
class ScriptedTransport final : public ksched::client::Transport {
 public:
  struct Shared {
    std::mutex mu;
    std::deque<absl::StatusOr<HttpResponse>> script;
    std::vector<HttpRequest> requests;
  };
  explicit ScriptedTransport(std::shared_ptr<Shared> shared) : shared_(std::move(shared)) {}
  void Send(HttpRequest request, Callback done) override {
    absl::StatusOr<HttpResponse> answer = absl::UnavailableError("nothing scripted");
    {
      std::lock_guard<std::mutex> lock(shared_->mu);
      shared_->requests.push_back(std::move(request));
      if (!shared_->script.empty()) {
        answer = shared_->script.front();
        if (shared_->script.size() > 1) shared_->script.pop_front();
      }
    }
    done(std::move(answer));
  }
  void SendAfter(std::chrono::steady_clock::duration, HttpRequest request, Callback done) override {
    Send(std::move(request), std::move(done));
  }
  absl::StatusOr<std::unique_ptr<ksched::client::LineStream>> OpenLineStream(HttpRequest) override {
    return absl::UnimplementedError("no streams");
  }
  const std::string& server() const override { return server_; }

 private:
  std::shared_ptr<Shared> shared_;
  std::string server_ = "http://prometheus:9090";
};

HttpResponse Ok(std::string body) {
  HttpResponse response;
  response.status = 200;
  response.body = std::move(body);
  return response;
}

std::string Vector(const std::string& series) {
  return R"({"status":"success","data":{"resultType":"vector","result":[)" + series + "]}}";
}

QuerySpec Spec(std::string owner = "cputraffic") {
  QuerySpec spec;
  spec.prometheus_url = "http://prometheus:9090";
  spec.promql = "avg by (instance) (x) * on(instance) group_left(nodename) node_uname_info";
  spec.node_label = "nodename";
  spec.refresh_interval = std::chrono::seconds(15);
  spec.staleness_limit = std::chrono::seconds(60);
  spec.owner = std::move(owner);
  return spec;
}

struct Fixture {
  std::shared_ptr<ScriptedTransport::Shared> shared = std::make_shared<ScriptedTransport::Shared>();
  std::chrono::system_clock::time_point now{std::chrono::seconds(1'700'000'000)};
  ksched::scheduler::metrics::Metrics metrics{ksched::scheduler::metrics::MetricsOptions{10, "", {}, "", ""}};
  std::unique_ptr<PrometheusCollector> collector;
  int transports = 0;

  Fixture() {
    PrometheusCollectorOptions options;
    options.transport_factory = [this](const QuerySpec&)
        -> absl::StatusOr<std::unique_ptr<ksched::client::Transport>> {
      ++transports;
      return std::unique_ptr<ksched::client::Transport>(new ScriptedTransport(shared));
    };
    options.clock = [this] { return now; };
    options.metrics = &metrics;
    collector = std::make_unique<PrometheusCollector>(std::move(options));
  }
  void Script(std::vector<absl::StatusOr<HttpResponse>> answers) {
    std::lock_guard<std::mutex> lock(shared->mu);
    shared->script.assign(answers.begin(), answers.end());
  }
  bool Exposes(const std::string& line) const {
    return metrics.SerializeText().find(line + "\n") != std::string::npos;
  }
};

TEST_CASE("prometheus collector: one query for all nodes, values by nodename", "[scheduler][prometheus]") {
  Fixture f;
  auto id = f.collector->Register(Spec());
  REQUIRE(id.ok());
  f.Script({Ok(Vector(
      R"({"metric":{"instance":"10.0.0.1:9100","job":"node","nodename":"node-a"},"value":[1700000000.5,"87.5"]},)"
      R"({"metric":{"instance":"10.0.0.2:9100","job":"node","nodename":"node-b"},"value":[1700000000.5,"12"]})"))});
  f.collector->RefreshAllNow();
  REQUIRE(f.shared->requests.size() == 1);
  const HttpRequest& request = f.shared->requests[0];
  CHECK(request.method == ksched::client::HttpMethod::kPost);
  CHECK(request.target == "/api/v1/query");
  CHECK(request.content_type == "application/x-www-form-urlencoded");
  CHECK(request.body ==
        "query=avg%20by%20%28instance%29%20%28x%29%20%2A%20on%28instance%29%20group_left%28nodename%29%20node_uname_info");
  NodeMetricSample a = f.collector->Lookup(*id, "node-a");
  CHECK(a.state == State::kFresh);
  CHECK(a.value == 87.5);
  CHECK(std::chrono::duration<double>(a.timestamp.time_since_epoch()).count() == Approx(1700000000.5));
  CHECK(f.collector->Lookup(*id, "node-b").value == 12);
  CHECK(f.collector->Lookup(*id, "node-c").state == State::kMissing);
  CHECK(f.Exposes(R"(ksched_node_metrics_queries_total{query="cputraffic",result="success"} 1)"));
  CHECK(f.Exposes(R"(ksched_node_metrics_nodes{query="cputraffic"} 2)"));
  CHECK(f.Exposes(R"(ksched_node_metrics_stale_nodes{query="cputraffic"} 0)"));
  CHECK(f.Exposes(R"(ksched_node_metrics_last_success_timestamp_seconds{query="cputraffic"} 1.7e+09)"));
}

TEST_CASE("prometheus collector: failures keep the last values until they are stale",
          "[scheduler][prometheus]") {
  Fixture f;
  auto id = f.collector->Register(Spec());
  REQUIRE(id.ok());
  f.Script({Ok(Vector(R"({"metric":{"nodename":"node-a"},"value":[1700000000,"50"]})"))});
  f.collector->RefreshAllNow();
  REQUIRE(f.collector->Lookup(*id, "node-a").state == State::kFresh);

  struct Case {
    const char* name;
    absl::StatusOr<HttpResponse> answer;
    const char* reason;
  };
  HttpResponse http500;
  http500.status = 500;
  http500.body = "oops";
  HttpResponse bad_data;
  bad_data.status = 400;
  bad_data.body = R"({"status":"error","errorType":"bad_data","error":"parse error at char 5"})";
  std::vector<Case> cases;
  cases.push_back({"connection refused", absl::UnavailableError("connect: refused"), "unreachable"});
  cases.push_back({"timeout", absl::DeadlineExceededError("request timed out"), "timeout"});
  cases.push_back({"HTTP 500", http500, "http_status"});
  cases.push_back({"PromQL error", bad_data, "prometheus_error"});
  cases.push_back({"not JSON", Ok("<html>"), "bad_response"});
  cases.push_back({"a scalar", Ok(R"({"status":"success","data":{"resultType":"scalar","result":[1,"2"]}})"),
                   "prometheus_error"});
  for (auto& c : cases) {
    INFO(c.name);
    f.Script({c.answer});
    f.collector->RefreshAllNow();
    NodeMetricSample a = f.collector->Lookup(*id, "node-a");
    CHECK(a.state == State::kFresh);  // 0 s old: the previous value still serves
    CHECK(a.value == 50);
    CHECK(f.Exposes(std::string(R"(ksched_node_metrics_query_errors_total{query="cputraffic",reason=")") +
                    c.reason + "\"} " + (std::string(c.reason) == "prometheus_error" ? "2" : "1")) ==
          (std::string(c.name) != "PromQL error"));
  }
  CHECK(f.Exposes(R"(ksched_node_metrics_queries_total{query="cputraffic",result="error"} 6)"));
  // 61 s after the last success the value is stale, and the gauge says so at the next attempt.
  f.now += std::chrono::seconds(61);
  NodeMetricSample a = f.collector->Lookup(*id, "node-a");
  CHECK(a.state == State::kStale);
  CHECK(a.value == 50);
  f.collector->RefreshAllNow();
  CHECK(f.Exposes(R"(ksched_node_metrics_stale_nodes{query="cputraffic"} 1)"));
  // Prometheus answers again: fresh, gauge back to 0.
  f.Script({Ok(Vector(R"({"metric":{"nodename":"node-a"},"value":[1700000061,"70"]})"))});
  f.collector->RefreshAllNow();
  CHECK(f.collector->Lookup(*id, "node-a").state == State::kFresh);
  CHECK(f.collector->Lookup(*id, "node-a").value == 70);
  CHECK(f.Exposes(R"(ksched_node_metrics_stale_nodes{query="cputraffic"} 0)"));
}

TEST_CASE("prometheus collector: bad samples are skipped per node", "[scheduler][prometheus]") {
  Fixture f;
  auto id = f.collector->Register(Spec());
  REQUIRE(id.ok());
  f.Script({Ok(Vector(R"({"metric":{"nodename":"good"},"value":[1,"1.5"]},)"
                      R"({"metric":{"nodename":"nan"},"value":[1,"NaN"]},)"
                      R"({"metric":{"nodename":"inf"},"value":[1,"+Inf"]},)"
                      R"({"metric":{"nodename":"text"},"value":[1,"many"]},)"
                      R"({"metric":{"instance":"x:9100"},"value":[1,"3"]},)"
                      R"({"metric":{"nodename":"good"},"value":[1,"9"]})"))});
  f.collector->RefreshAllNow();
  CHECK(f.collector->Lookup(*id, "good").value == 1.5);
  for (const char* node : {"nan", "inf", "text"}) {
    CHECK(f.collector->Lookup(*id, node).state == State::kMissing);
  }
  CHECK(f.Exposes(R"(ksched_node_metrics_query_errors_total{query="cputraffic",reason="bad_sample"} 3)"));
  CHECK(f.Exposes(R"(ksched_node_metrics_nodes{query="cputraffic"} 1)"));
}

TEST_CASE("prometheus collector: equal specs share one query", "[scheduler][prometheus]") {
  Fixture f;
  auto first = f.collector->Register(Spec("cputraffic"));
  auto again = f.collector->Register(Spec("cputraffic"));
  QuerySpec other = Spec("memorytraffic");
  other.promql = "mem";
  auto second = f.collector->Register(other);
  REQUIRE((first.ok() && again.ok() && second.ok()));
  CHECK(first->index == again->index);
  CHECK(first->index != second->index);
  CHECK(f.collector->query_count() == 2);
  CHECK(f.transports == 2);
  f.collector->ReportNeutralScores(*first, "cputraffic", 3, 5, "node-x");
  CHECK(f.Exposes(R"(ksched_node_metrics_neutral_scores_total{plugin="cputraffic"} 3)"));
}

TEST_CASE("prometheus collector: a bad URL or CA file fails registration", "[scheduler][prometheus]") {
  PrometheusCollector collector;  // the real HttpTransport
  QuerySpec spec = Spec();
  spec.prometheus_url = "http://";
  CHECK_FALSE(collector.Register(spec).ok());
  spec.prometheus_url = "https://prometheus:9090";
  spec.ca_file = "/nonexistent/ca.pem";
  auto missing_ca = collector.Register(spec);
  REQUIRE_FALSE(missing_ca.ok());
  CHECK(std::string(missing_ca.status().message()) == "args.caFile: cannot read /nonexistent/ca.pem");
  CHECK(collector.query_count() == 0);
}

TEST_CASE("prometheus collector: the thread queries once per interval, whatever the lookups",
          "[scheduler][prometheus]") {
  Fixture f;
  QuerySpec spec = Spec();
  spec.refresh_interval = std::chrono::milliseconds(100);
  spec.staleness_limit = std::chrono::milliseconds(300);
  auto id = f.collector->Register(spec);
  REQUIRE(id.ok());
  f.Script({Ok(Vector(R"({"metric":{"nodename":"node-a"},"value":[1,"5"]})"))});
  const auto started = std::chrono::steady_clock::now();
  f.collector->Start();
  std::atomic<bool> done{false};
  std::atomic<long> lookups{0};
  std::thread reader([&] {
    while (!done) {
      f.collector->Lookup(*id, "node-a");
      ++lookups;
    }
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(1050));
  done = true;
  reader.join();
  f.collector->Stop();
  const auto elapsed_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                              std::chrono::steady_clock::now() - started)
                              .count();
  std::size_t requests = 0;
  {
    std::lock_guard<std::mutex> lock(f.shared->mu);
    requests = f.shared->requests.size();
  }
  CHECK(lookups > 1000);
  // At 0, 100, 200, ... ms: never more than one per interval however many lookups ran. A loaded
  // machine may delay the thread (fewer queries), so the lower bound only says it keeps querying.
  CHECK(requests >= 3);
  CHECK(static_cast<long>(requests) <= elapsed_ms / 100 + 1);
  f.collector->Stop();  // idempotent
}

TEST_CASE("prometheus response: form encoding", "[scheduler][prometheus]") {
  CHECK(ksched::scheduler::FormUrlEncode("a b{c=\"d\"}[5m]") == "a%20b%7Bc%3D%22d%22%7D%5B5m%5D");
}

}  // namespace

namespace ksched::scheduler {
namespace {

TEST_CASE("prometheus answer: nesting past Go's limit is refused, not a crash (issue #44)", "[scheduler][prometheus]") {
  const std::string deep = R"({"status":"success","data":)" + std::string(150000, '[') + std::string(150000, ']') + "}";
  const absl::StatusOr<InstantVector> parsed = ParseInstantVector(deep, "instance");
  REQUIRE_FALSE(parsed.ok());
  CHECK(parsed.status().message() == "answer is not JSON: exceeded max depth");
}

}  // namespace
}  // namespace ksched::scheduler
