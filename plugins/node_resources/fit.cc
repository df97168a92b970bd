#include "plugins/node_resources/fit.h"

#include <algorithm>
#include <span>

#include "api/resource_list.h"
#include "framework/resource.h"
#include "plugins/helper/pod_requests_state.h"

namespace ksched::plugins::node_resources {

namespace {

using framework::Code;
using framework::Resource;
using framework::Status;

constexpr framework::StateKey kPreFilterStateKey{"PreFilterNodeResourcesFit"};
constexpr framework::StateKey kPreScoreStateKey{"PreScoreNodeResourcesFit"};

using NameSet = std::set<std::string, std::less<>>;

NameSet ToSet(const std::vector<std::string>& names) { return NameSet(names.begin(), names.end()); }

// The Statuses a node short of one resource alone gets: Unschedulable, or UnschedulableAndUnresolvable
// when the request exceeds the node's capacity. Built once (per process for the fixed resources,
// per cycle for extended ones) and stamped with the plugin's name, so that a node rejected for one
// resource, the usual case, costs the Filter no allocation.
struct Rejections {
  Rejections() = default;
  explicit Rejections(std::string_view reason)
      : unschedulable(Status(Code::kUnschedulable, {reason}).WithPlugin(kFitName)),
        unresolvable(Status(Code::kUnschedulableAndUnresolvable, {reason}).WithPlugin(kFitName)) {}
  const Status& For(bool is_unresolvable) const {
    return is_unresolvable ? unresolvable : unschedulable;
  }
  Status unschedulable;
  Status unresolvable;
};

// The pod's requests as the Filter checks them (upstream preFilterState), with the scalar
// resources to check decided once per pod: non-zero and not ignored, each with its reason text
// (and, for the Filter, its Rejections).
struct FitRequest {
  struct Scalar {
    std::string name;
    std::int64_t quantity = 0;
    std::string reason;  // "Insufficient <name>"
    Rejections rejections;  // empty unless built for the Filter
  };
  Resource requests;
  std::vector<Scalar> scalars;
};

class PreFilterState final : public framework::StateData {
 public:
  explicit PreFilterState(FitRequest request) : request_(std::move(request)) {}
  std::unique_ptr<framework::StateData> Clone() const override {
    return std::make_unique<PreFilterState>(request_);
  }
  const FitRequest& request() const { return request_; }

