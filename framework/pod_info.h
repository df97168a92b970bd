// PodInfo and QueuedPodInfo: a pod with what the scheduler precomputes from it once per update
// (upstream framework.PodInfo / QueuedPodInfo).
//
// PodInfo is immutable once built and shared (PodInfoPtr) between the queue, the cache, NodeInfos
// and plugins; an update of the pod builds a new PodInfo. The affinity terms are compiled here so
// that InterPodAffinity and NodeInfo never parse selectors in the per-node loop. A term whose
// selector is invalid is an error of Create, as upstream's NewPodInfo.
//
// QueuedPodInfo is the queue's mutable record of a pending pod: owned by the scheduling queue and,
// while a scheduling attempt runs, handed to the scheduling thread (one owner at a time).
//
// Thread-safety: PodInfo is immutable (safe to share); QueuedPodInfo has one owner at a time.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "api/label_selector.h"
#include "api/pod.h"
#include "framework/resource.h"

namespace ksched::framework {

// A compiled pod (anti-)affinity term (upstream framework.AffinityTerm).
struct AffinityTerm {
  // The namespaces the term selects: the listed ones, or the pod's own when both `namespaces`
  // and `namespaceSelector` are absent.
  std::set<std::string, std::less<>> namespaces;
  api::CompiledLabelSelector selector;
  api::InternedString topology_key;
  // Nothing() when absent; Everything() for `{}`.
  api::CompiledLabelSelector namespace_selector;

  // upstream AffinityTerm.Matches: the pod's namespace is listed or its namespace's labels match
  // the namespace selector, and the pod's labels match the selector.
  bool Matches(const api::Pod& pod, const api::Labels* namespace_labels) const;
};

struct WeightedAffinityTerm {
  AffinityTerm term;
  std::int32_t weight = 0;
};

class PodInfo;
using PodInfoPtr = std::shared_ptr<const PodInfo>;

class PodInfo {
 public:
  // Compiles the pod's terms and caches its requests; an invalid selector in a term is an error
  // naming the term.
  static absl::StatusOr<PodInfoPtr> Create(std::shared_ptr<const api::Pod> pod);
  // For pods whose terms are known valid or irrelevant (tests, assumed copies): aborts on error.
  static PodInfoPtr CreateOrDie(std::shared_ptr<const api::Pod> pod);

  const api::Pod& pod() const { return *pod_; }
  const std::shared_ptr<const api::Pod>& pod_ptr() const { return pod_; }
  // Effective requests (filtering) and non-zero requests (scoring), computed once.
  const Resource& requests() const { return requests_; }
  const Resource& non_zero_requests() const { return non_zero_requests_; }

  const std::vector<AffinityTerm>& required_affinity_terms() const { return required_affinity_; }
  const std::vector<AffinityTerm>& required_anti_affinity_terms() const {
    return required_anti_affinity_;
  }
  const std::vector<WeightedAffinityTerm>& preferred_affinity_terms() const {
    return preferred_affinity_;
  }
  const std::vector<WeightedAffinityTerm>& preferred_anti_affinity_terms() const {
    return preferred_anti_affinity_;
  }
  bool has_affinity() const { return !pod_->spec.affinity.pod_affinity.empty() ||
                                     !pod_->spec.affinity.pod_anti_affinity.empty(); }
  bool has_required_anti_affinity() const { return !required_anti_affinity_.empty(); }

 private:
  PodInfo() = default;

  std::shared_ptr<const api::Pod> pod_;
  Resource requests_;
  Resource non_zero_requests_;
  std::vector<AffinityTerm> required_affinity_;
  std::vector<AffinityTerm> required_anti_affinity_;
  std::vector<WeightedAffinityTerm> preferred_affinity_;
  std::vector<WeightedAffinityTerm> preferred_anti_affinity_;
};

// The queue's record of a pending pod (upstream QueuedPodInfo).
struct QueuedPodInfo {
  using Clock = std::chrono::steady_clock;

  PodInfoPtr pod_info;
  // When the pod was added to the queue or last moved within it (QueueSort tie-break).
  Clock::time_point timestamp{};
  // When the pod first entered the queue (latency metrics).
  Clock::time_point initial_attempt_timestamp{};
  bool has_initial_attempt = false;
  // Scheduling attempts so far (incremented when popped).
  int attempts = 0;
  // Consecutive attempts that ended in an error (not a rejection).
  int consecutive_errors = 0;
  // Attempts that ended unschedulable (drives backoff).
  int unschedulable_count = 0;
  // Plugins that rejected the pod in its last attempt (Unschedulable or UnschedulableAndUnresolvable).
  std::set<std::string, std::less<>> unschedulable_plugins;
  // Plugins that returned Pending in its last attempt.
  std::set<std::string, std::less<>> pending_plugins;
  // The PreEnqueue plugin that gates the pod, empty when not gated.
  std::string gating_plugin;
  // Moved out of the unschedulable pool by its periodic flush (podMaxInUnschedulablePodsDuration)
  // since its last attempt, and when (upstream WasFlushedFromUnschedulable, FlushTimestamp: a pod
  // scheduled after a flush is counted in scheduler_pod_scheduled_after_flush_total; a pod that
  // stays gated is flushed again only a full period after its last flush).
  bool was_flushed_from_unschedulable = false;
  Clock::time_point flush_timestamp{};

  const api::Pod& pod() const { return pod_info->pod(); }
};

using QueuedPodInfoPtr = std::unique_ptr<QueuedPodInfo>;

}  // namespace ksched::framework
