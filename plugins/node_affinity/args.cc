#include "plugins/node_affinity/args.h"

#include <cstddef>

#include "api/node_selector.h"

namespace ksched::plugins::node_affinity {
namespace {

bool IsEmptyTerm(const api::NodeSelectorTerm& term) {
  return term.match_expressions.empty() && term.match_fields.empty();
}

}  // namespace

absl::Status ValidateNodeAffinityArgs(const api::FieldPath& path, const NodeAffinityArgs& args) {
  if (!args.added_affinity.has_value()) return absl::OkStatus();
  const api::NodeAffinity& affinity = *args.added_affinity;
  const api::FieldPath added = path.Child("addedAffinity");
  // Term by term rather than through the compiled selectors, so that the errors of both parts
  // flatten into one list as upstream's errors.Flatten does.
  api::FieldErrorList errors;
  if (affinity.required.has_value()) {
    const api::FieldPath terms_path =
        added.Child("requiredDuringSchedulingIgnoredDuringExecution").Child("nodeSelectorTerms");
    const auto& terms = affinity.required->node_selector_terms;
    for (std::size_t i = 0; i < terms.size(); ++i) {
      if (IsEmptyTerm(terms[i])) continue;  // matches nothing, never validated
      api::CompiledNodeSelectorTerm::Compile(terms[i], terms_path.Index(i), errors);
    }
  }
  const api::FieldPath preferred_path =
      added.Child("preferredDuringSchedulingIgnoredDuringExecution");
  for (std::size_t i = 0; i < affinity.preferred.size(); ++i) {
    const api::PreferredSchedulingTerm& term = affinity.preferred[i];
    if (term.weight == 0 || IsEmptyTerm(term.preference)) continue;  // skipped by upstream too
    api::CompiledNodeSelectorTerm::Compile(term.preference, preferred_path.Index(i), errors);
  }
  return errors.ToStatus();
}

}  // namespace ksched::plugins::node_affinity
