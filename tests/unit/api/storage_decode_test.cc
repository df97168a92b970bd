// Decoding of the storage objects of api/storage.h (PersistentVolumeClaim, PersistentVolume,
// StorageClass) through DecodeList and DecodeWatchEvent, as a v1.34 API server returns them
// (`kubectl get -o json`, trimmed); expected values are read off the JSON by hand.
#include <catch2/catch.hpp>

#include <string>
#include <string_view>

#include "api/json_decode.h"
#include "api/storage.h"

namespace {

using ksched::api::DecodeList;
using ksched::api::DecodeWatchEvent;
using ksched::api::DecodeWatchEventInSitu;
using ksched::api::Labels;
using ksched::api::PersistentVolume;
using ksched::api::PersistentVolumeClaim;
using ksched::api::StorageClass;

template <typename T>
std::string WatchErrorOf(std::string_view json) {
  auto event = DecodeWatchEvent<T>(json);
  if (event.ok()) return "<ok>";
  return std::string(event.status().message());
}

constexpr std::string_view kClaimEvent = R"json({"type": "MODIFIED", "object": {
  "kind": "PersistentVolumeClaim", "apiVersion": "v1",
  "metadata": {"name": "data-web-0", "namespace": "shop", "uid": "u-1", "resourceVersion": "91",
               "annotations": {"pv.kubernetes.io/bind-completed": "yes",
                               "volume.beta.kubernetes.io/storage-class": "fast"},
               "finalizers": ["kubernetes.io/pvc-protection"],
               "ownerReferences": [{"apiVersion": "apps/v1", "kind": "StatefulSet", "name": "web", "uid": "s"}]},
  "spec": {"accessModes": ["ReadWriteOnce", "ReadWriteOncePod"],
           "resources": {"requests": {"storage": "1Gi"}},
           "storageClassName": "standard", "volumeMode": "Filesystem", "volumeName": "pvc-123"},
  "status": {"phase": "Bound", "accessModes": ["ReadWriteOnce"], "capacity": {"storage": "1Gi"}}
}})json";

TEST_CASE("DecodeWatchEvent<PersistentVolumeClaim>: access modes, volume, class and annotations",
          "[api][json]") {
  auto event = DecodeWatchEvent<PersistentVolumeClaim>(kClaimEvent);
  REQUIRE(event.ok());
  const PersistentVolumeClaim& claim = event->object;
  CHECK(claim.metadata.name == "data-web-0");
  CHECK(claim.metadata.namespace_ == "shop");
  CHECK(claim.metadata.resource_version == "91");
  // Kept: a generic ephemeral volume's claim must be controlled by its pod.
  REQUIRE(claim.metadata.owner_references.size() == 1);
  CHECK(claim.metadata.owner_references[0].kind == "StatefulSet");
  CHECK(claim.spec.storage_request == std::int64_t{1} << 30);
  CHECK(claim.spec.volume_mode == "Filesystem");
  CHECK_FALSE(claim.spec.selector.has_value());
  CHECK(claim.phase == "Bound");
  CHECK(claim.metadata.annotations.Get("pv.kubernetes.io/bind-completed") == "yes");
  CHECK(claim.spec.access_modes == std::vector<std::string>{"ReadWriteOnce", "ReadWriteOncePod"});
  CHECK(claim.spec.volume_name == "pvc-123");
  CHECK(claim.spec.storage_class_name == "standard");
  CHECK(ksched::api::HasAccessMode(claim, "ReadWriteOncePod"));
  CHECK_FALSE(ksched::api::HasAccessMode(claim, "ReadWriteMany"));
  // The beta annotation wins over spec.storageClassName, as upstream's GetPersistentVolumeClaimClass.
  CHECK(ksched::api::PersistentVolumeClaimClass(claim) == "fast");

  std::string buffer(kClaimEvent);
  auto in_situ = DecodeWatchEventInSitu<PersistentVolumeClaim>(buffer);
  REQUIRE(in_situ.ok());
  CHECK(in_situ->object == claim);
}

