// Metrics: the scheduler's Prometheus metrics (prometheus-cpp), with upstream kube-scheduler
// v1.37.2's names, help texts (component-base's "[STABLE]"/"[BETA]"/"[ALPHA]" prefixes), labels,
// label values and buckets (pkg/scheduler/metrics), and the text exposition for /metrics.
//
//   scheduler_schedule_attempts_total{result,profile}                     Scheduler
//   scheduler_scheduling_attempt_duration_seconds{result,profile}         Scheduler
//   scheduler_scheduling_algorithm_duration_seconds                       Scheduler
//   scheduler_pod_scheduling_sli_duration_seconds{attempts}               Scheduler
//   scheduler_pod_scheduling_attempts                                     Scheduler
//   scheduler_framework_extension_point_duration_seconds{extension_point,status,profile}
//   scheduler_plugin_execution_duration_seconds{plugin,extension_point,status}
//                                                   Framework (this is its MetricsRecorder)
//   scheduler_pending_pods{queue}                   SchedulingQueue (read at scrape time); "incomplete"
//                                                   and "pending" (pod-group members) stay 0: no
//                                                   PodGroups here (GenericWorkload is off)
//   scheduler_queued_entities{queue,type="pod"}     the same counts, every pod its own entity; a
//                                                   queue's series appears once a pod entered it, as
//                                                   upstream's recorder children
//   scheduler_event_handling_duration_seconds{event}
//                                                   the informer event handlers
//                                                   (scheduler/event_handlers.h, object_event_handler.h)
//   scheduler_inflight_events{event}                SchedulingQueue's in-flight events, read at
//                                                   scrape time (SetInFlightEventsSource). Upstream
//                                                   adds to the gauge asynchronously, aggregated and
//                                                   flushed about every second and when the last pod
//                                                   in flight is done; a scrape here reads the exact
//                                                   counts instead. Idle, both show every label ever
//                                                   tracked at 0 ("PodPopped" once a pod was popped).
//   scheduler_goroutines{operation}                 goroutines(): the binding cycles, extender
//                                                   calls and Parallelizer runs in progress, read
//                                                   at scrape time (framework/running_goroutines.h)
//   scheduler_cache_size{type}                      the Cache, read at scrape time through
//                                                   SetCacheSizeSource (upstream: every second)
//   scheduler_queue_incoming_pods_total{queue,event}, scheduler_unschedulable_pods{plugin,profile},
//   scheduler_queue_incoming_entities_total{queue,event,type="pod"}
//                                                   SchedulingQueue
//   scheduler_pod_scheduled_after_flush_total       a pod bound after the unschedulable pool's
//                                                   timeout flushed it (PodScheduledAfterFlush)
//   scheduler_preemption_attempts_total, scheduler_preemption_victims,
//   scheduler_preemption_goroutines_execution_total{result},
//   scheduler_preemption_goroutines_duration_seconds{result}   (deprecated since 1.37.0)
//                                                   DefaultPreemption, through the
//                                                   Framework's Handle
//   scheduler_permit_wait_duration_seconds{result}  Framework::WaitOnPermit
//   scheduler_volume_scheduling_stage_error_total{operation}   VolumeBinding, through the Handle
//   scheduler_plugin_evaluation_total{plugin,extension_point,profile}   the frameworks' counts,
//                                                   read at scrape time (SetPluginEvaluationSource)
//   scheduler_queueing_hint_execution_duration_seconds{plugin,event,hint}   SchedulingQueue, every
//                                                   hint asked (a plugin without a hint function
//                                                   counts as an instant Queue, as upstream's
//                                                   default hint)
//   leader_election_master_status{name}             leader election (SetLeaderElectionMasterStatus)
//   apiserver_delegated_authn_request_total{code}, apiserver_delegated_authn_request_duration_seconds{code},
//   apiserver_delegated_authz_request_total{code}, apiserver_delegated_authz_request_duration_seconds{code}
//                                                   the secure server's TokenReview and
//                                                   SubjectAccessReview requests
//   authentication_attempts{result}, authentication_duration_seconds{result},
//   authenticated_user_requests{username}, authorization_attempts_total{result},
//   authorization_duration_seconds{result}          every request to the secure server
//   apiserver_client_certificate_expiration_seconds  every client certificate presented
//   authentication_token_cache_request_total{status}, authentication_token_cache_request_duration_seconds{status},
//   authentication_token_cache_fetch_total{status}, authentication_token_cache_active_fetch_count{status}
//                                                   the secure server's bearer token cache
//                                                   (serving::TokenCacheObserver)
//   rest_client_requests_total, rest_client_request_duration_seconds   RestClients given
//                                                   rest_client_observer()
//   rest_client_exec_plugin_call_total, rest_client_exec_plugin_ttl_seconds,
//   rest_client_exec_plugin_certificate_rotation_age   their credential plugins, through
//                                                   exec_plugin_observer()
//   process_*                                       /proc at scrape time
//   kubernetes_build_info, version_info, cardinality_enforcement_unexpected_categorizations_total
//                                                   constant (scheduler/metrics/component_metrics.h)
//   registered_metrics_total{stability_level,deprecated_version}, disabled_metrics_total,
//   hidden_metrics_total                            counted at the first scrape, over every family
//                                                   registered by then (all are, at start) as
//                                                   RegisteredFamilies knows them, by stability
//                                                   level; process_* and disabled families not
//                                                   counted, as upstream's raw and hidden ones
//   ksched_informer_skipped_objects_total{resource,reason}  the reflectors' skipped watch lines,
//                                                   read at scrape time (SetInformerSkipsSource)
//   ksched_node_metrics_*{query,...}                 the Prometheus collector of the metrics
//                                                   plugins (NodeMetricsQuery, NeutralScores)
//
// Exposition (SerializeText): families sorted by name and series by labels, families without any
// series left out, numbers and histogram lines as client_golang's expfmt prints them
// (scheduler/metrics/text_format.h), so that the text matches upstream's for equal values.
//
// Cost: label sets are resolved once (per profile / plugin / result, lazily, under a mutex) and
// then reached by index; no observation allocates or looks a name up, except the queue's
// per-pod event and plugin labels (a short locked map lookup per queue move, not per node).
//
// Ownership: the app owns one Metrics, which owns the Registry; it must outlive the frameworks,
// the queue and the scheduler that report to it. RestClients share the observer.
// Thread-safety: every method is safe from any thread.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

