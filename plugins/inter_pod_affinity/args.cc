#include "plugins/inter_pod_affinity/args.h"

#include <string>

namespace ksched::plugins::inter_pod_affinity {
namespace {

constexpr std::int32_t kMinHardPodAffinityWeight = 0;
constexpr std::int32_t kMaxHardPodAffinityWeight = 100;

}  // namespace

absl::Status ValidateInterPodAffinityArgs(const api::FieldPath& path,
                                          const InterPodAffinityArgs& args) {
  const std::int32_t weight = args.hard_pod_affinity_weight;
  if (weight >= kMinHardPodAffinityWeight && weight <= kMaxHardPodAffinityWeight) {
    return absl::OkStatus();
  }
  api::FieldErrorList errors;
  errors.Add(api::InvalidValueError(
      path.Child("hardPodAffinityWeight"), std::to_string(weight),
      "not in valid range [" + std::to_string(kMinHardPodAffinityWeight) + ", " +
          std::to_string(kMaxHardPodAffinityWeight) + "]"));
  return errors.ToStatus();
}

}  // namespace ksched::plugins::inter_pod_affinity
