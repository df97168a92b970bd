// PodResourceMetricsText: the body of /metrics/resources, as kube-scheduler v1.37.2's pod resources
// collector renders it (pkg/scheduler/metrics/resources): two STABLE gauge families,
//   kube_pod_resource_limit    the pod's effective limits   (upstream resourcehelper.PodLimits)
//   kube_pod_resource_request  the pod's effective requests (upstream resourcehelper.PodRequests)
// both with the default options (overhead included, pod-level resources honored, container
// statuses not read), labelled {namespace, node, pod, priority, resource, scheduler, unit}:
//   node       spec.nodeName ("" while unassigned)
//   scheduler  spec.schedulerName
//   priority   spec.priority in decimal, "" when unset
//   unit       "cores" (cpu), "bytes" (memory, storage, ephemeral-storage, hugepages-*),
//              "integer" (attachable-volumes-*), "" otherwise
//   value      the quantity as upstream's AsApproximateFloat64, in Go's number format
// A pod with a node and phase Succeeded or Failed is left out (terminal), and so is every zero
// quantity. The text is client_golang's exposition, byte for byte: families by name, each
// "# HELP <name> [STABLE] <help>" and "# TYPE <name> gauge" followed by its series sorted by their
// label values (labels in name order); a family without series is not written, so no pods give an
// empty body.
//
// Memory: the series are gathered as small records (pointers into the pods and interned resource
// names, a double) and written straight out, without per-series label strings.
//
// Thread-safety: a pure function of its input; the pods must not change while it runs (informer
// pods are immutable).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "api/pod.h"

namespace ksched::scheduler::metrics {

std::string PodResourceMetricsText(const std::vector<std::shared_ptr<const api::Pod>>& pods);

}  // namespace ksched::scheduler::metrics