#include "base/mutex.h"
#include "client/informer_observer.h"
#include "client/request_observer.h"
#include "framework/metrics_recorder.h"
#include "framework/running_goroutines.h"
#include "scheduler/metrics/duration_histograms.h"
#include "scheduler/metrics/exec_plugin_metrics.h"
#include "scheduler/metrics/informer_metrics.h"
#include "scheduler/metrics/lazy_children.h"
#include "scheduler/metrics/process_metrics.h"
#include "scheduler/metrics/registered_families.h"
#include "scheduler/metrics/reset_baseline.h"

namespace ksched::scheduler::metrics {

struct MetricsOptions {
  // Upstream's pluginMetricsSamplePercent: the share of scheduling cycles (and PreEnqueue calls)
  // whose plugins are timed.
  int plugin_sample_percent = 10;
  // Where process_* metrics are read; empty leaves them out (tests).
  std::string proc_self = "/proc/self";
  // --disabled-metrics: families left out of the exposition. As upstream, only the scheduler's own
  // families (scheduler_*, and this scheduler's ksched_*) can be disabled: the others (rest_client_*,
  // process_*, kubernetes_*, ...) are registered before component-base reads the flag. Every name
  // counts in disabled_metrics_total; each family it hides in hidden_metrics_total.
  std::vector<std::string> disabled_metrics;
  // version_info's emulation and min_compat labels (--emulated-version, --min-compatibility-version,
  // "1.37" / "1.36"); empty: derived from the binary version.
  std::string emulation_version;
  std::string min_compatibility_version;
  // --show-hidden-metrics-for-version given (validated: the previous minor): the families whose
  // deprecation period is over are served anyway. Otherwise they are hidden as component-base's
  // shouldHide decides (deprecated version + 3 minors for STABLE, + 1 for BETA, + 0 for ALPHA, at
  // or before the binary's minor) and counted in hidden_metrics_total.
  bool show_hidden_metrics = false;
};

// The result label of scheduler_schedule_attempts_total (upstream ScheduledResult, ...).
enum class AttemptResult { kScheduled, kUnschedulable, kError };

// The queue label of scheduler_queue_incoming_pods_total.
enum class QueueName { kActive, kBackoff, kUnschedulable };

// The scheduler_pending_pods gauges (and scheduler_queued_entities{type="pod"}).
struct PendingPodsSnapshot {
  double active = 0;
  double backoff = 0;
  double unschedulable = 0;
  double gated = 0;
};

// The scheduler_cache_size gauges (upstream cacheImpl.updateMetrics).
struct CacheSizeSnapshot {
  double nodes = 0;
  double pods = 0;
  double assumed_pods = 0;
};

// What the informers skipped in their watch streams, per resource ("pods", "nodes",
// "poddisruptionbudgets"): lines that were not valid JSON or not a valid object or event, and lines
// longer than the transport's limit (client/reflector.h ReflectorStats).
struct InformerSkips {
  std::string resource;
  std::uint64_t decode_errors = 0;
  std::uint64_t oversized = 0;
};

// One series of scheduler_plugin_evaluation_total (the views live through the source's call).
struct PluginEvaluationCount {
  std::string_view plugin;
  std::string_view extension_point;
  std::string_view profile;
  std::uint64_t count = 0;
};

// Per event label, the events the scheduling queue tracks in flight ("PodPopped": the pods).
using InFlightEventCounts = std::vector<std::pair<std::string, std::int64_t>>;

// The series of one node-metrics query (scheduler/prometheus_collector.h), label query=<plugin>:
//   ksched_node_metrics_queries_total{query,result="success"|"error"}
//   ksched_node_metrics_query_errors_total{query,reason}  reason: one of kNodeMetricsErrorReasons
//   ksched_node_metrics_nodes{query}                      nodes in the last successful answer
//   ksched_node_metrics_stale_nodes{query}                cached nodes older than the staleness limit
//   ksched_node_metrics_last_success_timestamp_seconds{query}
inline constexpr std::array<const char*, 6> kNodeMetricsErrorReasons = {
    "unreachable", "timeout", "http_status", "prometheus_error", "bad_response", "bad_sample"};
struct NodeMetricsQuerySeries {
  prometheus::Counter* success = nullptr;
  prometheus::Counter* failure = nullptr;
  std::array<prometheus::Counter*, kNodeMetricsErrorReasons.size()> errors{};
  prometheus::Gauge* nodes = nullptr;
  prometheus::Gauge* stale_nodes = nullptr;
  prometheus::Gauge* last_success = nullptr;
};

// A profile's scheduling-attempt series, resolved once per profile (Metrics::ForProfile).
class ProfileAttemptMetrics {
 public:
  ProfileAttemptMetrics(std::string profile, prometheus::Family<prometheus::Counter>& attempts,
                        prometheus::Family<prometheus::Histogram>& durations);
  // Upstream observeScheduleAttemptAndLatency: one attempt and its duration since the pod was
  // popped.
  void Observe(AttemptResult result, std::chrono::nanoseconds duration);

