#include "plugins/dynamic_resources/dynamic_resources.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <map>
#include <set>
#include <thread>

#include "base/mutex.h"
#include "api/field_errors.h"
#include "api/go_duration.h"
#include "api/json_decode.h"
#include "api/resource_json.h"
#include "api/time_format.h"
#include "framework/raw_plugin_args.h"

namespace ksched::plugins::dynamic_resources {

namespace {

using ClaimPtr = std::shared_ptr<const api::ResourceClaim>;
using framework::Code;
using framework::Status;

// upstream statusUnschedulable: UnschedulableAndUnresolvable, so only an event helps.
Status Unschedulable(std::string reason) { return Status(Code::kUnschedulableAndUnresolvable, {reason}); }

bool IsReservedForPod(const api::Pod& pod, const api::ResourceClaim& claim) {
  return std::any_of(claim.status.reserved_for.begin(), claim.status.reserved_for.end(),
                     [&pod](const api::ResourceClaimConsumerReference& ref) { return ref.uid == pod.metadata.uid; });
}

// metav1.IsControlledBy.
bool IsControlledBy(const api::ResourceClaim& claim, const api::Pod& pod) {
  const api::OwnerReference* owner = claim.metadata.ControllerRef();
  return owner != nullptr && owner->uid == pod.metadata.uid;
}

// An API error the caller may retry after reading the object again (HTTP 409).
bool IsConflict(const Status& status) { return framework::HasReason(status, framework::kReasonConflict); }

// The API error's text (without the reason codes the ClusterApi appends).
std::string ErrorText(const Status& status) { return status.error().empty() ? status.Message() : status.error(); }

// The pod's claims in spec order (upstream claimStore, without the extended-resource claim).
struct ClaimInfo {
  ClaimPtr claim;  // replaced by PreBind with the claim it wrote
  // The allocation's node selector, for an allocated claim that has one.
  std::optional<api::CompiledNodeSelector> available_on_nodes;
  std::optional<api::AllocationResult> allocation;  // Reserve's, for a claim it allocates
};

// Shared by every clone of the cycle state (upstream's stateData is a pointer).
struct CycleData {
  std::vector<ClaimInfo> claims;         // empty: nothing to do for the pod
  std::vector<std::size_t> to_allocate;  // indices of the claims without allocation
  std::unique_ptr<Allocator> allocator;  // set when to_allocate is not empty
  base::Mutex mu;
  std::set<std::size_t> unavailable_claims ABSL_GUARDED_BY(mu);
  std::map<std::string, std::vector<api::AllocationResult>, std::less<>> by_node ABSL_GUARDED_BY(mu);
};

class DynamicResourcesState final : public framework::StateData {
 public:
  explicit DynamicResourcesState(std::shared_ptr<CycleData> data) : data_(std::move(data)) {}
  std::unique_ptr<framework::StateData> Clone() const override {
    return std::make_unique<DynamicResourcesState>(data_);
  }
  CycleData& data() const { return *data_; }

