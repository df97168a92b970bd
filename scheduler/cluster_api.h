// The API writes of the scheduling loop and its plugins, over the REST client (kube-scheduler
// v1.37): binding (DefaultBinder), preempting a victim (preemption's PreemptPod), clearing a
// nominated node, binding and provisioning volumes (VolumeBinding), allocating and reserving
// ResourceClaims (DynamicResources), and the PodScheduled condition of a failed attempt
// (schedule_one.go updatePod).
//
// Status writes go through PatchPodStatus (upstream util.PatchPodStatus): a strategic-merge PATCH
// of pods/{name}/status with the patch of scheduler/pod_status_patch.h, none at all when the
// patch is empty, retried as upstream's retry.OnError(retry.DefaultBackoff, RetriableWithConflict):
// up to 4 attempts, 10 ms then x5 with 10% jitter (10, 50, 250 ms), on HTTP 500, 503 and (since
// v1.37) 409 (connection failures are retried inside RestClient). Binds are retried the same way
// on 500 and 503 (v1.37 util.BindPod, k/k #138855; not on 409, which a bind answers when the pod
// is bound already), BindPodAsync too, without blocking: its retries wait on the REST client's
// transport. Pod conditions get their lastTransitionTime from the `now` clock.
//
// Deviations from upstream v1.34 in EvictVictim: the DELETE carries a UID precondition (upstream
// sends no delete options), so that a pod re-created under the victim's name (StatefulSets) is
// never deleted; the resulting 409 means the victim itself is gone, which is success as a 404 is.
// A 404 on the status patch is success too (the victim is gone; newer upstream does the same,
// v1.34 fails the preemption attempt).
//
// Errors: the calls block, BindPodAsync excepted (never call them from Filter/Score or a RestClient
// callback); failures
// are returned (framework::Status Error with the API error's message, or absl::Status from
// RestClient, see client/api_error.h) and logged by the caller.
//
// Thread-safety: every function and method is safe from any thread.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "api/pod.h"
#include "api/resource.h"
#include "api/time.h"
#include "client/rest_client.h"
#include "framework/handle.h"
#include "framework/status.h"

namespace ksched::scheduler {

// v1.PodReasonPreemptionByScheduler.
inline constexpr std::string_view kPreemptionByScheduler = api::kPodReasonPreemptionByScheduler;

class RestClusterApi final : public framework::ClusterApi {
 public:
  // `now`: wall clock for condition transition times; empty: the system clock.
  explicit RestClusterApi(std::shared_ptr<client::RestClient> client, std::function<api::Time()> now = {});

  // POST pods/{name}/binding (with the pod's UID as precondition), retried as above.
  framework::Status BindPod(const api::Pod& pod, const std::string& node_name) override;
  // The same POST and retries without blocking: `done` runs on the REST client's transport thread.
  void BindPodAsync(const api::Pod& pod, const std::string& node_name, BindCallback done) override;
  bool BindsAsynchronously() const override { return true; }
  // Adds the condition {DisruptionTarget, True, PreemptionByScheduler, condition_message,
  // observedGeneration = metadata.generation} unless the victim has it already (UpdatePodCondition),
  // then DELETEs the victim (UID precondition, default grace period). A victim found gone at
  // either step (404, or 409 on the delete) is success.
  framework::Status EvictVictim(const api::Pod& victim, const std::string& condition_message) override;
  // Patches status.nominatedNodeName away ({"status":{"nominatedNodeName":null}}); nothing is sent
  // when the pod has none.
  framework::Status ClearNominatedNodeName(const api::Pod& pod) override;
  // JSON merge PATCH of persistentvolumes/{name} or a claim (VolumeBinding's PreBind); the new
  // resourceVersion is read off the response.
  framework::Status PatchPersistentVolume(const std::string& name, const std::string& merge_patch,
                                          std::string& resource_version) override;
  framework::Status PatchPersistentVolumeClaim(const std::string& ns, const std::string& name,
                                               const std::string& merge_patch,
                                               std::string& resource_version) override;
  // PATCH /apis/resource.k8s.io/v1/namespaces/{ns}/resourceclaims/{name}[/{subresource}] with
  // `content_type` (merge, strategic-merge or JSON patch; another type is an error, nothing sent),
  // not retried; the response decoded into `updated`. A 409 or 404 is an Error Status with
  // framework::kReasonConflict / kReasonNotFound appended (framework/handle.h).
  framework::Status PatchResourceClaim(const std::string& ns, const std::string& name,
                                       const std::string& subresource, const std::string& content_type,
                                       const std::string& patch, api::ResourceClaim* updated) override;
  // GET of the same path (no subresource), with the same errors.
  framework::Status GetResourceClaim(const std::string& ns, const std::string& name,
                                     api::ResourceClaim& out) override;

 private:
  std::shared_ptr<client::RestClient> client_;
  std::function<api::Time()> now_;
};

// schedule_one.go updatePod: writes `condition` (normally {PodScheduled, False, Unschedulable or
// SchedulerError, message, observedGeneration = metadata.generation}) and, when
// `nominated_node_name` has a value, status.nominatedNodeName ("" clears it) - but only when
// UpdatePodCondition reports a change or the nominated node differs from the pod's. The pod is
// the scheduler's copy: what it shows decides what is sent.
absl::Status PatchPodScheduledCondition(client::RestClient& client, const api::Pod& pod,
                                        const api::PodCondition& condition,
                                        std::optional<std::string> nominated_node_name);
// The same with the transition time given.
absl::Status PatchPodScheduledCondition(client::RestClient& client, const api::Pod& pod,
                                        const api::PodCondition& condition,
                                        std::optional<std::string> nominated_node_name, api::Time now);

// schedule_one.go updatePod(pod, nil, {node_name, Override}): status.nominatedNodeName set to
// `node_name` ({"status":{"nominatedNodeName":"<node>"}}), nothing sent when `pod` shows it already.
absl::Status PatchNominatedNodeName(client::RestClient& client, const api::Pod& pod,
                                    const std::string& node_name);

// util.PatchPodStatus: PATCHes pods/{name}/status with PodStatusPatch(pod.status, new_status),
// nothing when that is "{}", with the retries above.
absl::Status PatchPodStatus(client::RestClient& client, const api::Pod& pod,
                            const api::PodStatus& new_status);

}  // namespace ksched::scheduler