 private:
  const std::string profile_;
  prometheus::Family<prometheus::Counter>& attempts_;
  prometheus::Family<prometheus::Histogram>& durations_;
  LazyChildren<prometheus::Counter> attempt_counters_{3};
  LazyChildren<prometheus::Histogram> attempt_durations_{3};
};

class Metrics final : public framework::MetricsRecorder {
 public:
  explicit Metrics(MetricsOptions options = {});
  ~Metrics() override;
  Metrics(const Metrics&) = delete;
  Metrics& operator=(const Metrics&) = delete;

  // --- framework::MetricsRecorder -------------------------------------------------------------
  framework::DurationSink& ExtensionPointDurations(std::string_view profile) override;
  framework::DurationSink& PluginDurations(std::string_view plugin) override;
  int plugin_sample_percent() const override { return options_.plugin_sample_percent; }

  // --- Scheduling loop ------------------------------------------------------------------------
  // The profile's attempt series (a locked lookup: callers keep the reference).
  ProfileAttemptMetrics& ForProfile(std::string_view profile);
  void ObserveSchedulingAlgorithmDuration(std::chrono::nanoseconds duration);
  // A pod bound: scheduler_pod_scheduling_attempts, and, when the pod has an initial attempt
  // time, scheduler_pod_scheduling_sli_duration_seconds{attempts="1".."14","15+"}.
  void ObservePodScheduled(int attempts, const std::chrono::nanoseconds* since_initial_attempt);

