#include "framework/pod_info.h"

#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <utility>

#include "absl/status/status.h"

namespace ksched::framework {

namespace {

// upstream newAffinityTerm: a null labelSelector matches nothing; the namespaces are the listed
// ones, or the pod's own when neither namespaces nor namespaceSelector is given; a null
// namespaceSelector matches nothing and `{}` matches every namespace.
absl::StatusOr<AffinityTerm> CompileTerm(const api::Pod& pod, const api::PodAffinityTerm& term) {
  AffinityTerm compiled;
  absl::StatusOr<api::CompiledLabelSelector> selector = api::CompiledLabelSelector::Compile(
      term.label_selector.has_value() ? &*term.label_selector : nullptr);
  if (!selector.ok()) return selector.status();
  compiled.selector = *std::move(selector);

  if (term.namespaces.empty() && !term.namespace_selector.has_value()) {
    compiled.namespaces.insert(pod.metadata.namespace_);
  } else {
    compiled.namespaces.insert(term.namespaces.begin(), term.namespaces.end());
  }

  absl::StatusOr<api::CompiledLabelSelector> namespace_selector =
      api::CompiledLabelSelector::Compile(
          term.namespace_selector.has_value() ? &*term.namespace_selector : nullptr);
  if (!namespace_selector.ok()) return namespace_selector.status();
  compiled.namespace_selector = *std::move(namespace_selector);
  compiled.topology_key = term.topology_key;
  return compiled;
}

// upstream GetAffinityTerms: the first invalid term fails the whole list.
absl::Status CompileTerms(const api::Pod& pod, std::span<const api::PodAffinityTerm> terms,
                          std::vector<AffinityTerm>& out) {
  out.reserve(terms.size());
  for (const api::PodAffinityTerm& term : terms) {
    absl::StatusOr<AffinityTerm> compiled = CompileTerm(pod, term);
    if (!compiled.ok()) {
      out.clear();
      return compiled.status();
    }
    out.push_back(*std::move(compiled));
  }
  return absl::OkStatus();
}

absl::Status CompileWeightedTerms(const api::Pod& pod,
                                  std::span<const api::WeightedPodAffinityTerm> terms,
                                  std::vector<WeightedAffinityTerm>& out) {
  out.reserve(terms.size());
  for (const api::WeightedPodAffinityTerm& term : terms) {
    absl::StatusOr<AffinityTerm> compiled = CompileTerm(pod, term.pod_affinity_term);
    if (!compiled.ok()) {
      out.clear();
      return compiled.status();
    }
    out.push_back(WeightedAffinityTerm{*std::move(compiled), term.weight});
  }
  return absl::OkStatus();
}

// Collects "<list>: <error>" as upstream's NewPodInfo does before aggregating.
void Collect(const absl::Status& status, std::string_view list, std::vector<std::string>& errors) {
  if (status.ok()) return;
  std::string text(list);
  text += ": ";
  text.append(status.message().data(), status.message().size());
  errors.push_back(std::move(text));
}

}  // namespace

bool AffinityTerm::Matches(const api::Pod& pod, const api::Labels* namespace_labels) const {
  static const api::Labels kNoLabels;
  const bool namespace_ok =
      namespaces.count(pod.metadata.namespace_) > 0 ||
      namespace_selector.Matches(namespace_labels != nullptr ? *namespace_labels : kNoLabels);
  return namespace_ok && selector.Matches(pod.metadata.labels);
}

absl::StatusOr<PodInfoPtr> PodInfo::Create(std::shared_ptr<const api::Pod> pod) {
  if (pod == nullptr) return absl::InvalidArgumentError("pod cannot be nil");
  std::shared_ptr<PodInfo> info(new PodInfo());
  const api::Pod& p = *pod;
  info->pod_ = std::move(pod);
  info->requests_ = PodRequests(p);
  PodRequestsOptions non_zero;
  non_zero.non_zero_defaults = true;
  info->non_zero_requests_ = PodRequests(p, non_zero);

  std::vector<std::string> errors;
  Collect(CompileTerms(p, p.spec.affinity.pod_affinity.required, info->required_affinity_),
          "requiredAffinityTerms", errors);
  Collect(CompileTerms(p, p.spec.affinity.pod_anti_affinity.required,
                       info->required_anti_affinity_),
          "requiredAntiAffinityTerms", errors);
  Collect(CompileWeightedTerms(p, p.spec.affinity.pod_affinity.preferred,
                               info->preferred_affinity_),
          "preferredAffinityTerms", errors);
  Collect(CompileWeightedTerms(p, p.spec.affinity.pod_anti_affinity.preferred,
                               info->preferred_anti_affinity_),
          "preferredAntiAffinityTerms", errors);
  if (!errors.empty()) {
    // utilerrors.NewAggregate: one error as is, several as "[a, b]".
    std::string message;
    for (const std::string& error : errors) {
      if (!message.empty()) message += ", ";
      message += error;
    }
    if (errors.size() > 1) message = "[" + message + "]";
    return absl::InvalidArgumentError(message);
  }
  return PodInfoPtr(std::move(info));
}

PodInfoPtr PodInfo::CreateOrDie(std::shared_ptr<const api::Pod> pod) {
  absl::StatusOr<PodInfoPtr> info = Create(std::move(pod));
  if (!info.ok()) {
    std::fprintf(stderr, "PodInfo::CreateOrDie: %s\n", info.status().ToString().c_str());
    std::abort();
  }
  return *std::move(info);
}

}  // namespace ksched::framework