 private:
  FitRequest request_;
};

// The pod's request of each weighed resource, computed once per cycle in PreScore.
using PreScoreState = helper::PodRequestsState;

// upstream computePodResourceRequest: the pod is not scheduled yet, so the status resources of an
// in-place resize do not apply.
Resource FilterRequests(const api::Pod& pod) {
  framework::PodRequestsOptions options;
  options.use_status_resources = false;
  return framework::PodRequests(pod, options);
}

// `for_filter`: also build each scalar's Rejections (the Filter's PreFilter state only).
FitRequest MakeFitRequest(const api::Pod& pod, const NameSet& ignored, const NameSet& groups,
                          bool for_filter = false) {
  FitRequest out;
  out.requests = FilterRequests(pod);
  for (const auto& [name, quantity] : out.requests.scalars) {
    if (quantity == 0) continue;
    if (framework::IsExtendedResourceName(name)) {
      // The group is the part before '/' (API validation guarantees an extended name has one).
      const std::string_view group = std::string_view(name).substr(0, name.find('/'));
      if (ignored.contains(name) || (!groups.empty() && groups.contains(group))) continue;
    }
    std::string reason = "Insufficient " + name;
    Rejections rejections = for_filter ? Rejections(reason) : Rejections();
    out.scalars.push_back({name, quantity, std::move(reason), std::move(rejections)});
  }
  return out;
}

// The fixed resources' Rejections, built on first use and kept for the process.
struct FixedRejections {
  Rejections too_many_pods{"Too many pods"};
  Rejections cpu{"Insufficient cpu"};
  Rejections memory{"Insufficient memory"};
  Rejections ephemeral_storage{"Insufficient ephemeral-storage"};
};
const FixedRejections& Fixed() {
  static const FixedRejections* const kFixed = new FixedRejections();
  return *kFixed;
}

// One insufficient resource, viewing the request's strings (no allocation in the Filter).
struct Shortfall {
  std::string_view resource_name;
  std::string_view reason;
  std::int64_t requested;
  std::int64_t used;
  std::int64_t capacity;
  bool unresolvable;
  const Rejections* rejections;  // its Statuses when it is the only one (empty if not built)
};

// upstream fitsRequest: calls `report` for each resource the node lacks, in upstream's order.
template <typename Report>
void CheckFit(const FitRequest& request, const Resource& allocatable, const Resource& used,
              std::size_t pod_count, Report&& report) {
  const auto pods = static_cast<std::int64_t>(pod_count);
  if (pods + 1 > allocatable.allowed_pod_number) {
    report(Shortfall{api::kResourcePods, "Too many pods", 1, pods, allocatable.allowed_pod_number,
                     false, &Fixed().too_many_pods});
  }
  const Resource& want = request.requests;
  if (want.milli_cpu == 0 && want.memory == 0 && want.ephemeral_storage == 0 &&
      want.scalars.empty()) {
    return;
  }
  if (want.milli_cpu > 0 && want.milli_cpu > allocatable.milli_cpu - used.milli_cpu) {
    report(Shortfall{api::kResourceCPU, "Insufficient cpu", want.milli_cpu, used.milli_cpu,
                     allocatable.milli_cpu, want.milli_cpu > allocatable.milli_cpu,
                     &Fixed().cpu});
  }
  if (want.memory > 0 && want.memory > allocatable.memory - used.memory) {
    report(Shortfall{api::kResourceMemory, "Insufficient memory", want.memory, used.memory,
                     allocatable.memory, want.memory > allocatable.memory, &Fixed().memory});
  }
  if (want.ephemeral_storage > 0 &&
      want.ephemeral_storage > allocatable.ephemeral_storage - used.ephemeral_storage) {
    report(Shortfall{api::kResourceEphemeralStorage, "Insufficient ephemeral-storage",
                     want.ephemeral_storage, used.ephemeral_storage,
                     allocatable.ephemeral_storage,
                     want.ephemeral_storage > allocatable.ephemeral_storage,
                     &Fixed().ephemeral_storage});
  }
  for (const FitRequest::Scalar& scalar : request.scalars) {
    const std::int64_t capacity = allocatable.Scalar(scalar.name);
    const std::int64_t in_use = used.Scalar(scalar.name);
    if (scalar.quantity > capacity - in_use) {
      report(Shortfall{scalar.name, scalar.reason, scalar.quantity, in_use, capacity,
                       scalar.quantity > capacity, &scalar.rejections});
    }
  }
}

std::vector<InsufficientResource> CollectShortfalls(const FitRequest& request,
                                                    const Resource& allocatable,
                                                    const Resource& used, std::size_t pod_count) {
  std::vector<InsufficientResource> out;
  CheckFit(request, allocatable, used, pod_count, [&](const Shortfall& s) {
    out.push_back({std::string(s.resource_name), std::string(s.reason), s.requested, s.used,
                   s.capacity, s.unresolvable});
  });
  return out;
}

const NameSet& NoNames() {
  static const NameSet* const kEmpty = new NameSet();
  return *kEmpty;
}

absl::StatusOr<framework::QueueingHint> IsSchedulableAfterPodEvent(
    const api::Pod& pod, const framework::EventObjects& objects) {
  const api::Pod* original = objects.old_pod;
  const api::Pod* modified = objects.new_pod;
  if (original == nullptr) {
    return absl::InvalidArgumentError("NodeResourcesFit: pod event without the old pod");
  }
  if (modified == nullptr) {
    // A deleted pod frees resources only if it was bound or nominated somewhere.
    if (original->spec.node_name.empty() && original->status.nominated_node_name.empty()) {
      return framework::QueueingHint::kQueueSkip;
    }
    return framework::QueueingHint::kQueue;
  }

  // A scale down (in-place resize): the target pod itself, or a bound pod that gave back some of
  // a resource the target pod requests.
  if (modified->metadata.uid == pod.metadata.uid) return framework::QueueingHint::kQueue;
  if (modified->spec.node_name.empty()) return framework::QueueingHint::kQueueSkip;

  framework::PodRequestsOptions options;
  options.use_status_resources = true;
  const Resource before = framework::PodRequests(*original, options);
  const Resource after = framework::PodRequests(*modified, options);
  const Resource target = framework::PodRequests(pod, options);
  const bool freed =
      (target.milli_cpu != 0 && before.milli_cpu > after.milli_cpu) ||
      (target.memory != 0 && before.memory > after.memory) ||
      (target.ephemeral_storage != 0 && before.ephemeral_storage > after.ephemeral_storage) ||
      std::any_of(target.scalars.begin(), target.scalars.end(), [&](const auto& scalar) {
        return scalar.second != 0 && before.Scalar(scalar.first) > after.Scalar(scalar.first);
      });
  return freed ? framework::QueueingHint::kQueue : framework::QueueingHint::kQueueSkip;
}

absl::StatusOr<framework::QueueingHint> IsSchedulableAfterNodeChange(
    const api::Pod& pod, const framework::EventObjects& objects) {
  // The pod will not fit the changed node anyway.
  if (!IsFit(pod, objects.new_node)) return framework::QueueingHint::kQueueSkip;
  // A new node that fits.
  if (objects.old_node == nullptr) return framework::QueueingHint::kQueue;
  // It fits, but if nothing the pod needs grew it fitted before and the change is not why.
  if (!HaveAnyRequestedResourcesIncreased(pod, *objects.old_node, *objects.new_node)) {
    return framework::QueueingHint::kQueueSkip;
  }
  return framework::QueueingHint::kQueue;
}

}  // namespace

std::vector<InsufficientResource> Fits(const api::Pod& pod, const framework::NodeInfo& node) {
  return CollectShortfalls(MakeFitRequest(pod, NoNames(), NoNames()), node.allocatable(),
                           node.requested(), node.pods().size());
}

bool IsFit(const api::Pod& pod, const api::Node* node) {
  if (node == nullptr) return false;
  bool fits = true;
  CheckFit(MakeFitRequest(pod, NoNames(), NoNames()), Resource::FromList(node->status.allocatable),
           Resource{}, 0, [&](const Shortfall&) { fits = false; });
  return fits;
}

bool HaveAnyRequestedResourcesIncreased(const api::Pod& pod, const api::Node& original,
                                        const api::Node& modified) {
  const Resource request = FilterRequests(pod);
  const Resource before = Resource::FromList(original.status.allocatable);
  const Resource after = Resource::FromList(modified.status.allocatable);
  if (after.allowed_pod_number > before.allowed_pod_number) return true;
  if (request.milli_cpu == 0 && request.memory == 0 && request.ephemeral_storage == 0 &&
      request.scalars.empty()) {
    return false;
  }
  if ((request.milli_cpu > 0 && after.milli_cpu > before.milli_cpu) ||
      (request.memory > 0 && after.memory > before.memory) ||
      (request.ephemeral_storage > 0 && after.ephemeral_storage > before.ephemeral_storage)) {
    return true;
  }
  return std::any_of(request.scalars.begin(), request.scalars.end(), [&](const auto& scalar) {
    return scalar.second != 0 && after.Scalar(scalar.first) > before.Scalar(scalar.first);
  });
}

Fit::Fit(NodeResourcesFitArgs args)
    : args_(std::move(args)),
      ignored_resources_(ToSet(args_.ignored_resources)),
      ignored_resource_groups_(ToSet(args_.ignored_resource_groups)),
      strategy_(args_.scoring_strategy.type == kMostAllocated ? Strategy::kMost
                : args_.scoring_strategy.type == kRequestedToCapacityRatio
                    ? Strategy::kRatio
                    : Strategy::kLeast),
      allocation_(args_.scoring_strategy.resources, Accounting::kNonZeroContainerLevel),
      ratio_scorer_(args_.scoring_strategy.requested_to_capacity_ratio.has_value()
                        ? args_.scoring_strategy.requested_to_capacity_ratio->shape
                        : std::vector<UtilizationShapePoint>{}) {}

std::pair<framework::PreFilterResult, Status> Fit::PreFilter(
    framework::CycleState& state, const api::Pod& pod,
    const std::vector<framework::NodeInfo*>& /*nodes*/) {
  state.Write(kPreFilterStateKey,
              std::make_unique<PreFilterState>(
                  MakeFitRequest(pod, ignored_resources_, ignored_resource_groups_,
                                 /*for_filter=*/true)));
  return {framework::PreFilterResult{}, Status()};
}

Status Fit::Filter(const framework::CycleState& state, const api::Pod& /*pod*/,
                   const framework::NodeInfo& node) {
  const auto* pre_filter = state.ReadAs<PreFilterState>(kPreFilterStateKey);
  if (pre_filter == nullptr) {
    return Status::FromError("error reading \"" + std::string(kPreFilterStateKey) +
                             "\" from cycleState: not found");
  }
  // Usually one resource is short: its Status is built already, so the rejection allocates
  // nothing. Several at once (rare) are listed in a second pass.
  std::size_t short_count = 0;
  const Status* only = nullptr;
  CheckFit(pre_filter->request(), node.allocatable(), node.requested(), node.pods().size(),
           [&](const Shortfall& shortfall) {
             if (short_count++ == 0) only = &shortfall.rejections->For(shortfall.unresolvable);
           });
  if (short_count == 0) return Status();
  if (short_count == 1 && only->code() != Code::kSuccess) return *only;
  std::vector<std::string> reasons;
  reasons.reserve(short_count);
  Code code = Code::kUnschedulable;
  CheckFit(pre_filter->request(), node.allocatable(), node.requested(), node.pods().size(),
           [&](const Shortfall& shortfall) {
             reasons.emplace_back(shortfall.reason);
             if (shortfall.unresolvable) code = Code::kUnschedulableAndUnresolvable;
           });
  return Status(code, std::move(reasons));
}

std::vector<InsufficientResource> Fit::InsufficientResources(
    const api::Pod& pod, const framework::NodeInfo& node) const {
  return CollectShortfalls(MakeFitRequest(pod, ignored_resources_, ignored_resource_groups_),
                           node.allocatable(), node.requested(), node.pods().size());
}

Status Fit::PreScore(framework::CycleState& state, const api::Pod& pod,
                     const std::vector<const framework::NodeInfo*>& /*nodes*/) {
  state.Write(kPreScoreStateKey,
              std::make_unique<PreScoreState>(allocation_.PodRequests(pod)));
  return Status();
}

std::int64_t Fit::ScoreAmounts(std::span<const std::int64_t> requested,
                               std::span<const std::int64_t> allocatable) const {
  switch (strategy_) {
    case Strategy::kLeast:
      return LeastAllocatedScore(requested, allocatable, allocation_.weights());
    case Strategy::kMost:
      return MostAllocatedScore(requested, allocatable, allocation_.weights());
    case Strategy::kRatio:
      return ratio_scorer_.Score(requested, allocatable, allocation_.weights());
  }
  return 0;
}

std::pair<std::int64_t, Status> Fit::Score(const framework::CycleState& state,
                                           const api::Pod& pod, const framework::NodeInfo& node) {
  // Fit's strategies score the node with the pod only (the allocated amounts are unused).
  const auto score = [this](std::span<const std::int64_t> requested,
                            std::span<const std::int64_t> /*allocated*/,
                            std::span<const std::int64_t> allocatable) {
    return ScoreAmounts(requested, allocatable);
  };
  if (const auto* pre_score = state.ReadAs<PreScoreState>(kPreScoreStateKey)) {
    return allocation_.Score(node, pre_score->pod_requests(), score);
  }
  // Without PreScore (upstream tolerates it): compute the requests here.
  const std::vector<std::int64_t> pod_requests = allocation_.PodRequests(pod);
  return allocation_.Score(node, pod_requests, score);
}

std::vector<framework::ClusterEventWithHint> Fit::EventsToRegister() const {
  // With queueing hints (always on in v1.34) only allocatable updates matter among node updates;
  // in-place pod resize registers pod scale-downs. Labels are upstream's ClusterEvent.Label() of
  // these combined action sets (the resource name alone).
  return {
      {framework::ClusterEvent{framework::EventResource::kPod,
                               framework::action::kDelete | framework::action::kUpdatePodScaleDown,
                               "Pod"},
       IsSchedulableAfterPodEvent},
      {framework::ClusterEvent{framework::EventResource::kNode,
                               framework::action::kAdd | framework::action::kUpdateNodeAllocatable,
                               "Node"},
       IsSchedulableAfterNodeChange},
  };
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> NewFit(const framework::PluginArgs* args,
                                                          framework::Handle& /*handle*/) {
  const absl::StatusOr<const NodeResourcesFitArgs*> typed =
      framework::ArgsAs<NodeResourcesFitArgs>(args, kFitName);
  if (!typed.ok()) return typed.status();
  NodeResourcesFitArgs fit_args = *typed != nullptr ? **typed : NodeResourcesFitArgs{};
  // Validate also requires the ratio's parameters with its type (v1.37, #132120).
  if (absl::Status valid = Validate(fit_args); !valid.ok()) return valid;
  return std::unique_ptr<framework::Plugin>(std::make_unique<Fit>(std::move(fit_args)));
}

}  // namespace ksched::plugins::node_resources
