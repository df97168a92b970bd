// DynamicResources (upstream plugins/dynamicresources, v1.34 with its default features:
// DRAAdminAccess, DRAPrioritizedList, DRAResourceClaimDeviceStatus and DRASchedulerFilterTimeout
// on; device taints, partitionable devices, binding conditions, consumable capacity and extended
// resources backed by DRA off): a pod's ResourceClaims must be allocated devices, and the pod
// goes only where they are.
//   - PreEnqueue: a pod whose claims do not all exist yet waits (UnschedulableAndUnresolvable):
//     `pod "default/p": ResourceClaim not created yet` (a template's claim the ResourceClaim
//     controller has not named in status.resourceClaimStatuses), `resourceclaim.resource.k8s.io
//     "gpu" not found`, `resourceclaim "gpu" is being deleted`, `ResourceClaim default/p-gpu was
//     not created for pod default/p (pod is not owner)`.
//   - PreFilter: Skip for a pod without claims. For allocated claims, their allocation's node
//     selector; for the others, every request's DeviceClass must exist ("request gpu: device
//     class gpu.example.com does not exist") and no other pod may be allocating the claim ("resource
//     claim default/gpu is in the process of being allocated"); then the allocator (allocator.h)
//     is set up from every ResourceSlice and the devices already allocated.
//   - Filter, per node: "resourceclaim not available on the node" when an allocated claim's node
//     selector excludes it; else the allocator must find devices for all unallocated claims on
//     the node ("cannot allocate all claims"; "timed out trying to allocate devices" after
//     filterTimeout, 10s by default); the result is kept for Reserve. An allocator error (broken
//     CEL, missing class) is an error Status, so the pod is retried with backoff.
//   - Score (DRAPrioritizedList, v1.35+; weight 2 in the default profile): per claim, for each
//     request with firstAvailable subrequests, 8 - i when the node's allocation (this cycle's, or
//     the claim's own) used the i-th subrequest; 0 for a pod without claims. Normalized as
//     upstream's DefaultNormalizeScore (scale to the highest).
//   - PostFilter: when no node fits and an allocated claim was unavailable on some node and is
//     reserved for no pod but this one, its allocation is cleared (status PATCH) so that the next
//     attempt may allocate it elsewhere ("deallocation of ResourceClaim completed").
//   - Reserve: the chosen node's allocations are in flight (ClaimTracker), so the next pods see
//     those devices taken; Unreserve drops them and removes the pod from reservedFor.
//   - PreBind, per claim not yet reserved for the pod: adds the finalizer
//     resource.kubernetes.io/delete-protection (merge PATCH with resourceVersion), then writes
//     status.allocation and the pod into status.reservedFor (merge PATCH of /status with
//     resourceVersion), refreshing the claim and retrying on a Conflict as upstream's
//     RetryOnConflict (5 tries); the written claim is assumed until the informer has it. A pod
//     without claims skips PreBind (PreBindPreFlight), so it binds without a blocked thread.
//   - Events (queueing hints on): ResourceClaim Add/Update/Delete (a claim the pod uses appeared
//     or its status changed, or any claim was deallocated or deleted while allocated), the pod's own
//     UpdatePodGeneratedResourceClaim (its template claims were created), DeviceClass and
//     ResourceSlice Add/Update, Node Add/UpdateNodeLabel/UpdateNodeAllocatable.
// Differences: upstream picks a random unavailable claim to deallocate in PostFilter and visits
// pools in random order; here the lowest claim index and (driver, pool) order. CEL cost limits are
// not enforced (plugins/dynamic_resources/cel).
//
// Thread-safety: Filter runs on parallel workers (the per-node results are locked); PreBind and
// Unreserve on binding threads; hints on the queue's thread. The claim tracker is locked.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "framework/handle.h"
#include "framework/interface.h"
#include "framework/registry.h"
#include "framework/score_normalization.h"
#include "plugins/dynamic_resources/cel/device_selector.h"
#include "plugins/dynamic_resources/claim_tracker.h"

