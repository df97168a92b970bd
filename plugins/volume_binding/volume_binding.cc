#include "plugins/volume_binding/volume_binding.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "api/json_decode.h"
#include "framework/features.h"
#include "framework/raw_plugin_args.h"
#include "plugins/helper/pod_claims.h"
#include "plugins/volume_binding/volume_matching.h"

namespace ksched::plugins::volume_binding {

namespace {

using ClaimPtr = std::shared_ptr<const api::PersistentVolumeClaim>;
using VolumePtr = std::shared_ptr<const api::PersistentVolume>;

std::string Quote(std::string_view text) { return "\"" + std::string(text) + "\""; }

// upstream volumebinding maxUtilization.
constexpr std::int64_t kMaxUtilization = 100;

std::string ClaimKey(std::string_view ns, std::string_view name) {
  return std::string(ns) + "/" + std::string(name);
}
std::string ClaimKey(const api::PersistentVolumeClaim& claim) {
  return ClaimKey(claim.metadata.namespace_, claim.metadata.name);
}

using helper::ClaimNameOf;
using helper::ResourceVersionNumber;
using helper::EphemeralOwnerError;

bool IsClaimFullyBound(const api::PersistentVolumeClaim& claim) {
  return !claim.spec.volume_name.empty() && claim.metadata.annotations.Has(api::kAnnBindCompleted);
}

framework::Status Unresolvable(std::string message) {
  return framework::Status(framework::Code::kUnschedulableAndUnresolvable, {std::move(message)});
}

// A CSIStorageCapacity large enough for a claim: the nodes that reach it, and its `capacity`
// (Score's; 0 when absent).
struct CapacityCandidate {
  api::CompiledLabelSelector topology;
  std::int64_t capacity = 0;
};

// A claim waiting for a volume on some node, with its selector compiled.
struct DelayedClaim {
  ClaimPtr claim;
  std::optional<api::CompiledLabelSelector> selector;
  std::string selector_error;  // a selector that does not compile (reported by Filter)
  std::string class_name;
  // hasEnoughCapacity, decided once per cycle: nullopt when capacity is not checked (no storage
  // request, or a provisioner without a CSIDriver publishing capacities); else the class's
  // CSIStorageCapacities large enough for the claim, in the lister's order (a node fits when one
  // of them selects it; the first that does is the claim's NodeCapacity there).
  std::optional<std::vector<CapacityCandidate>> capacity_topologies;
};

// GetPodVolumeClaims' result, fixed for the cycle.
struct PodVolumeClaims {
  std::vector<ClaimPtr> bound;
  std::vector<std::optional<BoundVolume>> bound_volumes;  // per bound claim; nullopt: missing
  bool bound_in_tree = false;  // some bound volume's node affinity depends on the node's CSINode
  std::vector<DelayedClaim> delayed;                           // sorted by requested size
  std::map<std::string, std::vector<CandidateVolume>, std::less<>> volumes_by_class;
};

struct StaticBinding {
  ClaimPtr claim;
  VolumePtr volume;                  // the candidate; after Reserve, as assumed
  std::optional<std::string> patch;  // Reserve: the write (nullopt when already so)
};

// What one node would need (upstream PodVolumes).
struct PodVolumes {
  std::shared_ptr<const api::Node> node;
  std::vector<StaticBinding> static_bindings;
  std::vector<ClaimPtr> dynamic_provisions;  // after Reserve: the claims as assumed
  // Per dynamic provision: the capacity of the CSIStorageCapacity that admitted it on this node
  // (upstream DynamicProvision.NodeCapacity), nullopt when its driver does not track capacity.
  std::vector<std::optional<std::int64_t>> node_capacities;
};

// Shared by every clone of the cycle state (upstream's stateData is a pointer its Clone returns).
// A pod without claims shares one instance whose `claims` is null and which nobody writes.
struct CycleData {
  std::shared_ptr<const PodVolumeClaims> claims;  // set before the state is shared, then fixed
  base::Mutex mu;
  std::map<std::string, PodVolumes, std::less<>> by_node ABSL_GUARDED_BY(mu);
  bool all_bound ABSL_GUARDED_BY(mu) = false;  // Reserve's verdict; read by PreBind on the binding thread after it
};

class VolumeBindingState final : public framework::StateData {
 public:
  explicit VolumeBindingState(std::shared_ptr<CycleData> data) : data_(std::move(data)) {}
  std::unique_ptr<framework::StateData> Clone() const override {
    return std::make_unique<VolumeBindingState>(data_);
  }
  CycleData& data() const { return *data_; }

 private:
  std::shared_ptr<CycleData> data_;
};

}  // namespace

// The binder's steps, with access to the plugin's listers and assumptions.
struct VolumeBinding::Impl {
  static ClaimPtr LatestClaim(const VolumeBinding& p, std::string_view ns, std::string_view name) {
    const framework::StorageLister* lister = p.handle_.storage_lister();
    ClaimPtr api = lister == nullptr ? nullptr : lister->GetPersistentVolumeClaim(ns, name);
    return p.claims_.Resolve(ClaimKey(ns, name), std::move(api));
  }
  static VolumePtr LatestVolume(const VolumeBinding& p, std::string_view name) {
    const framework::StorageLister* lister = p.handle_.storage_lister();
    VolumePtr api = lister == nullptr ? nullptr : lister->GetPersistentVolume(name);
    return p.volumes_.Resolve(name, std::move(api));
  }

