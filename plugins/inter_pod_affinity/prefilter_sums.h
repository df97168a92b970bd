// PreFilterSums: InterPodAffinity's PreFilter counts carried from one scheduling cycle to the next
// (incremental_counts.h), each with the key of the pods it answers for.
//
//   existing_anti_affinity: existing pods' required anti-affinity terms that match the incoming
//     pod. AffinityTerm::Matches reads only the incoming pod's namespace, its labels and its
//     namespace's labels: pods equal in those three get the same counts.
//   incoming (sum 0: affinity, sum 1: anti-affinity): existing pods matching the incoming pod's
//     required terms. The compiled terms follow from the pod's terms, namespace and labels
//     (matchLabelKeys merge label values in); pods equal in those get the same counts, unless a
//     term has a real namespace selector, whose answer depends on other namespaces' labels, which
//     may change between cycles unseen (such pods are counted afresh).
//
// Thread-safety: none; InterPodAffinity guards it with a mutex.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "api/affinity.h"
#include "api/compact_vector.h"
#include "api/labels.h"
#include "api/pod.h"
#include "plugins/inter_pod_affinity/incremental_counts.h"

namespace ksched::plugins::inter_pod_affinity {

// The keys compare in place (no copy per cycle) and are copied only when they change.
struct ExistingAntiAffinityKey {
  std::string namespace_;
  api::Labels labels;
  api::Labels namespace_labels;

  bool Is(const api::Pod& pod, const api::Labels& pod_namespace_labels) const {
    return namespace_ == pod.metadata.namespace_ && labels == pod.metadata.labels &&
           namespace_labels == pod_namespace_labels;
  }
};

struct IncomingTermsKey {
  std::string namespace_;
  api::Labels labels;
  api::CompactVector<api::PodAffinityTerm> affinity;
  api::CompactVector<api::PodAffinityTerm> anti_affinity;

  explicit IncomingTermsKey(const api::Pod& pod)
      : namespace_(pod.metadata.namespace_),
        labels(pod.metadata.labels),
        affinity(pod.spec.affinity.pod_affinity.required),
        anti_affinity(pod.spec.affinity.pod_anti_affinity.required) {}
  bool Is(const api::Pod& pod) const {
    return namespace_ == pod.metadata.namespace_ && labels == pod.metadata.labels &&
           affinity == pod.spec.affinity.pod_affinity.required &&
           anti_affinity == pod.spec.affinity.pod_anti_affinity.required;
  }
};

struct PreFilterSums {
  IncrementalCounts existing_anti_affinity{1};
  std::optional<ExistingAntiAffinityKey> existing_anti_affinity_key;
  IncrementalCounts incoming{2};
  std::optional<IncomingTermsKey> incoming_key;
};

}  // namespace ksched::plugins::inter_pod_affinity