  // --- Preemption (DefaultPreemption's PostFilter) --------------------------------------------
  void PreemptionAttempted() override;
  void ObservePreemptionVictims(int victims) override;
  void ObservePreemptionGoroutine(bool failed, std::chrono::nanoseconds elapsed) override;

  // --- Permit and volume binding (framework::MetricsRecorder) -----------------------------------
  void ObservePermitWait(framework::Code result, std::chrono::nanoseconds elapsed) override;
  void VolumeSchedulingStageFailed(VolumeStage stage) override;

  // --- Event handlers -------------------------------------------------------------------------
  // scheduler_event_handling_duration_seconds{event}: an informer event handled (a locked label
  // lookup, allocating only for a label's first observation).
  void ObserveEventHandling(std::string_view event, std::chrono::nanoseconds duration);

  // --- Goroutines -----------------------------------------------------------------------------
  // scheduler_goroutines{operation}: where the Parallelizer, the binding cycles and the extender
  // calls count themselves; read at every scrape.
  framework::RunningGoroutines& goroutines() { return goroutine_counts_; }

  // --- Scheduling queue -----------------------------------------------------------------------
  // scheduler_queue_incoming_pods_total{queue,event} and, when `entity_counted`,
  // scheduler_queue_incoming_entities_total{queue,event,type="pod"}. Upstream's
  // recordIncomingEntitiesMetrics counts the entity when the move had no queueing strategy (a new
  // pod: UnscheduledPodAdd; ForceActivate, BackoffComplete, PopFromBackoffQ), or when the queue it
  // lands in is not the one its strategy (the queueing hint's verdict) names: Queue for a pod whose
  // backoff is over (-> active), or a gated pod (-> unschedulable). Left out (nullopt), it is decided
  // by the event alone: counted for the strategy-less events, not for the others.
  void QueueIncomingPod(QueueName queue, std::string_view event, std::optional<bool> entity_counted = std::nullopt);
  // scheduler_pod_scheduled_after_flush_total: a pod that the unschedulable pool's timeout had
  // flushed (podMaxInUnschedulablePodsDuration) was bound.
  void PodScheduledAfterFlush();
  // scheduler_queueing_hint_execution_duration_seconds: `plugin`'s hint for `event` answered
  // `hint` ("Queue", "QueueSkip" or "Error") in `elapsed` (a locked label lookup).
  void ObserveQueueingHint(std::string_view plugin, std::string_view event, std::string_view hint,
                           std::chrono::nanoseconds elapsed);
  void AddUnschedulablePods(std::string_view plugin, std::string_view profile, double delta);
  // Read at every scrape (the queue registers itself; nullptr unregisters). The source runs with
  // this object's source mutex held, so that unregistering waits for a scrape in progress.
  void SetPendingPodsSource(std::function<PendingPodsSnapshot()> source);
  // scheduler_inflight_events{event}, read at every scrape like the pending pods (nullptr
  // unregisters). A label keeps its series once reported, as upstream's gauge children do.
  void SetInFlightEventsSource(std::function<InFlightEventCounts()> source);

