#include "plugins/default_preemption/args.h"

#include <limits>
#include <string>
#include <vector>

#include "api/json_decode.h"

namespace ksched::plugins::default_preemption {

namespace {

constexpr std::string_view kErrorPrefix = "DefaultPreemption args: ";

// Leaves `out` as it is when the key is absent or null; a wrong value adds an error.
void ReadInt32(const rapidjson::Value& object, const char* key, std::int32_t& out,
               std::vector<std::string>& errors) {
  auto it = object.FindMember(key);
  if (it == object.MemberEnd() || it->value.IsNull()) return;
  if (!it->value.IsInt64() || it->value.GetInt64() < std::numeric_limits<std::int32_t>::min() ||
      it->value.GetInt64() > std::numeric_limits<std::int32_t>::max()) {
    errors.push_back(std::string(key) + ": Invalid value: must be a 32-bit integer");
    return;
  }
  out = static_cast<std::int32_t>(it->value.GetInt64());
}

std::string Invalid(std::string_view field, std::int32_t value, std::string_view detail) {
  return std::string(field) + ": Invalid value: " + std::to_string(value) + ": " + std::string(detail);
}

}  // namespace

absl::StatusOr<DefaultPreemptionArgs> ParseDefaultPreemptionArgs(std::string_view json) {
  DefaultPreemptionArgs args;
  if (json.find_first_not_of(" \t\r\n") == std::string_view::npos) return args;
  rapidjson::Document document;
  if (absl::Status parsed = api::ParseJson(json, document); !parsed.ok()) {
    return absl::InvalidArgumentError(std::string(kErrorPrefix) + std::string(parsed.message()));
  }
  if (document.IsNull()) return args;
  if (!document.IsObject()) {
    return absl::InvalidArgumentError(std::string(kErrorPrefix) + "must be a JSON object");
  }
  std::vector<std::string> errors;
  ReadInt32(document, "minCandidateNodesPercentage", args.min_candidate_nodes_percentage, errors);
  ReadInt32(document, "minCandidateNodesAbsolute", args.min_candidate_nodes_absolute, errors);
  if (errors.empty()) {
    // upstream ValidateDefaultPreemptionArgs.
    const std::int32_t percentage = args.min_candidate_nodes_percentage;
    const std::int32_t absolute = args.min_candidate_nodes_absolute;
    if (percentage < 0 || percentage > 100) {
      errors.push_back(Invalid("minCandidateNodesPercentage", percentage, "not in valid range [0, 100]"));
    }
    if (absolute < 0) {
      errors.push_back(Invalid("minCandidateNodesAbsolute", absolute, "not in valid range [0, inf)"));
    }
    if (percentage == 0 && absolute == 0) {
      errors.push_back(Invalid("minCandidateNodesPercentage", percentage,
                               "cannot be zero at the same time as minCandidateNodesAbsolute"));
      errors.push_back(Invalid("minCandidateNodesAbsolute", absolute,
                               "cannot be zero at the same time as minCandidateNodesPercentage"));
    }
  }
  if (errors.empty()) return args;
  std::string message(kErrorPrefix);
  if (errors.size() > 1) message += "[";
  for (std::size_t i = 0; i < errors.size(); ++i) {
    if (i > 0) message += ", ";
    message += errors[i];
  }
  if (errors.size() > 1) message += "]";
  return absl::InvalidArgumentError(message);
}

}  // namespace ksched::plugins::default_preemption