namespace ksched::plugins::dynamic_resources {

inline constexpr std::string_view kName = "DynamicResources";
inline constexpr framework::StateKey kStateKey{"DynamicResources"};

struct DynamicResourcesArgs {
  // How long Filter may search one node (0: no limit). A metav1.Duration upstream, so any Go
  // duration ("500us", "1m30s") as the config layer writes it.
  std::chrono::nanoseconds filter_timeout{std::chrono::seconds(10)};
  // How long PreBind waits for a device's binding conditions (v1.37 bindingTimeout, default 600s
  // with DRADeviceBindingConditions and DRAResourceClaimDeviceStatus on, as in v1.37). Read, not
  // yet used: devices with binding conditions are not allocated yet (issue #45).
  std::chrono::nanoseconds binding_timeout{std::chrono::seconds(600)};
};

// v1 DynamicResourcesArgs as JSON (validated by the config layer): filterTimeout, bindingTimeout.
absl::StatusOr<DynamicResourcesArgs> ParseDynamicResourcesArgs(std::string_view json);

class DynamicResources final : public framework::PreEnqueuePlugin,
                               public framework::PreFilterPlugin,
                               public framework::FilterPlugin,
                               public framework::PostFilterPlugin,
                               public framework::ScorePlugin,
                               public framework::ReservePlugin,
                               public framework::PreBindPlugin,
                               public framework::EnqueueExtensions {
 public:
  DynamicResources(DynamicResourcesArgs args, framework::Handle& handle);

  std::string_view Name() const override { return kName; }
  framework::Status PreEnqueue(const api::Pod& pod) override;
  std::pair<framework::PreFilterResult, framework::Status> PreFilter(
      framework::CycleState& state, const api::Pod& pod,
      const std::vector<framework::NodeInfo*>& nodes) override;
  framework::Status Filter(const framework::CycleState& state, const api::Pod& pod,
                           const framework::NodeInfo& node) override;
  std::pair<framework::PostFilterResult, framework::Status> PostFilter(
      framework::CycleState& state, const api::Pod& pod, const framework::NodeToStatus& statuses) override;
  std::pair<std::int64_t, framework::Status> Score(const framework::CycleState& state, const api::Pod& pod,
                                                   const framework::NodeInfo& node) override;
  framework::ScoreExtensions* GetScoreExtensions() override { return &normalization_; }
  // A pod without claims scores 0 everywhere; with claims, the score reads Filter's allocations,
  // which depend on the ResourceSlices and claims, not only on the node.
  bool ScoreIsNodeLocalFor(const api::Pod& pod) const override { return pod.spec.resource_claims.empty(); }
  framework::Status Reserve(framework::CycleState& state, const api::Pod& pod,
                            const std::string& node_name) override;
  void Unreserve(framework::CycleState& state, const api::Pod& pod, const std::string& node_name) override;
  bool HasPreBindPreFlight() const override { return true; }
  framework::Status PreBindPreFlight(framework::CycleState& state, const api::Pod& pod,
                                     const std::string& node_name) override;
  framework::Status PreBind(framework::CycleState& state, const api::Pod& pod,
                            const std::string& node_name) override;
  std::vector<framework::ClusterEventWithHint> EventsToRegister() const override;

  // Queueing hints (upstream isSchedulableAfterClaimChange / isSchedulableAfterPodChange).
  absl::StatusOr<framework::QueueingHint> IsSchedulableAfterClaimChange(
      const api::Pod& pod, const framework::EventObjects& objects) const;
  absl::StatusOr<framework::QueueingHint> IsSchedulableAfterPodChange(
      const api::Pod& pod, const framework::EventObjects& objects) const;

  const ClaimTracker& claim_tracker() const { return tracker_; }

 private:
  struct Impl;
  DynamicResourcesArgs args_;
  framework::Handle& handle_;
  ClaimTracker tracker_;
  SelectorCache cel_cache_{10};
  framework::StandardNormalization normalization_{framework::ScoreNormalization::kScaleToMax};
};

absl::StatusOr<std::unique_ptr<framework::Plugin>> New(const framework::PluginArgs* args,
                                                       framework::Handle& handle);

}  // namespace ksched::plugins::dynamic_resources
