// InProcessScheduler: one profile's scheduling cycles as the daemon runs them, in process, for the
// benchmarks (no API server, queue, binding call or events): the daemon's cache-and-snapshot path,
// so that what a benchmark measures is what the scheduler would decide.
//
// A cycle is the daemon's scheduling cycle (scheduler/scheduler.cc Scheduler::SchedulingCycle)
// followed by the informer's confirmation of the binding (scheduler/event_handlers.cc
// AddAssigned): Cache::UpdateSnapshot into the snapshot the framework reads (set on it once, as the
// Scheduler does), ScheduleAlgorithm::SchedulePod, and when a node was chosen the assume step (a
// copy of the pod with spec.nodeName = that node, Cache::AssumePod), Reserve, Permit, then
// Cache::AddPod of the bound pod (the bind succeeds at once). A pod leaving is the informer's
// delete of an assigned pod (Cache::RemovePod, as DeleteAssigned). Nothing else changes the
// snapshot, so node-result reuse and incremental totals learn every change from the snapshot's
// record of its updates, as in the daemon. Not modelled: PostFilter (preemption) after a failure,
// the nominator, the queue.
//
// FindNodeAboveAllocatable checks the cache for a node holding more than its allocatable
// (framework/node_overcommit.h): a benchmark fails on one rather than report its placements.
//
// Ownership: borrows the framework, which must outlive it; owns the cache, the snapshot and the
// placement algorithm. Thread-safety: none (one scheduling thread, as the daemon's).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "api/pod.h"
#include "framework/framework.h"
#include "framework/handle.h"
#include "framework/pod_info.h"
#include "framework/snapshot.h"
#include "scheduler/cache.h"
#include "scheduler/schedule_algorithm.h"

namespace ksched::bench {

// Binding and events go nowhere: the benchmarks measure decisions.
class NullClusterApi final : public framework::ClusterApi {
 public:
  framework::Status BindPod(const api::Pod&, const std::string&) override { return {}; }
  framework::Status EvictVictim(const api::Pod&, const std::string&) override { return {}; }
  framework::Status ClearNominatedNodeName(const api::Pod&) override { return {}; }
};
class NullEventRecorder final : public framework::EventRecorder {
 public:
  void Eventf(const api::Pod&, const api::Pod*, std::string_view, std::string_view,
              std::string_view, std::string) override {}
};

class InProcessScheduler {
 public:
  struct Placement {
    // The decision: a host in outcome.result.suggested_host, or none (no node fits, or a plugin
    // error in outcome.status).
    scheduler::ScheduleOutcome outcome;
    framework::PodInfoPtr bound;  // with a host: the pod as bound there (spec.nodeName set)
  };

  // `percentage_of_nodes_to_score`: KubeSchedulerConfiguration's (0 = adaptive); `seed`: the
  // tie-break's; `reuse_node_results`: ScheduleAlgorithm's (NodeResultCache).
  InProcessScheduler(framework::Framework& framework, std::int32_t percentage_of_nodes_to_score,
                     std::uint64_t seed, bool reuse_node_results = true);
  InProcessScheduler(const InProcessScheduler&) = delete;
  InProcessScheduler& operator=(const InProcessScheduler&) = delete;

  // Nodes (and pods bound before the benchmark) go in here.
  scheduler::Cache& cache() { return cache_; }
  const scheduler::Cache& cache() const { return cache_; }

  // One cycle for `pod` (spec.nodeName empty), see the header comment. An error is a step the
  // daemon would fail or log after the decision (UpdateSnapshot, AssumePod, Reserve, Permit, the
  // confirmation): the benchmark's run is broken.
  absl::StatusOr<Placement> Schedule(const api::Pod& pod);
  // The bound pod left the cluster.
  absl::Status Remove(const api::Pod& bound_pod);

  // "node NAME: RESOURCE requested X, allocatable Y" for the first NodeInfo of the cache that
  // holds more than its node's allocatable; nullopt when none does. Linear in the nodes, no copies.
  std::optional<std::string> FindNodeAboveAllocatable() const;

  const scheduler::ScheduleAlgorithm& algorithm() const { return algorithm_; }

 private:
  framework::Framework& framework_;
  scheduler::Cache cache_;
  framework::Snapshot snapshot_;
  scheduler::ScheduleAlgorithm algorithm_;
};

}  // namespace ksched::bench
