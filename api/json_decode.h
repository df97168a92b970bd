// JSON decoding of the objects the scheduler reads from the API server (core/v1 Pod and Node,
// policy/v1 PodDisruptionBudget, the pod-selecting core/v1 Service and ReplicationController and
// apps/v1 ReplicaSet and StatefulSet, core/v1 Namespace, core/v1 PersistentVolumeClaim and
// PersistentVolume, storage.k8s.io/v1 StorageClass, CSINode, VolumeAttachment, CSIDriver and
// CSIStorageCapacity, resource.k8s.io/v1 ResourceSlice, DeviceClass and ResourceClaim, their lists,
// watch events, and metav1.Status) into the compact object model of api/pod.h, api/node.h,
// api/pod_disruption_budget.h, api/workloads.h, api/namespace.h, api/storage.h, api/resource.h,
// api/object_list.h, api/watch_event.h and api/api_status.h, with RapidJSON.
//
// This is the only api header that includes RapidJSON; the object model headers do not.
//
// Entry points take either a parsed rapidjson::Value, or JSON text. The text overloads parse into a
// DOM first: `std::string_view` copies strings out of the text, `...InSitu(std::string&)` parses
// the buffer in place (faster, fewer allocations) and leaves it modified and meaningless. Parsing
// is iterative (deeply nested input cannot overflow the stack), rejects trailing content and NUL
// bytes, and does not validate UTF-8 (bytes are kept as they are; Go would substitute U+FFFD).
//
// Decoding rules, matching Go's encoding/json as the API types use it:
//   - Field names are case-sensitive. Unknown fields are ignored.
//   - A known field of the wrong JSON type is an error naming its path from the decoded value's
//     root, e.g. `spec.priority: expected an integer, got string` or
//     `spec.containers[1].resources.requests["cpu"]: cannot parse '1x': <quantity error>`.
//     Decoding stops at the first error.
//   - null is the same as an absent field; a null array element or map value is the zero value.
//   - Integers must be JSON integers within the field's range (1.0, 1e3 and 2^31 for an int32 are
//     errors, as in Go). Quantities are strings parsed by Quantity::Parse after trimming ASCII
//     whitespace; a JSON number is accepted as Go does, but is re-rendered from its parsed value
//     (1e3 becomes "1000", so its String() form may differ from upstream's; the API server always
//     writes quantities as strings). Timestamps are RFC 3339 strings (see api/time.h); Go's zero
//     time "0001-01-01T00:00:00Z" reads as unset (nullopt), as metav1.Time treats it.
//   - An array field replaces the previous value; a map field merges into it (duplicate JSON keys:
//     the last wins, as in Go).
//   - `kind`, when present and non-empty on a top-level object, must name the expected kind ("Pod",
//     "Node", "PodDisruptionBudget", "Service", ..., their "...List" kinds, "Status");
//     list items normally carry no kind and are not checked unless they do.
//   - Required: metadata.name (non-empty) on every object (not on a BOOKMARK's), including list
//     and watch items.
//
// Defaults applied (the API server always fills these, and a pod read from anywhere else should
// behave the same): spec.schedulerName "default-scheduler" when absent or empty; the protocol of
// every container and init container port "TCP" when absent or empty; spec.volumes[*].rbd.pool
// "rbd" when absent or empty. Nothing else is defaulted, notably: container requests are not
// copied from limits, hostNetwork pods' ports get no hostPort, pod-level requests are not derived,
// terminationGracePeriodSeconds stays nullopt, priority stays nullopt, and a node's absent
// allocatable stays empty. The API server materializes all of those in stored objects, and
// kube-scheduler itself (client-go) applies no defaulting, so reproducing them here would only
// diverge from upstream on input that did not come from an API server.
//
// Errors: InvalidArgument for malformed JSON ("invalid JSON at offset <n>: <reason>") and for
// every decoding error. No exception escapes (allocation failure aside).
//
// Thread-safety: the functions are reentrant; a rapidjson::Value may be decoded from several
// threads at once as long as nobody modifies it.
#pragma once

