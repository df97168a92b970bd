// Node selectors (node affinity) as k8s.io/component-helpers/scheduling/corev1/nodeaffinity
// evaluates them:
//   - NodeSelector / NodeSelectorTerm / NodeSelectorRequirement / PreferredSchedulingTerm: the API
//     objects (core/v1), as decoded.
//   - CompiledNodeSelector: nodeaffinity.NewNodeSelector: every invalid term is an error.
//   - LazyErrorNodeSelector: nodeaffinity.NewLazyErrorNodeSelector, what kube-scheduler uses for
//     requiredDuringSchedulingIgnoredDuringExecution: invalid terms never match and their errors
//     are reported only when no valid term matches.
//   - CompiledPreferredSchedulingTerms: nodeaffinity.NewPreferredSchedulingTerms and its Score().
//
// Semantics: terms are ORed; a term with neither matchExpressions nor matchFields matches nothing
// (it is skipped, never validated); within a term, matchExpressions and matchFields are ANDed.
// matchExpressions take In, NotIn, Exists, DoesNotExist, Gt, Lt and are validated as label
// requirements (LabelRequirement::Create: label key and values checked; Gt/Lt take exactly one
// base-10 int64, and a node label that is not an integer does not match). matchFields take In and
// NotIn with exactly one value each and compare it with the node's field; the node has only
// `metadata.name`, so any other key reads as "" (nodeaffinity accepts any key; the API server
// admits only metadata.name). As upstream, matchFields are ignored for a node with an empty name.
//
// Errors (InvalidArgument) carry upstream's text and paths, aggregated like upstream
// (one error bare, several as "[e1, e2]"), e.g.
//   nodeSelectorTerms[0].matchFields[0].values: Invalid value: ["a","b"]: must have one element
// Paths start at `path` (default: none), so NodeSelector errors start at "nodeSelectorTerms[i]"
// and preferred-term errors at "[i]", as upstream's NewNodeSelector/NewPreferredSchedulingTerms
// called without a path option.
//
// Matching never allocates. Thread-safety: all types are value types, immutable once compiled;
// share compiled objects freely across threads.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "api/compact_vector.h"
#include "api/field_errors.h"
#include "api/field_selector.h"
#include "api/label_selector.h"
#include "api/labels.h"

namespace ksched::api {

// core/v1 NodeSelectorOperator values.
inline constexpr std::string_view kNodeSelectorOpIn = "In";
inline constexpr std::string_view kNodeSelectorOpNotIn = "NotIn";
inline constexpr std::string_view kNodeSelectorOpExists = "Exists";
inline constexpr std::string_view kNodeSelectorOpDoesNotExist = "DoesNotExist";
inline constexpr std::string_view kNodeSelectorOpGt = "Gt";
inline constexpr std::string_view kNodeSelectorOpLt = "Lt";

// The one node field a matchFields requirement can usefully name.
inline constexpr std::string_view kObjectNameField = "metadata.name";

// core/v1 NodeSelectorRequirement. `op` is kept as decoded so an unknown operator is reported the
// way upstream reports it.
struct NodeSelectorRequirement {
  std::string key;
  std::string op;
  std::vector<std::string> values;

  friend bool operator==(const NodeSelectorRequirement&,
                         const NodeSelectorRequirement&) = default;
};

// core/v1 NodeSelectorTerm.
struct NodeSelectorTerm {
  std::vector<NodeSelectorRequirement> match_expressions;
  std::vector<NodeSelectorRequirement> match_fields;

  friend bool operator==(const NodeSelectorTerm&, const NodeSelectorTerm&) = default;
};

// core/v1 NodeSelector.
struct NodeSelector {
  CompactVector<NodeSelectorTerm> node_selector_terms;  // 8 bytes: a pod's affinity is inline

