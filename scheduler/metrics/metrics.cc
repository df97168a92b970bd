#include "scheduler/metrics/metrics.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <string_view>
#include <map>
#include <string>
#include <sstream>
#include <utility>
#include <vector>

#include "api/build_info.h"
#include "scheduler/metrics/buckets.h"
#include "scheduler/metrics/component_metrics.h"
#include "scheduler/metrics/rest_client_metrics.h"
#include "scheduler/metrics/text_format.h"

namespace ksched::scheduler::metrics {
namespace {

using prometheus::BuildCounter;
using prometheus::BuildGauge;
using prometheus::BuildHistogram;

// "1.37.0" -> {1, 37}; nullopt for a version that is not major.minor[.patch...].
std::optional<std::pair<int, int>> MajorMinorOf(std::string_view version) {
  int major = 0;
  int minor = 0;
  const char* const end = version.data() + version.size();
  auto [p, ec] = std::from_chars(version.data(), end, major);
  if (ec != std::errc() || p == end || *p != '.') return std::nullopt;
  auto [q, ec2] = std::from_chars(p + 1, end, minor);
  if (ec2 != std::errc()) return std::nullopt;
  (void)q;
  return std::make_pair(major, minor);
}

// component-base's shouldHide (metrics/registry.go, v1.37.2): a family deprecated in `deprecated`
// is served for 3 more minors when STABLE, 1 when BETA, none when ALPHA, then hidden (a release
// version, not an alpha.0, is assumed for the binary).
bool DeprecationPeriodOver(Stability stability, std::string_view deprecated, std::string_view current) {
  const auto dep = MajorMinorOf(deprecated);
  const auto cur = MajorMinorOf(current);
  if (!dep || !cur) return false;
  const int period = stability == Stability::kStable ? 3 : stability == Stability::kBeta ? 1 : 0;
  if (dep->first != cur->first) return dep->first < cur->first;
  return dep->second + period <= cur->second;
}

// Upstream's buckets (pkg/scheduler/metrics/metrics.go), computed once.
const std::vector<double>& AttemptBuckets() {  // scheduling attempt and algorithm durations
  static const std::vector<double> kBuckets = ExponentialBuckets(0.001, 2, 15);
  return kBuckets;
}
// Also scheduler_event_handling_duration_seconds' (0.1 ms to ~200 ms).
const std::vector<double>& ExtensionPointBuckets() {
  static const std::vector<double> kBuckets = ExponentialBuckets(0.0001, 2, 12);
  return kBuckets;
}
const std::vector<double>& PluginBuckets() {
  static const std::vector<double> kBuckets = ExponentialBuckets(0.00001, 1.5, 20);
  return kBuckets;
}
const std::vector<double>& SliBuckets() {
  static const std::vector<double> kBuckets = ExponentialBuckets(0.01, 2, 20);
  return kBuckets;
}

std::string_view ResultLabel(AttemptResult result) {
  switch (result) {
    case AttemptResult::kScheduled:
      return "scheduled";
    case AttemptResult::kUnschedulable:
      return "unschedulable";
    case AttemptResult::kError:
      return "error";
  }
  std::abort();
}

std::string_view QueueLabel(QueueName queue) {
  switch (queue) {
    case QueueName::kActive:
      return "active";
    case QueueName::kBackoff:
      return "backoff";
    case QueueName::kUnschedulable:
      return "unschedulable";
  }
  std::abort();
}

double Seconds(std::chrono::nanoseconds duration) {
  return std::chrono::duration<double>(duration).count();
}

// One event counted in `counter` and timed in `histogram`, both under `labels`. For rare events
// (preemptions, requests to the secure server): the families' own locked lookups suffice.
void CountAndTime(prometheus::Family<prometheus::Counter>& counter, prometheus::Family<prometheus::Histogram>& histogram,
                  const prometheus::Labels& labels, const std::vector<double>& buckets,
                  std::chrono::nanoseconds elapsed) {
  counter.Add(labels).Increment();
  histogram.Add(labels, buckets).Observe(Seconds(elapsed));
}

// How DELETE /metrics treats a family (ResetBaseline), after how upstream updates it:
//   - scheduler_cache_size is set every second (cacheImpl.updateMetrics), back within a second of a
//     reset; the node metrics gauges are set after every query alike: kept.
//   - scheduler_goroutines and scheduler_inflight_events are read here at scrape time from the
//     running counts; upstream's children come back at the next Inc/Dec (any scheduling cycle) and
//     count from the reset. Kept, so that they stay the running counts (upstream hides them until
//     the next cycle, and shows them off by whatever was running at the reset).
//   - scheduler_pending_pods: the queue's recorders hold the children the reset detaches, so
//     upstream never shows the family again: gone.
//   - leader_election_master_status is set only when leadership changes.
//   - every other family moves by observations (or Inc/Dec through the vector) and is reset.
ResetBaseline::Policy ResetPolicyOf(std::string_view family) {
  if (family == "scheduler_cache_size" || family == "scheduler_goroutines" || family == "scheduler_inflight_events" ||
      family == "ksched_node_metrics_nodes" || family == "ksched_node_metrics_stale_nodes" ||
      family == "ksched_node_metrics_last_success_timestamp_seconds") {
    return ResetBaseline::Policy::kKeep;
  }
  if (family == "scheduler_pending_pods") return ResetBaseline::Policy::kGone;
  // scheduler_queued_entities: upstream's recorders look their children up at every add and
  // remove, so the series come back with the next queue move, counting from the reset: kReset.
  if (family == "leader_election_master_status") return ResetBaseline::Policy::kSetOnChange;
  return ResetBaseline::Policy::kReset;
}

}  // namespace

ProfileAttemptMetrics::ProfileAttemptMetrics(std::string profile,
                                             prometheus::Family<prometheus::Counter>& attempts,
                                             prometheus::Family<prometheus::Histogram>& durations)
    : profile_(std::move(profile)), attempts_(attempts), durations_(durations) {}

void ProfileAttemptMetrics::Observe(AttemptResult result, std::chrono::nanoseconds duration) {
  const auto index = static_cast<std::size_t>(result);
  // The label set is built only when a child is created (first use of this result).
  auto labels = [&] {
    return prometheus::Labels{{"result", std::string(ResultLabel(result))}, {"profile", profile_}};
  };
  attempt_durations_
      .Get(index,
           [&]() -> prometheus::Histogram& { return durations_.Add(labels(), AttemptBuckets()); })
      .Observe(Seconds(duration));
  attempt_counters_.Get(index, [&]() -> prometheus::Counter& { return attempts_.Add(labels()); })
      .Increment();
}

Metrics::Metrics(MetricsOptions options)
    : options_(std::move(options)),
      registry_(std::make_shared<prometheus::Registry>()),
      schedule_attempts_(
          BuildCounter()
              .Name("scheduler_schedule_attempts_total")
              .Help(families_.Help("scheduler_schedule_attempts_total", Stability::kStable,
                                  "Number of attempts to schedule pods, by the result. "
                                  "'unschedulable' means a pod could not be scheduled, while "
                                  "'error' means an internal scheduler problem."))
              .Register(*registry_)),
      attempt_duration_(
          BuildHistogram()
              .Name("scheduler_scheduling_attempt_duration_seconds")
              .Help(families_.Help("scheduler_scheduling_attempt_duration_seconds", Stability::kStable,
                                  "Scheduling attempt latency in seconds (scheduling algorithm + "
                                  "binding)"))
              .Register(*registry_)),
      algorithm_duration_(BuildHistogram()
                              .Name("scheduler_scheduling_algorithm_duration_seconds")
                              .Help(families_.Help("scheduler_scheduling_algorithm_duration_seconds", Stability::kBeta,
                                                  "Scheduling algorithm latency in seconds"))
                              .Register(*registry_)
                              .Add({}, AttemptBuckets())),
      pending_pods_(
          BuildGauge()
              .Name("scheduler_pending_pods")
              .Help(families_.Help("scheduler_pending_pods", 
                  Stability::kStable,
                  "Number of pending pods, by the queue type. 'active' means number of pods in "
                  "activeQ; 'backoff' means number of pods in backoffQ; 'unschedulable' means "
                  "number of pods in unschedulableEntities that the scheduler attempted to schedule "
                  "and failed; 'gated' is the number of unschedulable pods that the scheduler "
                  "never attempted to schedule because they are gated; 'incomplete' means number of "
                  "pods in incompletePodGroupPods; 'pending' means number of pods in "
                  "pendingPodGroupPods."))
              .Register(*registry_)),
      event_handling_duration_(BuildHistogram()
                                   .Name("scheduler_event_handling_duration_seconds")
                                   .Help(families_.Help("scheduler_event_handling_duration_seconds", Stability::kAlpha,
                                                       "Event handling latency in seconds."))
                                   .Register(*registry_)),
      inflight_events_(BuildGauge()
                           .Name("scheduler_inflight_events")
                           .Help(families_.Help("scheduler_inflight_events", Stability::kAlpha,
                                               "Number of events currently tracked in the "
                                               "scheduling queue."))
                           .Register(*registry_)),
      goroutines_gauge_(BuildGauge()
                            .Name("scheduler_goroutines")
                            .Help(families_.Help("scheduler_goroutines", Stability::kBeta,
                                                "Number of running goroutines split by the work "
                                                "they do such as binding."))
                            .Register(*registry_)),
      extension_point_duration_(
          BuildHistogram()
              .Name("scheduler_framework_extension_point_duration_seconds")
              .Help(families_.Help("scheduler_framework_extension_point_duration_seconds", Stability::kStable,
                                  "Latency for running all plugins of a specific extension "
                                  "point."))
              .Register(*registry_)),
      plugin_duration_(BuildHistogram()
                           .Name("scheduler_plugin_execution_duration_seconds")
                           .Help(families_.Help("scheduler_plugin_execution_duration_seconds", Stability::kBeta,
                                               "Duration for running a plugin at a specific "
                                               "extension point."))
                           .Register(*registry_)),
      sli_duration_(
          BuildHistogram()
              .Name("scheduler_pod_scheduling_sli_duration_seconds")
              .Help(families_.Help("scheduler_pod_scheduling_sli_duration_seconds", Stability::kBeta,
                                  "E2e latency for a pod being scheduled, from the time the pod "
                                  "enters the scheduling queue and might involve multiple "
                                  "scheduling attempts."))
              .Register(*registry_)),
      pod_scheduling_attempts_(
          BuildHistogram()
              .Name("scheduler_pod_scheduling_attempts")
              .Help(families_.Help("scheduler_pod_scheduling_attempts", Stability::kStable,
                                  "Number of attempts to successfully schedule a pod."))
              .Register(*registry_)
              .Add({}, ExponentialBuckets(1, 2, 5))),
      queue_incoming_(BuildCounter()
                          .Name("scheduler_queue_incoming_pods_total")
                          .Help(families_.Help("scheduler_queue_incoming_pods_total", Stability::kStable,
                                              "Number of pods added to scheduling queues by event "
                                              "and queue type."))
                          .Register(*registry_)),
      queued_entities_(
          BuildGauge()
              .Name("scheduler_queued_entities")
              .Help(families_.Help("scheduler_queued_entities", Stability::kAlpha,
                  "Number of queued scheduling entities ('pod' or 'podgroup'; 'pod' stands for individual "
                  "pods that are not members of any podgroup) by the queue type. 'active' means number of "
                  "entities in activeQ; 'backoff' means number of entities in backoffQ; 'unschedulable' means "
                  "number of entities in unschedulableEntities that the scheduler attempted to schedule and "
                  "failed; 'gated' is the number of unschedulable entities that the scheduler never attempted "
                  "to schedule because they are gated."))
              .Register(*registry_)),
      queue_incoming_entities_(
          BuildCounter()
              .Name("scheduler_queue_incoming_entities_total")
              .Help(families_.Help("scheduler_queue_incoming_entities_total", Stability::kAlpha,
                  "Number of scheduling entities added to scheduling queues by event, queue type, and entity "
                  "type. Entity types are either 'pod' (for individual pods that are not members of any "
                  "podgroup) or 'podgroup'."))
              .Register(*registry_)),
      pod_scheduled_after_flush_(
          BuildCounter()
              .Name("scheduler_pod_scheduled_after_flush_total")
              .Help(families_.Help("scheduler_pod_scheduled_after_flush_total", Stability::kAlpha,
                  "Number of pods that were successfully scheduled after being flushed from "
                  "unschedulableEntities due to timeout. This metric helps detect potential queueing hint "
                  "misconfigurations or event handling issues."))
              .Register(*registry_)
              .Add({})),
      unschedulable_pods_(
          BuildGauge()
              .Name("scheduler_unschedulable_pods")
              .Help(families_.Help("scheduler_unschedulable_pods",
                  Stability::kBeta,
                  "The number of unschedulable pods broken down by plugin name. A pod will "
                  "increment the gauge for all plugins that caused it to not schedule and so this "
                  "metric have meaning only when broken down by plugin."))
              .Register(*registry_)),
      preemption_attempts_(BuildCounter()
                               .Name("scheduler_preemption_attempts_total")
                               .Help(families_.Help("scheduler_preemption_attempts_total", Stability::kStable,
                                                   "Total preemption attempts in the cluster till "
                                                   "now"))
                               .Register(*registry_)
                               .Add({})),
      preemption_victims_(BuildHistogram()
                              .Name("scheduler_preemption_victims")
                              .Help(families_.Help("scheduler_preemption_victims", Stability::kStable,
                                                  "Number of selected preemption victims for preemption "
                                                  "initiated by a single pod"))
                              .Register(*registry_)
                              .Add({}, ExponentialBuckets(1, 2, 7))),
      preemption_goroutines_total_(BuildCounter()
                                       .Name("scheduler_preemption_goroutines_execution_total")
                                       .Help(families_.Help("scheduler_preemption_goroutines_execution_total", Stability::kAlpha,
                                                           "Number of preemption goroutines executed."))
                                       .Register(*registry_)),
      preemption_goroutines_duration_(
          BuildHistogram()
              .Name("scheduler_preemption_goroutines_duration_seconds")
              .Help(families_.HelpDeprecated("scheduler_preemption_goroutines_duration_seconds", Stability::kAlpha,
                                            "1.37.0",
                                            "Duration in seconds for running goroutines for the preemption."))
              .Register(*registry_)),
      permit_wait_duration_(BuildHistogram()
                                .Name("scheduler_permit_wait_duration_seconds")
                                .Help(families_.Help("scheduler_permit_wait_duration_seconds", Stability::kBeta, "Duration of waiting on permit."))
                                .Register(*registry_)),
      volume_stage_errors_(BuildCounter()
                               .Name("scheduler_volume_scheduling_stage_error_total")
                               .Help(families_.Help("scheduler_volume_scheduling_stage_error_total", Stability::kAlpha, "Volume scheduling stage error count"))
                               .Register(*registry_)),
      queueing_hint_duration_(
          BuildHistogram()
              .Name("scheduler_queueing_hint_execution_duration_seconds")
              .Help(families_.Help("scheduler_queueing_hint_execution_duration_seconds", Stability::kAlpha,
                                  "Duration for running a queueing hint function of a plugin."))
              .Register(*registry_)),
      plugin_evaluations_(BuildCounter()
                              .Name("scheduler_plugin_evaluation_total")
                              .Help(families_.Help("scheduler_plugin_evaluation_total", Stability::kBeta,
                                                  "Number of attempts to schedule pods by each plugin and the "
                                                  "extension point (available only in PreFilter, Filter, PreScore, "
                                                  "and Score)."))
                              .Register(*registry_)),
      delegated_authn_total_(BuildCounter()
                                 .Name("apiserver_delegated_authn_request_total")
                                 .Help(families_.Help("apiserver_delegated_authn_request_total", Stability::kAlpha,
                                                      "Number of HTTP requests partitioned by status code."))
                                 .Register(*registry_)),
      delegated_authn_duration_(
          BuildHistogram()
              .Name("apiserver_delegated_authn_request_duration_seconds")
              .Help(families_.Help("apiserver_delegated_authn_request_duration_seconds", Stability::kAlpha,
                                   "Request latency in seconds. Broken down by status code."))
              .Register(*registry_)),
      delegated_authz_total_(BuildCounter()
                                 .Name("apiserver_delegated_authz_request_total")
                                 .Help(families_.Help("apiserver_delegated_authz_request_total", Stability::kAlpha,
                                                      "Number of HTTP requests partitioned by status code."))
                                 .Register(*registry_)),
      delegated_authz_duration_(
          BuildHistogram()
              .Name("apiserver_delegated_authz_request_duration_seconds")
              .Help(families_.Help("apiserver_delegated_authz_request_duration_seconds", Stability::kAlpha,
                                   "Request latency in seconds. Broken down by status code."))
              .Register(*registry_)),
      authenticated_users_(BuildCounter()
                               .Name("authenticated_user_requests")
                               .Help(families_.Help("authenticated_user_requests", Stability::kAlpha,
                                                    "Counter of authenticated requests broken out by username."))
                               .Register(*registry_)),
      authentication_attempts_(BuildCounter()
                                   .Name("authentication_attempts")
                                   .Help(families_.Help("authentication_attempts", Stability::kAlpha,
                                                        "Counter of authenticated attempts."))
                                   .Register(*registry_)),
      authentication_duration_(BuildHistogram()
                                   .Name("authentication_duration_seconds")
                                   .Help(families_.Help("authentication_duration_seconds", Stability::kAlpha,
                                                        "Authentication duration in seconds broken out by result."))
                                   .Register(*registry_)),
      authorization_attempts_(BuildCounter()
                                  .Name("authorization_attempts_total")
                                  .Help(families_.Help("authorization_attempts_total", Stability::kAlpha,
                                                       "Counter of authorization attempts broken down by result. It "
                                                       "can be either 'allowed', 'denied', 'no-opinion' or 'error'."))
                                  .Register(*registry_)),
      authorization_duration_(BuildHistogram()
                                  .Name("authorization_duration_seconds")
                                  .Help(families_.Help("authorization_duration_seconds", Stability::kAlpha,
                                                       "Authorization duration in seconds broken out by result."))
                                  .Register(*registry_)),
      // apiserver's token/cache stats.go: no help text, so only the stability level.
      token_cache_requests_(BuildCounter()
                                .Name("authentication_token_cache_request_total")
                                .Help(families_.Help("authentication_token_cache_request_total", Stability::kAlpha, ""))
                                .Register(*registry_)),
      token_cache_request_duration_(
          BuildHistogram()
              .Name("authentication_token_cache_request_duration_seconds")
              .Help(families_.Help("authentication_token_cache_request_duration_seconds", Stability::kAlpha, ""))
              .Register(*registry_)),
      token_cache_fetches_(BuildCounter()
                               .Name("authentication_token_cache_fetch_total")
                               .Help(families_.Help("authentication_token_cache_fetch_total", Stability::kAlpha, ""))
                               .Register(*registry_)),
      token_cache_active_fetches_(
          BuildGauge()
              .Name("authentication_token_cache_active_fetch_count")
              .Help(families_.Help("authentication_token_cache_active_fetch_count", Stability::kAlpha, ""))
              .Register(*registry_)),
      client_certificate_expiration_(
          BuildHistogram()
              .Name("apiserver_client_certificate_expiration_seconds")
              .Help(families_.Help("apiserver_client_certificate_expiration_seconds", Stability::kAlpha,
                                   "Distribution of the remaining lifetime on the certificate used to authenticate a "
                                   "request."))
              .Register(*registry_)
              .Add({}, std::vector<double>{0, 1800, 3600, 7200, 21600, 43200, 86400, 172800, 345600, 604800, 2592000,
                                          7776000, 15552000, 31104000})),
      leader_status_(
          BuildGauge()
              .Name("leader_election_master_status")
              .Help(families_.Help("leader_election_master_status", 
                  Stability::kAlpha,
                  "Gauge of if the reporting system is master of the relevant lease, 0 indicates "
                  "backup, 1 indicates master. 'name' is the string used to identify the lease. "
                  "Please make sure to group by name."))
              .Register(*registry_)),
      cache_size_(BuildGauge()
                      .Name("scheduler_cache_size")
                      .Help(families_.Help("scheduler_cache_size", Stability::kAlpha,
                                          "Number of nodes, pods, and assumed (bound) pods in the "
                                          "scheduler cache."))
                      .Register(*registry_)),
      informer_skipped_(BuildCounter()
                            .Name("ksched_informer_skipped_objects_total")
                            .Help(families_.Help("ksched_informer_skipped_objects_total", Stability::kAlpha,
                                                "Watch-stream objects the informers skipped, by "
                                                "resource and reason (decode_error, oversized)."))
                            .Register(*registry_)),
      node_metrics_queries_(BuildCounter()
                                .Name("ksched_node_metrics_queries_total")
                                .Help(families_.HelpWithoutLevel("ksched_node_metrics_queries_total", "Node-metrics queries sent to Prometheus by the metrics "
                                      "plugins' collector, by query and result."))
                                .Register(*registry_)),
      node_metrics_errors_(BuildCounter()
                               .Name("ksched_node_metrics_query_errors_total")
                               .Help(families_.HelpWithoutLevel("ksched_node_metrics_query_errors_total", "Failed node-metrics queries by reason (unreachable, "
                                     "timeout, http_status, prometheus_error, bad_response), "
                                     "and samples dropped as non-numeric or NaN (bad_sample)."))
                               .Register(*registry_)),
      node_metrics_nodes_(BuildGauge()
                              .Name("ksched_node_metrics_nodes")
                              .Help(families_.HelpWithoutLevel("ksched_node_metrics_nodes", "Nodes with a value in the last successful answer of a "
                                    "node-metrics query."))
                              .Register(*registry_)),
      node_metrics_stale_(BuildGauge()
                              .Name("ksched_node_metrics_stale_nodes")
                              .Help(families_.HelpWithoutLevel("ksched_node_metrics_stale_nodes", "Nodes whose cached value of a node-metrics query is older "
                                    "than its staleness limit (they score neutral)."))
                              .Register(*registry_)),
      node_metrics_last_success_(BuildGauge()
                                     .Name("ksched_node_metrics_last_success_timestamp_seconds")
                                     .Help(families_.HelpWithoutLevel("ksched_node_metrics_last_success_timestamp_seconds", "Unix time of the last successful answer of a "
                                           "node-metrics query."))
                                     .Register(*registry_)),
      node_metrics_neutral_(BuildCounter()
                                .Name("ksched_node_metrics_neutral_scores_total")
                                .Help(families_.HelpWithoutLevel("ksched_node_metrics_neutral_scores_total", "Node scores a metrics plugin set to neutral for want of "
                                      "fresh data (missing or stale)."))
                                .Register(*registry_)),
      rest_client_(std::make_shared<RestClientMetrics>(*registry_, families_)),
      informer_metrics_(std::make_unique<InformerMetrics>(*registry_, families_)),
      exec_plugin_(std::make_shared<ExecPluginMetrics>(*registry_, families_)),
      process_(options_.proc_self),
      registered_metrics_(BuildCounter()
                              .Name("registered_metrics_total")
                              .Help(families_.Help("registered_metrics_total", Stability::kBeta,
                                                  "The count of registered metrics broken by stability level and "
                                                  "deprecation version."))
                              .Register(*registry_)),
      disabled_metrics_total_(BuildCounter()
                                  .Name("disabled_metrics_total")
                                  .Help(families_.Help("disabled_metrics_total", Stability::kBeta, "The count of disabled metrics."))
                                  .Register(*registry_)
                                  .Add({})),
      hidden_metrics_total_(BuildCounter()
                                .Name("hidden_metrics_total")
                                .Help(families_.Help("hidden_metrics_total", Stability::kBeta, "The count of hidden metrics."))
                                .Register(*registry_)
                                .Add({})),
      reset_baseline_(ResetPolicyOf) {
  AddComponentMetrics(*registry_, families_, options_.emulation_version, options_.min_compatibility_version);
  // component-base's SetDisabledMetric: every name given counts, known or not.
  disabled_metrics_total_.Increment(static_cast<double>(options_.disabled_metrics.size()));
  for (const std::string& name : options_.disabled_metrics) {
    if (name.starts_with("scheduler_") || name.starts_with("ksched_")) hidden_.insert(name);
  }
  if (!options_.show_hidden_metrics) {
    const std::map<std::string, Stability, std::less<>> stability = families_.Families();
    for (const auto& [name, version] : families_.DeprecatedVersions()) {
      const auto it = stability.find(name);
      if (it != stability.end() && DeprecationPeriodOver(it->second, version, api::GetBuildInfo().kubernetes_version)) {
        hidden_.insert(name);
      }
    }
  }
  // Upstream creates the pending-pods series with the queue (its recorders and the pod-group pools
  // hold them), so they show 0 from the start.
  const std::array<const char*, 6> queues = {"active", "backoff", "unschedulable", "gated", "incomplete", "pending"};
  for (std::size_t i = 0; i < queues.size(); ++i) {
    pending_gauges_[i] = &pending_pods_.Add({{"queue", queues[i]}});
  }
}

Metrics::~Metrics() = default;

framework::DurationSink& Metrics::ExtensionPointDurations(std::string_view profile) {
  base::MutexLock lock(&mu_);
  auto it = profile_sinks_.find(profile);
  if (it == profile_sinks_.end()) {
    it = profile_sinks_
             .emplace(std::string(profile),
                      std::make_unique<DurationHistograms>(
                          extension_point_duration_,
                          prometheus::Labels{{"profile", std::string(profile)}},
                          ExtensionPointBuckets()))
             .first;
  }
  return *it->second;
}

framework::DurationSink& Metrics::PluginDurations(std::string_view plugin) {
  base::MutexLock lock(&mu_);
  auto it = plugin_sinks_.find(plugin);
  if (it == plugin_sinks_.end()) {
    it = plugin_sinks_
             .emplace(std::string(plugin),
                      std::make_unique<DurationHistograms>(
                          plugin_duration_, prometheus::Labels{{"plugin", std::string(plugin)}},
                          PluginBuckets()))
             .first;
  }
  return *it->second;
}

ProfileAttemptMetrics& Metrics::ForProfile(std::string_view profile) {
  base::MutexLock lock(&mu_);
  auto it = profiles_.find(profile);
  if (it == profiles_.end()) {
    it = profiles_
             .emplace(std::string(profile),
                      std::make_unique<ProfileAttemptMetrics>(std::string(profile),
                                                              schedule_attempts_,
                                                              attempt_duration_))
             .first;
  }
  return *it->second;
}

void Metrics::ObserveSchedulingAlgorithmDuration(std::chrono::nanoseconds duration) {
  algorithm_duration_.Observe(Seconds(duration));
}

void Metrics::ObservePodScheduled(int attempts,
                                  const std::chrono::nanoseconds* since_initial_attempt) {
  pod_scheduling_attempts_.Observe(static_cast<double>(attempts));
  if (since_initial_attempt == nullptr) return;
  // Upstream getAttemptsLabel: capped at "15+" to bound the cardinality.
  const std::size_t index = static_cast<std::size_t>(std::clamp(attempts, 0, 15));
  sli_children_
      .Get(index,
           [&]() -> prometheus::Histogram& {
             std::string label = index >= 15 ? std::string("15+") : std::to_string(index);
             return sli_duration_.Add({{"attempts", std::move(label)}}, SliBuckets());
           })
      .Observe(Seconds(*since_initial_attempt));
}

void Metrics::PreemptionAttempted() { preemption_attempts_.Increment(); }

void Metrics::ObservePreemptionVictims(int victims) {
  preemption_victims_.Observe(static_cast<double>(victims));
}

void Metrics::ObservePreemptionGoroutine(bool failed, std::chrono::nanoseconds elapsed) {
  // Upstream's metrics.GoroutineResultSuccess / GoroutineResultError; ExponentialBuckets(0.01, 2,
  // 20), as the SLI's.
  CountAndTime(preemption_goroutines_total_, preemption_goroutines_duration_,
               {{"result", failed ? "error" : "success"}}, SliBuckets(), elapsed);
}

void Metrics::ObservePermitWait(framework::Code result, std::chrono::nanoseconds elapsed) {
  permit_wait_duration_.Add({{"result", std::string(framework::CodeName(result))}}, AttemptBuckets())
      .Observe(Seconds(elapsed));
}

void Metrics::VolumeSchedulingStageFailed(VolumeStage stage) {
  const char* operation = stage == VolumeStage::kPredicate ? "predicate" : stage == VolumeStage::kAssume ? "assume" : "bind";
  volume_stage_errors_.Add({{"operation", operation}}).Increment();
}

void Metrics::ObserveQueueingHint(std::string_view plugin, std::string_view event, std::string_view hint,
                                  std::chrono::nanoseconds elapsed) {
  prometheus::Histogram* histogram = nullptr;
  {
    base::MutexLock lock(&mu_);
    const std::tuple<std::string_view, std::string_view, std::string_view> key{plugin, event, hint};
    auto it = queueing_hints_.find(key);
    if (it == queueing_hints_.end()) {
      prometheus::Histogram& added = queueing_hint_duration_.Add(
          {{"plugin", std::string(plugin)}, {"event", std::string(event)}, {"hint", std::string(hint)}},
          PluginBuckets());
      it = queueing_hints_.emplace(std::tuple<std::string, std::string, std::string>{plugin, event, hint}, &added).first;
    }
    histogram = it->second;
  }
  histogram->Observe(Seconds(elapsed));
}

void Metrics::QueueIncomingPod(QueueName queue, std::string_view event, std::optional<bool> entity_counted) {
  const bool count_entity = entity_counted.value_or(event == "UnscheduledPodAdd" || event == "ForceActivate" ||
                                                    event == "BackoffComplete" || event == "PopFromBackoffQ");
  std::pair<prometheus::Counter*, prometheus::Counter*> counters;
  {
    base::MutexLock lock(&mu_);
    auto& by_event = incoming_[static_cast<std::size_t>(queue)];
    auto it = by_event.find(event);
    if (it == by_event.end()) {
      prometheus::Counter& pods =
          queue_incoming_.Add({{"queue", std::string(QueueLabel(queue))}, {"event", std::string(event)}});
      it = by_event.emplace(std::string(event), std::make_pair(&pods, nullptr)).first;
    }
    // The entities series is created at its first count, as upstream's CounterVec child: an event
    // that never counts an entity (a requeue where its hint said) shows no zero series.
    if (count_entity && it->second.second == nullptr) {
      it->second.second = &queue_incoming_entities_.Add(
          {{"queue", std::string(QueueLabel(queue))}, {"event", std::string(event)}, {"type", "pod"}});
    }
    counters = it->second;
  }
  counters.first->Increment();
  if (count_entity) counters.second->Increment();
  entered_[static_cast<std::size_t>(queue)].store(true, std::memory_order_relaxed);
}

void Metrics::PodScheduledAfterFlush() { pod_scheduled_after_flush_.Increment(); }

std::shared_ptr<client::InformerObserver> Metrics::InformerObserverFor(std::string_view path) {
  const GroupVersionResource gvr = GroupVersionResourceOfPath(path);
  return informer_metrics_->ForInformer(gvr.group, gvr.version, gvr.resource);
}

void Metrics::AddUnschedulablePods(std::string_view plugin, std::string_view profile,
                                   double delta) {
  prometheus::Gauge* gauge = nullptr;
  {
    base::MutexLock lock(&mu_);
    auto profile_it = unschedulable_.find(profile);
    if (profile_it == unschedulable_.end()) {
      profile_it = unschedulable_.emplace(std::string(profile), decltype(profile_it->second){}).first;
    }
    auto& plugins = profile_it->second;
    auto it = plugins.find(plugin);
    if (it == plugins.end()) {
      prometheus::Gauge& added = unschedulable_pods_.Add(
          {{"plugin", std::string(plugin)}, {"profile", std::string(profile)}});
      it = plugins.emplace(std::string(plugin), &added).first;
    }
    gauge = it->second;
  }
  gauge->Increment(delta);
}

void Metrics::SetPendingPodsSource(std::function<PendingPodsSnapshot()> source) {
  base::MutexLock lock(&source_mu_);
  pending_source_ = std::move(source);
}

void Metrics::SetInFlightEventsSource(std::function<InFlightEventCounts()> source) {
  base::MutexLock lock(&source_mu_);
  inflight_events_source_ = std::move(source);
}

void Metrics::ObserveEventHandling(std::string_view event, std::chrono::nanoseconds duration) {
  prometheus::Histogram* histogram = nullptr;
  {
    base::MutexLock lock(&mu_);
    auto it = event_handling_.find(event);
    if (it == event_handling_.end()) {
      prometheus::Histogram& added =
          event_handling_duration_.Add({{"event", std::string(event)}}, ExtensionPointBuckets());
      it = event_handling_.emplace(std::string(event), &added).first;
    }
    histogram = it->second;
  }
  histogram->Observe(Seconds(duration));
}

void Metrics::SetCacheSizeSource(std::function<CacheSizeSnapshot()> source) {
  base::MutexLock lock(&source_mu_);
  cache_size_source_ = std::move(source);
  if (cache_size_source_ && cache_gauges_[0] == nullptr) {
    cache_gauges_[0] = &cache_size_.Add({{"type", "nodes"}});
    cache_gauges_[1] = &cache_size_.Add({{"type", "pods"}});
    cache_gauges_[2] = &cache_size_.Add({{"type", "assumed_pods"}});
  }
}

void Metrics::SetInformerSkipsSource(std::function<std::vector<InformerSkips>()> source) {
  base::MutexLock lock(&source_mu_);
  informer_skips_source_ = std::move(source);
}

void Metrics::SetPluginEvaluationSource(std::function<std::vector<PluginEvaluationCount>()> source) {
  base::MutexLock lock(&source_mu_);
  plugin_evaluation_source_ = std::move(source);
}

namespace {

// The webhook authenticator's and authorizer's code label, and their latency buckets.
std::string ReviewCodeLabel(int http_status) {
  return http_status > 0 ? std::to_string(http_status) : std::string("<error>");
}
const std::vector<double>& ReviewBuckets() {
  static const std::vector<double> kBuckets = {0.25, 0.5, 0.7, 1, 1.5, 3, 5, 10};
  return kBuckets;
}

}  // namespace

void Metrics::ObserveDelegatedAuthnRequest(int http_status, std::chrono::steady_clock::duration latency) {
  CountAndTime(delegated_authn_total_, delegated_authn_duration_, {{"code", ReviewCodeLabel(http_status)}},
               ReviewBuckets(), latency);
}

void Metrics::ObserveDelegatedAuthzRequest(int http_status, std::chrono::steady_clock::duration latency) {
  CountAndTime(delegated_authz_total_, delegated_authz_duration_, {{"code", ReviewCodeLabel(http_status)}},
               ReviewBuckets(), latency);
}

namespace {

// The apiserver's compressUsername: known internal identities as they are, then "email_id" for
// anything with an '@', else "other" (bounded cardinality, no user names in the metrics).
std::string CompressedUsername(const std::string& name) {
  for (std::string_view known : {"admin", "client", "kube_proxy", "kubelet", "system:serviceaccount:kube-system:default"}) {
    if (name == known) return name;
  }
  return name.find('@') != std::string::npos ? "email_id" : "other";
}

}  // namespace

void Metrics::ObserveAuthentication(const std::string* user, std::chrono::steady_clock::duration elapsed) {
  if (user != nullptr) authenticated_users_.Add({{"username", CompressedUsername(*user)}}).Increment();
  CountAndTime(authentication_attempts_, authentication_duration_, {{"result", user != nullptr ? "success" : "error"}},
               AttemptBuckets(), elapsed);
}

void Metrics::ObserveAuthorization(std::string_view result, std::chrono::steady_clock::duration elapsed) {
  CountAndTime(authorization_attempts_, authorization_duration_, {{"result", std::string(result)}}, AttemptBuckets(),
               elapsed);
}

void Metrics::ObserveTokenCacheRequest(bool hit, std::chrono::steady_clock::duration elapsed) {
  // prometheus.DefBuckets: the histogram sets none.
  static const std::vector<double> kDefBuckets = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};
  const prometheus::Labels labels{{"status", hit ? "hit" : "miss"}};
  token_cache_requests_.Add(labels).Increment();
  // latency.Milliseconds() / 1000: whole milliseconds.
  token_cache_request_duration_.Add(labels, kDefBuckets)
      .Observe(static_cast<double>(std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count()) / 1000);
}

