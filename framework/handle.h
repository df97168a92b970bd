// Handle: what the runtime gives every plugin of a profile (upstream framework.Handle): the
// snapshot of the current cycle, the API actions plugins may take, the event recorder, the waiting
// pods of the Permit stage, the parallelizer, namespace labels for affinity namespace
// selectors, and (optionally) workload selectors for default spreading constraints and the
// storage objects of the volume plugins. Implemented by the runtime (framework/framework.h) with
// services the scheduler layer provides (framework/cluster_api.h).
//
// Thread-safety: every method is safe from any thread. The snapshot is only meaningful during a
// scheduling cycle (it is updated between cycles).
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/labels.h"
#include "api/pod.h"
#include "api/pod_disruption_budget.h"
#include "framework/cycle_state.h"
#include "framework/preemption_extender.h"
#include "framework/metrics_recorder.h"
#include "framework/node_info.h"
#include "framework/node_metrics.h"
#include "framework/parallelizer.h"
#include "framework/snapshot.h"
#include "framework/spread_selector_lister.h"
#include "framework/resource_lister.h"
#include "framework/storage_lister.h"
#include "framework/status.h"

namespace ksched::framework {

// The API calls plugins may make (DefaultBinder binds, DefaultPreemption deletes victims). The
// scheduler layer implements them with the REST client. Blocking calls, made from binding or
// preemption threads, never from Filter/Score; BindPodAsync is the one that need not block.

// The reason (metav1.StatusReasonConflict / StatusReasonNotFound) that PatchResourceClaim and
// GetResourceClaim append to their Error Status when the API server answered 409 Conflict (a stale
// resourceVersion) or 404 NotFound, so that a caller can tell them apart (upstream
// apierrors.IsConflict / IsNotFound): HasReason(status, kReasonConflict). The Status's error() is
// the API error's message, which includes the API server's own (e.g. `Operation cannot be
// fulfilled on resourceclaims.resource.k8s.io "c": the object has been modified; please apply
// your changes to the latest version and try again`).
inline constexpr std::string_view kReasonConflict = "Conflict";
inline constexpr std::string_view kReasonNotFound = "NotFound";
inline bool HasReason(const Status& status, std::string_view reason) {
  for (const std::string& r : status.Reasons()) {
    if (r == reason) return true;
  }
  return false;
}

class ClusterApi {
 public:
  using BindCallback = std::function<void(Status)>;