 private:
  std::shared_ptr<CycleData> data_;
};

// upstream getStateData returns CycleState.Read's error unwrapped: PostFilter after another
// plugin's PreFilter rejected the pod says just "not found" (part of the pod's message).
Status MissingState() { return Status::FromError("not found"); }

}  // namespace

struct DynamicResources::Impl {
  // upstream foreachPodResourceClaim: each claim of the pod must exist, not be deleted and, when
  // made from a template, be the pod's own. The error is the reason the pod waits.
  template <typename Fn>
  static std::optional<std::string> ForEachPodClaim(const DynamicResources& p, const api::Pod& pod, Fn&& fn) {
    for (const api::PodResourceClaim& pod_claim : pod.spec.resource_claims) {
      const std::string* name = nullptr;
      bool must_check_owner = false;
      if (pod_claim.resource_claim_name.has_value()) {
        name = &*pod_claim.resource_claim_name;
      } else if (pod_claim.resource_claim_template_name.has_value()) {
        const api::PodResourceClaimStatus* found = nullptr;
        for (const api::PodResourceClaimStatus& status : pod.status.resource_claim_statuses) {
          if (status.name == pod_claim.name) {
            found = &status;
            break;
          }
        }
        if (found == nullptr) return "pod \"" + ObjectName(pod.metadata) + "\": ResourceClaim not created yet";
        if (!found->resource_claim_name.has_value()) continue;  // no claim needed
        name = &*found->resource_claim_name;
        must_check_owner = true;
      } else {
        return "pod \"" + ObjectName(pod.metadata) + "\", spec.resourceClaim " + api::JsonQuote(pod_claim.name) +
               ": none of the supported fields are set";
      }
      ClaimPtr claim = p.tracker_.Get(pod.metadata.namespace_, *name);
      if (claim == nullptr) return "resourceclaim.resource.k8s.io \"" + *name + "\" not found";
      if (claim->metadata.deletion_timestamp.has_value()) {
        return "resourceclaim \"" + claim->metadata.name + "\" is being deleted";
      }
      // resourceclaim.IsForPod's words (v1.37).
      if (must_check_owner && claim->metadata.namespace_ != pod.metadata.namespace_) {
        return "ResourceClaim " + ObjectName(claim->metadata) + " is not in the same namespace as Pod " +
               ObjectName(pod.metadata);
      }
      if (must_check_owner && !IsControlledBy(*claim, pod)) {
        return "ResourceClaim " + ObjectName(claim->metadata) + " was not created for Pod " + ObjectName(pod.metadata) +
               " (Pod is not owner)";
      }
      fn(claim);
    }
    return std::nullopt;
  }

  // upstream validateDeviceClass.
  static std::optional<Status> ValidateDeviceClass(const DynamicResources& p, const std::string& class_name,
                                                   const std::string& request_name) {
    if (class_name.empty()) return Status::FromError("request " + request_name + ": unsupported request type");
    const framework::ResourceLister* lister = p.handle_.resource_lister();
    if (lister == nullptr || lister->GetDeviceClass(class_name) == nullptr) {
      return Unschedulable("request " + request_name + ": device class " + class_name + " does not exist");
    }
    return std::nullopt;
  }

  // A status PATCH of the claim (merge patch carrying its resourceVersion, upstream's UpdateStatus).
  static Status PatchStatus(DynamicResources& p, const api::ResourceClaim& claim, const std::string& status_json,
                            api::ResourceClaim* updated) {
    const std::string patch = "{\"metadata\":{\"resourceVersion\":" + api::JsonQuote(claim.metadata.resource_version) +
                              "},\"status\":" + status_json + "}";
    return p.handle_.cluster_api().PatchResourceClaim(std::string(claim.metadata.namespace_.view()),
                                                      claim.metadata.name, "status",
                                                      "application/merge-patch+json", patch, updated);
  }

