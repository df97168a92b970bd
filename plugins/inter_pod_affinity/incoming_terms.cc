#include "plugins/inter_pod_affinity/incoming_terms.h"

#include <utility>

#include "absl/strings/string_view.h"

namespace ksched::plugins::inter_pod_affinity {
namespace {

constexpr framework::StateKey kNamespaceLabelsStateKey{"InterPodAffinityNamespaceLabels"};

// Holds the cycle's cache in the CycleState; clones share it (namespace labels are read once per
// cycle, whatever state they are read for).
class NamespaceLabelsState final : public framework::StateData {
 public:
  explicit NamespaceLabelsState(std::shared_ptr<NamespaceLabelsCache> cache)
      : cache_(std::move(cache)) {}
  std::unique_ptr<framework::StateData> Clone() const override {
    return std::make_unique<NamespaceLabelsState>(cache_);
  }
  const std::shared_ptr<NamespaceLabelsCache>& cache() const { return cache_; }

 private:
  std::shared_ptr<NamespaceLabelsCache> cache_;
};

}  // namespace

const api::Labels* NamespaceLabelsCache::Get(std::string_view name) {
  const absl::string_view key(name.data(), name.size());
  {
    base::ReaderMutexLock lock(&mu_);
    auto it = labels_.find(key);
    if (it != labels_.end()) return it->second.has_value() ? &*it->second : nullptr;
  }
  // A miss: look up under the exclusive lock so that each namespace is asked for exactly once
  // (misses are one per distinct namespace and cycle).
  base::WriterMutexLock lock(&mu_);
  auto it = labels_.find(key);
  if (it == labels_.end()) {
    it = labels_.try_emplace(std::string(name), handle_.NamespaceLabels(name)).first;
  }
  return it->second.has_value() ? &*it->second : nullptr;
}

std::shared_ptr<NamespaceLabelsCache> CycleNamespaceLabels(framework::CycleState& state,
                                                           const framework::Handle& handle) {
  if (const auto* existing = state.ReadAs<NamespaceLabelsState>(kNamespaceLabelsStateKey)) {
    return existing->cache();
  }
  auto cache = std::make_shared<NamespaceLabelsCache>(handle);
  state.Write(kNamespaceLabelsStateKey, std::make_unique<NamespaceLabelsState>(cache));
  return cache;
}

bool IncomingTermMatches(const framework::AffinityTerm& term, const api::Pod& pod,
                         NamespaceLabelsCache& namespaces) {
  if (!term.selector.Matches(pod.metadata.labels)) return false;
  if (term.namespaces.count(pod.metadata.namespace_) > 0) return true;
  // `{}` selects every namespace (upstream leaves such a selector in place); a null one none.
  if (term.namespace_selector.Empty()) return true;
  if (term.namespace_selector.MatchesNothing()) return false;
  // upstream merges the namespaces that exist and match: an unknown namespace never does.
  const api::Labels* labels = namespaces.Get(pod.metadata.namespace_);
  return labels != nullptr && term.namespace_selector.Matches(*labels);
}

bool MatchesAllIncomingTerms(const std::vector<framework::AffinityTerm>& terms,
                             const api::Pod& pod, NamespaceLabelsCache& namespaces) {
  if (terms.empty()) return false;
  for (const framework::AffinityTerm& term : terms) {
    if (!IncomingTermMatches(term, pod, namespaces)) return false;
  }
  return true;
}

}  // namespace ksched::plugins::inter_pod_affinity