TEST_CASE("DecodeList<PersistentVolumeClaim>: a class that is absent, null or empty", "[api][json]") {
  auto list = DecodeList<PersistentVolumeClaim>(std::string_view(R"json({
    "kind": "PersistentVolumeClaimList", "apiVersion": "v1", "metadata": {"resourceVersion": "5"},
    "items": [
      {"metadata": {"name": "absent", "namespace": "a"}, "spec": {"accessModes": ["ReadWriteOnce"]}},
      {"metadata": {"name": "null", "namespace": "a"}, "spec": {"storageClassName": null}},
      {"metadata": {"name": "empty", "namespace": "a"}, "spec": {"storageClassName": ""}}
    ]})json"));
  REQUIRE(list.ok());
  REQUIRE(list->items.size() == 3);
  CHECK_FALSE(list->items[0].spec.storage_class_name.has_value());
  CHECK_FALSE(list->items[1].spec.storage_class_name.has_value());
  CHECK(list->items[2].spec.storage_class_name == "");
  for (const PersistentVolumeClaim& claim : list->items) {
    CHECK(ksched::api::PersistentVolumeClaimClass(claim).empty());
    CHECK(claim.spec.volume_name.empty());
  }
}

TEST_CASE("DecodeList<PersistentVolume> and DecodeList<StorageClass>: labels, binding mode", "[api][json]") {
  auto volumes = DecodeList<PersistentVolume>(std::string_view(R"json({
    "kind": "PersistentVolumeList", "apiVersion": "v1", "metadata": {"resourceVersion": "8"},
    "items": [{"metadata": {"name": "pv-1", "labels": {"topology.kubernetes.io/zone": "zone-1"},
                            "annotations": {"pv.kubernetes.io/provisioned-by": "x"}},
               "spec": {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"],
                        "claimRef": {"namespace": "a", "name": "c"}, "hostPath": {"path": "/tmp"}},
               "status": {"phase": "Bound"}}]})json"));
  REQUIRE(volumes.ok());
  REQUIRE(volumes->items.size() == 1);
  CHECK(volumes->items[0].metadata.name == "pv-1");
  CHECK(volumes->items[0].metadata.labels == Labels{{"topology.kubernetes.io/zone", "zone-1"}});
  // VolumeBinding reads the volume's annotations (bound-by-controller, the beta class).
  CHECK(volumes->items[0].metadata.annotations ==
        Labels{{"pv.kubernetes.io/provisioned-by", "x"}});
  const ksched::api::PersistentVolumeSpec& spec = volumes->items[0].spec;
  CHECK(spec.capacity == std::int64_t{1} << 30);
  CHECK(spec.access_modes == std::vector<std::string>{"ReadWriteOnce"});
  REQUIRE(spec.claim_ref.has_value());
  CHECK(spec.claim_ref->namespace_ == "a");
  CHECK(spec.claim_ref->name == "c");
  CHECK(spec.claim_ref->uid.empty());
  CHECK(spec.storage_class_name.empty());
  CHECK_FALSE(spec.volume_mode.has_value());
  CHECK_FALSE(spec.node_affinity.has_value());
  CHECK(volumes->items[0].phase == "Bound");
  CHECK(ksched::api::VolumeNodeAffinityMatches(volumes->items[0], Labels{}));

  auto classes = DecodeList<StorageClass>(std::string_view(R"json({
    "kind": "StorageClassList", "apiVersion": "storage.k8s.io/v1", "metadata": {"resourceVersion": "9"},
    "items": [{"metadata": {"name": "fast", "annotations": {"storageclass.kubernetes.io/is-default-class": "true"}},
               "provisioner": "ebs.csi.aws.com", "reclaimPolicy": "Delete",
               "volumeBindingMode": "WaitForFirstConsumer", "allowVolumeExpansion": true},
              {"metadata": {"name": "old"}, "provisioner": "p"}]})json"));
  REQUIRE(classes.ok());
  REQUIRE(classes->items.size() == 2);
  CHECK(classes->items[0].provisioner == "ebs.csi.aws.com");
  CHECK(classes->items[0].volume_binding_mode == "WaitForFirstConsumer");
  CHECK(classes->items[0].metadata.annotations.empty());
  CHECK_FALSE(classes->items[1].volume_binding_mode.has_value());
}

