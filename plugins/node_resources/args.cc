#include "plugins/node_resources/args.h"

#include <array>
#include <set>
#include <string>

#include "api/field_errors.h"
#include "api/label_selector.h"
#include "api/resource_list.h"

namespace ksched::plugins::node_resources {

namespace {

// Sorted, as upstream's sets.List(supportedScoringStrategyTypes).
constexpr std::array<std::string_view, 3> kSupportedStrategies = {
    kLeastAllocated, kMostAllocated, kRequestedToCapacityRatio};

// upstream metav1validation.ValidateLabelName.
void ValidateLabelName(std::string_view name, const api::FieldPath& path,
                       api::FieldErrorList& errors) {
  for (const std::string& message : api::IsQualifiedName(name)) {
    errors.Add(api::InvalidValueError(path, api::GoQuote(name), message));
  }
}

// upstream validateResources.
void ValidateResources(const std::vector<ResourceSpec>& resources, const api::FieldPath& path,
                       api::FieldErrorList& errors) {
  for (std::size_t i = 0; i < resources.size(); ++i) {
    const ResourceSpec& resource = resources[i];
    if (resource.weight <= 0 || resource.weight > 100) {
      errors.Add(api::InvalidValueError(
          path.Index(i).Child("weight"), std::to_string(resource.weight),
          "resource weight of " + resource.name + " not in valid range (0, 100]"));
    }
  }
}

// upstream validateFunctionShape.
void ValidateFunctionShape(const std::vector<UtilizationShapePoint>& shape,
                           const api::FieldPath& path, api::FieldErrorList& errors) {
  constexpr std::int32_t kMinUtilization = 0;
  constexpr std::int32_t kMaxUtilization = 100;
  constexpr std::int32_t kMinScore = 0;
  constexpr std::int32_t kMaxScore = kMaxCustomPriorityScore;

  if (shape.empty()) {
    errors.Add(path.String() + ": Required value: at least one point must be specified");
    return;
  }
  for (std::size_t i = 1; i < shape.size(); ++i) {
    if (shape[i - 1].utilization >= shape[i].utilization) {
      errors.Add(api::InvalidValueError(path.Index(i).Child("utilization"),
                                        std::to_string(shape[i].utilization),
                                        "values must be sorted in increasing order"));
      break;
    }
  }
  for (std::size_t i = 0; i < shape.size(); ++i) {
    const UtilizationShapePoint& point = shape[i];
    if (point.utilization < kMinUtilization || point.utilization > kMaxUtilization) {
      errors.Add(api::InvalidValueError(path.Index(i).Child("utilization"),
                                        std::to_string(point.utilization),
                                        "not in valid range [0, 100]"));
    }
    if (point.score < kMinScore || point.score > kMaxScore) {
      errors.Add(api::InvalidValueError(path.Index(i).Child("score"), std::to_string(point.score),
                                        "not in valid range [0, 10]"));
    }
  }
}

}  // namespace

std::vector<ResourceSpec> DefaultResourceSpecs() {
  return {{std::string(api::kResourceCPU), 1}, {std::string(api::kResourceMemory), 1}};
}

void SetDefaults(NodeResourcesFitArgs& args) {
  std::vector<ResourceSpec>& resources = args.scoring_strategy.resources;
  if (resources.empty()) resources = DefaultResourceSpecs();
  for (ResourceSpec& resource : resources) {
    if (resource.weight == 0) resource.weight = 1;
  }
}

void SetDefaults(NodeResourcesBalancedAllocationArgs& args) {
  if (args.resources.empty()) {
    args.resources = DefaultResourceSpecs();
    return;
  }
  for (ResourceSpec& resource : args.resources) {
    if (resource.weight == 0) resource.weight = 1;
  }
}

absl::Status Validate(const NodeResourcesFitArgs& args) {
  api::FieldErrorList errors;
  const api::FieldPath root;

  const api::FieldPath resources_path = root.Child("ignoredResources");
  for (std::size_t i = 0; i < args.ignored_resources.size(); ++i) {
    ValidateLabelName(args.ignored_resources[i], resources_path.Index(i), errors);
  }

  const api::FieldPath groups_path = root.Child("ignoredResourceGroups");
  for (std::size_t i = 0; i < args.ignored_resource_groups.size(); ++i) {
    const std::string& group = args.ignored_resource_groups[i];
    const api::FieldPath path = groups_path.Index(i);
    if (group.find('/') != std::string::npos) {
      errors.Add(api::InvalidValueError(path, api::GoQuote(group),
                                        "resource group name can't contain '/'"));
    }
    ValidateLabelName(group, path, errors);
  }

  const ScoringStrategy& strategy = args.scoring_strategy;
  const api::FieldPath strategy_path = root.Child("scoringStrategy");
  bool supported = false;
  for (std::string_view type : kSupportedStrategies) supported = supported || strategy.type == type;
  if (!supported) {
    // The type is a named string type upstream, so its bad value is rendered by encoding/json.
    errors.Add(api::UnsupportedValueError(strategy_path.Child("type"), api::JsonQuote(strategy.type),
                                          kSupportedStrategies));
  }
  ValidateResources(strategy.resources, strategy_path.Child("resources"), errors);
  // v1.37 (#132120): the ratio's parameters exactly with its type.
  const api::FieldPath ratio_path = strategy_path.Child("requestedToCapacityRatio");
  if (strategy.type == kRequestedToCapacityRatio) {
    if (!strategy.requested_to_capacity_ratio.has_value()) {
      errors.Add(ratio_path.String() +
                 ": Required value: must be specified when type is RequestedToCapacityRatio");
    } else {
      ValidateFunctionShape(strategy.requested_to_capacity_ratio->shape, ratio_path.Child("shape"),
                            errors);
    }
  } else if (strategy.requested_to_capacity_ratio.has_value()) {
    errors.Add(ratio_path.String() +
               ": Forbidden: must be nil when type is not RequestedToCapacityRatio");
  }
  return errors.ToStatus();
}

absl::Status Validate(const NodeResourcesBalancedAllocationArgs& args) {
  api::FieldErrorList errors;
  const api::FieldPath resources_path = api::FieldPath().Child("resources");
  std::set<std::string, std::less<>> seen;
  for (std::size_t i = 0; i < args.resources.size(); ++i) {
    const ResourceSpec& resource = args.resources[i];
    if (!seen.insert(resource.name).second) {
      errors.Add(resources_path.Index(i).Child("name").String() +
                 ": Duplicate value: " + api::GoQuote(resource.name));
    }
    if (resource.weight != 1) {
      errors.Add(api::InvalidValueError(resources_path.Index(i).Child("weight"),
                                        std::to_string(resource.weight), "must be 1"));
    }
  }
  return errors.ToStatus();
}

}  // namespace ksched::plugins::node_resources
