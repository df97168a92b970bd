// NodeResourcesFit (upstream pkg/scheduler/framework/plugins/noderesources/fit.go, v1.34):
//
//   PreFilter  computes the pod's requests (containers, init containers and sidecars, pod-level
//              resources, overhead) once into CycleState "PreFilterNodeResourcesFit".
//   Filter     rejects a node when the pod would exceed its pod count or an allocatable resource:
//              "Too many pods", "Insufficient cpu", "Insufficient memory",
//              "Insufficient ephemeral-storage", "Insufficient <name>" for each scalar resource
//              (extended, hugepages-*, ...), all reasons of one status in that order (scalars by
//              name). The code is Unschedulable, or UnschedulableAndUnresolvable when a request
//              exceeds the node's whole allocatable (no preemption can help). Extended resources
//              listed in ignoredResources, or whose group (the part before '/') is in
//              ignoredResourceGroups, are not checked; a requested scalar resource the node does
//              not advertise has allocatable 0.
//   PreScore   computes the pod's requests of the scoring resources into "PreScoreNodeResourcesFit".
//   Score      the scoring strategy (LeastAllocated, MostAllocated, RequestedToCapacityRatio) over
//              the configured resources with non-zero, container-level requests (as upstream,
//              pod-level resources do not count here), see resource_allocation.h and scorers.h.
//   Events     pod deleted or scaled down (in-place resize), node added or its allocatable changed,
//              with upstream's queueing hints.
//
// Features as in a default v1.34 kube-scheduler: InPlacePodVerticalScaling, PodLevelResources,
// SidecarContainers and SchedulerQueueingHints on, DRAExtendedResource off (extended resources
// backed by DRA device classes are not modelled).
//
// Thread-safety: immutable after construction; Filter and Score run concurrently.
#pragma once

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "api/node.h"
#include "api/pod.h"
#include "framework/handle.h"
#include "framework/interface.h"
#include "framework/registry.h"
#include "plugins/node_resources/args.h"
#include "plugins/node_resources/resource_allocation.h"
#include "plugins/node_resources/scorers.h"

namespace ksched::plugins::node_resources {

inline constexpr std::string_view kFitName = "NodeResourcesFit";

// One resource the pod lacks on a node (upstream InsufficientResource).
struct InsufficientResource {
  std::string resource_name;
  std::string reason;
  std::int64_t requested = 0;
  std::int64_t used = 0;
  std::int64_t capacity = 0;
  // The request exceeds the node's whole allocatable: preemption cannot make room.
  bool unresolvable = false;

  friend bool operator==(const InsufficientResource&, const InsufficientResource&) = default;
};

// upstream Fits: what the pod lacks on the node, no resource ignored; empty when it fits.
std::vector<InsufficientResource> Fits(const api::Pod& pod, const framework::NodeInfo& node);

// upstream isFit: whether the pod fits an empty node (false for nullptr).
bool IsFit(const api::Pod& pod, const api::Node* node);

// upstream haveAnyRequestedResourcesIncreased: whether the node's allowed pod count, or the
// allocatable of a resource the pod requests, grew from `original` to `modified`.
bool HaveAnyRequestedResourcesIncreased(const api::Pod& pod, const api::Node& original,
                                        const api::Node& modified);

class Fit final : public framework::PreFilterPlugin,
                  public framework::FilterPlugin,
                  public framework::PreScorePlugin,
                  public framework::ScorePlugin,
                  public framework::EnqueueExtensions {
 public:
  // `args` must be valid (Validate) and, for RequestedToCapacityRatio, carry a shape.
  explicit Fit(NodeResourcesFitArgs args);
  Fit(const Fit&) = delete;
  Fit& operator=(const Fit&) = delete;

  std::string_view Name() const override { return kFitName; }
  // Reads only the node's NodeInfo, the pod and its own cycle state.
  bool NodeLocalResults() const override { return true; }

  std::pair<framework::PreFilterResult, framework::Status> PreFilter(
      framework::CycleState& state, const api::Pod& pod,
      const std::vector<framework::NodeInfo*>& nodes) override;
  framework::Status Filter(const framework::CycleState& state, const api::Pod& pod,
                           const framework::NodeInfo& node) override;

  framework::Status PreScore(framework::CycleState& state, const api::Pod& pod,
                             const std::vector<const framework::NodeInfo*>& nodes) override;
  std::pair<std::int64_t, framework::Status> Score(const framework::CycleState& state,
                                                   const api::Pod& pod,
                                                   const framework::NodeInfo& node) override;

  std::vector<framework::ClusterEventWithHint> EventsToRegister() const override;

  // What the pod lacks on the node with this plugin's ignored resources (upstream fitsRequest on
  // the PreFilter state); for tests and diagnostics.
  std::vector<InsufficientResource> InsufficientResources(const api::Pod& pod,
                                                          const framework::NodeInfo& node) const;

 private:
  enum class Strategy : std::uint8_t { kLeast, kMost, kRatio };

  std::int64_t ScoreAmounts(std::span<const std::int64_t> requested,
                            std::span<const std::int64_t> allocatable) const;

  const NodeResourcesFitArgs args_;  // owns the resource names the members below view
  const std::set<std::string, std::less<>> ignored_resources_;
  const std::set<std::string, std::less<>> ignored_resource_groups_;
  const Strategy strategy_;
  const ResourceAllocation allocation_;
  const RequestedToCapacityRatioScorer ratio_scorer_;  // empty shape unless that strategy
};

// The plugin factory: args of type NodeResourcesFitArgs (nullptr: defaults), validated as
// upstream's NewFit does. The handle is not used.
absl::StatusOr<std::unique_ptr<framework::Plugin>> NewFit(const framework::PluginArgs* args,
                                                          framework::Handle& handle);

}  // namespace ksched::plugins::node_resources