  // upstream bindClaim: the finalizer, then the allocation (when this cycle made one) and the
  // pod's reservation, retried with a fresh claim on a Conflict (retry.DefaultRetry: 5 steps of
  // 10ms).
  static absl::StatusOr<ClaimPtr> BindClaim(DynamicResources& p, const api::Pod& pod, const ClaimInfo& info) {
    const std::optional<api::AllocationResult>& allocation = info.allocation;
    const std::string uid = info.claim->metadata.uid;
    const std::string ns(info.claim->metadata.namespace_.view());
    const std::string name = info.claim->metadata.name;
    const std::string key = ObjectName(info.claim->metadata);
    api::ResourceClaim claim = *info.claim;
    // v1.37 (DRADeviceBindingConditions and DRAResourceClaimDeviceStatus, both on): every
    // allocation written carries its time, from which bindingTimeout counts; the same on a retry.
    std::string allocation_json;
    if (allocation.has_value()) {
      api::AllocationResult stamped = *allocation;
      if (stamped.allocation_timestamp.empty()) {
        stamped.allocation_timestamp =
            api::FormatTime(std::chrono::time_point_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now()));
      }
      allocation_json = api::AllocationResultJson(stamped);
    }
    std::string failure;
    bool written = false;
    for (int attempt = 0; attempt < 5; ++attempt) {
      if (attempt > 0) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        api::ResourceClaim fresh;
        Status got = p.handle_.cluster_api().GetResourceClaim(ns, name, fresh);
        if (!got.IsSuccess()) {
          failure = "get updated claim " + key + " after conflict: " + ErrorText(got);
          break;
        }
        SPDLOG_DEBUG("retrying update after conflict claim=\"{}\"", key);
        claim = std::move(fresh);
      }
      if (claim.metadata.deletion_timestamp.has_value()) {
        failure = "claim " + key + " got deleted in the meantime";
        break;
      }
      Status status;
      if (allocation.has_value()) {
        if (claim.status.allocation.has_value()) {
          failure = "claim " + key + " got allocated elsewhere in the meantime";
          break;
        }
        if (std::find(claim.finalizers.begin(), claim.finalizers.end(), api::kResourceClaimFinalizer) ==
            claim.finalizers.end()) {
          std::vector<std::string> finalizers = claim.finalizers;
          finalizers.emplace_back(api::kResourceClaimFinalizer);
          std::string patch = "{\"metadata\":{\"resourceVersion\":" + api::JsonQuote(claim.metadata.resource_version) +
                              ",\"finalizers\":[";
          for (std::size_t i = 0; i < finalizers.size(); ++i) {
            if (i > 0) patch += ",";
            patch += api::JsonQuote(finalizers[i]);
          }
          patch += "]}}";
          api::ResourceClaim updated;
          status = p.handle_.cluster_api().PatchResourceClaim(ns, name, "", "application/merge-patch+json", patch,
                                                              &updated);
          if (!status.IsSuccess()) {
            failure = "add finalizer to claim " + key + ": " + ErrorText(status);
            if (IsConflict(status)) continue;
            break;
          }
          claim = std::move(updated);
        }
      }
      std::string status_json = "{";
      if (allocation.has_value()) status_json += "\"allocation\":" + allocation_json + ",";
      status_json += "\"reservedFor\":[";
      std::vector<api::ResourceClaimConsumerReference> reserved = claim.status.reserved_for;
      reserved.push_back(api::ResourceClaimConsumerReference{"", "pods", pod.metadata.name, pod.metadata.uid});
      for (std::size_t i = 0; i < reserved.size(); ++i) {
        if (i > 0) status_json += ",";
        status_json += api::ConsumerReferenceJson(reserved[i]);
      }
      status_json += "]}";
      api::ResourceClaim updated;
      status = PatchStatus(p, claim, status_json, &updated);
      if (!status.IsSuccess()) {
        failure = (allocation.has_value() ? "add allocation and reservation to claim " : "add reservation to claim ") +
                  key + ": " + ErrorText(status);
        if (IsConflict(status)) continue;
        break;
      }
      claim = std::move(updated);
      written = true;
      break;
    }
    ClaimPtr result = written ? std::make_shared<const api::ResourceClaim>(std::move(claim)) : nullptr;
    if (allocation.has_value()) {
      // The allocation is no longer in flight: written (and assumed until the informer has it),
      // or failed.
      if (written) p.tracker_.AssumeAfterApiCall(result);
      p.tracker_.RemovePendingAllocation(uid);
    }
    if (!written) return absl::InternalError(failure);
    SPDLOG_DEBUG("reserved pod=\"{}\" resourceclaim=\"{}\"", ObjectName(pod.metadata), key);
    return result;
  }
};

absl::StatusOr<DynamicResourcesArgs> ParseDynamicResourcesArgs(std::string_view json) {
  DynamicResourcesArgs args;
  if (json.find_first_not_of(" \t\r\n") == std::string_view::npos) return args;
  rapidjson::Document document;
  if (absl::Status parsed = api::ParseJson(json, document); !parsed.ok()) {
    return absl::InvalidArgumentError("DynamicResourcesArgs: " + std::string(parsed.message()));
  }
  if (document.IsNull()) return args;
  if (!document.IsObject()) return absl::InvalidArgumentError("DynamicResourcesArgs: must be a JSON object");
  // Both metav1.Duration fields: a Go duration string, zero or positive (the config layer applies
  // upstream's validation and words first).
  for (auto [field, out] : {std::pair<const char*, std::chrono::nanoseconds*>{"filterTimeout", &args.filter_timeout},
                            std::pair<const char*, std::chrono::nanoseconds*>{"bindingTimeout", &args.binding_timeout}}) {
    auto member = document.FindMember(field);
    if (member == document.MemberEnd() || member->value.IsNull()) continue;
    const std::string prefix = std::string("DynamicResourcesArgs: ") + field + ": ";
    if (!member->value.IsString()) return absl::InvalidArgumentError(prefix + "must be a duration string");
    absl::StatusOr<std::chrono::nanoseconds> parsed =
        api::ParseGoDuration(std::string_view(member->value.GetString(), member->value.GetStringLength()));
    if (!parsed.ok()) return absl::InvalidArgumentError(prefix + std::string(parsed.status().message()));
    if (parsed->count() < 0) return absl::InvalidArgumentError(prefix + "must be zero or positive");
    *out = *parsed;
  }
  return args;
}

