// Matching the incoming pod's (anti-)affinity terms against other pods, with the terms' namespace
// selectors resolved through the Handle's namespace labels (upstream
// mergeAffinityTermNamespacesIfNotEmpty + AffinityTerm.Matches(pod, nil)).
//
// Upstream lists the namespaces a term's namespaceSelector matches once per cycle and merges them
// into the term's namespace set. Our Handle can only tell the labels of a named namespace, so the
// selector is evaluated lazily against each candidate pod's namespace, with the labels cached for
// the cycle (NamespaceLabelsCache: one Handle lookup per namespace and cycle, shared by PreFilter,
// PreScore and the cloned states through the CycleState). The result is the same: a pod matches a
// term's namespaces when its namespace is listed, or the selector is `{}` (every namespace), or the
// selector is a real one and the pod's namespace exists and its labels match; a null selector adds
// nothing.
//
// Existing pods' terms are matched the upstream way, AffinityTerm::Matches with the incoming pod's
// namespace labels.
//
// Thread-safety: NamespaceLabelsCache is safe for concurrent use (the parallel PreFilter/PreScore
// loops and concurrent AddPod/RemovePod calls on cloned states share one); the functions are pure
// apart from filling the cache.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/node_hash_map.h"
#include "base/mutex.h"
#include "api/labels.h"
#include "api/pod.h"
#include "framework/cycle_state.h"
#include "framework/handle.h"
#include "framework/pod_info.h"

namespace ksched::plugins::inter_pod_affinity {

// The labels of namespaces asked for in one scheduling cycle, fetched from the Handle once each.
class NamespaceLabelsCache {
 public:
  explicit NamespaceLabelsCache(const framework::Handle& handle) : handle_(handle) {}
  NamespaceLabelsCache(const NamespaceLabelsCache&) = delete;
  NamespaceLabelsCache& operator=(const NamespaceLabelsCache&) = delete;

  // The namespace's labels, nullptr when the namespace is unknown. The pointer stays valid as long
  // as the cache lives.
  const api::Labels* Get(std::string_view name);

 private:
  const framework::Handle& handle_;
  base::SharedMutex mu_;
  // node_hash_map: the returned pointers survive rehashing.
  absl::node_hash_map<std::string, std::optional<api::Labels>> labels_ ABSL_GUARDED_BY(mu_);
};

// The cycle's cache: the one already in `state`, or a new one written there. Call from the
// scheduling thread outside the parallel phases (PreFilter, PreScore).
std::shared_ptr<NamespaceLabelsCache> CycleNamespaceLabels(framework::CycleState& state,
                                                           const framework::Handle& handle);

// Whether `pod` matches the incoming pod's `term` (label selector and namespaces, the namespace
// selector resolved through `namespaces`).
bool IncomingTermMatches(const framework::AffinityTerm& term, const api::Pod& pod,
                         NamespaceLabelsCache& namespaces);

// upstream podMatchesAllAffinityTerms for the incoming pod's terms: false for no terms.
bool MatchesAllIncomingTerms(const std::vector<framework::AffinityTerm>& terms,
                             const api::Pod& pod, NamespaceLabelsCache& namespaces);

}  // namespace ksched::plugins::inter_pod_affinity