void Metrics::AddTokenCacheActiveFetches(std::string_view status, int delta) {
  token_cache_active_fetches_.Add({{"status", std::string(status)}}).Increment(delta);
}

void Metrics::ObserveClientCertificateExpiration(double remaining_seconds) {
  client_certificate_expiration_.Observe(remaining_seconds);
}

void Metrics::ObserveTokenCacheFetch(bool ok) { token_cache_fetches_.Add({{"status", ok ? "ok" : "error"}}).Increment(); }

void Metrics::SetLeaderElectionMasterStatus(std::string_view name, bool leading) {
  prometheus::Gauge* gauge = nullptr;
  {
    base::MutexLock lock(&mu_);
    auto it = leader_.find(name);
    if (it == leader_.end()) {
      it = leader_.emplace(std::string(name), &leader_status_.Add({{"name", std::string(name)}}))
               .first;
    }
    gauge = it->second;
  }
  gauge->Set(leading ? 1.0 : 0.0);
}

NodeMetricsQuerySeries& Metrics::NodeMetricsQuery(std::string_view query) {
  base::MutexLock lock(&mu_);
  auto it = node_metrics_.find(query);
  if (it != node_metrics_.end()) return *it->second;
  auto series = std::make_unique<NodeMetricsQuerySeries>();
  const std::string name(query);
  series->success = &node_metrics_queries_.Add({{"query", name}, {"result", "success"}});
  series->failure = &node_metrics_queries_.Add({{"query", name}, {"result", "error"}});
  for (std::size_t i = 0; i < kNodeMetricsErrorReasons.size(); ++i) {
    series->errors[i] = &node_metrics_errors_.Add({{"query", name}, {"reason", kNodeMetricsErrorReasons[i]}});
  }
  series->nodes = &node_metrics_nodes_.Add({{"query", name}});
  series->stale_nodes = &node_metrics_stale_.Add({{"query", name}});
  series->last_success = &node_metrics_last_success_.Add({{"query", name}});
  return *node_metrics_.emplace(name, std::move(series)).first->second;
}