DynamicResources::DynamicResources(DynamicResourcesArgs args, framework::Handle& handle)
    : args_(args), handle_(handle), tracker_(handle.resource_lister()) {}

framework::Status DynamicResources::PreEnqueue(const api::Pod& pod) {
  if (pod.spec.resource_claims.empty()) return {};
  if (std::optional<std::string> error = Impl::ForEachPodClaim(*this, pod, [](const ClaimPtr&) {})) {
    return Unschedulable(*std::move(error));
  }
  return {};
}

std::pair<framework::PreFilterResult, framework::Status> DynamicResources::PreFilter(
    framework::CycleState& state, const api::Pod& pod, const std::vector<framework::NodeInfo*>& /*nodes*/) {
  if (pod.spec.resource_claims.empty()) {
    // The common case: one shared empty state that nobody writes.
    static const auto kNoClaims = std::make_shared<CycleData>();
    state.Write(kStateKey, std::make_unique<DynamicResourcesState>(kNoClaims));
    return {{}, Status(Code::kSkip)};
  }
  auto data = std::make_shared<CycleData>();
  state.Write(kStateKey, std::make_unique<DynamicResourcesState>(data));
  std::vector<ClaimPtr> claims;
  if (std::optional<std::string> error =
          Impl::ForEachPodClaim(*this, pod, [&claims](const ClaimPtr& claim) { claims.push_back(claim); })) {
    return {{}, Unschedulable(*std::move(error))};
  }
  if (claims.empty()) return {{}, Status(Code::kSkip)};
  std::vector<ClaimInfo> infos(claims.size());
  std::vector<std::size_t> to_allocate;
  for (std::size_t index = 0; index < claims.size(); ++index) {
    const api::ResourceClaim& claim = *claims[index];
    infos[index].claim = claims[index];
    if (claim.status.allocation.has_value()) {
      // CanBeReserved is always true in v1.34 (reservedFor is capped by the API server).
      if (claim.status.allocation->node_selector.has_value()) {
        absl::StatusOr<api::CompiledNodeSelector> selector =
            api::CompiledNodeSelector::Compile(*claim.status.allocation->node_selector);
        if (!selector.ok()) return {{}, Status::FromError(std::string(selector.status().message()))};
        infos[index].available_on_nodes = *std::move(selector);
      }
      continue;
    }
    to_allocate.push_back(index);
    if (tracker_.HasPendingAllocation(claim.metadata.uid)) {
      return {{}, Unschedulable("resource claim " + ObjectName(claim.metadata) + " is in the process of being allocated")};
    }
    for (const api::DeviceRequest& request : claim.spec.requests) {
      if (request.exactly.has_value()) {
        if (auto status = Impl::ValidateDeviceClass(*this, request.exactly->device_class_name, request.name)) {
          return {{}, *std::move(status)};
        }
      } else if (!request.first_available.empty()) {
        for (const api::DeviceSubRequest& sub : request.first_available) {
          if (auto status = Impl::ValidateDeviceClass(*this, sub.device_class_name, request.name + "/" + sub.name)) {
            return {{}, *std::move(status)};
          }
        }
      } else {
        return {{}, Unschedulable("resource claim " + ObjectName(claim.metadata) + ", request " + request.name +
                                  ": unknown request type")};
      }
    }
  }
  if (!to_allocate.empty()) {
    const framework::ResourceLister* lister = handle_.resource_lister();
    std::vector<std::shared_ptr<const api::ResourceSlice>> slices;
    if (lister != nullptr) slices = lister->ListResourceSlices();
    DeviceClassGetter classes = [lister](std::string_view name) -> std::shared_ptr<const api::DeviceClass> {
      return lister == nullptr ? nullptr : lister->GetDeviceClass(name);
    };
    data->allocator = std::make_unique<Allocator>(AllocatorFeatures{}, tracker_.ListAllAllocatedDevices(),
                                                  std::move(classes), std::move(slices), cel_cache_);
  }
  data->claims = std::move(infos);
  data->to_allocate = std::move(to_allocate);
  return {{}, {}};
}