#include <concepts>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "api/api_status.h"
#include "api/namespace.h"
#include "api/node.h"
#include "api/object_list.h"
#include "api/pod.h"
#include "api/pod_disruption_budget.h"
#include "api/resource.h"
#include "api/storage.h"
#include "api/watch_event.h"
#include "api/workloads.h"
#include "rapidjson/document.h"

namespace ksched::api {

// The object kinds with a decoder.
template <typename T>
concept DecodableObject =
    std::same_as<T, Pod> || std::same_as<T, Node> || std::same_as<T, PodDisruptionBudget> ||
    std::same_as<T, Service> || std::same_as<T, ReplicationController> ||
    std::same_as<T, ReplicaSet> || std::same_as<T, StatefulSet> || std::same_as<T, Namespace> ||
    std::same_as<T, PersistentVolumeClaim> || std::same_as<T, PersistentVolume> ||
    std::same_as<T, StorageClass> || std::same_as<T, CSINode> || std::same_as<T, VolumeAttachment> ||
    std::same_as<T, CSIDriver> || std::same_as<T, CSIStorageCapacity> || std::same_as<T, ResourceSlice> ||
    std::same_as<T, DeviceClass> || std::same_as<T, ResourceClaim>;

// Parses JSON text into `document` (see above for the parse rules). `ParseJsonInSitu` parses
// `buffer` in place: the document's strings then point into `buffer`, which must outlive it and
// must not be modified while it is used.
absl::Status ParseJson(std::string_view text, rapidjson::Document& document);
absl::Status ParseJsonInSitu(std::string& buffer, rapidjson::Document& document);

absl::StatusOr<Pod> DecodePod(const rapidjson::Value& json);
absl::StatusOr<Pod> DecodePod(std::string_view json);
absl::StatusOr<Pod> DecodePodInSitu(std::string& json);

absl::StatusOr<Node> DecodeNode(const rapidjson::Value& json);
absl::StatusOr<Node> DecodeNode(std::string_view json);
absl::StatusOr<Node> DecodeNodeInSitu(std::string& json);

// policy/v1 PodDisruptionBudget: metadata, spec.selector (absent or null: nullopt),
// status.disruptionsAllowed and the names of status.disruptedPods (sorted; each value must be a
// time, as in Go, but is not kept). Nothing is defaulted.
absl::StatusOr<PodDisruptionBudget> DecodePodDisruptionBudget(const rapidjson::Value& json);
absl::StatusOr<PodDisruptionBudget> DecodePodDisruptionBudget(std::string_view json);
absl::StatusOr<PodDisruptionBudget> DecodePodDisruptionBudgetInSitu(std::string& json);

// The pod-selecting objects of api/workloads.h: metadata (annotations and ownerReferences
// cleared) and spec.selector (absent or null: nullopt; a Service's or ReplicationController's is
// a label map, a ReplicaSet's or StatefulSet's a metav1.LabelSelector); and core/v1 Namespace:
// metadata only, annotations and ownerReferences cleared. Read through DecodeList and
// DecodeWatchEvent; the reflectors are their only readers.

// The storage objects of api/storage.h (what the volume plugins read; every other field
// dropped), read through DecodeList and DecodeWatchEvent by their reflectors.

// The dynamic resource allocation objects of api/resource.h (what DynamicResources reads; every
// other field dropped), read through DecodeList and DecodeWatchEvent by their reflectors; a
// ResourceClaim also alone (a GET's or PATCH's response). Nothing is defaulted. A ResourceSlice's
// and a DeviceClass's metadata drop annotations and ownerReferences; a ResourceClaim keeps them and
// metadata.finalizers. Device attributes and capacities are sorted by name (a repeated name keeps
// its last value). Opaque configuration (`opaque`, an object whose `driver` must be a string) and
// status.devices (an array) are kept as compact JSON text re-rendered by RapidJSON;
// status.allocation.allocationTimestamp as its text, once it parses as an RFC 3339 time.
absl::StatusOr<ResourceClaim> DecodeResourceClaim(const rapidjson::Value& json);
absl::StatusOr<ResourceClaim> DecodeResourceClaim(std::string_view json);

// metav1.Status, as in an API error response body.
absl::StatusOr<ApiStatus> DecodeApiStatus(const rapidjson::Value& json);
absl::StatusOr<ApiStatus> DecodeApiStatus(std::string_view json);

// A PodList, NodeList or PodDisruptionBudgetList: {"kind":"PodList","metadata":{
// "resourceVersion":"..","continue":"..","remainingItemCount":n},"items":[...]}. Item errors are
// reported under "items[i]".
template <DecodableObject T>
absl::StatusOr<ObjectList<T>> DecodeList(const rapidjson::Value& json);
template <DecodableObject T>
absl::StatusOr<ObjectList<T>> DecodeList(std::string_view json);
template <DecodableObject T>
absl::StatusOr<ObjectList<T>> DecodeListInSitu(std::string& json);

// One watch event: {"type":"ADDED|MODIFIED|DELETED|BOOKMARK|ERROR","object":{...}}. An unknown
// type is an error (`type: invalid watch event type "X"`), as is a missing object. For BOOKMARK
// only the object's metadata is read (no name required); for ERROR the object is a metav1.Status.
// Object errors are reported under "object".
template <DecodableObject T>
absl::StatusOr<WatchEvent<T>> DecodeWatchEvent(const rapidjson::Value& json);
template <DecodableObject T>
absl::StatusOr<WatchEvent<T>> DecodeWatchEvent(std::string_view json);
template <DecodableObject T>
absl::StatusOr<WatchEvent<T>> DecodeWatchEventInSitu(std::string& json);

// Instantiated in json_decode.cc for every DecodableObject.
#define KSCHED_EXTERN_DECODERS(T)                                                               \
  extern template absl::StatusOr<ObjectList<T>> DecodeList<T>(const rapidjson::Value&);          \
  extern template absl::StatusOr<ObjectList<T>> DecodeList<T>(std::string_view);                 \
  extern template absl::StatusOr<ObjectList<T>> DecodeListInSitu<T>(std::string&);               \
  extern template absl::StatusOr<WatchEvent<T>> DecodeWatchEvent<T>(const rapidjson::Value&);    \
  extern template absl::StatusOr<WatchEvent<T>> DecodeWatchEvent<T>(std::string_view);           \
  extern template absl::StatusOr<WatchEvent<T>> DecodeWatchEventInSitu<T>(std::string&);
KSCHED_EXTERN_DECODERS(Pod)
KSCHED_EXTERN_DECODERS(Node)
KSCHED_EXTERN_DECODERS(PodDisruptionBudget)
KSCHED_EXTERN_DECODERS(Service)
KSCHED_EXTERN_DECODERS(ReplicationController)
KSCHED_EXTERN_DECODERS(ReplicaSet)
KSCHED_EXTERN_DECODERS(StatefulSet)
KSCHED_EXTERN_DECODERS(Namespace)
KSCHED_EXTERN_DECODERS(PersistentVolumeClaim)
KSCHED_EXTERN_DECODERS(PersistentVolume)
KSCHED_EXTERN_DECODERS(StorageClass)
KSCHED_EXTERN_DECODERS(CSINode)
KSCHED_EXTERN_DECODERS(VolumeAttachment)
KSCHED_EXTERN_DECODERS(CSIDriver)
KSCHED_EXTERN_DECODERS(CSIStorageCapacity)
KSCHED_EXTERN_DECODERS(ResourceSlice)
KSCHED_EXTERN_DECODERS(DeviceClass)
KSCHED_EXTERN_DECODERS(ResourceClaim)
#undef KSCHED_EXTERN_DECODERS

}  // namespace ksched::api
