#include "plugins/inter_pod_affinity/filtering_state.h"

#include <atomic>

namespace ksched::plugins::inter_pod_affinity {

std::shared_ptr<const TopologyCounts> PreFilterState::EmptyCounts() {
  // Never written: this reference keeps its use count above one.
  static const std::shared_ptr<const TopologyCounts> kEmpty = std::make_shared<TopologyCounts>();
  return kEmpty;
}

TopologyCounts& PreFilterState::Writable(std::shared_ptr<const TopologyCounts>& counts) {
  if (counts.use_count() != 1) {
    // Other states or the plugin's cross-cycle sums read these counts: copy them.
    counts = std::make_shared<TopologyCounts>(*counts);
  } else {
    // Held by this state alone; pairs with the release of other holders' references.
    std::atomic_thread_fence(std::memory_order_acquire);
  }
  // Every TopologyCounts a state holds was made by make_shared<TopologyCounts> (non-const), so
  // writing through the sole reference is sound.
  return const_cast<TopologyCounts&>(*counts);
}

void PreFilterState::UpdateWithPod(const framework::PodInfo& pod, const api::Node& node,
                                   std::int64_t multiplier) {
  const api::Pod& incoming = pod_info_->pod();
  // The other pod's required anti-affinity terms against the incoming pod.
  for (const framework::AffinityTerm& term : pod.required_anti_affinity_terms()) {
    if (term.Matches(incoming, &namespace_labels_)) {
      Writable(existing_anti_affinity_).Update(node, term.topology_key, multiplier);
    }
  }
  // The incoming pod's required affinity terms: counted only when the pod matches all of them.
  const auto& affinity_terms = pod_info_->required_affinity_terms();
  if (MatchesAllIncomingTerms(affinity_terms, pod.pod(), *namespaces_)) {
    for (const framework::AffinityTerm& term : affinity_terms) {
      Writable(affinity_).Update(node, term.topology_key, multiplier);
    }
  }
  // The incoming pod's required anti-affinity terms, each on its own.
  for (const framework::AffinityTerm& term : pod_info_->required_anti_affinity_terms()) {
    if (IncomingTermMatches(term, pod.pod(), *namespaces_)) {
      Writable(anti_affinity_).Update(node, term.topology_key, multiplier);
    }
  }
}

}  // namespace ksched::plugins::inter_pod_affinity