framework::Status DynamicResources::Filter(const framework::CycleState& state, const api::Pod& pod,
                                           const framework::NodeInfo& node_info) {
  const auto* dra_state = state.ReadAs<DynamicResourcesState>(kStateKey);
  if (dra_state == nullptr) return MissingState();
  CycleData& data = dra_state->data();
  if (data.claims.empty()) return {};
  const api::Node& node = *node_info.node();
  std::vector<std::size_t> unavailable;
  for (std::size_t index = 0; index < data.claims.size(); ++index) {
    const ClaimInfo& info = data.claims[index];
    if (info.available_on_nodes.has_value() &&
        !info.available_on_nodes->Matches(node.metadata.labels, node.metadata.name)) {
      unavailable.push_back(index);
    }
  }
  std::optional<std::vector<api::AllocationResult>> allocations;
  if (data.allocator != nullptr) {
    std::vector<const api::ResourceClaim*> to_allocate;
    to_allocate.reserve(data.to_allocate.size());
    for (std::size_t index : data.to_allocate) to_allocate.push_back(data.claims[index].claim.get());
    std::optional<std::chrono::steady_clock::time_point> deadline;
    if (args_.filter_timeout.count() > 0) deadline = std::chrono::steady_clock::now() + args_.filter_timeout;
    absl::StatusOr<std::optional<std::vector<api::AllocationResult>>> result =
        data.allocator->Allocate(node, to_allocate, deadline);
    if (!result.ok()) {
      // v1.37: an Error, so that the pod retries through backoff rather than waiting in the
      // unschedulable queue for an event (the timeout may be transient); the node named, as the
      // node's ResourceSlices may be the cause.
      if (absl::IsDeadlineExceeded(result.status())) {
        return Status::FromError("node " + node.metadata.name + ": timed out trying to allocate devices");
      }
      // Not for this node (invalid pools); other nodes may do.
      if (absl::IsFailedPrecondition(result.status())) return Unschedulable(std::string(result.status().message()));
      SPDLOG_DEBUG("dynamic resource plugin failed pod=\"{}\" node=\"{}\": {}", ObjectName(pod.metadata),
                   node.metadata.name, std::string(result.status().message()));
      return Status::FromError(std::string(result.status().message()));
    }
    if (!result->has_value() || (*result)->size() != to_allocate.size()) {
      return Unschedulable("cannot allocate all claims");
    }
    allocations = std::move(*result);
  }
  if (data.allocator == nullptr && unavailable.empty()) return {};
  base::MutexLock lock(&data.mu);
  if (!unavailable.empty()) {
    data.unavailable_claims.insert(unavailable.begin(), unavailable.end());
    return Unschedulable("resourceclaim not available on the node");
  }
  data.by_node.insert_or_assign(node.metadata.name, *std::move(allocations));
  return {};
}

