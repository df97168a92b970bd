#include "plugins/in_tree_registry.h"

#include <cstdlib>
#include <iostream>

#include "plugins/binpack/binpack.h"
#include "plugins/default_binder/default_binder.h"
#include "plugins/default_preemption/default_preemption.h"
#include "plugins/image_locality/image_locality.h"
#include "plugins/inter_pod_affinity/inter_pod_affinity.h"
#include "plugins/metrics_traffic/metrics_traffic.h"
#include "plugins/node_affinity/node_affinity.h"
#include "plugins/node_declared_features/node_declared_features.h"
#include "plugins/node_name/node_name.h"
#include "plugins/node_ports/node_ports.h"
#include "plugins/node_resources/balanced_allocation.h"
#include "plugins/node_resources/fit.h"
#include "plugins/node_unschedulable/node_unschedulable.h"
#include "plugins/pod_topology_spread/pod_topology_spread.h"
#include "plugins/queue_sort/priority_sort.h"
#include "plugins/scheduling_gates/scheduling_gates.h"
#include "plugins/taint_toleration/taint_toleration.h"
#include "plugins/volume_restrictions/volume_restrictions.h"
#include "plugins/node_volume_limits/node_volume_limits.h"
#include "plugins/dynamic_resources/dynamic_resources.h"
#include "plugins/volume_binding/volume_binding.h"
#include "plugins/volume_zone/volume_zone.h"

namespace ksched::plugins {

framework::Registry NewInTreeRegistry() {
  framework::Registry registry;
  const std::pair<std::string_view, framework::PluginFactory> factories[] = {
      {scheduling_gates::kName, scheduling_gates::New},
      {queue_sort::kName, queue_sort::New},
      {node_unschedulable::kName, node_unschedulable::New},
      {node_name::kName, node_name::New},
      {taint_toleration::kName, taint_toleration::New},
      {node_affinity::kName, node_affinity::New},
      {node_ports::kName, node_ports::New},
      {node_declared_features::kName, node_declared_features::New},
      {node_resources::kFitName, node_resources::NewFit},
      {volume_restrictions::kName, volume_restrictions::New},
      {node_volume_limits::kName, node_volume_limits::New},
      {volume_binding::kName, volume_binding::New},
      {dynamic_resources::kName, dynamic_resources::New},
      {volume_zone::kName, volume_zone::New},
      {node_resources::kBalancedAllocationName, node_resources::NewBalancedAllocation},
      {image_locality::kName, image_locality::New},
      {pod_topology_spread::kName, pod_topology_spread::New},
      {inter_pod_affinity::kName, inter_pod_affinity::New},
      {default_preemption::kName, default_preemption::New},
      {default_binder::kName, default_binder::New},
      // The Prometheus-metrics plugins of the seed article (plugins/metrics_traffic/).
      {metrics_traffic::kCpuName, metrics_traffic::FactoryFor(metrics_traffic::MetricKind::kCpu)},
      {metrics_traffic::kMemoryName, metrics_traffic::FactoryFor(metrics_traffic::MetricKind::kMemory)},
      {metrics_traffic::kDiskSpaceName,
       metrics_traffic::FactoryFor(metrics_traffic::MetricKind::kDiskSpace)},
      {metrics_traffic::kDiskIoName, metrics_traffic::FactoryFor(metrics_traffic::MetricKind::kDiskIo)},
      {metrics_traffic::kNetworkName,
       metrics_traffic::FactoryFor(metrics_traffic::MetricKind::kNetwork)},
      {binpack::kName, binpack::New},
  };
  for (const auto& [name, factory] : factories) {
    if (absl::Status status = registry.Register(std::string(name), factory); !status.ok()) {
      // Two plugins under one name is a build defect, not an input error.
      std::cerr << "in-tree registry: " << status.message() << '\n';
      std::abort();
    }
  }
  return registry;
}

}  // namespace ksched::plugins