  // podHasPVCs: whether the pod has claims, or why it cannot be scheduled now.
  static std::pair<bool, std::optional<std::string>> PodHasClaims(const VolumeBinding& p, const api::Pod& pod) {
    const framework::StorageLister* lister = p.handle_.storage_lister();
    bool has_claims = false;
    for (const api::Volume& volume : pod.spec.volumes) {
      bool ephemeral = false;
      std::optional<std::string> name = ClaimNameOf(pod, volume, ephemeral);
      if (!name.has_value()) continue;
      has_claims = true;
      ClaimPtr claim = lister == nullptr ? nullptr : lister->GetPersistentVolumeClaim(pod.metadata.namespace_, *name);
      if (claim == nullptr) {
        if (ephemeral) {
          return {true, "waiting for ephemeral volume controller to create the persistentvolumeclaim " + Quote(*name)};
        }
        return {true, "persistentvolumeclaim " + Quote(*name) + " not found"};
      }
      if (claim->phase == api::kClaimLost) {
        return {true, "persistentvolumeclaim " + Quote(claim->metadata.name) +
                          " bound to non-existent persistentvolume " + Quote(claim->spec.volume_name)};
      }
      if (claim->metadata.deletion_timestamp.has_value()) {
        return {true, "persistentvolumeclaim " + Quote(claim->metadata.name) + " is being deleted"};
      }
      if (ephemeral) {
        if (std::optional<std::string> error = EphemeralOwnerError(pod, *claim)) return {true, std::move(error)};
      }
    }
    return {has_claims, std::nullopt};
  }

  // isVolumeBound through the assumed claims: (bound, claim) or an error text.
  static std::pair<std::pair<bool, ClaimPtr>, std::optional<std::string>> IsVolumeBound(
      const VolumeBinding& p, const api::Pod& pod, const api::Volume& volume) {
    bool ephemeral = false;
    std::optional<std::string> name = ClaimNameOf(pod, volume, ephemeral);
    if (!name.has_value()) return {{true, nullptr}, std::nullopt};
    ClaimPtr claim = LatestClaim(p, pod.metadata.namespace_, *name);
    if (claim == nullptr) {
      const std::string key = ClaimKey(pod.metadata.namespace_, *name);
      return {{false, nullptr},
              "error getting PVC " + Quote(key) + ": " + p.claims_.NotFoundMessage(key)};
    }
    if (ephemeral) {
      if (std::optional<std::string> error = EphemeralOwnerError(pod, *claim)) return {{false, nullptr}, error};
    }
    return {{IsClaimFullyBound(*claim), claim}, std::nullopt};
  }

  // GetPodVolumeClaims; the error is upstream's text (an Error status).
  static std::pair<std::shared_ptr<PodVolumeClaims>, framework::Status> GetPodVolumeClaims(
      const VolumeBinding& p, const api::Pod& pod, bool& unbound_immediate) {
    auto claims = std::make_shared<PodVolumeClaims>();
    const framework::StorageLister* lister = p.handle_.storage_lister();
    unbound_immediate = false;
    for (const api::Volume& volume : pod.spec.volumes) {
      auto [bound_claim, error] = IsVolumeBound(p, pod, volume);
      if (error.has_value()) return {nullptr, framework::Status::FromError(*error)};
      auto [bound, claim] = bound_claim;
      if (claim == nullptr) continue;
      if (bound) {
        claims->bound.push_back(claim);
        continue;
      }
      // volume.IsDelayBindingMode.
      bool delayed = false;
      const std::string class_name = api::PersistentVolumeClaimClass(*claim);
      if (!class_name.empty()) {
        auto storage_class = lister == nullptr ? nullptr : lister->GetStorageClass(class_name);
        if (storage_class != nullptr) {
          if (!storage_class->volume_binding_mode.has_value()) {
            return {nullptr,
                    framework::Status::FromError("VolumeBindingMode not set for StorageClass " + Quote(class_name))};
          }
          delayed = *storage_class->volume_binding_mode == api::kVolumeBindingWaitForFirstConsumer;
        }
      }
      // A pre-bound claim (volumeName set, not yet bound) counts as immediate.
      if (delayed && claim->spec.volume_name.empty()) {
        DelayedClaim entry{claim, std::nullopt, "", class_name, std::nullopt};
        if (claim->spec.selector.has_value()) {
          absl::StatusOr<api::CompiledLabelSelector> compiled = api::CompiledLabelSelector::Compile(*claim->spec.selector);
          if (compiled.ok()) {
            entry.selector = *std::move(compiled);
          } else {
            entry.selector_error = "error creating internal label selector for claim: " + ClaimKey(*claim) + ": " +
                                   std::string(compiled.status().message());
          }
        }
        entry.capacity_topologies = CapacityTopologies(p, *claim, entry.class_name);
        claims->delayed.push_back(std::move(entry));
      } else {
        unbound_immediate = true;
      }
    }
    // findMatchingVolumes sorts the claims by increasing request, to give the smallest fits.
    std::stable_sort(claims->delayed.begin(), claims->delayed.end(), [](const DelayedClaim& a, const DelayedClaim& b) {
      return a.claim->spec.storage_request.value_or(0) < b.claim->spec.storage_request.value_or(0);
    });
    for (const ClaimPtr& claim : claims->bound) {
      VolumePtr volume = LatestVolume(p, claim->spec.volume_name);
      if (volume == nullptr) {
        claims->bound_volumes.emplace_back();
        continue;
      }
      claims->bound_in_tree |= !claims->bound_volumes.emplace_back(std::in_place, volume)->plugin.empty();
    }
    if (!claims->delayed.empty() && lister != nullptr) {
      for (const DelayedClaim& delayed : claims->delayed) claims->volumes_by_class[delayed.class_name];
      for (const VolumePtr& api_volume : lister->ListPersistentVolumes()) {
        VolumePtr volume = p.volumes_.Resolve(api_volume->metadata.name, api_volume);
        auto it = claims->volumes_by_class.find(api::PersistentVolumeClass(*volume));
        if (it != claims->volumes_by_class.end()) it->second.emplace_back(std::move(volume));
      }
    }
    return {std::move(claims), {}};
  }