TEST_CASE("DecodeList<PersistentVolume>: node affinity, selector, class and topology terms", "[api][json]") {
  auto volumes = DecodeList<PersistentVolume>(std::string_view(R"json({
    "kind": "PersistentVolumeList", "apiVersion": "v1", "metadata": {"resourceVersion": "8"},
    "items": [{"metadata": {"name": "local-1", "annotations": {"volume.beta.kubernetes.io/storage-class": "beta"}},
               "spec": {"capacity": {"storage": "500M"}, "storageClassName": "local", "volumeMode": "Block",
                        "nodeAffinity": {"required": {"nodeSelectorTerms": [{"matchExpressions": [
                          {"key": "kubernetes.io/hostname", "operator": "In", "values": ["node-2"]}]}]}}},
               "status": {"phase": "Available"}}]})json"));
  REQUIRE(volumes.ok());
  const PersistentVolume& volume = volumes->items[0];
  CHECK(volume.spec.capacity == 500000000);
  CHECK(volume.spec.volume_mode == "Block");
  CHECK(volume.phase == "Available");
  // The beta annotation wins (storagehelpers.GetPersistentVolumeClass).
  CHECK(ksched::api::PersistentVolumeClass(volume) == "beta");
  CHECK(ksched::api::VolumeNodeAffinityMatches(volume, Labels{{"kubernetes.io/hostname", "node-2"}}));
  CHECK_FALSE(ksched::api::VolumeNodeAffinityMatches(volume, Labels{{"kubernetes.io/hostname", "node-1"}}));
  CHECK_FALSE(ksched::api::VolumeNodeAffinityMatches(volume, Labels{}));

  auto claims = DecodeList<PersistentVolumeClaim>(std::string_view(R"json({
    "kind": "PersistentVolumeClaimList", "apiVersion": "v1", "metadata": {"resourceVersion": "5"},
    "items": [{"metadata": {"name": "c", "namespace": "a"},
               "spec": {"selector": {"matchLabels": {"tier": "gold"}}, "volumeAttributesClassName": "silver",
                        "resources": {"requests": {"storage": "1.5Gi"}, "limits": {"storage": "3Gi"}}},
               "status": {"phase": "Pending"}}]})json"));
  REQUIRE(claims.ok());
  const PersistentVolumeClaim& claim = claims->items[0];
  REQUIRE(claim.spec.selector.has_value());
  CHECK(claim.spec.selector->match_labels == Labels{{"tier", "gold"}});
  CHECK(claim.spec.volume_attributes_class_name == "silver");
  CHECK(claim.spec.storage_request == std::int64_t{3} << 29);
  CHECK(claim.phase == "Pending");

  auto classes = DecodeList<StorageClass>(std::string_view(R"json({
    "kind": "StorageClassList", "apiVersion": "storage.k8s.io/v1", "metadata": {"resourceVersion": "9"},
    "items": [{"metadata": {"name": "zonal"}, "provisioner": "p", "volumeBindingMode": "WaitForFirstConsumer",
               "allowedTopologies": [{"matchLabelExpressions": [
                 {"key": "topology.kubernetes.io/zone", "values": ["zone-1", "zone-2"]}]}]}]})json"));
  REQUIRE(classes.ok());
  const StorageClass& zonal = classes->items[0];
  REQUIRE(zonal.allowed_topologies.size() == 1);
  CHECK(ksched::api::MatchTopologySelectorTerms(zonal.allowed_topologies, Labels{{"topology.kubernetes.io/zone", "zone-2"}}));
  CHECK_FALSE(ksched::api::MatchTopologySelectorTerms(zonal.allowed_topologies, Labels{{"topology.kubernetes.io/zone", "zone-3"}}));
  CHECK_FALSE(ksched::api::MatchTopologySelectorTerms(zonal.allowed_topologies, Labels{}));
  // No terms allow every node; an empty term selects nothing.
  CHECK(ksched::api::MatchTopologySelectorTerms({}, Labels{}));
  CHECK_FALSE(ksched::api::MatchTopologySelectorTerms({ksched::api::NodeSelectorTerm{}}, Labels{}));
}

