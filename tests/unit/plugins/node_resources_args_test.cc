// NodeResourcesFitArgs / NodeResourcesBalancedAllocationArgs: defaults (upstream v1 defaults.go)
// and validation with upstream's messages (validation_pluginargs_test.go: TestValidateFitArgs,
// TestValidate{Least,Most}AllocatedScoringStrategy,
// TestValidateRequestedToCapacityRatioScoringStrategy,
// TestValidateNodeResourcesBalancedAllocationArgs).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "plugins/node_resources/args.h"

namespace {

using ksched::plugins::node_resources::kLeastAllocated;
using ksched::plugins::node_resources::kMostAllocated;
using ksched::plugins::node_resources::kRequestedToCapacityRatio;
using ksched::plugins::node_resources::NodeResourcesBalancedAllocationArgs;
using ksched::plugins::node_resources::NodeResourcesFitArgs;
using ksched::plugins::node_resources::RequestedToCapacityRatioParam;
using ksched::plugins::node_resources::ResourceSpec;
using ksched::plugins::node_resources::SetDefaults;
using ksched::plugins::node_resources::UtilizationShapePoint;
using ksched::plugins::node_resources::Validate;

std::string Message(const absl::Status& status) { return std::string(status.message()); }

TEST_CASE("node resources args default to upstream's values", "[plugins][node_resources][args]") {
  const NodeResourcesFitArgs fit;
  CHECK(fit.scoring_strategy.type == kLeastAllocated);
  CHECK(fit.scoring_strategy.resources == std::vector<ResourceSpec>{{"cpu", 1}, {"memory", 1}});
  CHECK_FALSE(fit.scoring_strategy.requested_to_capacity_ratio.has_value());
  CHECK(fit.ignored_resources.empty());
  CHECK(fit.ignored_resource_groups.empty());
  CHECK(Validate(fit).ok());

  const NodeResourcesBalancedAllocationArgs balanced;
  CHECK(balanced.resources == std::vector<ResourceSpec>{{"cpu", 1}, {"memory", 1}});
  CHECK(Validate(balanced).ok());

  SECTION("SetDefaults fills empty resources and zero weights") {
    NodeResourcesFitArgs args;
    args.scoring_strategy.type = std::string(kMostAllocated);
    args.scoring_strategy.resources.clear();
    SetDefaults(args);
    CHECK(args.scoring_strategy.resources == std::vector<ResourceSpec>{{"cpu", 1}, {"memory", 1}});
    args.scoring_strategy.resources = {{"cpu", 0}, {"nvidia.com/gpu", 5}};
    SetDefaults(args);
    CHECK(args.scoring_strategy.resources ==
          std::vector<ResourceSpec>{{"cpu", 1}, {"nvidia.com/gpu", 5}});

    NodeResourcesBalancedAllocationArgs ba;
    ba.resources.clear();
    SetDefaults(ba);
    CHECK(ba.resources == std::vector<ResourceSpec>{{"cpu", 1}, {"memory", 1}});
    ba.resources = {{"cpu", 0}, {"memory", 3}};
    SetDefaults(ba);
    CHECK(ba.resources == std::vector<ResourceSpec>{{"cpu", 1}, {"memory", 3}});
  }
}

TEST_CASE("Validate(NodeResourcesFitArgs): ignored resources and groups (TestValidateFitArgs)",
          "[plugins][node_resources][args]") {
  struct Case {
    std::string name;
    std::vector<std::string> ignored_resources;
    std::vector<std::string> ignored_groups;
    std::string expect;  // "" = valid; otherwise a substring of the message, as upstream checks
  };
  const std::string long_value = "longvalue" + std::string(64, 'a');
  const std::vector<Case> cases = {
      {"IgnoredResources: too long value", {long_value}, {},
       "ignoredResources[0]: Invalid value: \"" + long_value +
           "\": name part must be no more than 63 characters"},
      {"IgnoredResources: name is empty", {"example.com/"}, {},
       "ignoredResources[0]: Invalid value: \"example.com/\": name part must be non-empty"},
      {"IgnoredResources: name has too many slash", {"example.com/aaa/bbb"}, {},
       "a qualified name must consist of alphanumeric characters"},
      {"IgnoredResources: valid args", {"example.com"}, {}, ""},
      {"IgnoredResourceGroups: valid args", {}, {"example.com"}, ""},
      {"IgnoredResourceGroups: illegal args", {}, {"example.com/"},
       "[ignoredResourceGroups[0]: Invalid value: \"example.com/\": resource group name can't "
       "contain '/', ignoredResourceGroups[0]: Invalid value: \"example.com/\": name part must be "
       "non-empty, "},
      {"IgnoredResourceGroups: name is too long", {}, {std::string(64, 'a')},
       "name part must be no more than 63 characters"},
      {"IgnoredResourceGroups: name cannot be contain slash", {}, {"example.com/aa"},
       "ignoredResourceGroups[0]: Invalid value: \"example.com/aa\": resource group name can't "
       "contain '/'"},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    NodeResourcesFitArgs args;
    args.ignored_resources = c.ignored_resources;
    args.ignored_resource_groups = c.ignored_groups;
    const absl::Status status = Validate(args);
    if (c.expect.empty()) {
      CHECK(status.ok());
    } else {
      CHECK(status.code() == absl::StatusCode::kInvalidArgument);
      CHECK_THAT(Message(status), Catch::Contains(c.expect));
    }
  }

  SECTION("requestedToCapacityRatio exactly with its type (v1.37, #132120)") {
    NodeResourcesFitArgs args;
    args.scoring_strategy.type = std::string(kRequestedToCapacityRatio);
    CHECK(Message(Validate(args)) ==
          "scoringStrategy.requestedToCapacityRatio: Required value: must be specified when type "
          "is RequestedToCapacityRatio");
    args.scoring_strategy.type = std::string(kLeastAllocated);
    args.scoring_strategy.requested_to_capacity_ratio = RequestedToCapacityRatioParam{{{0, 0}}};
    CHECK(Message(Validate(args)) ==
          "scoringStrategy.requestedToCapacityRatio: Forbidden: must be nil when type is not "
          "RequestedToCapacityRatio");
  }

  SECTION("an unsupported strategy type lists the supported ones") {
    NodeResourcesFitArgs args;
    args.scoring_strategy.type = "Invalid";
    CHECK(Message(Validate(args)) ==
          "scoringStrategy.type: Unsupported value: \"Invalid\": supported values: "
          "\"LeastAllocated\", \"MostAllocated\", \"RequestedToCapacityRatio\"");
    args.scoring_strategy.type.clear();
    CHECK_THAT(Message(Validate(args)),
               Catch::StartsWith("scoringStrategy.type: Unsupported value: \"\": "));
  }
}

TEST_CASE("Validate(NodeResourcesFitArgs): resource weights "
          "(TestValidate{Least,Most}AllocatedScoringStrategy)",
          "[plugins][node_resources][args]") {
  struct Case {
    std::string name;
    std::vector<ResourceSpec> resources;
    std::string want;  // "" = valid
  };
  const std::vector<Case> cases = {
      {"default config", {}, ""},
      {"multi valid resources", {{"cpu", 1}, {"memory", 10}}, ""},
      {"weight less than min", {{"cpu", 0}},
       "scoringStrategy.resources[0].weight: Invalid value: 0: resource weight of cpu not in valid "
       "range (0, 100]"},
      {"weight greater than max", {{"cpu", 101}},
       "scoringStrategy.resources[0].weight: Invalid value: 101: resource weight of cpu not in "
       "valid range (0, 100]"},
      {"multi invalid resources", {{"cpu", 0}, {"memory", 101}},
       "[scoringStrategy.resources[0].weight: Invalid value: 0: resource weight of cpu not in valid "
       "range (0, 100], scoringStrategy.resources[1].weight: Invalid value: 101: resource weight of "
       "memory not in valid range (0, 100]]"},
  };
  for (std::string_view type : {kLeastAllocated, kMostAllocated}) {
    for (const Case& c : cases) {
      INFO(std::string(type) << ": " << c.name);
      NodeResourcesFitArgs args;
      args.scoring_strategy.type = std::string(type);
      args.scoring_strategy.resources = c.resources;
      CHECK(Message(Validate(args)) == c.want);
    }
  }
}

TEST_CASE("Validate(NodeResourcesFitArgs): shapes (TestValidateRequestedToCapacityRatioScoringStrategy)",
          "[plugins][node_resources][args]") {
  const std::vector<UtilizationShapePoint> default_shape = {{30, 3}};
  struct Case {
    std::string name;
    std::vector<ResourceSpec> resources;
    std::vector<UtilizationShapePoint> shape;
    std::string want;  // "" = valid
  };
  const std::vector<Case> cases = {
      {"no shapes", {}, {},
       "scoringStrategy.requestedToCapacityRatio.shape: Required value: at least one point must be specified"},
      {"weight greater than max", {{"cpu", 101}}, default_shape,
       "scoringStrategy.resources[0].weight: Invalid value: 101: resource weight of cpu not in "
       "valid range (0, 100]"},
      {"weight less than min", {{"cpu", 0}}, default_shape,
       "scoringStrategy.resources[0].weight: Invalid value: 0: resource weight of cpu not in valid "
       "range (0, 100]"},
      {"valid shapes", {}, default_shape, ""},
      {"utilization less than min", {}, {{-1, 3}},
       "scoringStrategy.requestedToCapacityRatio.shape[0].utilization: Invalid value: -1: not in valid range [0, 100]"},
      {"utilization greater than max", {}, {{101, 3}},
       "scoringStrategy.requestedToCapacityRatio.shape[0].utilization: Invalid value: 101: not in valid range [0, 100]"},
      {"duplicated utilization values", {}, {{10, 3}, {10, 3}},
       "scoringStrategy.requestedToCapacityRatio.shape[1].utilization: Invalid value: 10: values must be sorted in "
       "increasing order"},
      {"increasing utilization values", {}, {{10, 3}, {20, 3}, {30, 3}}, ""},
      {"non-increasing utilization values", {}, {{10, 3}, {20, 3}, {15, 3}},
       "scoringStrategy.requestedToCapacityRatio.shape[2].utilization: Invalid value: 15: values must be sorted in "
       "increasing order"},
      {"score less than min", {}, {{10, -1}},
       "scoringStrategy.requestedToCapacityRatio.shape[0].score: Invalid value: -1: not in valid range [0, 10]"},
      {"score greater than max", {}, {{10, 11}},
       "scoringStrategy.requestedToCapacityRatio.shape[0].score: Invalid value: 11: not in valid range [0, 10]"},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    NodeResourcesFitArgs args;
    args.scoring_strategy.type = std::string(kRequestedToCapacityRatio);
    args.scoring_strategy.resources = c.resources;
    args.scoring_strategy.requested_to_capacity_ratio = RequestedToCapacityRatioParam{c.shape};
    CHECK(Message(Validate(args)) == c.want);
  }
}

TEST_CASE("Validate(NodeResourcesBalancedAllocationArgs) "
          "(TestValidateNodeResourcesBalancedAllocationArgs)",
          "[plugins][node_resources][args]") {
  NodeResourcesBalancedAllocationArgs args;
  args.resources = {{"cpu", 1}, {"memory", 1}};
  CHECK(Validate(args).ok());
  args.resources = {{"cpu", 2}, {"memory", 1}};
  CHECK(Message(Validate(args)) == "resources[0].weight: Invalid value: 2: must be 1");
  args.resources = {{"cpu", 1}, {"cpu", 1}};
  CHECK(Message(Validate(args)) == "resources[1].name: Duplicate value: \"cpu\"");
}

}  // namespace