  // The part of hasEnoughCapacity that does not depend on the node (see DelayedClaim).
  static std::optional<std::vector<CapacityCandidate>> CapacityTopologies(
      const VolumeBinding& p, const api::PersistentVolumeClaim& claim, const std::string& class_name) {
    const framework::StorageLister* lister = p.handle_.storage_lister();
    if (lister == nullptr || !claim.spec.storage_request.has_value() || class_name.empty()) return std::nullopt;
    auto storage_class = lister->GetStorageClass(class_name);
    if (storage_class == nullptr) return std::nullopt;  // Filter reports the missing class
    auto driver = lister->GetCSIDriver(storage_class->provisioner);
    if (driver == nullptr || !driver->storage_capacity.value_or(false)) return std::nullopt;
    std::vector<CapacityCandidate> topologies;
    const std::int64_t size = *claim.spec.storage_request;
    lister->ForEachCSIStorageCapacity([&](const api::CSIStorageCapacity& capacity) {
      const api::StorageBytes limit = api::VolumeLimit(capacity);
      if (capacity.storage_class_name != class_name || !limit.has_value() || *limit < size) return;
      if (!capacity.node_topology.has_value()) return;  // reachable from no node
      absl::StatusOr<api::CompiledLabelSelector> selector = api::CompiledLabelSelector::Compile(*capacity.node_topology);
      if (!selector.ok()) {
        SPDLOG_ERROR("Unexpected error converting to a label selector nodeTopology of {}/{}: {}",
                     capacity.metadata.namespace_, capacity.metadata.name, std::string(selector.status().message()));
        return;
      }
      topologies.push_back(CapacityCandidate{*std::move(selector), capacity.capacity.value_or(0)});
    });
    return topologies;
  }

  // checkVolumeProvisions for one claim: `satisfied` when it can be provisioned on the node,
  // `sufficient` false when the node lacks the storage for it, `node_capacity` the capacity that
  // admitted it (nullopt when not tracked); an Error status for a claim without (a known) class.
  static framework::Status CheckProvision(const VolumeBinding& p, const DelayedClaim& delayed,
                                          const api::Labels& node_labels, bool& satisfied, bool& sufficient,
                                          std::optional<std::int64_t>& node_capacity) {
    satisfied = false;
    sufficient = true;
    node_capacity.reset();
    if (delayed.class_name.empty()) {
      return framework::Status::FromError("no class for claim " + Quote(ClaimKey(*delayed.claim)));
    }
    const framework::StorageLister* lister = p.handle_.storage_lister();
    auto storage_class = lister == nullptr ? nullptr : lister->GetStorageClass(delayed.class_name);
    if (storage_class == nullptr) {
      return framework::Status::FromError("failed to find storage class " + Quote(delayed.class_name));
    }
    if (storage_class->provisioner.empty() || storage_class->provisioner == api::kNotSupportedProvisioner) {
      return {};
    }
    if (!api::MatchTopologySelectorTerms(storage_class->allowed_topologies, node_labels)) return {};
    satisfied = true;
    if (delayed.capacity_topologies.has_value()) {
      const auto& topologies = *delayed.capacity_topologies;
      auto admitted = std::find_if(topologies.begin(), topologies.end(), [&](const CapacityCandidate& candidate) {
        return candidate.topology.Matches(node_labels);
      });
      sufficient = admitted != topologies.end();
      if (sufficient) node_capacity = admitted->capacity;
    }
    return {};
  }

  // FindPodVolumes for one node: the reasons it does not fit (empty: it fits) or an error.
  static framework::Status FindPodVolumes(const VolumeBinding& p, const PodVolumeClaims& claims,
                                          const framework::NodeInfo& node_info, PodVolumes& out) {
    const api::Node& node = *node_info.node();
    const api::Labels& labels = node.metadata.labels;
    bool bound_satisfied = true;
    bool unbound_satisfied = true;
    bool bound_pvs_found = true;
    bool sufficient_storage = true;
    // tryTranslatePVToCSI needs the node's CSINode, looked up only for in-tree volumes.
    std::shared_ptr<const api::CSINode> csi_node;
    if (claims.bound_in_tree && p.handle_.storage_lister() != nullptr) {
      csi_node = p.handle_.storage_lister()->GetCSINode(node.metadata.name);
    }
    for (const std::optional<BoundVolume>& volume : claims.bound_volumes) {
      if (!volume.has_value()) {
        bound_pvs_found = false;
        break;
      }
      absl::StatusOr<bool> matches = volume->NodeAffinityMatches(labels, csi_node.get());
      if (!matches.ok()) return framework::Status::FromError(std::string(matches.status().message()));
      if (!*matches) {
        bound_satisfied = false;
        break;
      }
    }
    // Unbound claims are checked even when a bound one failed (every reason is reported).
    if (!claims.delayed.empty()) {
      std::vector<const DelayedClaim*> to_provision;
      std::vector<const api::PersistentVolume*> chosen;
      for (const DelayedClaim& delayed : claims.delayed) {
        if (std::optional<std::string_view> selected = delayed.claim->metadata.annotations.Get(api::kAnnSelectedNode)) {
          if (*selected != node.metadata.name) {
            unbound_satisfied = false;  // fast path: provisioning for another node is under way
            break;
          }
          to_provision.push_back(&delayed);
        }
      }
      if (unbound_satisfied) {
        for (const DelayedClaim& delayed : claims.delayed) {
          if (delayed.claim->metadata.annotations.Has(api::kAnnSelectedNode)) continue;
          if (!delayed.selector_error.empty()) return framework::Status::FromError(delayed.selector_error);
          auto it = claims.volumes_by_class.find(delayed.class_name);
          std::span<const CandidateVolume> volumes;
          if (it != claims.volumes_by_class.end()) volumes = it->second;
          std::optional<std::size_t> match = FindMatchingVolume(
              *delayed.claim, delayed.selector.has_value() ? &*delayed.selector : nullptr, volumes, labels, chosen);
          if (!match.has_value()) {
            unbound_satisfied = false;
            to_provision.push_back(&delayed);
            continue;
          }
          chosen.push_back(volumes[*match].volume.get());
          out.static_bindings.push_back(StaticBinding{delayed.claim, volumes[*match].volume, std::nullopt});
        }
        // Claims without a volume may still be provisioned (this decides unbound_satisfied).
        if (!to_provision.empty()) {
          for (const DelayedClaim* delayed : to_provision) {
            bool satisfied = false;
            bool sufficient = true;
            std::optional<std::int64_t> node_capacity;
            if (framework::Status error = CheckProvision(p, *delayed, labels, satisfied, sufficient, node_capacity);
                !error.IsSuccess()) {
              return error;
            }
            if (!satisfied || !sufficient) {
              unbound_satisfied = satisfied;
              sufficient_storage = sufficient;
              out.dynamic_provisions.clear();
              out.node_capacities.clear();
              break;
            }
            unbound_satisfied = true;
            out.dynamic_provisions.push_back(delayed->claim);
            out.node_capacities.push_back(node_capacity);
          }
        }
      }
    }
    if (bound_satisfied && unbound_satisfied && bound_pvs_found && sufficient_storage) return {};
    framework::Status status(framework::Code::kUnschedulableAndUnresolvable);
    if (!bound_satisfied) status.AppendReason(std::string(kErrReasonNodeConflict));
    if (!unbound_satisfied) status.AppendReason(std::string(kErrReasonBindConflict));
    if (!sufficient_storage) status.AppendReason(std::string(kErrReasonNotEnoughSpace));
    if (!bound_pvs_found) status.AppendReason(std::string(kErrReasonPVNotExist));
    return status;
  }

