// SchedulerApp: the daemon's scheduling machinery wired together: one REST client, the pod and
// node reflectors feeding the cache and the queue through the event handlers, the
// PodDisruptionBudget reflector feeding the store preemption lists them from
// (scheduler/pod_disruption_budget_store.h), the Service, ReplicationController, ReplicaSet and
// StatefulSet reflectors feeding PodTopologySpread's default selectors
// (scheduler/workload_selector_lister.h), the Namespace reflector feeding InterPodAffinity's
// namespace labels (a scheduler/namespaced_object_store.h), one runtime per profile (plugins from the
// registry, each given the budgets, the selectors, the namespaces and the queue's Activate), the scheduling thread, the binding
// and status-writing pools, an event recorder per profile, and the Prometheus collector of the
// metrics plugins (scheduler/prometheus_collector.h; its thread runs from StartInformers to Stop
// when a profile registered a query).
//
// Lifecycle: Create (validates profiles: a bad profile is an error naming it; nothing is sent to
// the API server yet) -> StartInformers (starts the reflectors, waits for the first sync of all
// of them) -> StartScheduling (the queue's flush loop and the scheduling thread; under leader
// election only once leading) -> Stop (closes the queue, finishes the binds in flight, stops the
// reflectors).
//
// Thread-safety: Create/Start/Stop from one owning thread; stats and InformerPods from any thread.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "client/reflector.h"
#include "client/rest_client.h"
#include "client/rest_config.h"
#include "config/kube_scheduler_configuration.h"
#include "framework/framework.h"
#include "framework/parallelizer.h"
#include "framework/profile_config.h"
#include "framework/registry.h"
#include "scheduler/cache.h"
#include "scheduler/metrics/metrics.h"
#include "scheduler/scheduler.h"
#include "scheduler/scheduling_queue.h"

namespace ksched::scheduler {

struct SchedulerAppOptions {
  client::RestConfig rest_config;
  // Merged profiles (config layer). Empty: one profile "default-scheduler" with the default
  // plugins that are compiled in.
  std::vector<framework::ProfileConfig> profiles;
  std::int32_t parallelism = 16;
  std::int32_t percentage_of_nodes_to_score = 0;
  SchedulingQueueOptions queue;
  int binding_threads = 32;
  // reportingInstance of events is "<schedulerName>-<hostname>".
  std::string hostname;
  std::optional<std::uint64_t> seed;
  // Not owned, nullable; must outlive the app. Every client, profile, the queue and the loop
  // report to it.
  metrics::Metrics* metrics = nullptr;
  // KubeSchedulerConfiguration.extenders (defaults applied), called in this order.
  std::vector<config::Extender> extenders;
  // The NominatedNodeNameForExpectation gate (SchedulerOptions).
  bool nominated_node_name_for_expectation = true;
};

class SchedulerApp {
 public:
  static absl::StatusOr<std::unique_ptr<SchedulerApp>> Create(SchedulerAppOptions options,
                                                              const framework::Registry& registry);
  ~SchedulerApp();
  SchedulerApp(const SchedulerApp&) = delete;
  SchedulerApp& operator=(const SchedulerApp&) = delete;

  // StartInformers, then StartScheduling.
  absl::Status Start(std::chrono::milliseconds sync_timeout);
  // Starts the reflectors (nodes, pods, PodDisruptionBudgets, Services, ReplicationControllers,
  // ReplicaSets, StatefulSets, Namespaces) and waits for the first sync of all of them, as
  // upstream waits for every informer it started: kDeadlineExceeded naming the first that did not
  // sync within `sync_timeout`. A follower under leader election stays here: caches warm, nothing
  // scheduled.
  absl::Status StartInformers(std::chrono::milliseconds sync_timeout);
  // Starts the queue's flush loop and the scheduling thread (after StartInformers succeeded).
  void StartScheduling();
  bool scheduling() const;
  void Stop();

  const Scheduler& scheduler() const { return *scheduler_; }
  const Cache& cache() const { return *cache_; }
  bool synced() const;
  // The pod informer's pods, shared (no copy): every non-terminal pod, assigned or not, of any
  // scheduler, as the API server last showed it (an assumed pod still without its node), as
  // upstream's pod lister lists them for /metrics/resources. Safe from any thread.
  std::vector<std::shared_ptr<const api::Pod>> InformerPods() const;
  // Logs the cache's NodeInfos and the pending pods, as upstream's cache debugger does on SIGUSR2.
  // Safe from any thread.
  void LogDebugDump() const;

 private:
  class Impl;
  explicit SchedulerApp(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
  Scheduler* scheduler_ = nullptr;
  Cache* cache_ = nullptr;
};

}  // namespace ksched::scheduler
