#include "api/node_selector.h"

#include <algorithm>
#include <utility>

namespace ksched::api {

namespace {

constexpr std::string_view kValidSelectorOperators[] = {
    kNodeSelectorOpIn,     kNodeSelectorOpNotIn, kNodeSelectorOpExists,
    kNodeSelectorOpDoesNotExist, kNodeSelectorOpGt,    kNodeSelectorOpLt,
};
constexpr std::string_view kValidFieldSelectorOperators[] = {kNodeSelectorOpIn,
                                                             kNodeSelectorOpNotIn};

std::optional<SelectionOperator> LabelOperator(std::string_view op) {
  if (op == kNodeSelectorOpIn) return SelectionOperator::kIn;
  if (op == kNodeSelectorOpNotIn) return SelectionOperator::kNotIn;
  if (op == kNodeSelectorOpExists) return SelectionOperator::kExists;
  if (op == kNodeSelectorOpDoesNotExist) return SelectionOperator::kDoesNotExist;
  if (op == kNodeSelectorOpGt) return SelectionOperator::kGreaterThan;
  if (op == kNodeSelectorOpLt) return SelectionOperator::kLessThan;
  return std::nullopt;
}

bool IsEmptyTerm(const NodeSelectorTerm& term) {
  return term.match_expressions.empty() && term.match_fields.empty();
}

// NewNodeSelector / NewLazyErrorNodeSelector: the valid non-empty terms, and all errors.
std::vector<CompiledNodeSelectorTerm> CompileTerms(const NodeSelector& selector,
                                                   const FieldPath& path, FieldErrorList& errors) {
  std::vector<CompiledNodeSelectorTerm> terms;
  terms.reserve(selector.node_selector_terms.size());
  const FieldPath terms_path = path.Child("nodeSelectorTerms");
  for (std::size_t i = 0; i < selector.node_selector_terms.size(); ++i) {
    const NodeSelectorTerm& term = selector.node_selector_terms[i];
    if (IsEmptyTerm(term)) continue;  // selects nothing; not validated
    std::optional<CompiledNodeSelectorTerm> compiled =
        CompiledNodeSelectorTerm::Compile(term, terms_path.Index(i), errors);
    if (compiled) terms.push_back(*std::move(compiled));
  }
  return terms;
}

}  // namespace

std::optional<CompiledNodeSelectorTerm> CompiledNodeSelectorTerm::Compile(
    const NodeSelectorTerm& term, const FieldPath& path, FieldErrorList& errors) {
  const std::size_t errors_before = errors.size();
  CompiledNodeSelectorTerm compiled;

  if (!term.match_expressions.empty()) {
    const FieldPath expressions_path = path.Child("matchExpressions");
    compiled.label_requirements_.reserve(term.match_expressions.size());
    for (std::size_t i = 0; i < term.match_expressions.size(); ++i) {
      const NodeSelectorRequirement& expression = term.match_expressions[i];
      const FieldPath expression_path = expressions_path.Index(i);
      const std::optional<SelectionOperator> op = LabelOperator(expression.op);
      if (!op) {
        errors.Add(UnsupportedValueError(expression_path.Child("operator"),
                                         JsonQuote(expression.op), kValidSelectorOperators));
        continue;
      }
      std::optional<LabelRequirement> requirement = LabelRequirement::Create(
          expression.key, *op, expression.values, expression_path, errors);
      if (requirement) compiled.label_requirements_.push_back(*std::move(requirement));
    }
    std::stable_sort(compiled.label_requirements_.begin(), compiled.label_requirements_.end(),
                     [](const LabelRequirement& a, const LabelRequirement& b) {
                       return a.key() < b.key();
                     });
  }

  if (!term.match_fields.empty()) {
    const FieldPath fields_path = path.Child("matchFields");
    compiled.field_requirements_.reserve(term.match_fields.size());
    for (std::size_t i = 0; i < term.match_fields.size(); ++i) {
      const NodeSelectorRequirement& expression = term.match_fields[i];
      const FieldPath expression_path = fields_path.Index(i);
      FieldOperator op;
      if (expression.op == kNodeSelectorOpIn) {
        op = FieldOperator::kEquals;
      } else if (expression.op == kNodeSelectorOpNotIn) {
        op = FieldOperator::kNotEquals;
      } else {
        errors.Add(UnsupportedValueError(expression_path.Child("operator"),
                                         JsonQuote(expression.op), kValidFieldSelectorOperators));
        continue;
      }
      if (expression.values.size() != 1) {
        errors.Add(InvalidValueError(expression_path.Child("values"),
                                     JsonStringList(expression.values), "must have one element"));
        continue;
      }
      compiled.field_requirements_.push_back(
          FieldRequirement{expression.key, op, expression.values.front()});
    }
  }

  if (errors.size() != errors_before) return std::nullopt;
  return compiled;
}

bool CompiledNodeSelectorTerm::Matches(const Labels& node_labels,
                                       std::string_view node_name) const noexcept {
  for (const LabelRequirement& requirement : label_requirements_) {
    if (!requirement.Matches(node_labels)) return false;
  }
  // Upstream builds the node's field set with metadata.name only when the name is not empty, and
  // skips matchFields altogether for an empty field set.
  if (node_name.empty()) return true;
  for (const FieldRequirement& requirement : field_requirements_) {
    const std::string_view value =
        requirement.field == kObjectNameField ? node_name : std::string_view();
    if (!requirement.Matches(value)) return false;
  }
  return true;
}

absl::StatusOr<CompiledNodeSelector> CompiledNodeSelector::Compile(const NodeSelector& selector,
                                                                   const FieldPath& path) {
  FieldErrorList errors;
  CompiledNodeSelector compiled;
  compiled.terms_ = CompileTerms(selector, path, errors);
  if (!errors.empty()) return errors.ToStatus();
  return compiled;
}

bool CompiledNodeSelector::Matches(const Labels& node_labels,
                                   std::string_view node_name) const noexcept {
  return std::any_of(terms_.begin(), terms_.end(), [&](const CompiledNodeSelectorTerm& term) {
    return term.Matches(node_labels, node_name);
  });
}

LazyErrorNodeSelector LazyErrorNodeSelector::Compile(const NodeSelector& selector,
                                                     const FieldPath& path) {
  FieldErrorList errors;
  LazyErrorNodeSelector compiled;
  compiled.terms_ = CompileTerms(selector, path, errors);
  compiled.parse_errors_ = errors.ToStatus();
  return compiled;
}

absl::StatusOr<bool> LazyErrorNodeSelector::Match(const Labels& node_labels,
                                                  std::string_view node_name) const noexcept {
  for (const CompiledNodeSelectorTerm& term : terms_) {
    if (term.Matches(node_labels, node_name)) return true;
  }
  if (!parse_errors_.ok()) return parse_errors_;
  return false;
}

absl::StatusOr<CompiledPreferredSchedulingTerms> CompiledPreferredSchedulingTerms::Compile(
    std::span<const PreferredSchedulingTerm> terms, const FieldPath& path) {
  FieldErrorList errors;
  CompiledPreferredSchedulingTerms compiled;
  compiled.terms_.reserve(terms.size());
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const PreferredSchedulingTerm& term = terms[i];
    if (term.weight == 0 || IsEmptyTerm(term.preference)) continue;
    std::optional<CompiledNodeSelectorTerm> parsed =
        CompiledNodeSelectorTerm::Compile(term.preference, path.Index(i), errors);
    if (parsed) compiled.terms_.push_back(WeightedTerm{*std::move(parsed), term.weight});
  }
  if (!errors.empty()) return errors.ToStatus();
  return compiled;
}

std::int64_t CompiledPreferredSchedulingTerms::Score(const Labels& node_labels,
                                                     std::string_view node_name) const noexcept {
  std::int64_t score = 0;
  for (const WeightedTerm& weighted : terms_) {
    if (weighted.term.Matches(node_labels, node_name)) score += weighted.weight;
  }
  return score;
}

}  // namespace ksched::api
