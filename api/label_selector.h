// Label selectors as Kubernetes defines them:
//   - LabelSelector / LabelSelectorRequirement: the API object (metav1.LabelSelector), as decoded.
//   - LabelRequirement: one validated (key, operator, values) test, as upstream's labels.Requirement
//     built by labels.NewRequirement.
//   - CompiledLabelSelector: an AND of requirements, as upstream's labels.Selector; built from the
//     API object with the rules of metav1.LabelSelectorAsSelector.
//   - IsQualifiedName / IsValidLabelValue: upstream's label key and value validation.
//
// Compile once, match many times: validation happens when a selector is built, which returns
// absl::StatusOr carrying upstream's error text (InvalidArgument), e.g.
//   values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty
// Matches() never allocates and never fails.
//
// Thread-safety: every type here is a plain value type. A compiled selector is immutable after
// construction, so one instance may be shared by any number of threads calling Matches().
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "api/field_errors.h"
#include "api/labels.h"
#include "api/name_validation.h"  // IsQualifiedName, IsValidLabelValue

namespace ksched::api {

// k8s.io/apimachinery/pkg/selection.Operator.
enum class SelectionOperator {
  kIn,
  kNotIn,
  kEquals,
  kDoubleEquals,
  kNotEquals,
  kExists,
  kDoesNotExist,
  kGreaterThan,
  kLessThan,
};

// Upstream's string for the operator: "in", "notin", "=", "==", "!=", "exists", "!", "gt", "lt".
std::string_view SelectionOperatorName(SelectionOperator op);

// One requirement on a label. Immutable once created.
class LabelRequirement {
 public:
  // labels.NewRequirement: validates the key (IsQualifiedName), the value count for the operator
  // (In/NotIn: at least one; =, ==, !=: exactly one; Exists/DoesNotExist: none; Gt/Lt: exactly one,
  // a base-10 int64) and every value (IsValidLabelValue). Error paths are relative to `path`
  // ("key", "values", "values[0]", "values[0][<key>]").
  static absl::StatusOr<LabelRequirement> Create(std::string key, SelectionOperator op,
                                                 std::vector<std::string> values,
                                                 const FieldPath& path = {});
  // Same, but appends each problem to `errors` (unaggregated) and returns nullopt on any problem.
  static std::optional<LabelRequirement> Create(std::string key, SelectionOperator op,
                                                std::vector<std::string> values,
                                                const FieldPath& path, FieldErrorList& errors);

  // Requirement.Matches:
  //   In, =, ==      the label is present and its value is one of values()
  //   NotIn, !=      the label is absent, or its value is none of values()
  //   Exists         the label is present;  DoesNotExist: it is absent
  //   Gt, Lt         the label is present, parses as a base-10 int64, and is > / < the value;
  //                  a label that is not an integer does not match
  bool Matches(const Labels& labels) const noexcept;

  const std::string& key() const noexcept { return key_; }
  SelectionOperator op() const noexcept { return op_; }
  // The values as given (not sorted, not deduplicated).
  const std::vector<std::string>& values() const noexcept { return values_; }

  // Requirement.String(): "k in (a,b)", "k notin (a)", "k=v", "k==v", "k!=v", "k", "!k", "k>1",
  // "k<1"; In/NotIn values sorted.
  std::string ToString() const;

  friend bool operator==(const LabelRequirement& a, const LabelRequirement& b) {
    return a.key_ == b.key_ && a.op_ == b.op_ && a.values_ == b.values_;
  }

 private:
  friend class CompiledLabelSelector;
  LabelRequirement(std::string key, SelectionOperator op, std::vector<std::string> values);

  std::string key_;
  SelectionOperator op_;
  std::vector<std::string> values_;
  std::int64_t bound_ = 0;  // the parsed value for Gt/Lt
};

// metav1.LabelSelectorOperator values.
inline constexpr std::string_view kLabelSelectorOpIn = "In";
inline constexpr std::string_view kLabelSelectorOpNotIn = "NotIn";
inline constexpr std::string_view kLabelSelectorOpExists = "Exists";
inline constexpr std::string_view kLabelSelectorOpDoesNotExist = "DoesNotExist";

// metav1.LabelSelectorRequirement. `op` is kept as decoded so that an unknown operator can be
// reported the way upstream reports it.
struct LabelSelectorRequirement {
  std::string key;
  std::string op;
  std::vector<std::string> values;

  friend bool operator==(const LabelSelectorRequirement&,
                         const LabelSelectorRequirement&) = default;
};

// metav1.LabelSelector: matchLabels and matchExpressions, ANDed.
struct LabelSelector {
  Labels match_labels;
  std::vector<LabelSelectorRequirement> match_expressions;

  friend bool operator==(const LabelSelector&, const LabelSelector&) = default;
};

// An AND of label requirements (upstream's labels.Selector), or the selector that matches nothing.
// The default-constructed selector matches everything.
class CompiledLabelSelector {
 public:
  CompiledLabelSelector() = default;

  static CompiledLabelSelector Everything() { return {}; }
  static CompiledLabelSelector Nothing();

  // metav1.LabelSelectorAsSelector: a null selector matches nothing; one with no matchLabels and
  // no matchExpressions matches everything; otherwise matchLabels become `key=value`
  // requirements and matchExpressions In/NotIn/Exists/DoesNotExist requirements, all ANDed. An
  // unknown operator fails with `"<op>" is not a valid label selector operator`; an invalid
  // requirement fails with LabelRequirement::Create's error (paths "key", "values", ...). Only the
  // first invalid requirement is reported, matchLabels (in key order) before matchExpressions.
  static absl::StatusOr<CompiledLabelSelector> Compile(const LabelSelector* selector);
  static absl::StatusOr<CompiledLabelSelector> Compile(const LabelSelector& selector) {
    return Compile(&selector);
  }

  // labels.SelectorFromSet: `key=value` for every entry, without validation (an empty set matches
  // everything). This is how a pod's spec.nodeSelector is matched.
  static CompiledLabelSelector FromSet(const Labels& set);
  // labels.ValidatedSelectorFromSet: the same, validating each key and value.
  static absl::StatusOr<CompiledLabelSelector> ValidatedFromSet(const Labels& set);
  // The AND of `requirements` (sorted by key, as upstream's Selector.Add does).
  static CompiledLabelSelector FromRequirements(std::vector<LabelRequirement> requirements);

  bool Matches(const Labels& labels) const noexcept;

  // True when the selector does not restrict anything (it matches everything).
  bool Empty() const noexcept { return !nothing_ && requirements_.empty(); }
  // labels.MatchesNothing: true only for Nothing() (conflicting requirements are not detected).
  bool MatchesNothing() const noexcept { return nothing_; }

  // Selector.String(): the requirements' strings in key order joined by ","; "" for Everything()
  // and Nothing(). The form a labelSelector URL query parameter takes (before URL-escaping).
  std::string ToString() const;

  std::span<const LabelRequirement> requirements() const noexcept { return requirements_; }

 private:
  std::vector<LabelRequirement> requirements_;  // sorted by key (stable)
  bool nothing_ = false;
};

}  // namespace ksched::api