  virtual ~ClusterApi() = default;
  // POST pods/{name}/binding.
  virtual Status BindPod(const api::Pod& pod, const std::string& node_name) = 0;
  // BindPod's result delivered to `done`, exactly once. When BindsAsynchronously(), this returns
  // without waiting for the API server and `done` runs on a thread of the implementation's choosing
  // (possibly before this returns); it must be quick and must not block. `pod` need not outlive
  // the call. The default calls BindPod on the caller's thread, blocking it.
  virtual void BindPodAsync(const api::Pod& pod, const std::string& node_name, BindCallback done) {
    done(BindPod(pod, node_name));
  }
  virtual bool BindsAsynchronously() const { return false; }
  // Marks the victim with a DisruptionTarget condition, then DELETEs it (preemption).
  virtual Status EvictVictim(const api::Pod& victim, const std::string& condition_message) = 0;
  // Clears status.nominatedNodeName of a pod.
  virtual Status ClearNominatedNodeName(const api::Pod& pod) = 0;
  // VolumeBinding's writes (upstream: PersistentVolumes().Update, PersistentVolumeClaims().Update
  // of the assumed object): a JSON merge PATCH of a PersistentVolume or a claim. `merge_patch`
  // carries metadata.resourceVersion, so a concurrent change fails with a Conflict as upstream's
  // Update does. On success `resource_version` gets the object's new resourceVersion. Blocking;
  // the default refuses (a ClusterApi without volume writes).
  virtual Status PatchPersistentVolume(const std::string& name, const std::string& merge_patch,
                                       std::string& resource_version) {
    (void)name, (void)merge_patch, (void)resource_version;
    return Status::FromError("this scheduler cannot write PersistentVolumes");
  }
  virtual Status PatchPersistentVolumeClaim(const std::string& ns, const std::string& name,
                                            const std::string& merge_patch, std::string& resource_version) {
    (void)ns, (void)name, (void)merge_patch, (void)resource_version;
    return Status::FromError("this scheduler cannot write PersistentVolumeClaims");
  }
  // DynamicResources' writes: a PATCH of a ResourceClaim (`subresource` "" or "status") with
  // `content_type` "application/merge-patch+json" (upstream's Update and UpdateStatus, the
  // patch carrying metadata.resourceVersion so that a concurrent change fails with a Conflict) or
  // "application/strategic-merge-patch+json" (Unreserve's `$patch: delete` of one reservedFor
  // entry). On success `updated`, when not null, gets the claim the API server returned. A 409 or
  // 404 is an Error Status with kReasonConflict / kReasonNotFound (above). Blocking; the default
  // refuses.
  virtual Status PatchResourceClaim(const std::string& ns, const std::string& name,
                                    const std::string& subresource, const std::string& content_type,
                                    const std::string& patch, api::ResourceClaim* updated) {
    (void)ns, (void)name, (void)subresource, (void)content_type, (void)patch, (void)updated;
    return Status::FromError("this scheduler cannot write ResourceClaims");
  }
  // GET of a ResourceClaim (DynamicResources refreshes a claim after a Conflict). A claim that
  // does not exist is an error Status naming it, with kReasonNotFound. Blocking; the default
  // refuses.
  virtual Status GetResourceClaim(const std::string& ns, const std::string& name, api::ResourceClaim& out) {
    (void)ns, (void)name, (void)out;
    return Status::FromError("this scheduler cannot read ResourceClaims");
  }
};

// events.k8s.io/v1 events about pods (upstream events.EventRecorder), asynchronous and lossy under
// overload (never blocks the caller).
class EventRecorder {
 public:
  virtual ~EventRecorder() = default;
  // type: "Normal" or "Warning". `related` may be nullptr.
  virtual void Eventf(const api::Pod& regarding, const api::Pod* related, std::string_view type,
                      std::string_view reason, std::string_view action, std::string note) = 0;
};

// A pod waiting in Permit (upstream WaitingPod).
class WaitingPod {
 public:
  virtual ~WaitingPod() = default;
  virtual const api::Pod& pod() const = 0;
  // Plugins whose Wait is still pending.
  virtual std::vector<std::string> PendingPlugins() const = 0;
  // Allow on behalf of one plugin; the pod proceeds when every waiting plugin allowed.
  virtual void Allow(std::string_view plugin) = 0;
  // Declares the pod unschedulable (Unschedulable, by `plugin`): false when the pod was already
  // allowed, rejected or preempted.
  virtual bool Reject(std::string_view plugin, std::string message) = 0;
  // Upstream waitingPod.Preempt (k/k #135719): stops the wait with an Error by `plugin` rather
  // than a rejection, so that the pod goes back to the backoffQ, not to the unschedulable pool;
  // false when the pod was already allowed, rejected or preempted.
  virtual bool Preempt(std::string_view plugin, std::string message) = 0;
};

class Handle {
 public:
  virtual ~Handle() = default;
  virtual const Snapshot& snapshot() const = 0;
  virtual ClusterApi& cluster_api() = 0;
  virtual EventRecorder& event_recorder() = 0;
  virtual Parallelizer& parallelizer() = 0;
  // The profile's scheduler name.
  virtual const std::string& profile_name() const = 0;
  // The labels of a namespace, nullopt when unknown.
  virtual std::optional<api::Labels> NamespaceLabels(std::string_view name) const = 0;

