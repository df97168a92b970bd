#include "scheduler/prometheus_collector.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <future>
#include <sstream>

#include "client/http_transport.h"
#include "client/rest_config.h"
#include "scheduler/prometheus_response.h"

namespace ksched::scheduler {
namespace {

using framework::NodeMetricSample;
using framework::QuerySpec;

// Indexes into metrics::kNodeMetricsErrorReasons.
enum Reason : std::size_t {
  kUnreachable = 0,
  kTimeout = 1,
  kHttpStatus = 2,
  kPrometheusError = 3,
  kBadResponse = 4,
  kBadSample = 5,
};

absl::StatusOr<std::string> ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string Trimmed(std::string text) {
  const auto not_space = [](unsigned char c) { return !std::isspace(c); };
  text.erase(text.begin(), std::find_if(text.begin(), text.end(), not_space));
  text.erase(std::find_if(text.rbegin(), text.rend(), not_space).base(), text.end());
  return text;
}

absl::StatusOr<std::unique_ptr<client::Transport>> DefaultTransport(const QuerySpec& spec) {
  client::RestConfig config;
  config.server = spec.prometheus_url;
  config.source = spec.owner + " args.ip";
  if (!spec.ca_file.empty()) {
    absl::StatusOr<std::string> pem = ReadWholeFile(spec.ca_file);
    if (!pem.ok()) return absl::InvalidArgumentError("args.caFile: " + std::string(pem.status().message()));
    config.tls.ca_pem = *pem;
    config.tls.ca_source = spec.ca_file;
  }
  client::TransportOptions options;
  options.connect_timeout = spec.timeout;
  options.request_timeout = spec.timeout;
  options.max_connections = 2;
  options.max_idle_connections = 1;
  options.max_body_bytes = std::size_t{64} << 20;
  client::AuthorizationSource auth;
  if (!spec.bearer_token_file.empty()) {
    auth = [file = spec.bearer_token_file]() -> absl::StatusOr<std::string> {
      absl::StatusOr<std::string> token = ReadWholeFile(file);
      if (!token.ok()) return token.status();
      return "Bearer " + Trimmed(*std::move(token));
    };
  } else if (!spec.bearer_token.empty()) {
    auth = [token = spec.bearer_token]() -> absl::StatusOr<std::string> { return "Bearer " + token; };
  }
  absl::StatusOr<std::unique_ptr<client::HttpTransport>> transport =
      client::HttpTransport::Create(config, options, std::move(auth));
  if (!transport.ok()) return transport.status();
  return std::unique_ptr<client::Transport>(std::move(*transport));
}

double UnixSeconds(std::chrono::system_clock::time_point t) {
  return std::chrono::duration<double>(t.time_since_epoch()).count();
}

}  // namespace

PrometheusCollector::PrometheusCollector(PrometheusCollectorOptions options)
    : options_(std::move(options)) {
  if (!options_.transport_factory) options_.transport_factory = DefaultTransport;
}

PrometheusCollector::~PrometheusCollector() { Stop(); }

std::chrono::system_clock::time_point PrometheusCollector::Now() const {
  return options_.clock ? options_.clock() : std::chrono::system_clock::now();
}

absl::StatusOr<framework::QueryId> PrometheusCollector::Register(const QuerySpec& spec) {
  for (std::size_t i = 0; i < queries_.size(); ++i) {
    if (queries_[i]->spec.SameQuery(spec)) return framework::QueryId{static_cast<std::uint32_t>(i)};
  }
  if (thread_.joinable()) return absl::FailedPreconditionError("the collector is already running");
  absl::StatusOr<std::unique_ptr<client::Transport>> transport = options_.transport_factory(spec);
  if (!transport.ok()) return transport.status();
  auto query = std::make_unique<Query>();
  query->spec = spec;
  query->transport = *std::move(transport);
  if (options_.metrics != nullptr) query->series = &options_.metrics->NodeMetricsQuery(spec.owner);
  SPDLOG_INFO("node metrics: {} queries {} every {} ms (stale after {} ms, node label \"{}\"): {}",
              spec.owner, spec.prometheus_url, spec.refresh_interval.count(),
              spec.staleness_limit.count(), spec.node_label, spec.promql);
  queries_.push_back(std::move(query));
  return framework::QueryId{static_cast<std::uint32_t>(queries_.size() - 1)};
}

NodeMetricSample PrometheusCollector::Lookup(framework::QueryId id, std::string_view node) const {
  if (id.index >= queries_.size()) return {};
  const Query& query = *queries_[id.index];
  std::shared_ptr<const Snapshot> snapshot;
  {
    base::MutexLock lock(&query.mu);
    snapshot = query.snapshot;
  }
  auto it = snapshot->values.find(absl::string_view(node.data(), node.size()));
  if (it == snapshot->values.end()) return {};
  NodeMetricSample sample = it->second;
  if (Now() - snapshot->fetched_at > query.spec.staleness_limit) {
    sample.state = NodeMetricSample::State::kStale;
  }
  return sample;
}

void PrometheusCollector::ReportNeutralScores(framework::QueryId id, std::string_view plugin,
                                              std::size_t neutral, std::size_t total,
                                              std::string_view example_node) {
  if (options_.metrics != nullptr) {
    options_.metrics->NeutralScores(plugin).Increment(static_cast<double>(neutral));
  }
  const auto now = std::chrono::steady_clock::now();
  {
    base::MutexLock lock(&neutral_log_mu_);
    if (last_neutral_log_ != std::chrono::steady_clock::time_point{} &&
        now - last_neutral_log_ < options_.log_every) {
      return;
    }
    last_neutral_log_ = now;
  }
  std::string why = "no value";
  if (id.index < queries_.size() && !example_node.empty()) {
    const NodeMetricSample sample = Lookup(id, example_node);
    if (sample.state == NodeMetricSample::State::kStale) why = "a stale value";
  }
  SPDLOG_WARN("{}: {} of {} nodes scored neutral, e.g. node {} has {}; see "
              "ksched_node_metrics_stale_nodes and ksched_node_metrics_query_errors_total "
              "(logged at most every {} s)",
              std::string(plugin), neutral, total, std::string(example_node), why,
              options_.log_every.count());
}

void PrometheusCollector::Start() {
  base::MutexLock lock(&run_mu_);
  if (queries_.empty() || thread_.joinable() || stopping_) return;
  thread_ = std::thread([this] { Run(); });
}

void PrometheusCollector::Stop() {
  {
    base::MutexLock lock(&run_mu_);
    stopping_ = true;
  }
  run_cv_.NotifyAll();
  if (thread_.joinable()) thread_.join();
}

void PrometheusCollector::RefreshAllNow() {
  for (auto& query : queries_) Refresh(*query);
}

void PrometheusCollector::Run() {
  const auto start = std::chrono::steady_clock::now();
  for (auto& query : queries_) query->next_due = start;
  base::MutexLock lock(&run_mu_);
  while (!stopping_) {
    auto due = std::chrono::steady_clock::time_point::max();
    for (const auto& query : queries_) due = std::min(due, query->next_due);
    if (run_cv_.WaitUntil(&run_mu_, due, [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(run_mu_) { return stopping_; })) break;
    lock.Unlock();
    const auto now = std::chrono::steady_clock::now();
    for (auto& query : queries_) {
      if (query->next_due > now) continue;
      // Scheduled from the due time, not from the end of the query, so that the rate stays one
      // query per interval; a query that overran skips the ticks it missed.
      query->next_due += query->spec.refresh_interval;
      if (query->next_due <= now) query->next_due = now + query->spec.refresh_interval;
      Refresh(*query);
    }
    lock.Lock();
  }
}

void PrometheusCollector::Fail(Query& query, std::size_t reason, const std::string& message) {
  ++query.failures_in_a_row;
  if (query.series != nullptr) {
    query.series->failure->Increment();
    query.series->errors[reason]->Increment();
  }
  UpdateStaleGauge(query);
  const auto now = std::chrono::steady_clock::now();
  if (query.failures_in_a_row == 1 || now - query.last_warning >= options_.log_every) {
    query.last_warning = now;
    std::shared_ptr<const Snapshot> snapshot;
    {
      base::MutexLock lock(&query.mu);
      snapshot = query.snapshot;
    }
    const bool never = snapshot->fetched_at == std::chrono::system_clock::time_point{};
    const double age = never ? 0 : std::chrono::duration<double>(Now() - snapshot->fetched_at).count();
    SPDLOG_WARN("node metrics query for {} to {} failed ({}, {} in a row): {}; {}; scheduling goes "
                "on, nodes without fresh values score neutral",
                query.spec.owner, query.spec.prometheus_url, metrics::kNodeMetricsErrorReasons[reason],
                query.failures_in_a_row, message,
                never ? std::string("no value yet")
                      : fmt::format("keeping {} node values from {:.1f} s ago (stale after {} s)",
                                    snapshot->values.size(), age,
                                    query.spec.staleness_limit.count() / 1000.0));
  }
}

void PrometheusCollector::UpdateStaleGauge(Query& query) const {
  if (query.series == nullptr) return;
  std::shared_ptr<const Snapshot> snapshot;
  {
    base::MutexLock lock(&query.mu);
    snapshot = query.snapshot;
  }
  const bool stale = Now() - snapshot->fetched_at > query.spec.staleness_limit;
  query.series->stale_nodes->Set(stale ? static_cast<double>(snapshot->values.size()) : 0.0);
}

void PrometheusCollector::Refresh(Query& query) {
  client::HttpRequest request;
  request.method = client::HttpMethod::kPost;
  request.target = "/api/v1/query";
  request.content_type = "application/x-www-form-urlencoded";
  request.body = "query=" + FormUrlEncode(query.spec.promql);
  request.timeout = query.spec.timeout;
  std::promise<absl::StatusOr<client::HttpResponse>> promise;
  std::future<absl::StatusOr<client::HttpResponse>> future = promise.get_future();
  query.transport->Send(std::move(request), [&promise](absl::StatusOr<client::HttpResponse> response) {
    promise.set_value(std::move(response));
  });
  absl::StatusOr<client::HttpResponse> response = future.get();
  if (!response.ok()) {
    const bool timeout = response.status().code() == absl::StatusCode::kDeadlineExceeded;
    Fail(query, timeout ? kTimeout : kUnreachable, std::string(response.status().message()));
    return;
  }
  absl::StatusOr<InstantVector> parsed = ParseInstantVector(response->body, query.spec.node_label);
  if (response->status != 200) {
    // Prometheus' errors (400 bad_data, 422 execution, 503 timeout) have a JSON body saying why.
    std::string message = "HTTP " + std::to_string(response->status);
    if (!parsed.ok() && parsed.status().code() == absl::StatusCode::kFailedPrecondition) {
      Fail(query, kPrometheusError, message + ": " + std::string(parsed.status().message()));
    } else {
      Fail(query, kHttpStatus, message + ": " + response->body.substr(0, 200));
    }
    return;
  }
  if (!parsed.ok()) {
    const bool prometheus = parsed.status().code() == absl::StatusCode::kFailedPrecondition;
    Fail(query, prometheus ? kPrometheusError : kBadResponse, std::string(parsed.status().message()));
    return;
  }
  auto snapshot = std::make_shared<Snapshot>();
  snapshot->fetched_at = Now();
  snapshot->values.reserve(parsed->values.size());
  for (const NodeValue& value : parsed->values) {
    NodeMetricSample sample;
    sample.state = NodeMetricSample::State::kFresh;
    sample.value = value.value;
    sample.timestamp = std::chrono::system_clock::time_point(
        std::chrono::duration_cast<std::chrono::system_clock::duration>(
            std::chrono::duration<double>(value.timestamp_seconds)));
    snapshot->values.emplace(value.node, sample);
  }
  const std::size_t nodes = snapshot->values.size();
  const double fetched = UnixSeconds(snapshot->fetched_at);
  {
    base::MutexLock lock(&query.mu);
    query.snapshot = std::move(snapshot);
  }
  if (query.series != nullptr) {
    query.series->success->Increment();
    query.series->nodes->Set(static_cast<double>(nodes));
    query.series->last_success->Set(fetched);
    if (parsed->bad_samples > 0) {
      query.series->errors[kBadSample]->Increment(static_cast<double>(parsed->bad_samples));
    }
  }
  UpdateStaleGauge(query);
  if (query.failures_in_a_row > 0) {
    SPDLOG_INFO("node metrics query for {} answered again after {} failures: {} nodes",
                query.spec.owner, query.failures_in_a_row, nodes);
    query.failures_in_a_row = 0;
  }
  const std::size_t skipped = parsed->bad_samples + parsed->unlabelled_series + parsed->duplicate_nodes;
  const auto now = std::chrono::steady_clock::now();
  if (skipped > 0 && now - query.last_warning >= options_.log_every) {
    query.last_warning = now;
    SPDLOG_WARN("node metrics query for {}: {} series skipped ({} non-numeric/NaN, {} without label "
                "{}, {} duplicate nodes), e.g. {}; those nodes score neutral",
                query.spec.owner, skipped, parsed->bad_samples, parsed->unlabelled_series,
                query.spec.node_label, parsed->duplicate_nodes, parsed->first_problem);
  } else if (nodes == 0 && now - query.last_warning >= options_.log_every) {
    query.last_warning = now;
    SPDLOG_WARN("node metrics query for {} returned no series: every node scores neutral (query: {})",
                query.spec.owner, query.spec.promql);
  }
  SPDLOG_DEBUG("node metrics query for {}: {} nodes", query.spec.owner, nodes);
}

}  // namespace ksched::scheduler