TEST_CASE("DecodeList<CSINode>, DecodeList<VolumeAttachment> and volume sources", "[api][json]") {
  auto nodes = DecodeList<ksched::api::CSINode>(std::string_view(R"json({
    "kind": "CSINodeList", "apiVersion": "storage.k8s.io/v1", "metadata": {"resourceVersion": "3"},
    "items": [{"metadata": {"name": "node-1", "annotations": {"storage.alpha.kubernetes.io/migrated-plugins": "kubernetes.io/gce-pd"},
                            "ownerReferences": [{"apiVersion": "v1", "kind": "Node", "name": "node-1", "uid": "n"}]},
               "spec": {"drivers": [{"name": "pd.csi.storage.gke.io", "nodeID": "x", "allocatable": {"count": 15},
                                     "topologyKeys": ["topology.gke.io/zone"]},
                                    {"name": "nolimit.example.com", "nodeID": "y"}]}}]})json"));
  REQUIRE(nodes.ok());
  const ksched::api::CSINode& csi_node = nodes->items[0];
  CHECK(csi_node.metadata.annotations.Get("storage.alpha.kubernetes.io/migrated-plugins") == "kubernetes.io/gce-pd");
  REQUIRE(csi_node.drivers.size() == 2);
  CHECK(csi_node.drivers[0].name == "pd.csi.storage.gke.io");
  CHECK(csi_node.drivers[0].allocatable_count == 15);
  CHECK_FALSE(csi_node.drivers[1].allocatable_count.has_value());

  auto attachments = DecodeList<ksched::api::VolumeAttachment>(std::string_view(R"json({
    "kind": "VolumeAttachmentList", "apiVersion": "storage.k8s.io/v1", "metadata": {"resourceVersion": "4"},
    "items": [{"metadata": {"name": "csi-123"},
               "spec": {"attacher": "ebs.csi.aws.com", "nodeName": "node-1", "source": {"persistentVolumeName": "pv-1"}},
               "status": {"attached": true}},
              {"metadata": {"name": "csi-inline"},
               "spec": {"attacher": "ebs.csi.aws.com", "nodeName": "node-2", "source": {"inlineVolumeSpec": {}}}}]})json"));
  REQUIRE(attachments.ok());
  CHECK(attachments->items[0].attacher == "ebs.csi.aws.com");
  CHECK(attachments->items[0].node_name == "node-1");
  CHECK(attachments->items[0].persistent_volume_name == "pv-1");
  CHECK_FALSE(attachments->items[1].persistent_volume_name.has_value());

  auto volumes = DecodeList<PersistentVolume>(std::string_view(R"json({
    "kind": "PersistentVolumeList", "apiVersion": "v1", "metadata": {"resourceVersion": "8"},
    "items": [{"metadata": {"name": "csi"}, "spec": {"csi": {"driver": "d.example.com", "volumeHandle": "h-1", "fsType": "ext4"}}},
              {"metadata": {"name": "ebs"}, "spec": {"awsElasticBlockStore": {"volumeID": "aws://z/vol-1", "fsType": "ext4"}}},
              {"metadata": {"name": "azure"}, "spec": {"azureDisk": {"diskName": "d", "diskURI": "uri", "kind": "Managed"}}},
              {"metadata": {"name": "vsphere"}, "spec": {"vsphereVolume": {"volumePath": "[ds] v.vmdk"}}}]})json"));
  REQUIRE(volumes.ok());
  REQUIRE(volumes->items[0].spec.csi.has_value());
  CHECK(volumes->items[0].spec.csi->driver == "d.example.com");
  CHECK(volumes->items[0].spec.csi->volume_handle == "h-1");
  CHECK(volumes->items[1].spec.in_tree == ksched::api::InTreeVolumeSource{"kubernetes.io/aws-ebs", "aws://z/vol-1", std::nullopt});
  CHECK(volumes->items[2].spec.in_tree == ksched::api::InTreeVolumeSource{"kubernetes.io/azure-disk", "uri", "Managed"});
  CHECK(volumes->items[3].spec.in_tree == ksched::api::InTreeVolumeSource{"kubernetes.io/vsphere-volume", "", std::nullopt});
}

