// Field selectors as k8s.io/apimachinery/pkg/fields defines them: an AND of `field=value`
// (or `==`) and `field!=value` terms, e.g. `spec.nodeName=`, `metadata.name!=foo`,
// `status.phase!=Succeeded,status.phase!=Failed`. Used to build the fieldSelector query of a
// list/watch and to match objects on the client side.
//
// String form (fields.ParseSelector): terms separated by ","; in a value, "\" escapes "\", "," and
// "=", and an unescaped "," or "=" is an error; the field name is not escaped and ends at the first
// "!=", "==" or "=". Terms are sorted (by their text), empty terms are skipped, and a term with an
// empty field and an empty value ("=", "!=") is dropped. ToString() writes the canonical form back.
//
// Matching reads fields through a caller-supplied getter; a field the object does not have reads
// as "" (upstream's fields.Set.Get), so `spec.nodeName=` matches an unscheduled pod.
//
// Thread-safety: a FieldSelector is immutable after construction; share it freely across threads.
#pragma once

#include <concepts>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "api/labels.h"

namespace ksched::api {

enum class FieldOperator { kEquals, kNotEquals };  // "=" and "==" both parse to kEquals

struct FieldRequirement {
  std::string field;
  FieldOperator op = FieldOperator::kEquals;
  std::string value;

  // hasTerm / notHasTerm: compares the object's value of `field` with `value`.
  bool Matches(std::string_view field_value) const noexcept {
    return (field_value == value) == (op == FieldOperator::kEquals);
  }
  friend bool operator==(const FieldRequirement&, const FieldRequirement&) = default;
};

// A callable returning the value of a field: std::string_view(std::string_view field), returning
// an empty view for a field the object does not have. It may also return `const std::string&`;
// returning std::string by value is refused (the view would dangle).
template <typename G>
concept FieldGetter =
    std::invocable<const G&, std::string_view> &&
    (std::same_as<std::invoke_result_t<const G&, std::string_view>, std::string_view> ||
     std::same_as<std::invoke_result_t<const G&, std::string_view>, const std::string&>);

class FieldSelector {
 public:
  // Matches everything.
  FieldSelector() = default;

  static FieldSelector Everything() { return {}; }
  static FieldSelector Nothing();

  // fields.ParseSelector. Errors (InvalidArgument), with upstream's text:
  //   invalid selector: '<selector>'; can't understand '<term>'   (a term with no operator)
  //   invalid field selector: invalid escape sequence: \<c>
  //   invalid field selector: unescaped character in value: <code point in decimal>
  static absl::StatusOr<FieldSelector> Parse(std::string_view selector);

  static FieldSelector OneTermEqual(std::string field, std::string value);
  static FieldSelector OneTermNotEqual(std::string field, std::string value);
  // The AND of `requirements`, kept in the given order (fields.AndSelectors of one-term selectors).
  static FieldSelector FromRequirements(std::vector<FieldRequirement> requirements);

  // True when every requirement holds for the fields `get` returns. Never allocates.
  template <typename Getter>
    requires FieldGetter<Getter>
  bool Matches(const Getter& get) const {
    if (nothing_) return false;
    for (const FieldRequirement& requirement : requirements_) {
      if (!requirement.Matches(std::string_view(get(std::string_view(requirement.field))))) {
        return false;
      }
    }
    return true;
  }
  // Matches against a set of fields (upstream's fields.Set); an absent field reads as "".
  bool Matches(const Labels& fields) const noexcept;

  // True when the selector does not restrict anything (no requirements; false for Nothing()).
  bool Empty() const noexcept { return !nothing_ && requirements_.empty(); }
  bool MatchesNothing() const noexcept { return nothing_; }

  // The value `field` must equal (the first `field=value` term), if any; RequiresExactMatch.
  std::optional<std::string_view> RequiresExactMatch(std::string_view field) const noexcept;

  // Selector.String(): "f1=v1,f2!=v2" with values escaped; "" for Everything() and Nothing().
  // This is the fieldSelector query value (URL-escape it when building a URL).
  std::string ToString() const;

  std::span<const FieldRequirement> requirements() const noexcept { return requirements_; }

 private:
  std::vector<FieldRequirement> requirements_;
  bool nothing_ = false;
};

// fields.EscapeValue: prefixes "\", "," and "=" with "\".
std::string EscapeFieldSelectorValue(std::string_view value);
// fields.UnescapeValue: the inverse; errors as described at FieldSelector::Parse.
absl::StatusOr<std::string> UnescapeFieldSelectorValue(std::string_view value);

}  // namespace ksched::api
