// Typed args of the NodeResourcesFit and NodeResourcesBalancedAllocation plugins (upstream
// config.NodeResourcesFitArgs / NodeResourcesBalancedAllocationArgs, v1.34), their defaults
// (upstream v1 SetDefaults_*) and their validation (upstream validation_pluginargs.go).
//
// Contract: a default-constructed args value is upstream's defaulted value (LeastAllocated over
// cpu and memory with weight 1; BalancedAllocation over cpu and memory). The config layer fills the
// fields from the file as written (a `scoringStrategy.type` left empty stays empty, so that
// Validate reports it as upstream does), then calls SetDefaults, then Validate. The plugin
// factories validate again (as upstream's factories do) but never apply defaults.
//
// Errors: Validate returns OkStatus or InvalidArgument whose message is upstream's field-error
// aggregate, with paths relative to the args ("scoringStrategy.resources[0].weight: Invalid value:
// 0: resource weight of cpu not in valid range (0, 100]"); the config layer adds its own prefix.
//
// Thread-safety: value types.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "framework/registry.h"

namespace ksched::plugins::node_resources {

// upstream config.ScoringStrategyType values.
inline constexpr std::string_view kLeastAllocated = "LeastAllocated";
inline constexpr std::string_view kMostAllocated = "MostAllocated";
inline constexpr std::string_view kRequestedToCapacityRatio = "RequestedToCapacityRatio";

// upstream config.MaxCustomPriorityScore: the top of a shape point's score scale.
inline constexpr std::int32_t kMaxCustomPriorityScore = 10;

// A resource to score and its weight (upstream config.ResourceSpec).
struct ResourceSpec {
  std::string name;
  std::int64_t weight = 0;

  friend bool operator==(const ResourceSpec&, const ResourceSpec&) = default;
};

// upstream defaultResourceSpec: cpu and memory, weight 1 each.
std::vector<ResourceSpec> DefaultResourceSpecs();

// A point of the RequestedToCapacityRatio function: utilization 0..100 -> score 0..10.
struct UtilizationShapePoint {
  std::int32_t utilization = 0;
  std::int32_t score = 0;

  friend bool operator==(const UtilizationShapePoint&, const UtilizationShapePoint&) = default;
};

struct RequestedToCapacityRatioParam {
  std::vector<UtilizationShapePoint> shape;

  friend bool operator==(const RequestedToCapacityRatioParam&,
                         const RequestedToCapacityRatioParam&) = default;
};

struct ScoringStrategy {
  // One of kLeastAllocated, kMostAllocated, kRequestedToCapacityRatio (anything else fails
  // validation).
  std::string type{kLeastAllocated};
  std::vector<ResourceSpec> resources = DefaultResourceSpecs();
  // Only read with type RequestedToCapacityRatio, which requires it.
  std::optional<RequestedToCapacityRatioParam> requested_to_capacity_ratio;

  friend bool operator==(const ScoringStrategy&, const ScoringStrategy&) = default;
};

struct NodeResourcesFitArgs : framework::PluginArgs {
  // Resource names whose requests the Filter ignores (extended resources only, as upstream).
  std::vector<std::string> ignored_resources;
  // Extended-resource groups (the part before '/') whose requests the Filter ignores.
  std::vector<std::string> ignored_resource_groups;
  ScoringStrategy scoring_strategy;
};

struct NodeResourcesBalancedAllocationArgs : framework::PluginArgs {
  std::vector<ResourceSpec> resources = DefaultResourceSpecs();
};

// upstream SetDefaults_NodeResourcesFitArgs (for a present scoringStrategy): no resources means
// cpu and memory; a weight of 0 means 1.
void SetDefaults(NodeResourcesFitArgs& args);
// upstream SetDefaults_NodeResourcesBalancedAllocationArgs: no resources means cpu and memory;
// otherwise a weight of 0 means 1.
void SetDefaults(NodeResourcesBalancedAllocationArgs& args);

// upstream ValidateNodeResourcesFitArgs.
absl::Status Validate(const NodeResourcesFitArgs& args);
// upstream ValidateNodeResourcesBalancedAllocationArgs.
absl::Status Validate(const NodeResourcesBalancedAllocationArgs& args);

}  // namespace ksched::plugins::node_resources