prometheus::Counter& Metrics::NeutralScores(std::string_view plugin) {
  base::MutexLock lock(&mu_);
  auto it = neutral_.find(plugin);
  if (it == neutral_.end()) {
    it = neutral_.emplace(std::string(plugin), &node_metrics_neutral_.Add({{"plugin", std::string(plugin)}}))
             .first;
  }
  return *it->second;
}

void Metrics::CountRegistrations() const {
  std::map<std::pair<Stability, std::string>, double> by_stability;
  double hidden = 0;
  const std::map<std::string, std::string, std::less<>> deprecated = families_.DeprecatedVersions();
  for (const auto& [name, stability] : families_.Families()) {
    if (hidden_.contains(name)) {
      ++hidden;
    } else {
      auto version = deprecated.find(name);
      ++by_stability[{stability, version == deprecated.end() ? std::string() : version->second}];
    }
  }
  for (const auto& [key, count] : by_stability) {
    const Stability stability = key.first;
    const char* level = stability == Stability::kStable ? "STABLE" : stability == Stability::kBeta ? "BETA" : "ALPHA";
    registered_metrics_.Add({{"stability_level", level}, {"deprecated_version", key.second}}).Increment(count);
  }
  hidden_metrics_total_.Increment(hidden);
}

std::vector<prometheus::MetricFamily> Metrics::CollectRegistry() const {
  {
    // The duration sinks count in stripes of their own; their histograms catch up here.
    base::MutexLock lock(&mu_);
    for (const auto& [profile, sink] : profile_sinks_) sink->Flush();
    for (const auto& [plugin, sink] : plugin_sinks_) sink->Flush();
  }
  {
    base::MutexLock lock(&source_mu_);
    if (pending_source_) {
      const PendingPodsSnapshot pending = pending_source_();
      pending_gauges_[0]->Set(pending.active);
      pending_gauges_[1]->Set(pending.backoff);
      pending_gauges_[2]->Set(pending.unschedulable);
      pending_gauges_[3]->Set(pending.gated);
      const std::array<double, 4> counts = {pending.active, pending.backoff, pending.unschedulable, pending.gated};
      static constexpr std::array<const char*, 4> kQueues = {"active", "backoff", "unschedulable", "gated"};
      for (std::size_t i = 0; i < counts.size(); ++i) {
        if (queued_entity_gauges_[i] == nullptr && (counts[i] > 0 || entered_[i].load(std::memory_order_relaxed))) {
          queued_entity_gauges_[i] = &queued_entities_.Add({{"queue", kQueues[i]}, {"type", "pod"}});
        }
        if (queued_entity_gauges_[i] != nullptr) queued_entity_gauges_[i]->Set(counts[i]);
      }
    }
    if (cache_size_source_) {
      const CacheSizeSnapshot sizes = cache_size_source_();
      cache_gauges_[0]->Set(sizes.nodes);
      cache_gauges_[1]->Set(sizes.pods);
      cache_gauges_[2]->Set(sizes.assumed_pods);
    }
    if (inflight_events_source_) {
      // Add finds a label's existing series; labels no longer tracked keep theirs (at 0).
      for (const auto& [label, count] : inflight_events_source_()) {
        inflight_events_.Add({{"event", label}}).Set(static_cast<double>(count));
      }
    }
    for (std::size_t i = 0; i < framework::kGoroutineOperationCount; ++i) {
      const auto operation = static_cast<framework::GoroutineOperation>(i);
      if (const std::optional<std::int64_t> running = goroutine_counts_.Running(operation)) {
        goroutines_gauge_
            .Add({{"operation", std::string(framework::GoroutineOperationLabel(operation))}})
            .Set(static_cast<double>(*running));
      }
    }
    if (plugin_evaluation_source_) {
      for (const PluginEvaluationCount& evaluated : plugin_evaluation_source_()) {
        prometheus::Counter& counter = plugin_evaluations_.Add({{"plugin", std::string(evaluated.plugin)},
                                                                {"extension_point", std::string(evaluated.extension_point)},
                                                                {"profile", std::string(evaluated.profile)}});
        const double behind = static_cast<double>(evaluated.count) - counter.Value();
        if (behind > 0) counter.Increment(behind);
      }
    }
    if (informer_skips_source_) {
      // The reflectors count; the counters catch up to them (Add finds an existing series).
      for (const InformerSkips& skips : informer_skips_source_()) {
        for (const auto& [reason, total] : {std::pair<const char*, std::uint64_t>{"decode_error", skips.decode_errors},
                                            std::pair<const char*, std::uint64_t>{"oversized", skips.oversized}}) {
          prometheus::Counter& counter = informer_skipped_.Add({{"resource", skips.resource}, {"reason", reason}});
          const double behind = static_cast<double>(total) - counter.Value();
          if (behind > 0) counter.Increment(behind);
        }
      }
    }
  }
  exec_plugin_->UpdateTtl(std::chrono::system_clock::now());
  std::call_once(registrations_counted_, [this] { CountRegistrations(); });
  std::vector<prometheus::MetricFamily> families = registry_->Collect();
  if (!hidden_.empty()) {
    std::erase_if(families, [this](const prometheus::MetricFamily& family) { return hidden_.contains(family.name); });
  }
  return families;
}

void Metrics::Reset() {
  base::MutexLock lock(&reset_mu_);
  reset_baseline_.Reset(CollectRegistry());
}

std::string Metrics::SerializeText() const {
  std::vector<prometheus::MetricFamily> families;
  {
    base::MutexLock lock(&reset_mu_);
    families = CollectRegistry();
    reset_baseline_.Apply(families);
  }
  if (!options_.proc_self.empty()) {
    for (prometheus::MetricFamily& family : process_.Collect()) families.push_back(std::move(family));
  }
  return GatheredText(std::move(families));
}

}  // namespace ksched::scheduler::metrics