  // --- Cache ----------------------------------------------------------------------------------
  // Read at every scrape, like the pending pods (e.g. Cache::NodeCount, PodCount,
  // AssumedPodCount); nullptr unregisters. The series appear once a source is set.
  void SetCacheSizeSource(std::function<CacheSizeSnapshot()> source);
  // ksched_informer_skipped_objects_total{resource,reason="decode_error"|"oversized"}, read at
  // every scrape from `source` (nullptr unregisters).
  void SetInformerSkipsSource(std::function<std::vector<InformerSkips>()> source);
  // scheduler_plugin_evaluation_total, read at every scrape from `source` (nullptr unregisters):
  // the counters catch up to the counts it gives.
  void SetPluginEvaluationSource(std::function<std::vector<PluginEvaluationCount>()> source);

  // --- Delegated authentication and authorization of the secure server -----------------------
  // apiserver_delegated_authn_request_total / _duration_seconds{code} (a TokenReview request) and
  // apiserver_delegated_authz_request_* (a SubjectAccessReview): `http_status` 0 is code "<error>".
  void ObserveDelegatedAuthnRequest(int http_status, std::chrono::steady_clock::duration latency);
  void ObserveDelegatedAuthzRequest(int http_status, std::chrono::steady_clock::duration latency);
  // authentication_attempts / authentication_duration_seconds{result="success"|"error"} and, on
  // success, authenticated_user_requests{username} (the name folded as upstream's
  // compressUsername: a few known identities, "email_id", else "other"): one request's
  // authentication, `user` nullptr when it failed.
  void ObserveAuthentication(const std::string* user, std::chrono::steady_clock::duration elapsed);
  // authorization_attempts_total / authorization_duration_seconds{result}: "allowed", "denied",
  // "no-opinion" or "error".
  void ObserveAuthorization(std::string_view result, std::chrono::steady_clock::duration elapsed);
  // authentication_token_cache_request_total / _request_duration_seconds{status="hit"|"miss"}: one
  // bearer token looked up (the duration in whole milliseconds, as upstream observes it).
  void ObserveTokenCacheRequest(bool hit, std::chrono::steady_clock::duration elapsed);
  // authentication_token_cache_active_fetch_count{status="blocked"|"in_flight"} moved by `delta`.
  void AddTokenCacheActiveFetches(std::string_view status, int delta);
  // authentication_token_cache_fetch_total{status="ok"|"error"}: one fetch ended.
  void ObserveTokenCacheFetch(bool ok);
  // apiserver_client_certificate_expiration_seconds: a client certificate presented to the secure
  // server had `remaining_seconds` left before its NotAfter (observed before it is verified).
  void ObserveClientCertificateExpiration(double remaining_seconds);

  // --- Leader election --------------------------------------------------------------------------
  // leader_election_master_status{name}: 1 while leading, 0 otherwise (client-go On/Off).
  void SetLeaderElectionMasterStatus(std::string_view name, bool leading);

  // --- Node metrics (Prometheus collector) ------------------------------------------------------
  // The series of query `query` (created with 0 on first call; the reference stays valid).
  NodeMetricsQuerySeries& NodeMetricsQuery(std::string_view query);
  // ksched_node_metrics_neutral_scores_total{plugin}: node scores made neutral for want of data.
  prometheus::Counter& NeutralScores(std::string_view plugin);

  // --- REST clients -----------------------------------------------------------------------------
  // For RestClientOptions::observer of every client whose requests should be counted.
  std::shared_ptr<client::RequestObserver> rest_client_observer() const { return rest_client_; }
  // informer_queued_items, informer_processing_latency_seconds and informer_store_resource_version
  // of the informer of the collection at `path` ("/api/v1/pods"), for its ReflectorOptions
  // (scheduler/metrics/informer_metrics.h).
  std::shared_ptr<client::InformerObserver> InformerObserverFor(std::string_view path);
  // For RestClientOptions::exec_observer of the same clients: their credential plugins' runs.
  std::shared_ptr<client::ExecPluginObserver> exec_plugin_observer() const { return exec_plugin_; }