  // Waiting pods (Permit): visit, find by UID, reject.
  virtual void IterateOverWaitingPods(const std::function<void(WaitingPod&)>& fn) = 0;
  virtual bool RejectWaitingPod(std::string_view uid) = 0;
  // Preemption of a victim the scheduler holds in memory (upstream executor.PreemptPod): a pod
  // waiting at Permit is preempted (WaitingPod::Preempt); true when it was. The default: none.
  virtual bool PreemptWaitingPod(std::string_view uid, std::string_view plugin, std::string message) {
    (void)uid, (void)plugin, (void)message;
    return false;
  }
  // A pod whose PreBind plugins have work to do and whose Bind has not started has its binding
  // cycle cancelled (upstream podInPreBind.CancelPod, framework/pods_in_pre_bind.h); true when it
  // was. The default: none.
  virtual bool CancelPodInPreBind(std::string_view uid, std::string message) {
    (void)uid, (void)message;
    return false;
  }
  // Whether the binding cycle of the pod was cancelled while in PreBind (a PreBind plugin that
  // waits long may stop waiting). The default: never.
  virtual bool PodInPreBindCancelled(std::string_view uid) const {
    (void)uid;
    return false;
  }

  // The workload selectors for default spreading constraints (framework/spread_selector_lister.h);
  // nullptr while the scheduler does not provide them (default constraints then apply to no pod).
  virtual const SpreadSelectorLister* spread_selector_lister() const { return nullptr; }

  // The claims, volumes and classes for the volume plugins (framework/storage_lister.h); nullptr
  // while the scheduler does not provide them (the volume plugins then find none).
  virtual const StorageLister* storage_lister() const { return nullptr; }
  // The claims, slices and classes for DynamicResources (framework/resource_lister.h); nullptr
  // while the scheduler does not provide them (the plugin then finds none).
  virtual const ResourceLister* resource_lister() const { return nullptr; }
  // Whether the pod informer still has pod `name` of namespace `ns` (VolumeBinding stops waiting
  // for a deleted pod's claims); nullopt when the scheduler does not say. Safe from any thread.
  virtual std::optional<bool> PodExists(std::string_view ns, std::string_view name) const {
    (void)ns, (void)name;
    return std::nullopt;
  }

  // Per-node metrics for score plugins (framework/node_metrics.h); nullptr when the scheduler
  // provides none (the metrics plugins then score every node neutral).
  virtual NodeMetricsProvider* node_metrics() { return nullptr; }

  // --- What preemption needs (upstream Handle: the PreFilter extension runners, the nominator,
  // the PDB lister, Activate). The runtime implements them; the defaults, for test handles, fail
  // with an Error status or return nothing.

  // The profile's PreFilter extensions on `state` as if `pod_info` were added to / removed from
  // `node` (upstream RunPreFilterExtensionAddPod / RemovePod). Safe from parallel workers on
  // distinct cloned states.
  virtual Status RunPreFilterExtensionAddPod(CycleState& state, const api::Pod& pod,
                                             const PodInfoPtr& pod_info, const NodeInfo& node) const;
  virtual Status RunPreFilterExtensionRemovePod(CycleState& state, const api::Pod& pod,
                                                const PodInfoPtr& pod_info,
                                                const NodeInfo& node) const;
  // The profile's Filter plugins on `node`, counting pods nominated to it with a priority >= the
  // pod's (upstream RunFilterPluginsWithNominatedPods).
  virtual Status RunFilterPluginsWithNominatedPods(const CycleState& state, const api::Pod& pod,
                                                   const NodeInfo& node) const;
  // The pods nominated to `node_name` (by an earlier preemption), in nomination order.
  virtual std::vector<PodInfoPtr> NominatedPodsForNode(std::string_view node_name) const;
  // The cluster's PodDisruptionBudgets as the informer has them (empty when none are watched).
  virtual std::vector<std::shared_ptr<const api::PodDisruptionBudget>> PodDisruptionBudgets() const {
    return {};
  }
  // Moves the pod, if it waits in the scheduling queue's backoff or unschedulable pool, to
  // activeQ (upstream Handle.Activate). Safe from any thread.
  virtual void Activate(const api::Pod& /*pod*/) {}
  // The scheduler's metrics (framework/metrics_recorder.h), nullptr when none are recorded.
  virtual MetricsRecorder* metrics_recorder() { return nullptr; }
  // The configured scheduler extenders, in order, for preemption's callExtenders (upstream
  // Handle.Extenders()); empty when none are configured.
  virtual const std::vector<PreemptionExtender*>& preemption_extenders() const {
    static const std::vector<PreemptionExtender*> kNone;
    return kNone;
  }
};

}  // namespace ksched::framework
