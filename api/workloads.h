// The pod-selecting objects kube-scheduler v1.34 reads to give a pod its default topology spread
// constraints (upstream helper.DefaultSelector over the Service, ReplicationController,
// ReplicaSet and StatefulSet listers): core/v1 Service, core/v1 ReplicationController, apps/v1
// ReplicaSet and apps/v1 StatefulSet, each holding metadata and spec.selector only.
//
// What is dropped, and why: every other spec and status field (the scheduler never reads them),
// and, of the metadata, annotations and ownerReferences (the decoder clears them: ReplicaSets
// pile up as Deployment revisions, and kubectl's last-applied-configuration annotation would be
// most of what the store keeps of each).
//
// Selector shapes follow the API: a Service's and a ReplicationController's spec.selector is a
// plain label map, a ReplicaSet's and a StatefulSet's a metav1.LabelSelector. nullopt stands for
// an absent or null selector, which upstream treats differently from an empty one (a Service
// without a selector matches no pod; LabelSelectorAsSelector(nil) is labels.Nothing()).
//
// Thread-safety: plain value types.
#pragma once

#include <optional>

#include "api/label_selector.h"
#include "api/labels.h"
#include "api/object_meta.h"

namespace ksched::api {

struct ServiceSpec {
  std::optional<Labels> selector;

  friend bool operator==(const ServiceSpec&, const ServiceSpec&) = default;
};

struct Service {
  ObjectMeta metadata;
  ServiceSpec spec;

  friend bool operator==(const Service&, const Service&) = default;
};

struct ReplicationControllerSpec {
  std::optional<Labels> selector;

  friend bool operator==(const ReplicationControllerSpec&,
                         const ReplicationControllerSpec&) = default;
};

struct ReplicationController {
  ObjectMeta metadata;
  ReplicationControllerSpec spec;

  friend bool operator==(const ReplicationController&, const ReplicationController&) = default;
};

// The spec of a ReplicaSet or a StatefulSet: both select their pods with a metav1.LabelSelector.
struct WorkloadSpec {
  std::optional<LabelSelector> selector;

  friend bool operator==(const WorkloadSpec&, const WorkloadSpec&) = default;
};

struct ReplicaSet {
  ObjectMeta metadata;
  WorkloadSpec spec;

  friend bool operator==(const ReplicaSet&, const ReplicaSet&) = default;
};

struct StatefulSet {
  ObjectMeta metadata;
  WorkloadSpec spec;

  friend bool operator==(const StatefulSet&, const StatefulSet&) = default;
};

}  // namespace ksched::api