std::pair<std::int64_t, framework::Status> DynamicResources::Score(const framework::CycleState& state,
                                                                  const api::Pod& pod,
                                                                  const framework::NodeInfo& node_info) {
  // Upstream scores a pod without claims 0; decided before the state read, since Score runs on
  // every feasible node for every pod.
  if (pod.spec.resource_claims.empty()) return {0, {}};
  const auto* dra_state = state.ReadAs<DynamicResourcesState>(kStateKey);
  if (dra_state == nullptr) return {0, MissingState()};
  CycleData& data = dra_state->data();
  if (data.claims.empty()) return {0, {}};
  // upstream computeScore: an allocated claim's own allocation, else this cycle's allocation on
  // the node (kept by Filter in the order of the claims to allocate).
  base::MutexLock lock(&data.mu);
  const auto node_it = data.by_node.find(node_info.node()->metadata.name);
  if (node_it == data.by_node.end()) return {0, {}};
  const std::vector<api::AllocationResult>& allocations = node_it->second;
  constexpr std::int64_t kFirstAvailableDeviceRequestMaxSize = 8;
  std::int64_t score = 0;
  std::size_t unallocated = 0;
  for (const ClaimInfo& info : data.claims) {
    const api::AllocationResult* allocation = nullptr;
    if (info.claim->status.allocation.has_value()) {
      allocation = &*info.claim->status.allocation;
    } else {
      if (unallocated >= allocations.size()) {
        return {0, Status::FromError("number of allocations " + std::to_string(allocations.size()) +
                                     " is smaller than number of claims needing allocation")};
      }
      allocation = &allocations[unallocated++];
    }
    for (const api::DeviceRequest& request : info.claim->spec.requests) {
      if (request.exactly.has_value()) continue;
      for (std::size_t i = 0; i < request.first_available.size(); ++i) {
        const std::string ref = request.name + "/" + request.first_available[i].name;
        const bool allocated = std::any_of(allocation->results.begin(), allocation->results.end(),
                                           [&](const api::DeviceRequestAllocationResult& r) { return r.request == ref; });
        if (allocated) score += kFirstAvailableDeviceRequestMaxSize - static_cast<std::int64_t>(i);
      }
    }
  }
  return {score, {}};
}

std::pair<framework::PostFilterResult, framework::Status> DynamicResources::PostFilter(
    framework::CycleState& state, const api::Pod& pod, const framework::NodeToStatus& /*statuses*/) {
  const auto* dra_state = state.ReadAs<DynamicResourcesState>(kStateKey);
  if (dra_state == nullptr) return {{}, MissingState()};
  CycleData& data = dra_state->data();
  // v1.37 returns these two Unschedulable statuses without a reason (v1.34 said "no new claims to
  // deallocate" / "still not schedulable"), so nothing of DRA's shows in the PostFilter message.
  if (data.claims.empty()) return {{}, Status(Code::kUnschedulable)};
  std::set<std::size_t> unavailable;
  {
    base::MutexLock lock(&data.mu);
    unavailable = data.unavailable_claims;
  }
  for (std::size_t index : unavailable) {
    const api::ResourceClaim& claim = *data.claims[index].claim;
    const auto& reserved = claim.status.reserved_for;
    if (reserved.empty() || (reserved.size() == 1 && reserved.front().uid == pod.metadata.uid)) {
      SPDLOG_DEBUG("Deallocation of ResourceClaim pod=\"{}\" resourceclaim=\"{}\"", ObjectName(pod.metadata),
                   ObjectName(claim.metadata));
      Status written =
          Impl::PatchStatus(*this, claim, "{\"reservedFor\":null,\"allocation\":null,\"devices\":null}", nullptr);
      if (!written.IsSuccess()) return {{}, Status::FromError(ErrorText(written))};
      return {{}, Status(Code::kUnschedulable, {"deallocation of ResourceClaim completed"})};
    }
  }
  return {{}, Status(Code::kUnschedulable)};
}

