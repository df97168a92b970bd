// InformerMetrics: component-base's informer_* families of client-go v0.37's informers
// (component-base/metrics/prometheus/clientgo/fifo), one series per informer:
//   informer_queued_items{name,group,version,resource}               gauge
//   informer_processing_latency_seconds{name,group,version,resource}  histogram
//   informer_store_resource_version{name,group,version,resource}      gauge (last 15 digits)
// name is the informer factory's name, "kube-scheduler" as upstream's; group/version/resource
// those of the reflector's collection ("", "v1", "pods"). The series appear when the informer is
// created (ForInformer), at 0, as upstream's FIFO and store create theirs.
//
// Ownership: registers its families in the Registry passed in, which must outlive it and the
// observers it hands out (the app owns both through scheduler/metrics/metrics.h).
// Thread-safety: ForInformer is locked; each observer is used by one reflector thread and only
// touches its own (atomic) children.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

#include "base/mutex.h"
#include "client/informer_observer.h"
#include "scheduler/metrics/registered_families.h"

namespace ksched::scheduler::metrics {

class InformerMetrics {
 public:
  InformerMetrics(prometheus::Registry& registry, RegisteredFamilies& families);

  // The observer of the informer of `resource` in API group `group` (core: "") and `version`.
  std::shared_ptr<client::InformerObserver> ForInformer(std::string_view group, std::string_view version,
                                                        std::string_view resource);

 private:
  base::Mutex mu_;  // the families' Add
  prometheus::Family<prometheus::Gauge>& queued_items_;
  prometheus::Family<prometheus::Histogram>& processing_latency_;
  prometheus::Family<prometheus::Gauge>& store_resource_version_;
};

// "/api/v1/pods" -> {"", "v1", "pods"}; "/apis/apps/v1/replicasets" -> {"apps", "v1",
// "replicasets"}: the group, version and resource of a collection path as the reflectors use.
struct GroupVersionResource {
  std::string group;
  std::string version;
  std::string resource;
};
GroupVersionResource GroupVersionResourceOfPath(std::string_view path);

}  // namespace ksched::scheduler::metrics