  // --- Exposition -------------------------------------------------------------------------------
  // The Prometheus text format (version 0.0.4) of everything above.
  std::string SerializeText() const;
  // DELETE /metrics (component-base's HandlerWithReset): from now on the exposition shows the
  // registry as upstream's KubeRegistry.Reset leaves it (ResetBaseline: labelled series gone until
  // they move, then counted from here; plain counters from 0; plain histograms and gauges and
  // process_* as they are; ResetPolicyOf in metrics.cc names the families upstream updates
  // otherwise). The live metrics are not touched.
  void Reset();
  prometheus::Registry& registry() { return *registry_; }
  // Where families registered in registry() from outside describe themselves (the feature gates').
  RegisteredFamilies& registered_families() { return families_; }

 private:
  const MetricsOptions options_;
  std::shared_ptr<prometheus::Registry> registry_;
  RegisteredFamilies families_;  // before every family: their registrations describe themselves here

  prometheus::Family<prometheus::Counter>& schedule_attempts_;
  prometheus::Family<prometheus::Histogram>& attempt_duration_;
  prometheus::Histogram& algorithm_duration_;
  prometheus::Family<prometheus::Gauge>& pending_pods_;
  prometheus::Family<prometheus::Histogram>& event_handling_duration_;
  prometheus::Family<prometheus::Gauge>& inflight_events_;
  prometheus::Family<prometheus::Gauge>& goroutines_gauge_;
  framework::RunningGoroutines goroutine_counts_;
  prometheus::Family<prometheus::Histogram>& extension_point_duration_;
  prometheus::Family<prometheus::Histogram>& plugin_duration_;
  prometheus::Family<prometheus::Histogram>& sli_duration_;
  prometheus::Histogram& pod_scheduling_attempts_;
  prometheus::Family<prometheus::Counter>& queue_incoming_;
  prometheus::Family<prometheus::Gauge>& queued_entities_;
  prometheus::Family<prometheus::Counter>& queue_incoming_entities_;
  prometheus::Counter& pod_scheduled_after_flush_;
  prometheus::Family<prometheus::Gauge>& unschedulable_pods_;
  prometheus::Counter& preemption_attempts_;
  prometheus::Histogram& preemption_victims_;
  prometheus::Family<prometheus::Counter>& preemption_goroutines_total_;
  prometheus::Family<prometheus::Histogram>& preemption_goroutines_duration_;
  prometheus::Family<prometheus::Histogram>& permit_wait_duration_;
  prometheus::Family<prometheus::Counter>& volume_stage_errors_;
  prometheus::Family<prometheus::Histogram>& queueing_hint_duration_;
  prometheus::Family<prometheus::Counter>& plugin_evaluations_;
  prometheus::Family<prometheus::Counter>& delegated_authn_total_;
  prometheus::Family<prometheus::Histogram>& delegated_authn_duration_;
  prometheus::Family<prometheus::Counter>& delegated_authz_total_;
  prometheus::Family<prometheus::Histogram>& delegated_authz_duration_;
  prometheus::Family<prometheus::Counter>& authenticated_users_;
  prometheus::Family<prometheus::Counter>& authentication_attempts_;
  prometheus::Family<prometheus::Histogram>& authentication_duration_;
  prometheus::Family<prometheus::Counter>& authorization_attempts_;
  prometheus::Family<prometheus::Histogram>& authorization_duration_;
  prometheus::Family<prometheus::Counter>& token_cache_requests_;
  prometheus::Family<prometheus::Histogram>& token_cache_request_duration_;
  prometheus::Family<prometheus::Counter>& token_cache_fetches_;
  prometheus::Family<prometheus::Gauge>& token_cache_active_fetches_;
  prometheus::Histogram& client_certificate_expiration_;
  prometheus::Family<prometheus::Gauge>& leader_status_;
  prometheus::Family<prometheus::Gauge>& cache_size_;
  // active, backoff, unschedulable, gated, incomplete, pending
  std::array<prometheus::Gauge*, 6> pending_gauges_{};
  // scheduler_queued_entities{queue,type="pod"}: active, backoff, unschedulable, gated; created by
  // the scrape once a pod entered the queue (entered_ set by QueueIncomingPod, or a count seen).
  std::array<std::atomic<bool>, 4> entered_{};
  mutable std::array<prometheus::Gauge*, 4> queued_entity_gauges_ ABSL_GUARDED_BY(source_mu_){};
  prometheus::Family<prometheus::Counter>& informer_skipped_;
  prometheus::Family<prometheus::Counter>& node_metrics_queries_;
  prometheus::Family<prometheus::Counter>& node_metrics_errors_;
  prometheus::Family<prometheus::Gauge>& node_metrics_nodes_;
  prometheus::Family<prometheus::Gauge>& node_metrics_stale_;
  prometheus::Family<prometheus::Gauge>& node_metrics_last_success_;
  prometheus::Family<prometheus::Counter>& node_metrics_neutral_;