TEST_CASE("DecodeList<CSIDriver> and DecodeList<CSIStorageCapacity>", "[api][json]") {
  auto drivers = DecodeList<ksched::api::CSIDriver>(std::string_view(R"json({
    "kind": "CSIDriverList", "apiVersion": "storage.k8s.io/v1", "metadata": {"resourceVersion": "3"},
    "items": [{"metadata": {"name": "a.example.com"}, "spec": {"attachRequired": false, "storageCapacity": true}},
              {"metadata": {"name": "b.example.com"}, "spec": {"podInfoOnMount": true}},
              {"metadata": {"name": "c.example.com"},
               "spec": {"storageCapacity": false, "preventPodSchedulingIfMissing": true, "nodeAllocatableUpdatePeriodSeconds": 60}},
              {"metadata": {"name": "d.example.com"}, "spec": {"preventPodSchedulingIfMissing": false}},
              {"metadata": {"name": "e.example.com"}, "spec": {"preventPodSchedulingIfMissing": null}}]})json"));
  REQUIRE(drivers.ok());
  REQUIRE(drivers->items.size() == 5);
  CHECK(drivers->items[0].storage_capacity == true);
  CHECK_FALSE(drivers->items[0].prevent_pod_scheduling_if_missing.has_value());
  CHECK_FALSE(drivers->items[1].storage_capacity.has_value());
  CHECK(drivers->items[2].storage_capacity == false);
  CHECK(drivers->items[2].prevent_pod_scheduling_if_missing == true);
  CHECK(drivers->items[3].prevent_pod_scheduling_if_missing == false);
  CHECK_FALSE(drivers->items[4].prevent_pod_scheduling_if_missing.has_value());
  // A wrong type is an error naming the field, as for every other field.
  auto bad = DecodeList<ksched::api::CSIDriver>(std::string_view(R"json({
    "kind": "CSIDriverList", "apiVersion": "storage.k8s.io/v1", "metadata": {"resourceVersion": "3"},
    "items": [{"metadata": {"name": "a.example.com"}, "spec": {"preventPodSchedulingIfMissing": "yes"}}]})json"));
  CHECK_FALSE(bad.ok());

  auto capacities = DecodeList<ksched::api::CSIStorageCapacity>(std::string_view(R"json({
    "kind": "CSIStorageCapacityList", "apiVersion": "storage.k8s.io/v1", "metadata": {"resourceVersion": "4"},
    "items": [{"metadata": {"name": "c1", "namespace": "kube-system"}, "storageClassName": "fast",
               "capacity": "100Gi", "maximumVolumeSize": "10Gi",
               "nodeTopology": {"matchLabels": {"topology.kubernetes.io/zone": "z1"}}},
              {"metadata": {"name": "c2", "namespace": "kube-system"}, "storageClassName": "fast"}]})json"));
  REQUIRE(capacities.ok());
  const ksched::api::CSIStorageCapacity& c1 = capacities->items[0];
  CHECK(c1.metadata.namespace_ == "kube-system");
  CHECK(c1.storage_class_name == "fast");
  CHECK(c1.capacity == std::int64_t{100} << 30);
  CHECK(ksched::api::VolumeLimit(c1) == std::int64_t{10} << 30);
  REQUIRE(c1.node_topology.has_value());
  CHECK(c1.node_topology->match_labels == Labels{{"topology.kubernetes.io/zone", "z1"}});
  CHECK_FALSE(ksched::api::VolumeLimit(capacities->items[1]).has_value());
  CHECK_FALSE(capacities->items[1].node_topology.has_value());
}

TEST_CASE("Decoding the storage objects: errors name the field's path and the kind", "[api][json]") {
  CHECK(WatchErrorOf<PersistentVolumeClaim>(
            R"({"type":"ADDED","object":{"metadata":{"name":"c"},"spec":{"accessModes":"ReadWriteOnce"}}})") ==
        "object.spec.accessModes: expected an array, got string");
  CHECK(WatchErrorOf<PersistentVolumeClaim>(
            R"({"type":"ADDED","object":{"metadata":{"name":"c"},"spec":{"volumeName":3}}})") ==
        "object.spec.volumeName: expected a string, got number");
  CHECK(WatchErrorOf<StorageClass>(R"({"type":"ADDED","object":{"metadata":{"name":"s"},"volumeBindingMode":1}})") ==
        "object.volumeBindingMode: expected a string, got number");
  CHECK(WatchErrorOf<PersistentVolumeClaim>(
            R"({"type":"ADDED","object":{"metadata":{"name":"c"},"spec":{"resources":{"requests":{"storage":"1x"}}}}})")
            .starts_with("object.spec.resources.requests.storage: "));
  CHECK(WatchErrorOf<PersistentVolume>(
            R"({"type":"ADDED","object":{"metadata":{"name":"v"},"spec":{"claimRef":{"name":1}}}})") ==
        "object.spec.claimRef.name: expected a string, got number");
  CHECK(WatchErrorOf<PersistentVolume>(R"({"type":"ADDED","object":{"metadata":{"labels":{}}}})") ==
        "object.metadata.name: required field is missing or empty");
  CHECK(WatchErrorOf<StorageClass>(R"({"type":"ADDED","object":{"kind":"PersistentVolume","metadata":{"name":"s"}}})") ==
        "object.kind: expected \"StorageClass\", got \"PersistentVolume\"");
}

}  // namespace