  friend bool operator==(const NodeSelector&, const NodeSelector&) = default;
};

// core/v1 PreferredSchedulingTerm.
struct PreferredSchedulingTerm {
  std::int32_t weight = 0;
  NodeSelectorTerm preference;

  friend bool operator==(const PreferredSchedulingTerm&,
                         const PreferredSchedulingTerm&) = default;
};

// One validated, non-empty term.
class CompiledNodeSelectorTerm {
 public:
  // newNodeSelectorTerm for a non-empty term: appends every problem of the term to `errors`
  // (paths under `path`: "matchExpressions[i]...", "matchFields[i]...") and returns nullopt if
  // there was any.
  static std::optional<CompiledNodeSelectorTerm> Compile(const NodeSelectorTerm& term,
                                                         const FieldPath& path,
                                                         FieldErrorList& errors);

  // All label requirements hold, and (when the node name is not empty) all field requirements.
  bool Matches(const Labels& node_labels, std::string_view node_name) const noexcept;

  std::span<const LabelRequirement> label_requirements() const noexcept {
    return label_requirements_;
  }
  std::span<const FieldRequirement> field_requirements() const noexcept {
    return field_requirements_;
  }

 private:
  std::vector<LabelRequirement> label_requirements_;  // sorted by key
  std::vector<FieldRequirement> field_requirements_;  // in the given order
};

// An OR of valid terms; an invalid term is an error at construction.
class CompiledNodeSelector {
 public:
  // Matches nothing.
  CompiledNodeSelector() = default;

  // nodeaffinity.NewNodeSelector: the aggregate of all invalid terms' errors, if any.
  static absl::StatusOr<CompiledNodeSelector> Compile(const NodeSelector& selector,
                                                      const FieldPath& path = {});

  bool Matches(const Labels& node_labels, std::string_view node_name) const noexcept;

  std::span<const CompiledNodeSelectorTerm> terms() const noexcept { return terms_; }

 private:
  std::vector<CompiledNodeSelectorTerm> terms_;
};

// An OR of terms where invalid terms are kept aside: they never match, and their errors surface
// only from a Match() that no valid term satisfied.
class LazyErrorNodeSelector {
 public:
  // Matches nothing, no errors.
  LazyErrorNodeSelector() = default;

  // nodeaffinity.NewLazyErrorNodeSelector: never fails.
  static LazyErrorNodeSelector Compile(const NodeSelector& selector, const FieldPath& path = {});

  // true if a valid term matches; otherwise parse_errors() when there are any, else false.
  // Never allocates (the error is built at construction and shared).
  absl::StatusOr<bool> Match(const Labels& node_labels, std::string_view node_name) const noexcept;

  // The aggregate of all invalid terms' errors; OK when every term was valid.
  const absl::Status& parse_errors() const noexcept { return parse_errors_; }
  std::span<const CompiledNodeSelectorTerm> valid_terms() const noexcept { return terms_; }

 private:
  std::vector<CompiledNodeSelectorTerm> terms_;
  absl::Status parse_errors_;
};

// Preferred node affinity: weighted terms.
class CompiledPreferredSchedulingTerms {
 public:
  CompiledPreferredSchedulingTerms() = default;

  // nodeaffinity.NewPreferredSchedulingTerms: terms of weight 0 and empty terms are skipped
  // without validation; the aggregate of all other invalid terms' errors is returned, if any.
  static absl::StatusOr<CompiledPreferredSchedulingTerms> Compile(
      std::span<const PreferredSchedulingTerm> terms, const FieldPath& path = {});

  // PreferredSchedulingTerms.Score: the sum of the weights of the terms that match the node.
  std::int64_t Score(const Labels& node_labels, std::string_view node_name) const noexcept;

  struct WeightedTerm {
    CompiledNodeSelectorTerm term;
    std::int32_t weight;
  };
  std::span<const WeightedTerm> terms() const noexcept { return terms_; }

 private:
  std::vector<WeightedTerm> terms_;
};

}  // namespace ksched::api
