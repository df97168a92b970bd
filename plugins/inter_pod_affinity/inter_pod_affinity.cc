// The plugin's construction, events and queueing hints (upstream plugin.go). PreFilter/Filter are
// in filtering.cc, PreScore/Score in scoring.cc.
#include "plugins/inter_pod_affinity/inter_pod_affinity.h"

#include <optional>
#include <span>
#include <string>

#include "api/label_selector.h"

namespace ksched::plugins::inter_pod_affinity {
namespace {

using Hint = framework::QueueingHint;

// upstream GetAffinityTerms for the hints, which see a bare pod: a null labelSelector or
// namespaceSelector matches nothing; without both namespaces and namespaceSelector the term
// covers the pod's own namespace. The first invalid selector is the error.
absl::StatusOr<std::vector<framework::AffinityTerm>> CompileTerms(
    const api::Pod& pod, std::span<const api::PodAffinityTerm> terms) {
  std::vector<framework::AffinityTerm> compiled;
  compiled.reserve(terms.size());
  for (const api::PodAffinityTerm& term : terms) {
    framework::AffinityTerm out;
    absl::StatusOr<api::CompiledLabelSelector> selector = api::CompiledLabelSelector::Compile(
        term.label_selector.has_value() ? &*term.label_selector : nullptr);
    if (!selector.ok()) return selector.status();
    out.selector = *std::move(selector);
    absl::StatusOr<api::CompiledLabelSelector> namespace_selector =
        api::CompiledLabelSelector::Compile(
            term.namespace_selector.has_value() ? &*term.namespace_selector : nullptr);
    if (!namespace_selector.ok()) return namespace_selector.status();
    out.namespace_selector = *std::move(namespace_selector);
    if (term.namespaces.empty() && !term.namespace_selector.has_value()) {
      out.namespaces.insert(pod.metadata.namespace_);
    } else {
      out.namespaces.insert(term.namespaces.begin(), term.namespaces.end());
    }
    out.topology_key = term.topology_key;
    compiled.push_back(std::move(out));
  }
  return compiled;
}

// upstream podMatchesAllAffinityTerms with no namespace labels (the hints do not resolve
// namespace selectors).
bool MatchesAllTerms(const std::vector<framework::AffinityTerm>& terms, const api::Pod& pod) {
  if (terms.empty()) return false;
  for (const framework::AffinityTerm& term : terms) {
    if (!term.Matches(pod, nullptr)) return false;
  }
  return true;
}

// upstream podMatchesAnyAffinityTerms (v1.37), for anti-affinity: one matching term suffices.
bool MatchesAnyTerm(const std::vector<framework::AffinityTerm>& terms, const api::Pod& pod) {
  for (const framework::AffinityTerm& term : terms) {
    if (term.Matches(pod, nullptr)) return true;
  }
  return false;
}

}  // namespace

InterPodAffinity::InterPodAffinity(const InterPodAffinityArgs& args, framework::Handle& handle)
    : args_(args), handle_(handle) {}

absl::StatusOr<std::unique_ptr<InterPodAffinity>> InterPodAffinity::Create(
    const InterPodAffinityArgs& args, framework::Handle& handle) {
  if (absl::Status valid = ValidateInterPodAffinityArgs(api::FieldPath(), args); !valid.ok()) {
    return valid;
  }
  return std::unique_ptr<InterPodAffinity>(new InterPodAffinity(args, handle));
}

std::vector<framework::ClusterEventWithHint> InterPodAffinity::EventsToRegister() const {
  // Pods: an added or relabelled assigned pod may satisfy the affinity; a deleted or relabelled
  // one may stop violating an anti-affinity; the pod's own relabelling may take it out of another
  // pod's anti-affinity. Nodes: with queueing hints UpdateNodeTaint is not needed. Labels are upstream's ClusterEvent.Label() of these combined
  // action sets (the resource name alone).
  return {
      {framework::ClusterEvent{framework::EventResource::kPod,
                               framework::action::kAdd | framework::action::kUpdatePodLabel |
                                   framework::action::kDelete,
                               "Pod"},
       [this](const api::Pod& pod, const framework::EventObjects& objects) {
         return IsSchedulableAfterPodChange(pod, objects);
       }},
      {framework::ClusterEvent{framework::EventResource::kNode,
                               framework::action::kAdd | framework::action::kUpdateNodeLabel,
                               "Node"},
       [this](const api::Pod& pod, const framework::EventObjects& objects) {
         return IsSchedulableAfterNodeChange(pod, objects);
       }},
  };
}

absl::StatusOr<framework::QueueingHint> InterPodAffinity::IsSchedulableAfterPodChange(
    const api::Pod& pod, const framework::EventObjects& objects) const {
  const api::Pod* original = objects.old_pod;
  const api::Pod* modified = objects.new_pod;
  if (original == nullptr && modified == nullptr) {
    return absl::InvalidArgumentError("InterPodAffinity: pod event without a pod");
  }
  // The pod's own labels changed (upstream's TargetPod UpdatePodLabel, v1.37 #135394): another
  // pod's anti-affinity may have matched the old labels and not the new ones.
  if (modified != nullptr && modified->metadata.uid == pod.metadata.uid) return Hint::kQueue;
  // Pods neither assigned nor nominated do not change where this pod fits (a nominated pod counts
  // since v1.37: its nomination's release is reported as its deletion).
  const auto unplaced = [](const api::Pod* p) {
    return p != nullptr && p->spec.node_name.empty() && p->status.nominated_node_name.empty();
  };
  if (unplaced(modified) || unplaced(original)) return Hint::kQueueSkip;
  absl::StatusOr<std::vector<framework::AffinityTerm>> terms =
      CompileTerms(pod, pod.spec.affinity.pod_affinity.required);
  if (!terms.ok()) return terms.status();
  absl::StatusOr<std::vector<framework::AffinityTerm>> anti_terms =
      CompileTerms(pod, pod.spec.affinity.pod_anti_affinity.required);
  if (!anti_terms.ok()) return anti_terms.status();

  // One existing pod must satisfy all the affinity terms at once, so the terms are checked
  // together.
  if (original != nullptr && modified != nullptr) {
    if (!MatchesAllTerms(*terms, *original) && MatchesAllTerms(*terms, *modified)) {
      return Hint::kQueue;
    }
    // Any one anti-affinity term the pod matched could have kept this pod away (v1.37: any, not
    // all, of the terms).
    if (MatchesAnyTerm(*anti_terms, *original) && !MatchesAnyTerm(*anti_terms, *modified)) {
      return Hint::kQueue;
    }
    return Hint::kQueueSkip;
  }
  if (modified != nullptr) {
    return MatchesAllTerms(*terms, *modified) ? Hint::kQueue : Hint::kQueueSkip;
  }
  // Deleted: it matched this pod's anti-affinity, or this pod matched its anti-affinity (v1.37).
  if (MatchesAnyTerm(*anti_terms, *original)) return Hint::kQueue;
  absl::StatusOr<std::vector<framework::AffinityTerm>> original_anti_terms =
      CompileTerms(*original, original->spec.affinity.pod_anti_affinity.required);
  if (!original_anti_terms.ok()) return original_anti_terms.status();
  return MatchesAnyTerm(*original_anti_terms, pod) ? Hint::kQueue : Hint::kQueueSkip;
}

absl::StatusOr<framework::QueueingHint> InterPodAffinity::IsSchedulableAfterNodeChange(
    const api::Pod& pod, const framework::EventObjects& objects) const {
  const api::Node* original = objects.old_node;
  const api::Node* modified = objects.new_node;
  if (modified == nullptr) {
    return absl::InvalidArgumentError("InterPodAffinity: node event without the new node");
  }
  absl::StatusOr<std::vector<framework::AffinityTerm>> terms =
      CompileTerms(pod, pod.spec.affinity.pod_affinity.required);
  if (!terms.ok()) return terms.status();
  for (const framework::AffinityTerm& term : *terms) {
    const std::optional<std::string_view> modified_value =
        modified->metadata.labels.Get(term.topology_key);
    if (original == nullptr) {
      // A new node with the term's topology key.
      if (modified_value.has_value()) return Hint::kQueue;
      continue;
    }
    const std::optional<std::string_view> original_value =
        original->metadata.labels.Get(term.topology_key);
    // The node gained the key, or moved to another domain of it.
    if (!original_value.has_value() && modified_value.has_value()) return Hint::kQueue;
    if (original_value.has_value() && modified_value.has_value() &&
        *original_value != *modified_value) {
      return Hint::kQueue;
    }
  }

  absl::StatusOr<std::vector<framework::AffinityTerm>> anti_terms =
      CompileTerms(pod, pod.spec.affinity.pod_anti_affinity.required);
  if (!anti_terms.ok()) return anti_terms.status();
  for (const framework::AffinityTerm& term : *anti_terms) {
    // Any new node may do: one without the key always accepts the pod, and checking which pods
    // share the new node's domain is beyond a hint.
    if (original == nullptr) return Hint::kQueue;
    const std::optional<std::string_view> original_value =
        original->metadata.labels.Get(term.topology_key);
    const std::optional<std::string_view> modified_value =
        modified->metadata.labels.Get(term.topology_key);
    // The node lost the key (gaining it cannot help), or moved to another domain of it.
    if (original_value.has_value() && !modified_value.has_value()) return Hint::kQueue;
    if (original_value.has_value() && modified_value.has_value() &&
        *original_value != *modified_value) {
      return Hint::kQueue;
    }
  }
  return Hint::kQueueSkip;
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> New(const framework::PluginArgs* args,
                                                       framework::Handle& handle) {
  absl::StatusOr<const InterPodAffinityArgs*> typed =
      framework::ArgsAs<InterPodAffinityArgs>(args, kName);
  if (!typed.ok()) return typed.status();
  const InterPodAffinityArgs defaults;
  absl::StatusOr<std::unique_ptr<InterPodAffinity>> plugin =
      InterPodAffinity::Create(*typed != nullptr ? **typed : defaults, handle);
  if (!plugin.ok()) return plugin.status();
  return std::unique_ptr<framework::Plugin>(std::move(*plugin));
}

}  // namespace ksched::plugins::inter_pod_affinity
