#include "plugins/inter_pod_affinity/filtering_state.h"

namespace ksched::plugins::inter_pod_affinity {

void PreFilterState::UpdateWithPod(const framework::PodInfo& pod, const api::Node& node,
                                   std::int64_t multiplier) {
  const api::Pod& incoming = pod_info_->pod();
  // The other pod's required anti-affinity terms against the incoming pod.
  for (const framework::AffinityTerm& term : pod.required_anti_affinity_terms()) {
    if (term.Matches(incoming, &namespace_labels_)) {
      existing_anti_affinity_.Update(node, term.topology_key, multiplier);
    }
  }
  // The incoming pod's required affinity terms: counted only when the pod matches all of them.
  const auto& affinity_terms = pod_info_->required_affinity_terms();
  if (MatchesAllIncomingTerms(affinity_terms, pod.pod(), *namespaces_)) {
    for (const framework::AffinityTerm& term : affinity_terms) {
      affinity_.Update(node, term.topology_key, multiplier);
    }
  }
  // The incoming pod's required anti-affinity terms, each on its own.
  for (const framework::AffinityTerm& term : pod_info_->required_anti_affinity_terms()) {
    if (IncomingTermMatches(term, pod.pod(), *namespaces_)) {
      anti_affinity_.Update(node, term.topology_key, multiplier);
    }
  }
}

}  // namespace ksched::plugins::inter_pod_affinity
