#include "plugins/pod_topology_spread/args.h"

#include <array>
#include <cstddef>
#include <string>

#include "api/label_selector.h"

namespace ksched::plugins::pod_topology_spread {
namespace {

// upstream validateDefaultingType. The value is a named string type upstream, so it renders
// through encoding/json.
void ValidateDefaultingType(const api::FieldPath& path, const PodTopologySpreadArgs& args,
                            api::FieldErrorList& errors) {
  if (args.defaulting_type != kSystemDefaulting && args.defaulting_type != kListDefaulting) {
    constexpr std::array<std::string_view, 2> kSupported = {kSystemDefaulting, kListDefaulting};
    errors.Add(api::UnsupportedValueError(path, api::JsonQuote(args.defaulting_type), kSupported));
    return;
  }
  if (args.defaulting_type == kSystemDefaulting && !args.default_constraints.empty()) {
    errors.Add(api::InvalidValueError(path, api::JsonQuote(args.defaulting_type),
                                      "when .defaultConstraints are not empty"));
  }
}

// upstream validateTopologyKey (metav1validation.ValidateLabelName for a non-empty key).
void ValidateTopologyKey(const api::FieldPath& path, std::string_view key,
                         api::FieldErrorList& errors) {
  if (key.empty()) {
    errors.Add(path.String() + ": Required value: can not be empty");
    return;
  }
  for (const std::string& message : api::IsQualifiedName(key)) {
    errors.Add(api::InvalidValueError(path, api::GoQuote(key), message));
  }
}

// upstream validateWhenUnsatisfiable (a named string type: JSON-rendered; supported values
// sorted).
void ValidateWhenUnsatisfiable(const api::FieldPath& path, std::string_view action,
                               api::FieldErrorList& errors) {
  if (action.empty()) {
    errors.Add(path.String() + ": Required value: can not be empty");
    return;
  }
  if (action != api::kDoNotSchedule && action != api::kScheduleAnyway) {
    constexpr std::array<std::string_view, 2> kSupported = {api::kDoNotSchedule,
                                                            api::kScheduleAnyway};
    errors.Add(api::UnsupportedValueError(path, api::JsonQuote(action), kSupported));
  }
}

// upstream validateConstraintNotRepeat: the first earlier constraint with the same topology key
// and action makes constraint `index` a duplicate.
void ValidateConstraintNotRepeat(const api::FieldPath& path,
                                 const std::vector<api::TopologySpreadConstraint>& constraints,
                                 std::size_t index, api::FieldErrorList& errors) {
  const api::TopologySpreadConstraint& c = constraints[index];
  for (std::size_t i = 0; i < index; ++i) {
    const api::TopologySpreadConstraint& other = constraints[i];
    if (c.topology_key == other.topology_key && c.when_unsatisfiable == other.when_unsatisfiable) {
      errors.Add(path.Index(index).String() + ": Duplicate value: " +
                 api::GoQuote("{" + c.topology_key + ", " + c.when_unsatisfiable + "}"));
      return;
    }
  }
}

}  // namespace

void SetDefaults(PodTopologySpreadArgs& args) {
  if (args.defaulting_type.empty()) args.defaulting_type = std::string(kSystemDefaulting);
}

absl::Status ValidatePodTopologySpreadArgs(const api::FieldPath& path,
                                           const PodTopologySpreadArgs& args) {
  api::FieldErrorList errors;
  ValidateDefaultingType(path.Child("defaultingType"), args, errors);

  const api::FieldPath constraints_path = path.Child("defaultConstraints");
  for (std::size_t i = 0; i < args.default_constraints.size(); ++i) {
    const api::TopologySpreadConstraint& c = args.default_constraints[i];
    const api::FieldPath p = constraints_path.Index(i);
    if (c.max_skew <= 0) {
      errors.Add(api::InvalidValueError(p.Child("maxSkew"), std::to_string(c.max_skew),
                                        "not in valid range (0, inf)"));
    }
    ValidateTopologyKey(p.Child("topologyKey"), c.topology_key, errors);
    ValidateWhenUnsatisfiable(p.Child("whenUnsatisfiable"), c.when_unsatisfiable, errors);
    if (c.label_selector.has_value()) {
      errors.Add(p.Child("labelSelector").String() +
                 ": Forbidden: constraint must not define a selector, as they deduced for each "
                 "pod");
    }
    ValidateConstraintNotRepeat(constraints_path, args.default_constraints, i, errors);
  }
  return errors.ToStatus();
}

}  // namespace ksched::plugins::pod_topology_spread