  static void Revert(VolumeBinding& p, const PodVolumes& volumes) {
    for (const StaticBinding& binding : volumes.static_bindings) p.volumes_.Restore(binding.volume->metadata.name);
    for (const ClaimPtr& claim : volumes.dynamic_provisions) p.claims_.Restore(ClaimKey(*claim));
  }

  // checkBindings: true when every claim is bound, false to wait, or an error.
  static std::pair<bool, std::optional<std::string>> CheckBindings(const VolumeBinding& p, const api::Pod& pod,
                                                                   const std::string& node_name,
                                                                   const PodVolumes& volumes) {
    const framework::StorageLister* lister = p.handle_.storage_lister();
    if (lister == nullptr) return {false, "no storage objects"};
    // A pod deleted meanwhile needs its volumes no more.
    if (p.handle_.PodExists(pod.metadata.namespace_, pod.metadata.name) == false) {
      return {false, "pod does not exist any more: pod " + Quote(pod.metadata.name) + " not found"};
    }
    const api::Labels& labels = volumes.node->metadata.labels;
    const std::shared_ptr<const api::CSINode> csi_node = lister->GetCSINode(node_name);
    // tryTranslatePVToCSI then CheckNodeAffinity; a translation error is prefixed for bindings.
    auto affinity_error = [&](const VolumePtr& volume, std::string_view translate_prefix) -> std::optional<std::string> {
      absl::StatusOr<bool> matches = BoundVolume(volume).NodeAffinityMatches(labels, csi_node.get());
      if (!matches.ok()) return std::string(translate_prefix) + std::string(matches.status().message());
      if (*matches) return std::nullopt;
      return "pv " + Quote(volume->metadata.name) + " node affinity doesn't match node " + Quote(node_name) +
             ": no matching NodeSelectorTerms";
    };
    for (const StaticBinding& binding : volumes.static_bindings) {
      VolumePtr volume = lister->GetPersistentVolume(binding.volume->metadata.name);
      if (volume == nullptr) {
        return {false, "failed to check binding: " + p.volumes_.NotFoundMessage(binding.volume->metadata.name)};
      }
      ClaimPtr claim = lister->GetPersistentVolumeClaim(binding.claim->metadata.namespace_, binding.claim->metadata.name);
      if (claim == nullptr) {
        return {false, "failed to check binding: " + p.claims_.NotFoundMessage(ClaimKey(*binding.claim))};
      }
      // Our write has not reached the informer yet.
      if (ResourceVersionNumber(binding.volume->metadata.resource_version) >
          ResourceVersionNumber(volume->metadata.resource_version)) {
        return {false, std::nullopt};
      }
      if (std::optional<std::string> error = affinity_error(volume, "failed to translate pv to csi: ")) {
        return {false, error};
      }
      if (!volume->spec.claim_ref.has_value() || volume->spec.claim_ref->uid.empty()) {
        return {false, "ClaimRef got reset for pv " + Quote(volume->metadata.name)};
      }
      if (!IsClaimFullyBound(*claim)) return {false, std::nullopt};
    }
    for (const ClaimPtr& provisioned : volumes.dynamic_provisions) {
      ClaimPtr claim = lister->GetPersistentVolumeClaim(provisioned->metadata.namespace_, provisioned->metadata.name);
      if (claim == nullptr) {
        return {false, "failed to check provisioning pvc: " + p.claims_.NotFoundMessage(ClaimKey(*provisioned))};
      }
      if (ResourceVersionNumber(provisioned->metadata.resource_version) >
          ResourceVersionNumber(claim->metadata.resource_version)) {
        return {false, std::nullopt};
      }
      if (claim->metadata.annotations.empty()) {
        return {false, "selectedNode annotation reset for PVC " + Quote(claim->metadata.name)};
      }
      // A provisioner that fails removes the annotation to send the pod back to the scheduler.
      if (claim->metadata.annotations.Get(api::kAnnSelectedNode).value_or("") != node_name) {
        return {false, "provisioning failed for PVC " + Quote(claim->metadata.name)};
      }
      if (!claim->spec.volume_name.empty()) {
        VolumePtr volume = lister->GetPersistentVolume(claim->spec.volume_name);
        if (volume == nullptr) return {false, std::nullopt};  // not seen yet
        if (std::optional<std::string> error = affinity_error(volume, "")) return {false, error};
      }
      if (!IsClaimFullyBound(*claim)) return {false, std::nullopt};
    }
    SPDLOG_DEBUG("All PVCs for pod are bound pod=\"{}/{}\"", pod.metadata.namespace_, pod.metadata.name);
    return {true, std::nullopt};
  }
};

absl::StatusOr<VolumeBindingArgs> ParseVolumeBindingArgs(std::string_view json) {
  VolumeBindingArgs args;
  if (json.find_first_not_of(" \t\r\n") == std::string_view::npos) return args;
  rapidjson::Document document;
  if (absl::Status parsed = api::ParseJson(json, document); !parsed.ok()) {
    return absl::InvalidArgumentError("VolumeBindingArgs: " + std::string(parsed.message()));
  }
  if (document.IsNull()) return args;
  if (!document.IsObject()) return absl::InvalidArgumentError("VolumeBindingArgs: must be a JSON object");
  auto timeout = document.FindMember("bindTimeoutSeconds");
  if (timeout != document.MemberEnd() && !timeout->value.IsNull()) {
    if (!timeout->value.IsInt64() || timeout->value.GetInt64() < 0) {
      return absl::InvalidArgumentError("VolumeBindingArgs: bindTimeoutSeconds: must be a non-negative integer");
    }
    args.bind_timeout = std::chrono::seconds(timeout->value.GetInt64());
  }
  auto shape = document.FindMember("shape");
  if (shape != document.MemberEnd() && !shape->value.IsNull()) {
    if (!shape->value.IsArray()) return absl::InvalidArgumentError("VolumeBindingArgs: shape: must be a list");
    std::vector<helper::FunctionShapePoint> points;
    for (const auto& point : shape->value.GetArray()) {
      if (!point.IsObject()) return absl::InvalidArgumentError("VolumeBindingArgs: shape: points must be objects");
      helper::FunctionShapePoint parsed;
      for (const auto& [key, field] : {std::pair<const char*, std::int64_t*>{"utilization", &parsed.utilization},
                                       std::pair<const char*, std::int64_t*>{"score", &parsed.score}}) {
        auto member = point.FindMember(key);
        if (member == point.MemberEnd() || member->value.IsNull()) continue;
        if (!member->value.IsInt64()) {
          return absl::InvalidArgumentError(std::string("VolumeBindingArgs: shape: ") + key + ": must be an integer");
        }
        *field = member->value.GetInt64();
      }
      points.push_back(parsed);
    }
    // An empty shape fails upstream's validation (the config layer's); keep the default then.
    if (!points.empty()) args.shape = std::move(points);
  }
  return args;
}

VolumeBinding::VolumeBinding(VolumeBindingArgs args, framework::Handle& handle)
    : args_(std::move(args)), scores_(framework::ProcessFeatures().storage_capacity_scoring), handle_(handle) {
  // New: each point's 0..10 score becomes 0..100 (MaxNodeScore / MaxCustomPriorityScore).
  constexpr std::int64_t kScoreScale = framework::kMaxNodeScore / 10;
  score_shape_.reserve(args_.shape.size());
  for (const helper::FunctionShapePoint& point : args_.shape) {
    score_shape_.push_back({point.utilization, point.score * kScoreScale});
  }
}

VolumeBinding::~VolumeBinding() {
  base::MutexLock lock(&stop_mu_);
  stopping_ = true;
  stop_cv_.NotifyAll();
}

std::pair<framework::PreFilterResult, framework::Status> VolumeBinding::PreFilter(
    framework::CycleState& state, const api::Pod& pod, const std::vector<framework::NodeInfo*>& /*nodes*/) {
  auto [has_claims, error] = Impl::PodHasClaims(*this, pod);
  if (error.has_value()) return {{}, Unresolvable(*std::move(error))};
  if (!has_claims) {
    // Reserve and PreBind find nothing to do (upstream writes an empty state too). One shared,
    // never-written instance: no per-pod CycleData.
    static const std::shared_ptr<CycleData> kNoClaims = std::make_shared<CycleData>();
    state.Write(kStateKey, std::make_unique<VolumeBindingState>(kNoClaims));
    return {{}, framework::Status(framework::Code::kSkip)};
  }
  auto data = std::make_shared<CycleData>();
  bool unbound_immediate = false;
  auto [claims, status] = Impl::GetPodVolumeClaims(*this, pod, unbound_immediate);
  if (!status.IsSuccess()) return {{}, std::move(status)};
  if (unbound_immediate) {
    // The PersistentVolume controller binds them; their update requeues the pod.
    return {{}, Unresolvable(std::string(kErrUnboundImmediate))};
  }
  data->claims = std::move(claims);
  state.Write(kStateKey, std::make_unique<VolumeBindingState>(std::move(data)));
  return {{}, {}};
}

framework::Status VolumeBinding::StageFailed(framework::MetricsRecorder::VolumeStage stage,
                                             framework::Status status) const {
  if (framework::MetricsRecorder* metrics = handle_.metrics_recorder(); metrics != nullptr) {
    metrics->VolumeSchedulingStageFailed(stage);
  }
  return status;
}

framework::Status VolumeBinding::Filter(const framework::CycleState& state, const api::Pod& /*pod*/,
                                        const framework::NodeInfo& node) {
  const auto* binding_state = state.ReadAs<VolumeBindingState>(kStateKey);
  if (binding_state == nullptr || binding_state->data().claims == nullptr) {
    return framework::Status::FromError("reading \"" + std::string(kStateKey.name()) + "\" from cycleState: not found");
  }
  CycleData& data = binding_state->data();
  PodVolumes volumes;
  volumes.node = node.node_ptr();
  framework::Status status = Impl::FindPodVolumes(*this, *data.claims, node, volumes);
  if (status.code() == framework::Code::kError) {
    return StageFailed(framework::MetricsRecorder::VolumeStage::kPredicate, std::move(status));
  }
  if (!status.IsSuccess()) return status;
  base::MutexLock lock(&data.mu);
  data.by_node.insert_or_assign(node.node()->metadata.name, std::move(volumes));
  return {};
}

framework::Status VolumeBinding::PreScore(framework::CycleState& state, const api::Pod& /*pod*/,
                                          const std::vector<const framework::NodeInfo*>& /*nodes*/) {
  // Upstream: Skip without a scorer (StorageCapacityScoring off) or when neither static bindings
  // nor StorageCapacityScoring ask for scores: with the gate on, every pod that has the state.
  if (!scores_) return framework::Status(framework::Code::kSkip);
  const auto* binding_state = state.ReadAs<VolumeBindingState>(kStateKey);
  if (binding_state == nullptr) {
    return framework::Status::FromError("reading \"" + std::string(kStateKey.name()) + "\" from cycleState: not found");
  }
  // A pod without claims scores 0 on every node upstream. Skipping its Score changes no decision
  // (only scheduler_plugin_evaluation_total's count, whose series exist regardless) and keeps
  // the cycle's Score plugins node-local, so that identical pods reuse their totals.
  if (binding_state->data().claims == nullptr) return framework::Status(framework::Code::kSkip);
  return {};
}

std::pair<std::int64_t, framework::Status> VolumeBinding::Score(const framework::CycleState& state,
                                                                const api::Pod& /*pod*/,
                                                                const framework::NodeInfo& node) {
  if (!scores_) return {0, {}};
  const auto* binding_state = state.ReadAs<VolumeBindingState>(kStateKey);
  if (binding_state == nullptr) {
    return {0, framework::Status::FromError("reading \"" + std::string(kStateKey.name()) + "\" from cycleState: not found")};
  }
  CycleData& data = binding_state->data();
  if (data.claims == nullptr) return {0, {}};  // no claims: nothing Filter kept
  base::MutexLock lock(&data.mu);
  auto it = data.by_node.find(node.node()->metadata.name);
  if (it == data.by_node.end()) return {0, {}};
  const PodVolumes& volumes = it->second;
  // classResourceMap without a map (no allocation per node): each class is summed at its first
  // occurrence by a scan of the rest; a pod has a handful of claims.
  auto class_score = [&](std::int64_t requested, std::int64_t capacity) {
    if (capacity == 0 || requested > capacity) return helper::BrokenLinear(score_shape_, kMaxUtilization);
    return helper::BrokenLinear(score_shape_, requested * kMaxUtilization / capacity);
  };
  std::int64_t node_score = 0;
  std::int64_t classes = 0;
  if (!volumes.static_bindings.empty()) {
    // Grouped by the volume's spec.storageClassName (BindingInfo.StorageClassName).
    const auto& bindings = volumes.static_bindings;
    for (std::size_t i = 0; i < bindings.size(); ++i) {
      const std::string& class_name = bindings[i].volume->spec.storage_class_name;
      bool seen = false;
      for (std::size_t j = 0; j < i && !seen; ++j) seen = bindings[j].volume->spec.storage_class_name == class_name;
      if (seen) continue;
      std::int64_t requested = 0;
      std::int64_t capacity = 0;
      for (std::size_t j = i; j < bindings.size(); ++j) {
        if (bindings[j].volume->spec.storage_class_name != class_name) continue;
        requested += bindings[j].claim->spec.storage_request.value_or(0);
        capacity += bindings[j].volume->spec.capacity.value_or(0);
      }
      node_score += class_score(requested, capacity);
      ++classes;
    }
  } else {
    // Grouped by the claim's spec.storageClassName; only provisions with a NodeCapacity count,
    // and a class's capacity is its last such provision's (upstream assigns, not adds).
    const auto& provisions = volumes.dynamic_provisions;
    const auto& capacities = volumes.node_capacities;
    auto class_of = [&](std::size_t i) -> std::string_view {
      const auto& name = provisions[i]->spec.storage_class_name;
      return name.has_value() ? std::string_view(*name) : std::string_view();
    };
    for (std::size_t i = 0; i < provisions.size(); ++i) {
      if (!capacities[i].has_value()) continue;
      bool seen = false;
      for (std::size_t j = 0; j < i && !seen; ++j) seen = capacities[j].has_value() && class_of(j) == class_of(i);
      if (seen) continue;
      std::int64_t requested = 0;
      std::int64_t capacity = 0;
      for (std::size_t j = i; j < provisions.size(); ++j) {
        if (!capacities[j].has_value() || class_of(j) != class_of(i)) continue;
        capacity = *capacities[j];
        requested += provisions[j]->spec.storage_request.value_or(0);
      }
      node_score += class_score(requested, capacity);
      ++classes;
    }
  }
  if (classes == 0) return {0, {}};
  return {static_cast<std::int64_t>(std::round(static_cast<double>(node_score) / static_cast<double>(classes))), {}};
}

framework::Status VolumeBinding::Reserve(framework::CycleState& state, const api::Pod& pod,
                                         const std::string& node_name) {
  const auto* binding_state = state.ReadAs<VolumeBindingState>(kStateKey);
  if (binding_state == nullptr) {
    return framework::Status::FromError("reading \"" + std::string(kStateKey.name()) + "\" from cycleState: not found");
  }
  CycleData& data = binding_state->data();
  if (data.claims == nullptr) return {};  // the pod names no claim (shared state: never written)
  base::MutexLock lock(&data.mu);
  auto it = data.by_node.find(node_name);
  if (it == data.by_node.end()) {
    data.all_bound = true;
    return {};
  }
  // AssumePodVolumes.
  bool all_bound = true;
  for (const api::Volume& volume : pod.spec.volumes) {
    auto [bound_claim, error] = Impl::IsVolumeBound(*this, pod, volume);
    if (error.has_value() || !bound_claim.first) {
      all_bound = false;
      break;
    }
  }
  if (all_bound) {
    data.all_bound = true;
    return {};
  }
  data.all_bound = false;
  PodVolumes& volumes = it->second;
  const framework::StorageLister* lister = handle_.storage_lister();
  std::vector<StaticBinding> assumed_bindings;
  std::vector<ClaimPtr> assumed_claims;
  auto undo = [&](const absl::Status& failed) {
    for (const StaticBinding& binding : assumed_bindings) volumes_.Restore(binding.volume->metadata.name);
    for (const ClaimPtr& claim : assumed_claims) claims_.Restore(ClaimKey(*claim));
    return StageFailed(framework::MetricsRecorder::VolumeStage::kAssume,
                       framework::Status::FromError(std::string(failed.message())));
  };
  for (const StaticBinding& binding : volumes.static_bindings) {
    auto assumed = std::make_shared<api::PersistentVolume>();
    std::optional<std::string> patch = BindVolumeToClaimPatch(*binding.volume, *binding.claim, assumed.get());
    if (!patch.has_value()) {
      assumed_bindings.push_back(StaticBinding{binding.claim, binding.volume, std::nullopt});
      continue;
    }
    const std::string& name = binding.volume->metadata.name;
    if (absl::Status status = volumes_.Assume(name, assumed, lister == nullptr ? nullptr : lister->GetPersistentVolume(name));
        !status.ok()) {
      return undo(status);
    }
    assumed_bindings.push_back(StaticBinding{binding.claim, std::move(assumed), std::move(patch)});
  }
  for (const ClaimPtr& claim : volumes.dynamic_provisions) {
    auto assumed = std::make_shared<api::PersistentVolumeClaim>(*claim);
    assumed->metadata.annotations.Set(api::InternedString(api::kAnnSelectedNode), node_name);
    if (absl::Status status = claims_.Assume(
            ClaimKey(*claim), assumed,
            lister == nullptr ? nullptr : lister->GetPersistentVolumeClaim(claim->metadata.namespace_, claim->metadata.name));
        !status.ok()) {
      return undo(status);
    }
    assumed_claims.push_back(std::move(assumed));
  }
  volumes.static_bindings = std::move(assumed_bindings);
  volumes.dynamic_provisions = std::move(assumed_claims);
  return {};
}

void VolumeBinding::Unreserve(framework::CycleState& state, const api::Pod& /*pod*/, const std::string& node_name) {
  const auto* binding_state = state.ReadAs<VolumeBindingState>(kStateKey);
  if (binding_state == nullptr) return;
  CycleData& data = binding_state->data();
  if (data.claims == nullptr) return;
  base::MutexLock lock(&data.mu);
  auto it = data.by_node.find(node_name);
  if (it == data.by_node.end()) return;
  Impl::Revert(*this, it->second);
}

framework::Status VolumeBinding::PreBindPreFlight(framework::CycleState& state, const api::Pod& /*pod*/,
                                                  const std::string& node_name) {
  const auto* binding_state = state.ReadAs<VolumeBindingState>(kStateKey);
  if (binding_state == nullptr) {
    return framework::Status::FromError("reading \"" + std::string(kStateKey.name()) + "\" from cycleState: not found");
  }
  CycleData& data = binding_state->data();
  if (data.claims == nullptr) return framework::Status(framework::Code::kSkip);
  base::MutexLock lock(&data.mu);
  if (data.all_bound) return framework::Status(framework::Code::kSkip);
  if (data.by_node.find(node_name) == data.by_node.end()) {
    return framework::Status::FromError("no pod volume found for node " + Quote(node_name));
  }
  return {};
}

framework::Status VolumeBinding::PreBind(framework::CycleState& state, const api::Pod& pod,
                                         const std::string& node_name) {
  const auto* binding_state = state.ReadAs<VolumeBindingState>(kStateKey);
  if (binding_state == nullptr) {
    return framework::Status::FromError("reading \"" + std::string(kStateKey.name()) + "\" from cycleState: not found");
  }
  CycleData& data = binding_state->data();
  if (data.claims == nullptr) return {};
  PodVolumes volumes;
  {
    base::MutexLock lock(&data.mu);
    if (data.all_bound) return {};
    auto it = data.by_node.find(node_name);
    if (it == data.by_node.end()) return framework::Status::FromError("no pod volume found for node " + Quote(node_name));
    volumes = it->second;
  }
  SPDLOG_DEBUG("Trying to bind volumes for pod pod=\"{}/{}\"", pod.metadata.namespace_, pod.metadata.name);
  // bindAPIUpdate: pre-bind the volumes, then ask for provisioning; what was not written is
  // restored in the assumptions (what was written stays assumed until the informer catches up).
  std::size_t written_bindings = 0;
  std::size_t written_claims = 0;
  auto fail = [&](framework::Status status) {
    for (std::size_t i = written_bindings; i < volumes.static_bindings.size(); ++i) {
      volumes_.Restore(volumes.static_bindings[i].volume->metadata.name);
    }
    for (std::size_t i = written_claims; i < volumes.dynamic_provisions.size(); ++i) {
      claims_.Restore(ClaimKey(*volumes.dynamic_provisions[i]));
    }
    SPDLOG_DEBUG("Failed to bind volumes for pod pod=\"{}/{}\": {}", pod.metadata.namespace_, pod.metadata.name,
                 status.Message());
    return StageFailed(framework::MetricsRecorder::VolumeStage::kBind, std::move(status));
  };
  auto wait_failed = [this](std::string message) {
    return StageFailed(framework::MetricsRecorder::VolumeStage::kBind, framework::Status::FromError(std::move(message)));
  };
  for (StaticBinding& binding : volumes.static_bindings) {
    if (binding.patch.has_value()) {
      std::string resource_version;
      framework::Status written =
          handle_.cluster_api().PatchPersistentVolume(binding.volume->metadata.name, *binding.patch, resource_version);
      if (!written.IsSuccess()) return fail(std::move(written));
      auto updated = std::make_shared<api::PersistentVolume>(*binding.volume);
      updated->metadata.resource_version = resource_version;
      binding.volume = std::move(updated);
      SPDLOG_INFO("Updated PersistentVolume with claim. Waiting for binding to complete pod=\"{}/{}\" PV=\"{}\" PVC=\"{}\"",
                  pod.metadata.namespace_, pod.metadata.name, binding.volume->metadata.name, ClaimKey(*binding.claim));
    }
    ++written_bindings;
  }
  for (ClaimPtr& claim : volumes.dynamic_provisions) {
    std::string resource_version;
    framework::Status written = handle_.cluster_api().PatchPersistentVolumeClaim(
        std::string(std::string_view(claim->metadata.namespace_)), claim->metadata.name,
        SelectedNodePatch(*claim, node_name), resource_version);
    if (!written.IsSuccess()) return fail(std::move(written));
    auto updated = std::make_shared<api::PersistentVolumeClaim>(*claim);
    updated->metadata.resource_version = resource_version;
    claim = std::move(updated);
    ++written_claims;
  }
  // Wait for the PersistentVolume controller (wait.PollUntilContextTimeout, not immediate).
  const auto deadline = std::chrono::steady_clock::now() + args_.bind_timeout;
  while (true) {
    {
      base::MutexLock lock(&stop_mu_);
      const auto wake = std::min(deadline, std::chrono::steady_clock::now() + poll_interval_);
      if (stop_cv_.WaitUntil(&stop_mu_, wake, [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(stop_mu_) { return stopping_; })) {
        return wait_failed("binding volumes: context canceled");
      }
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      return wait_failed("binding volumes: context deadline exceeded");
    }
    auto [done, error] = Impl::CheckBindings(*this, pod, node_name, volumes);
    if (error.has_value()) return wait_failed("binding volumes: " + *error);
    if (done) break;
  }
  SPDLOG_DEBUG("Success binding volumes for pod pod=\"{}/{}\"", pod.metadata.namespace_, pod.metadata.name);
  return {};
}

std::vector<framework::ClusterEventWithHint> VolumeBinding::EventsToRegister() const {
  using framework::ClusterEvent;
  using framework::EventResource;
  namespace action = framework::action;
  return {
      {ClusterEvent{EventResource::kStorageClass, action::kAdd | action::kUpdate, "StorageClass"},
       IsSchedulableAfterStorageClassChange},
      {ClusterEvent{EventResource::kPersistentVolumeClaim, action::kAdd | action::kUpdate, "PersistentVolumeClaim"},
       IsSchedulableAfterPersistentVolumeClaimChange},
      {ClusterEvent{EventResource::kPersistentVolume, action::kAdd | action::kUpdate, "PersistentVolume"}, nullptr},
      // Queueing hints are on (v1.34): no UpdateNodeTaint.
      {ClusterEvent{EventResource::kNode, action::kAdd | action::kUpdateNodeLabel, "Node"}, nullptr},
      // In-tree volumes are translated to CSI where the node's CSINode says they migrated.
      {ClusterEvent{EventResource::kCSINode, action::kAdd | action::kUpdate, "CSINode"}, IsSchedulableAfterCSINodeChange},
      {ClusterEvent{EventResource::kCSIDriver, action::kUpdate, "CSIDriverUpdate"}, IsSchedulableAfterCSIDriverChange},
      {ClusterEvent{EventResource::kCSIStorageCapacity, action::kAdd | action::kUpdate, "CSIStorageCapacity"},
       IsSchedulableAfterCSIStorageCapacityChange},
  };
}

absl::StatusOr<framework::QueueingHint> IsSchedulableAfterStorageClassChange(
    const api::Pod& /*pod*/, const framework::EventObjects& objects) {
  if (objects.new_storage_class == nullptr) {
    return absl::InvalidArgumentError("VolumeBinding: storage class event without the class");
  }
  if (objects.old_storage_class == nullptr) return framework::QueueingHint::kQueue;
  // volumeBindingMode is immutable; only new allowedTopologies can help.
  return objects.old_storage_class->allowed_topologies == objects.new_storage_class->allowed_topologies
             ? framework::QueueingHint::kQueueSkip
             : framework::QueueingHint::kQueue;
}

absl::StatusOr<framework::QueueingHint> IsSchedulableAfterCSIStorageCapacityChange(
    const api::Pod& /*pod*/, const framework::EventObjects& objects) {
  if (objects.new_csi_storage_capacity == nullptr) {
    return absl::InvalidArgumentError("VolumeBinding: storage capacity event without the capacity");
  }
  if (objects.old_csi_storage_capacity == nullptr) return framework::QueueingHint::kQueue;
  // Only a larger volume limit can help (nodeTopology and storageClassName are immutable).
  const api::StorageBytes before = api::VolumeLimit(*objects.old_csi_storage_capacity);
  const api::StorageBytes after = api::VolumeLimit(*objects.new_csi_storage_capacity);
  return after.has_value() && (!before.has_value() || *after > *before) ? framework::QueueingHint::kQueue
                                                                        : framework::QueueingHint::kQueueSkip;
}

absl::StatusOr<framework::QueueingHint> IsSchedulableAfterCSIDriverChange(const api::Pod& pod,
                                                                         const framework::EventObjects& objects) {
  if (objects.old_csi_driver == nullptr || objects.new_csi_driver == nullptr) {
    return absl::InvalidArgumentError("VolumeBinding: CSIDriver update event without both objects");
  }
  // Upstream looks at the pod's inline CSI volumes of the driver: capacity tracking turned off.
  for (const api::Volume& volume : pod.spec.volumes) {
    if (!volume.csi.has_value() || volume.csi->driver != objects.new_csi_driver->metadata.name) continue;
    if (objects.old_csi_driver->storage_capacity.value_or(false) &&
        !objects.new_csi_driver->storage_capacity.value_or(false)) {
      return framework::QueueingHint::kQueue;
    }
  }
  return framework::QueueingHint::kQueueSkip;
}

absl::StatusOr<framework::QueueingHint> IsSchedulableAfterCSINodeChange(const api::Pod& /*pod*/,
                                                                       const framework::EventObjects& objects) {
  if (objects.old_csi_node == nullptr) return framework::QueueingHint::kQueue;  // created
  if (objects.new_csi_node == nullptr) {
    return absl::InvalidArgumentError("VolumeBinding: CSINode update event without the new object");
  }
  const auto migrated = [](const api::CSINode& csi_node) {
    return csi_node.metadata.annotations.Get(api::kMigratedPluginsAnnotation).value_or("");
  };
  return migrated(*objects.old_csi_node) != migrated(*objects.new_csi_node) ? framework::QueueingHint::kQueue
                                                                            : framework::QueueingHint::kQueueSkip;
}

absl::StatusOr<framework::QueueingHint> IsSchedulableAfterPersistentVolumeClaimChange(
    const api::Pod& pod, const framework::EventObjects& objects) {
  const api::PersistentVolumeClaim* claim = objects.new_pvc;
  if (claim == nullptr) return absl::InvalidArgumentError("VolumeBinding: claim event without the claim");
  return helper::PodUsesClaim(pod, *claim) ? framework::QueueingHint::kQueue : framework::QueueingHint::kQueueSkip;
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> New(const framework::PluginArgs* args,
                                                       framework::Handle& handle) {
  VolumeBindingArgs parsed;
  if (const auto* raw = dynamic_cast<const framework::RawPluginArgs*>(args)) {
    absl::StatusOr<VolumeBindingArgs> decoded = ParseVolumeBindingArgs(raw->json);
    if (!decoded.ok()) return decoded.status();
    parsed = *decoded;
  }
  return std::unique_ptr<framework::Plugin>(std::make_unique<VolumeBinding>(parsed, handle));
}

}  // namespace ksched::plugins::volume_binding