  LazyChildren<prometheus::Histogram> sli_children_{16};  // attempts 0..14, "15+"
  std::shared_ptr<client::RequestObserver> rest_client_;
  std::unique_ptr<InformerMetrics> informer_metrics_;
  std::shared_ptr<ExecPluginMetrics> exec_plugin_;
  ProcessMetrics process_;

  mutable base::Mutex mu_;  // guards the maps below (not the metrics, which are thread-safe)
  std::map<std::string, std::unique_ptr<DurationHistograms>, std::less<>> profile_sinks_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, std::unique_ptr<DurationHistograms>, std::less<>> plugin_sinks_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, std::unique_ptr<ProfileAttemptMetrics>, std::less<>> profiles_ ABSL_GUARDED_BY(mu_);
  // By queue, then event: the pods' and the entities' counters.
  std::array<std::map<std::string, std::pair<prometheus::Counter*, prometheus::Counter*>, std::less<>>, 3> incoming_ ABSL_GUARDED_BY(mu_);
  // profile -> plugin -> gauge
  std::map<std::string, std::map<std::string, prometheus::Gauge*, std::less<>>, std::less<>>
      unschedulable_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, prometheus::Gauge*, std::less<>> leader_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, prometheus::Histogram*, std::less<>> event_handling_ ABSL_GUARDED_BY(mu_);  // by event label
  // (plugin, event, hint) -> histogram
  std::map<std::tuple<std::string, std::string, std::string>, prometheus::Histogram*, std::less<>> queueing_hints_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, std::unique_ptr<NodeMetricsQuerySeries>, std::less<>> node_metrics_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, prometheus::Counter*, std::less<>> neutral_ ABSL_GUARDED_BY(mu_);

  // --disabled-metrics and the registration counts.
  prometheus::Family<prometheus::Counter>& registered_metrics_;
  prometheus::Counter& disabled_metrics_total_;
  prometheus::Counter& hidden_metrics_total_;
  std::set<std::string, std::less<>> hidden_;  // disabled names of disableable families; fixed
  mutable std::once_flag registrations_counted_;
  void CountRegistrations() const;

  // The registry's families as served (sources read, sinks flushed, disabled families dropped),
  // before the reset baseline and process_*.
  std::vector<prometheus::MetricFamily> CollectRegistry() const;
  mutable base::Mutex reset_mu_ ABSL_ACQUIRED_BEFORE(mu_, source_mu_);
  ResetBaseline reset_baseline_ ABSL_GUARDED_BY(reset_mu_);

  mutable base::Mutex source_mu_;  // guards the sources; held while they run
  std::function<PendingPodsSnapshot()> pending_source_ ABSL_GUARDED_BY(source_mu_);
  std::function<CacheSizeSnapshot()> cache_size_source_ ABSL_GUARDED_BY(source_mu_);
  std::array<prometheus::Gauge*, 3> cache_gauges_ ABSL_GUARDED_BY(source_mu_){};  // nodes, pods, assumed
  std::function<std::vector<InformerSkips>()> informer_skips_source_ ABSL_GUARDED_BY(source_mu_);
  std::function<InFlightEventCounts()> inflight_events_source_ ABSL_GUARDED_BY(source_mu_);
  std::function<std::vector<PluginEvaluationCount>()> plugin_evaluation_source_ ABSL_GUARDED_BY(source_mu_);
};

}  // namespace ksched::scheduler::metrics