framework::Status DynamicResources::Reserve(framework::CycleState& state, const api::Pod& /*pod*/,
                                            const std::string& node_name) {
  const auto* dra_state = state.ReadAs<DynamicResourcesState>(kStateKey);
  if (dra_state == nullptr) return MissingState();
  CycleData& data = dra_state->data();
  if (data.claims.empty() || data.to_allocate.empty()) return {};
  base::MutexLock lock(&data.mu);
  auto it = data.by_node.find(node_name);
  if (it == data.by_node.end() || it->second.empty()) {
    return Status::FromError("claim allocation not found for node");
  }
  const std::vector<api::AllocationResult>& allocations = it->second;
  if (allocations.size() != data.to_allocate.size()) {
    return Status::FromError("internal error, have " + std::to_string(allocations.size()) + " allocations, " +
                             std::to_string(data.to_allocate.size()) + " claims to allocate, want " +
                             std::to_string(data.to_allocate.size()) + " claims");
  }
  for (std::size_t k = 0; k < data.to_allocate.size(); ++k) {
    ClaimInfo& info = data.claims[data.to_allocate[k]];
    info.allocation = allocations[k];
    // The claim as it will be written, so that other pods see its devices taken.
    auto allocated = std::make_shared<api::ResourceClaim>(*info.claim);
    if (std::find(allocated->finalizers.begin(), allocated->finalizers.end(), api::kResourceClaimFinalizer) ==
        allocated->finalizers.end()) {
      allocated->finalizers.emplace_back(api::kResourceClaimFinalizer);
    }
    allocated->status.allocation = allocations[k];
    const std::string uid = allocated->metadata.uid;  // before the pointer moves
    tracker_.SignalPendingAllocation(uid, std::move(allocated));
  }
  return {};
}

void DynamicResources::Unreserve(framework::CycleState& state, const api::Pod& pod, const std::string& /*node_name*/) {
  const auto* dra_state = state.ReadAs<DynamicResourcesState>(kStateKey);
  if (dra_state == nullptr) return;
  CycleData& data = dra_state->data();
  std::vector<ClaimPtr> claims;
  {
    base::MutexLock lock(&data.mu);
    for (const ClaimInfo& info : data.claims) claims.push_back(info.claim);
  }
  for (const ClaimPtr& claim : claims) {
    if (tracker_.RemovePendingAllocation(claim->metadata.uid)) {
      tracker_.Restore(claim->metadata.namespace_, claim->metadata.name);
    }
    if (claim->status.allocation.has_value() && IsReservedForPod(pod, *claim)) {
      // A strategic merge patch removes just this pod's entry without the latest claim.
      const std::string patch = "{\"metadata\":{\"uid\":" + api::JsonQuote(claim->metadata.uid) +
                                "},\"status\":{\"reservedFor\":[{\"$patch\":\"delete\",\"uid\":" +
                                api::JsonQuote(pod.metadata.uid) + "}]}}";
      SPDLOG_DEBUG("unreserve resourceclaim=\"{}\" pod=\"{}\"", ObjectName(claim->metadata), ObjectName(pod.metadata));
      Status written = handle_.cluster_api().PatchResourceClaim(std::string(claim->metadata.namespace_.view()),
                                                                claim->metadata.name, "status",
                                                                "application/strategic-merge-patch+json", patch, nullptr);
      if (!written.IsSuccess()) {
        // Retried when the pod is scheduled again.
        SPDLOG_ERROR("unreserve resourceclaim=\"{}\": {}", ObjectName(claim->metadata), ErrorText(written));
      }
    }
  }
}

framework::Status DynamicResources::PreBindPreFlight(framework::CycleState& state, const api::Pod& /*pod*/,
                                                     const std::string& /*node_name*/) {
  const auto* dra_state = state.ReadAs<DynamicResourcesState>(kStateKey);
  if (dra_state == nullptr) return MissingState();
  if (dra_state->data().claims.empty()) return Status(Code::kSkip);
  return {};
}

framework::Status DynamicResources::PreBind(framework::CycleState& state, const api::Pod& pod,
                                            const std::string& /*node_name*/) {
  const auto* dra_state = state.ReadAs<DynamicResourcesState>(kStateKey);
  if (dra_state == nullptr) return MissingState();
  CycleData& data = dra_state->data();
  for (std::size_t index = 0; index < data.claims.size(); ++index) {
    ClaimInfo info;
    {
      base::MutexLock lock(&data.mu);
      info = data.claims[index];
    }
    if (IsReservedForPod(pod, *info.claim)) continue;
    absl::StatusOr<ClaimPtr> patched = Impl::BindClaim(*this, pod, info);
    if (!patched.ok()) return Status::FromError(std::string(patched.status().message()));
    base::MutexLock lock(&data.mu);
    data.claims[index].claim = *std::move(patched);  // Unreserve works with the written claim
  }
  return {};
}

