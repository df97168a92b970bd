#include "scheduler/metrics/pod_resource_metrics.h"

#include <algorithm>
#include <sstream>
#include <string_view>
#include <utility>

#include "framework/resource.h"
#include "scheduler/metrics/text_format.h"

namespace ksched::scheduler::metrics {
namespace {

constexpr std::string_view kLimitName = "kube_pod_resource_limit";
constexpr std::string_view kRequestName = "kube_pod_resource_request";
constexpr std::string_view kLimitHelp =
    "[STABLE] Resources limit for workloads on the cluster, broken down by pod. This shows the "
    "resource usage the scheduler and kubelet expect per pod for resources along with the unit "
    "for the resource if any.";
constexpr std::string_view kRequestHelp =
    "[STABLE] Resources requested by workloads on the cluster, broken down by pod. This shows the "
    "resource usage the scheduler and kubelet expect per pod for resources along with the unit "
    "for the resource if any.";

// One series; the strings point into the pod (kept alive by the caller) or into the intern pool.
struct Series {
  const api::Pod* pod = nullptr;
  std::string_view resource;
  std::string_view unit;
  double value = 0;
};

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// upstream's unit switch (v1helper.IsHugePageResourceName / IsAttachableVolumeResourceName).
std::string_view UnitOf(std::string_view resource) {
  if (resource == api::kResourceCPU) return "cores";
  if (resource == api::kResourceMemory || resource == api::kResourceStorage ||
      resource == api::kResourceEphemeralStorage || StartsWith(resource, "hugepages-")) {
    return "bytes";
  }
  if (StartsWith(resource, "attachable-volumes-")) return "integer";
  return "";
}

std::string PriorityLabel(const api::Pod& pod) {
  return pod.spec.priority.has_value() ? std::to_string(*pod.spec.priority) : std::string();
}

// upstream podRequestsAndLimitsByLifecycle: only a pod on a node can be terminal.
bool Terminal(const api::Pod& pod) {
  return !pod.spec.node_name.empty() &&
         (pod.status.phase == api::kPodSucceeded || pod.status.phase == api::kPodFailed);
}

void Collect(const api::Pod& pod, const api::ResourceList& amounts, std::vector<Series>& out) {
  for (const auto& [name, quantity] : amounts) {
    if (quantity.IsZero()) continue;
    out.push_back(Series{&pod, name.view(), UnitOf(name), quantity.AsApproximateFloat64()});
  }
}

// client_golang's order: label values compared in label-name order.
bool SeriesLess(const Series& a, const Series& b) {
  const api::Pod& x = *a.pod;
  const api::Pod& y = *b.pod;
  if (const auto c = x.metadata.namespace_.view() <=> y.metadata.namespace_.view(); c != 0) return c < 0;
  if (const auto c = x.spec.node_name.view() <=> y.spec.node_name.view(); c != 0) return c < 0;
  if (const auto c = std::string_view(x.metadata.name) <=> std::string_view(y.metadata.name); c != 0) {
    return c < 0;
  }
  if (&x != &y) {
    if (const auto c = PriorityLabel(x) <=> PriorityLabel(y); c != 0) return c < 0;
  }
  if (const auto c = a.resource <=> b.resource; c != 0) return c < 0;
  if (const auto c = x.spec.scheduler_name.view() <=> y.spec.scheduler_name.view(); c != 0) return c < 0;
  return a.unit < b.unit;
}

void WriteLabel(std::ostream& out, std::string_view name, std::string_view value, bool first = false) {
  if (!first) out << ',';
  out << name << "=\"";
  WriteLabelValue(out, value);
  out << '"';
}

void WriteFamily(std::ostream& out, std::string_view name, std::string_view help,
                 std::vector<Series>& series) {
  if (series.empty()) return;
  std::sort(series.begin(), series.end(), SeriesLess);
  out << "# HELP " << name << ' ' << help << '\n';
  out << "# TYPE " << name << " gauge\n";
  for (const Series& s : series) {
    const api::Pod& pod = *s.pod;
    out << name << '{';
    WriteLabel(out, "namespace", pod.metadata.namespace_.view(), true);
    WriteLabel(out, "node", pod.spec.node_name.view());
    WriteLabel(out, "pod", pod.metadata.name);
    WriteLabel(out, "priority", PriorityLabel(pod));
    WriteLabel(out, "resource", s.resource);
    WriteLabel(out, "scheduler", pod.spec.scheduler_name.view());
    WriteLabel(out, "unit", s.unit);
    out << "} " << FormatGoFloat(s.value) << '\n';
  }
}

}  // namespace

std::string PodResourceMetricsText(const std::vector<std::shared_ptr<const api::Pod>>& pods) {
  std::vector<Series> limits;
  std::vector<Series> requests;
  const framework::PodRequestsOptions request_options{
      .include_overhead = true, .non_zero_defaults = false, .use_status_resources = false};
  for (const std::shared_ptr<const api::Pod>& pod : pods) {
    if (pod == nullptr || Terminal(*pod)) continue;
    Collect(*pod, framework::PodRequestQuantities(*pod, request_options), requests);
    Collect(*pod, framework::PodLimitQuantities(*pod), limits);
  }
  std::ostringstream out;
  WriteFamily(out, kLimitName, kLimitHelp, limits);
  WriteFamily(out, kRequestName, kRequestHelp, requests);
  return std::move(out).str();
}

}  // namespace ksched::scheduler::metrics