std::vector<framework::ClusterEventWithHint> DynamicResources::EventsToRegister() const {
  using framework::ClusterEvent;
  using framework::EventResource;
  namespace action = framework::action;
  return {
      // Queueing hints are on (v1.34): no UpdateNodeTaint.
      {ClusterEvent{EventResource::kNode, action::kAdd | action::kUpdateNodeLabel | action::kUpdateNodeAllocatable,
                    "Node"},
       nullptr},
      // v1.37: deletions too (a claim deleted while still allocated frees its devices).
      {ClusterEvent{EventResource::kResourceClaim, action::kAdd | action::kUpdate | action::kDelete, "ResourceClaim"},
       [this](const api::Pod& pod, const framework::EventObjects& objects) {
         return IsSchedulableAfterClaimChange(pod, objects);
       }},
      {ClusterEvent{EventResource::kPod, action::kUpdatePodGeneratedResourceClaim, "UpdatePodGeneratedResourceClaim"},
       [this](const api::Pod& pod, const framework::EventObjects& objects) {
         return IsSchedulableAfterPodChange(pod, objects);
       }},
      {ClusterEvent{EventResource::kDeviceClass, action::kAdd | action::kUpdate, "DeviceClass"}, nullptr},
      {ClusterEvent{EventResource::kResourceSlice, action::kAdd | action::kUpdate, "ResourceSlice"}, nullptr},
  };
}

absl::StatusOr<framework::QueueingHint> DynamicResources::IsSchedulableAfterClaimChange(
    const api::Pod& pod, const framework::EventObjects& objects) const {
  const api::ResourceClaim* modified = objects.new_resource_claim;
  const api::ResourceClaim* original = objects.old_resource_claim;
  if (modified == nullptr) {
    // Deleted. The informer hands over the claim's last known state (upstream's tombstone of an
    // unknown final state queues; here that state is always known): only a claim deleted while
    // still allocated frees devices.
    if (original == nullptr) {
      return absl::InvalidArgumentError("unexpected object in isSchedulableAfterClaimChange: no claim");
    }
    return original->status.allocation.has_value() ? framework::QueueingHint::kQueue
                                                   : framework::QueueingHint::kQueueSkip;
  }
  bool uses_claim = false;
  if (Impl::ForEachPodClaim(*this, pod, [&](const ClaimPtr& claim) {
        if (claim->metadata.uid == modified->metadata.uid) uses_claim = true;
      })) {
    return framework::QueueingHint::kQueueSkip;  // still waiting for another claim
  }
  if (original != nullptr && original->status.allocation.has_value() && !modified->status.allocation.has_value()) {
    return framework::QueueingHint::kQueue;  // deallocated: devices may be free now
  }
  if (!uses_claim) return framework::QueueingHint::kQueueSkip;
  if (original == nullptr) return framework::QueueingHint::kQueue;
  if (original->status == modified->status) return framework::QueueingHint::kQueueSkip;
  return framework::QueueingHint::kQueue;
}

absl::StatusOr<framework::QueueingHint> DynamicResources::IsSchedulableAfterPodChange(
    const api::Pod& pod, const framework::EventObjects& objects) const {
  const api::Pod* modified = objects.new_pod;
  if (modified == nullptr) return absl::InvalidArgumentError("unexpected object in isSchedulableAfterPodChange: no pod");
  if (pod.metadata.uid != modified->metadata.uid) return framework::QueueingHint::kQueueSkip;
  if (Impl::ForEachPodClaim(*this, *modified, [](const ClaimPtr&) {})) return framework::QueueingHint::kQueueSkip;
  return framework::QueueingHint::kQueue;
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> New(const framework::PluginArgs* args, framework::Handle& handle) {
  DynamicResourcesArgs parsed;
  if (const auto* raw = dynamic_cast<const framework::RawPluginArgs*>(args); raw != nullptr) {
    absl::StatusOr<DynamicResourcesArgs> decoded = ParseDynamicResourcesArgs(raw->json);
    if (!decoded.ok()) return decoded.status();
    parsed = *decoded;
  }
  return std::unique_ptr<framework::Plugin>(std::make_unique<DynamicResources>(parsed, handle));
}

}  // namespace ksched::plugins::dynamic_resources
