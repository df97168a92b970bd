// Pod and PodList decoding (api/json_decode.h). The JSON is written the way a v1.34 API server
// returns it (field order, managedFields, server-filled defaults); expected values are read off the
// JSON by hand.
#include <catch2/catch.hpp>

#include "decode_test_support.h"
#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/json_decode.h"
#include "api/pod.h"
#include "api/quantity.h"

namespace {

using ksched::api::testing::At;
using ksched::api::testing::Q;

using ksched::api::DecodeList;
using ksched::api::DecodeListInSitu;
using ksched::api::DecodePod;
using ksched::api::DecodePodInSitu;
using ksched::api::Labels;
using ksched::api::LabelSelector;
using ksched::api::LabelSelectorRequirement;
using ksched::api::NodeSelectorRequirement;
using ksched::api::Pod;
using ksched::api::Quantity;
using ksched::api::ResourceList;
using ksched::api::Time;



std::string ErrorOf(std::string_view json) {
  auto pod = DecodePod(json);
  if (pod.ok()) return "<ok>";
  CHECK(pod.status().code() == absl::StatusCode::kInvalidArgument);
  return std::string(pod.status().message());
}

constexpr std::string_view kFullPod = R"json({
  "kind": "Pod",
  "apiVersion": "v1",
  "metadata": {
    "name": "web-7d4b9c8f6-x2k9p",
    "generateName": "web-7d4b9c8f6-",
    "namespace": "prod",
    "uid": "5f0c7a8e-3b1d-4c2e-9a6f-1e2d3c4b5a69",
    "resourceVersion": "123456",
    "generation": 3,
    "creationTimestamp": "2025-06-01T12:30:45Z",
    "deletionTimestamp": "2025-06-01T13:00:00Z",
    "deletionGracePeriodSeconds": 45,
    "labels": {
      "app": "web",
      "pod-template-hash": "7d4b9c8f6",
      "tier": "frontend"
    },
    "annotations": {
      "example.com/note": "hello",
      "kubectl.kubernetes.io/restartedAt": "2025-05-30T08:00:00Z"
    },
    "ownerReferences": [
      {
        "apiVersion": "apps/v1",
        "kind": "ReplicaSet",
        "name": "web-7d4b9c8f6",
        "uid": "0a1b2c3d-4e5f-6789-abcd-ef0123456789",
        "controller": true,
        "blockOwnerDeletion": true
      },
      {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "name": "web-config",
        "uid": "11111111-2222-3333-4444-555555555555"
      }
    ],
    "finalizers": ["example.com/protect"],
    "managedFields": [
      {
        "manager": "kube-controller-manager",
        "operation": "Update",
        "apiVersion": "v1",
        "time": "2025-06-01T12:30:45Z",
        "fieldsType": "FieldsV1",
        "fieldsV1": {"f:metadata": {"f:labels": {".": {}, "f:app": {}}}}
      }
    ]
  },
  "spec": {
    "volumes": [
      {"name": "data", "persistentVolumeClaim": {"claimName": "data-pvc", "readOnly": true}},
      {
        "name": "scratch",
        "ephemeral": {
          "volumeClaimTemplate": {
            "metadata": {"creationTimestamp": null},
            "spec": {
              "accessModes": ["ReadWriteOnce"],
              "resources": {"requests": {"storage": "1Gi"}},
              "volumeMode": "Filesystem"
            }
          }
        }
      },
      {"name": "pd", "gcePersistentDisk": {"pdName": "disk-1", "fsType": "ext4", "readOnly": true}},
      {"name": "ebs", "awsElasticBlockStore": {"volumeID": "vol-0abc", "fsType": "ext4"}},
      {
        "name": "ceph",
        "rbd": {
          "monitors": ["10.0.0.1:6789", "10.0.0.2:6789"],
          "image": "img-1",
          "fsType": "ext4",
          "pool": "kube",
          "user": "admin",
          "keyring": "/etc/ceph/keyring",
          "readOnly": true
        }
      },
      {
        "name": "lun",
        "iscsi": {
          "targetPortal": "10.0.0.5:3260",
          "iqn": "iqn.2001-04.com.example:storage.disk1",
          "lun": 2,
          "iscsiInterface": "default",
          "fsType": "ext4"
        }
      },
      {
        "name": "inline",
        "csi": {"driver": "inline.storage.example.com", "readOnly": true,
                "volumeAttributes": {"size": "1Gi"}}
      },
      {
        "name": "kube-api-access-abcde",
        "projected": {
          "sources": [
            {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
            {"configMap": {"name": "kube-root-ca.crt", "items": [{"key": "ca.crt", "path": "ca.crt"}]}}
          ],
          "defaultMode": 420
        }
      },
      {"name": "azure", "azureDisk": {"diskName": "d1", "diskURI": "/subscriptions/s/disks/d1", "kind": "Managed"}}
    ],
    "initContainers": [
      {
        "name": "init",
        "image": "busybox:1.36",
        "command": ["sh", "-c", "true"],
        "resources": {"requests": {"cpu": "100m", "memory": "64Mi"}},
        "terminationMessagePath": "/dev/termination-log",
        "terminationMessagePolicy": "File",
        "imagePullPolicy": "IfNotPresent"
      },
      {
        "name": "proxy",
        "image": "envoyproxy/envoy:v1.30.1",
        "ports": [{"name": "admin", "containerPort": 9901, "protocol": "UDP"}],
        "resources": {"limits": {"cpu": "200m"}, "requests": {"cpu": "50m"}},
        "restartPolicy": "Always",
        "imagePullPolicy": "IfNotPresent"
      }
    ],
    "containers": [
      {
        "name": "app",
        "image": "nginx:1.27",
        "ports": [
          {"name": "http", "hostPort": 8080, "containerPort": 8080, "protocol": "TCP",
           "hostIP": "10.1.2.3"}
        ],
        "resources": {
          "limits": {"cpu": "2", "memory": "1Gi", "nvidia.com/gpu": "1"},
          "requests": {"cpu": "500m", "memory": "512Mi", "nvidia.com/gpu": "1"}
        },
        "volumeMounts": [{"name": "data", "mountPath": "/data"}],
        "livenessProbe": {"httpGet": {"path": "/healthz", "port": 8080, "scheme": "HTTP"}},
        "imagePullPolicy": "IfNotPresent"
      },
      {
        "name": "metrics",
        "image": "prom/node-exporter:v1.8.0",
        "ports": [{"containerPort": 9100, "hostPort": 9100}],
        "resources": {"requests": {"cpu": "10m", "ephemeral-storage": "1Gi"}}
      }
    ],
    "restartPolicy": "Always",
    "terminationGracePeriodSeconds": 45,
    "dnsPolicy": "ClusterFirst",
    "nodeSelector": {"kubernetes.io/os": "linux", "disktype": "ssd"},
    "serviceAccountName": "default",
    "serviceAccount": "default",
    "nodeName": "node-7",
    "hostNetwork": true,
    "securityContext": {},
    "affinity": {
      "nodeAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": {
          "nodeSelectorTerms": [
            {"matchExpressions": [{"key": "topology.kubernetes.io/zone", "operator": "In",
                                   "values": ["us-east-1a", "us-east-1b"]}]},
            {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["node-7"]}]}
          ]
        },
        "preferredDuringSchedulingIgnoredDuringExecution": [
          {"weight": 20, "preference": {"matchExpressions": [{"key": "disktype", "operator": "Exists"}]}}
        ]
      },
      "podAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": [
          {
            "labelSelector": {"matchLabels": {"app": "cache"}},
            "namespaces": ["prod", "shared"],
            "topologyKey": "topology.kubernetes.io/zone"
          }
        ],
        "preferredDuringSchedulingIgnoredDuringExecution": [
          {
            "weight": 50,
            "podAffinityTerm": {
              "labelSelector": {"matchExpressions": [{"key": "tier", "operator": "NotIn", "values": ["batch"]}]},
              "namespaceSelector": {},
              "topologyKey": "kubernetes.io/hostname",
              "matchLabelKeys": ["pod-template-hash"]
            }
          }
        ]
      },
      "podAntiAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": [
          {
            "labelSelector": {"matchLabels": {"app": "web"}},
            "namespaceSelector": {"matchLabels": {"team": "web"}},
            "topologyKey": "kubernetes.io/hostname",
            "mismatchLabelKeys": ["tenant"]
          }
        ]
      }
    },
    "schedulerName": "custom-scheduler",
    "tolerations": [
      {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute",
       "tolerationSeconds": 300},
      {"key": "dedicated", "operator": "Equal", "value": "web", "effect": "NoSchedule"},
      {"operator": "Exists"}
    ],
    "priorityClassName": "high-priority",
    "priority": 1000000,
    "enableServiceLinks": true,
    "preemptionPolicy": "Never",
    "overhead": {"cpu": "250m", "memory": "120Mi"},
    "topologySpreadConstraints": [
      {
        "maxSkew": 1,
        "topologyKey": "topology.kubernetes.io/zone",
        "whenUnsatisfiable": "DoNotSchedule",
        "labelSelector": {"matchLabels": {"app": "web"}},
        "minDomains": 3,
        "nodeAffinityPolicy": "Honor",
        "nodeTaintsPolicy": "Ignore",
        "matchLabelKeys": ["pod-template-hash"]
      },
      {
        "maxSkew": 2,
        "topologyKey": "kubernetes.io/hostname",
        "whenUnsatisfiable": "ScheduleAnyway",
        "labelSelector": {"matchExpressions": [{"key": "app", "operator": "In", "values": ["web", "api"]}]}
      }
    ],
    "schedulingGates": [{"name": "example.com/quota"}, {"name": "example.com/approval"}],
    "resourceClaims": [{"name": "gpu", "resourceClaimTemplateName": "gpu-template"}],
    "resources": {"limits": {"cpu": "4", "memory": "2Gi"}, "requests": {"cpu": "1", "memory": "1Gi"}}
  },
  "status": {
    "phase": "Running",
    "conditions": [
      {
        "type": "PodScheduled",
        "status": "True",
        "lastProbeTime": null,
        "lastTransitionTime": "2025-06-01T12:30:46Z",
        "observedGeneration": 3
      },
      {
        "type": "DisruptionTarget",
        "status": "True",
        "lastProbeTime": "2025-06-01T12:59:00Z",
        "lastTransitionTime": "2025-06-01T12:59:30Z",
        "reason": "PreemptionByScheduler",
        "message": "default-scheduler: preempting to accommodate a higher priority pod"
      }
    ],
    "hostIP": "10.1.2.3",
    "podIP": "10.1.2.3",
    "nominatedNodeName": "node-3",
    "startTime": "2025-06-01T12:31:00Z",
    "containerStatuses": [
      {
        "name": "app",
        "state": {"running": {"startedAt": "2025-06-01T12:31:05Z"}},
        "lastState": {},
        "ready": true,
        "restartCount": 0,
        "image": "docker.io/library/nginx:1.27",
        "imageID": "docker.io/library/nginx@sha256:0123",
        "started": true,
        "allocatedResources": {"cpu": "500m", "memory": "512Mi", "nvidia.com/gpu": "1"},
        "resources": {"limits": {"cpu": "2", "memory": "1Gi"}, "requests": {"cpu": "500m", "memory": "512Mi"}}
      },
      {"name": "metrics", "ready": false, "restartCount": 1, "image": "", "imageID": ""}
    ],
    "initContainerStatuses": [
      {"name": "init", "ready": false, "restartCount": 0, "image": "", "imageID": ""},
      {"name": "proxy", "allocatedResources": {"cpu": "50m"}}
    ],
    "qosClass": "Burstable",
    "resize": "InProgress",
    "allocatedResources": {"cpu": "1100m", "memory": "1Gi"},
    "resources": {"requests": {"cpu": "1", "memory": "1Gi"}, "limits": {"memory": "2Gi"}}
  }
})json";

TEST_CASE("DecodePod: metadata of a full pod", "[api][json]") {
  auto pod = DecodePod(kFullPod);
  REQUIRE(pod.ok());
  const auto& m = pod->metadata;
  CHECK(m.name == "web-7d4b9c8f6-x2k9p");
  CHECK(m.namespace_ == "prod");
  CHECK(m.uid == "5f0c7a8e-3b1d-4c2e-9a6f-1e2d3c4b5a69");
  CHECK(m.resource_version == "123456");
  CHECK(m.generation == 3);
  CHECK(m.creation_timestamp == At(2025, 6, 1, 12, 30, 45));
  CHECK(m.deletion_timestamp == At(2025, 6, 1, 13, 0, 0));
  CHECK(m.labels == Labels{{"app", "web"}, {"pod-template-hash", "7d4b9c8f6"}, {"tier", "frontend"}});
  CHECK(m.annotations == Labels{{"example.com/note", "hello"},
                                {"kubectl.kubernetes.io/restartedAt", "2025-05-30T08:00:00Z"}});
  REQUIRE(m.owner_references.size() == 2);
  CHECK(m.owner_references[0].api_version == "apps/v1");
  CHECK(m.owner_references[0].kind == "ReplicaSet");
  CHECK(m.owner_references[0].name == "web-7d4b9c8f6");
  CHECK(m.owner_references[0].uid == "0a1b2c3d-4e5f-6789-abcd-ef0123456789");
  CHECK(m.owner_references[0].controller);
  CHECK(m.owner_references[1].kind == "ConfigMap");
  CHECK_FALSE(m.owner_references[1].controller);
  REQUIRE(m.ControllerRef() != nullptr);
  CHECK(m.ControllerRef()->name == "web-7d4b9c8f6");
}

TEST_CASE("DecodePod: scalar spec fields of a full pod", "[api][json]") {
  auto pod = DecodePod(kFullPod);
  REQUIRE(pod.ok());
  const auto& s = pod->spec;
  CHECK(s.node_name == "node-7");
  CHECK(s.scheduler_name == "custom-scheduler");
  CHECK(s.priority == 1000000);
  CHECK(s.priority_class_name == "high-priority");
  CHECK(s.preemption_policy == "Never");
  CHECK(s.node_selector == Labels{{"disktype", "ssd"}, {"kubernetes.io/os", "linux"}});
  CHECK(s.host_network);
  CHECK(s.termination_grace_period_seconds == 45);
  CHECK(s.scheduling_gates == std::vector<std::string>{"example.com/quota", "example.com/approval"});
  CHECK(s.resource_claims == std::vector<ksched::api::PodResourceClaim>{{"gpu", std::nullopt, "gpu-template"}});
  CHECK(s.overhead.size() == 2);
  CHECK(Q(s.overhead, "cpu") == "250m");
  CHECK(Q(s.overhead, "memory") == "120Mi");
  CHECK(Q(s.resources.requests, "cpu") == "1");
  CHECK(Q(s.resources.requests, "memory") == "1Gi");
  CHECK(Q(s.resources.limits, "cpu") == "4");
  CHECK(Q(s.resources.limits, "memory") == "2Gi");
}

TEST_CASE("DecodePod: containers of a full pod", "[api][json]") {
  auto pod = DecodePod(kFullPod);
  REQUIRE(pod.ok());
  const auto& s = pod->spec;
  REQUIRE(s.containers.size() == 2);
  const auto& app = s.containers[0];
  CHECK(app.name == "app");
  CHECK(app.image == "nginx:1.27");
  CHECK(app.restart_policy.empty());
  CHECK_FALSE(app.IsRestartable());
  CHECK(app.resources.requests.size() == 3);
  CHECK(Q(app.resources.requests, "cpu") == "500m");
  CHECK(Q(app.resources.requests, "memory") == "512Mi");
  CHECK(Q(app.resources.requests, "nvidia.com/gpu") == "1");
  CHECK(app.resources.limits.size() == 3);
  CHECK(Q(app.resources.limits, "cpu") == "2");
  CHECK(Q(app.resources.limits, "memory") == "1Gi");
  CHECK(app.resources.requests.Get("cpu")->MilliValue() == 500);
  CHECK(app.resources.requests.Get("memory")->Value() == 512LL * 1024 * 1024);
  REQUIRE(app.ports.size() == 1);
  CHECK(app.ports[0].container_port == 8080);
  CHECK(app.ports[0].host_port == 8080);
  CHECK(app.ports[0].protocol == "TCP");
  CHECK(app.ports[0].host_ip == "10.1.2.3");

  const auto& metrics = s.containers[1];
  CHECK(metrics.name == "metrics");
  CHECK(metrics.image == "prom/node-exporter:v1.8.0");
  CHECK(metrics.resources.limits.empty());
  CHECK(Q(metrics.resources.requests, "ephemeral-storage") == "1Gi");
  REQUIRE(metrics.ports.size() == 1);
  CHECK(metrics.ports[0].container_port == 9100);
  CHECK(metrics.ports[0].host_port == 9100);
  CHECK(metrics.ports[0].protocol == "TCP");  // defaulted
  CHECK(metrics.ports[0].host_ip.empty());

  REQUIRE(s.init_containers.size() == 2);
  CHECK(s.init_containers[0].name == "init");
  CHECK(s.init_containers[0].image == "busybox:1.36");
  CHECK(Q(s.init_containers[0].resources.requests, "memory") == "64Mi");
  CHECK_FALSE(s.init_containers[0].IsRestartable());
  const auto& proxy = s.init_containers[1];
  CHECK(proxy.name == "proxy");
  CHECK(proxy.restart_policy == "Always");
  CHECK(proxy.IsRestartable());
  CHECK(Q(proxy.resources.requests, "cpu") == "50m");
  CHECK(Q(proxy.resources.limits, "cpu") == "200m");
  REQUIRE(proxy.ports.size() == 1);
  CHECK(proxy.ports[0].container_port == 9901);
  CHECK(proxy.ports[0].host_port == 0);
  CHECK(proxy.ports[0].protocol == "UDP");
}

TEST_CASE("DecodePod: volumes of a full pod", "[api][json]") {
  auto pod = DecodePod(kFullPod);
  REQUIRE(pod.ok());
  const auto& v = pod->spec.volumes;
  REQUIRE(v.size() == 9);

  CHECK(v[0].name == "data");
  REQUIRE(v[0].persistent_volume_claim.has_value());
  CHECK(v[0].persistent_volume_claim->claim_name == "data-pvc");
  CHECK(v[0].persistent_volume_claim->read_only);
  CHECK_FALSE(v[0].ephemeral);

  CHECK(v[1].name == "scratch");
  CHECK(v[1].ephemeral);
  CHECK_FALSE(v[1].persistent_volume_claim.has_value());

  CHECK(v[2].name == "pd");
  REQUIRE(v[2].gce_persistent_disk.has_value());
  CHECK(v[2].gce_persistent_disk->pd_name == "disk-1");
  CHECK(v[2].gce_persistent_disk->read_only);

  CHECK(v[3].name == "ebs");
  REQUIRE(v[3].aws_elastic_block_store.has_value());
  CHECK(v[3].aws_elastic_block_store->volume_id == "vol-0abc");
  CHECK_FALSE(v[3].aws_elastic_block_store->read_only);

  CHECK(v[4].name == "ceph");
  REQUIRE(v[4].rbd.has_value());
  CHECK(v[4].rbd->monitors == std::vector<std::string>{"10.0.0.1:6789", "10.0.0.2:6789"});
  CHECK(v[4].rbd->pool == "kube");
  CHECK(v[4].rbd->image == "img-1");
  CHECK(v[4].rbd->read_only);

  CHECK(v[5].name == "lun");
  REQUIRE(v[5].iscsi.has_value());
  CHECK(v[5].iscsi->target_portal == "10.0.0.5:3260");
  CHECK(v[5].iscsi->iqn == "iqn.2001-04.com.example:storage.disk1");
  CHECK(v[5].iscsi->lun == 2);
  CHECK_FALSE(v[5].iscsi->read_only);

  CHECK(v[6].name == "inline");
  REQUIRE(v[6].csi.has_value());
  CHECK(v[6].csi->driver == "inline.storage.example.com");
  CHECK(v[6].csi->read_only);

  // A projected volume has none of the kept sources.
  CHECK(v[7].name == "kube-api-access-abcde");
  ksched::api::Volume projected;
  projected.name = "kube-api-access-abcde";
  CHECK(v[7] == projected);

  CHECK(v[8].name == "azure");
  CHECK(v[8].other_in_tree ==
        ksched::api::InTreeVolumeSource{"kubernetes.io/azure-disk", "/subscriptions/s/disks/d1", "Managed"});
}

TEST_CASE("DecodePod: affinity of a full pod", "[api][json]") {
  auto pod = DecodePod(kFullPod);
  REQUIRE(pod.ok());
  const auto& a = pod->spec.affinity;

  REQUIRE(a.node_affinity.required.has_value());
  const auto& terms = a.node_affinity.required->node_selector_terms;
  REQUIRE(terms.size() == 2);
  CHECK(terms[0].match_expressions ==
        std::vector<NodeSelectorRequirement>{
            {"topology.kubernetes.io/zone", "In", {"us-east-1a", "us-east-1b"}}});
  CHECK(terms[0].match_fields.empty());
  CHECK(terms[1].match_expressions.empty());
  CHECK(terms[1].match_fields ==
        std::vector<NodeSelectorRequirement>{{"metadata.name", "In", {"node-7"}}});
  REQUIRE(a.node_affinity.preferred.size() == 1);
  CHECK(a.node_affinity.preferred[0].weight == 20);
  CHECK(a.node_affinity.preferred[0].preference.match_expressions ==
        std::vector<NodeSelectorRequirement>{{"disktype", "Exists", {}}});

  REQUIRE(a.pod_affinity.required.size() == 1);
  const auto& req = a.pod_affinity.required[0];
  REQUIRE(req.label_selector.has_value());
  CHECK(req.label_selector->match_labels == Labels{{"app", "cache"}});
  CHECK(req.label_selector->match_expressions.empty());
  CHECK(req.namespaces == std::vector<std::string>{"prod", "shared"});
  CHECK_FALSE(req.namespace_selector.has_value());
  CHECK(req.topology_key == "topology.kubernetes.io/zone");
  CHECK(req.match_label_keys.empty());

  REQUIRE(a.pod_affinity.preferred.size() == 1);
  CHECK(a.pod_affinity.preferred[0].weight == 50);
  const auto& pref = a.pod_affinity.preferred[0].pod_affinity_term;
  REQUIRE(pref.label_selector.has_value());
  CHECK(pref.label_selector->match_expressions ==
        std::vector<LabelSelectorRequirement>{{"tier", "NotIn", {"batch"}}});
  // An empty namespaceSelector is present (it selects every namespace), unlike an absent one.
  REQUIRE(pref.namespace_selector.has_value());
  CHECK(*pref.namespace_selector == LabelSelector{});
  CHECK(pref.topology_key == "kubernetes.io/hostname");
  CHECK(pref.match_label_keys == std::vector<std::string>{"pod-template-hash"});

  REQUIRE(a.pod_anti_affinity.required.size() == 1);
  CHECK(a.pod_anti_affinity.preferred.empty());
  const auto& anti = a.pod_anti_affinity.required[0];
  CHECK(anti.label_selector->match_labels == Labels{{"app", "web"}});
  REQUIRE(anti.namespace_selector.has_value());
  CHECK(anti.namespace_selector->match_labels == Labels{{"team", "web"}});
  CHECK(anti.topology_key == "kubernetes.io/hostname");
  CHECK(anti.mismatch_label_keys == std::vector<std::string>{"tenant"});
}

TEST_CASE("DecodePod: tolerations and topology spread of a full pod", "[api][json]") {
  auto pod = DecodePod(kFullPod);
  REQUIRE(pod.ok());
  const auto& t = pod->spec.tolerations;
  REQUIRE(t.size() == 3);
  CHECK(t[0].key == "node.kubernetes.io/not-ready");
  CHECK(t[0].op == "Exists");
  CHECK(t[0].value.empty());
  CHECK(t[0].effect == "NoExecute");
  CHECK(t[0].toleration_seconds == 300);
  CHECK(t[1].key == "dedicated");
  CHECK(t[1].op == "Equal");
  CHECK(t[1].value == "web");
  CHECK(t[1].effect == "NoSchedule");
  CHECK_FALSE(t[1].toleration_seconds.has_value());
  CHECK(t[2].key.empty());
  CHECK(t[2].op == "Exists");
  CHECK(t[2].effect.empty());

  const auto& c = pod->spec.topology_spread_constraints;
  REQUIRE(c.size() == 2);
  CHECK(c[0].max_skew == 1);
  CHECK(c[0].topology_key == "topology.kubernetes.io/zone");
  CHECK(c[0].when_unsatisfiable == "DoNotSchedule");
  REQUIRE(c[0].label_selector.has_value());
  CHECK(c[0].label_selector->match_labels == Labels{{"app", "web"}});
  CHECK(c[0].min_domains == 3);
  CHECK(c[0].node_affinity_policy == "Honor");
  CHECK(c[0].node_taints_policy == "Ignore");
  CHECK(c[0].match_label_keys == std::vector<std::string>{"pod-template-hash"});
  CHECK(c[1].max_skew == 2);
  CHECK(c[1].topology_key == "kubernetes.io/hostname");
  CHECK(c[1].when_unsatisfiable == "ScheduleAnyway");
  CHECK(c[1].label_selector->match_expressions ==
        std::vector<LabelSelectorRequirement>{{"app", "In", {"web", "api"}}});
  CHECK_FALSE(c[1].min_domains.has_value());
  CHECK(c[1].node_affinity_policy.empty());
  CHECK(c[1].node_taints_policy.empty());
  CHECK(c[1].match_label_keys.empty());
}

TEST_CASE("DecodePod: status of a full pod", "[api][json]") {
  auto pod = DecodePod(kFullPod);
  REQUIRE(pod.ok());
  const auto& st = pod->status;
  CHECK(st.phase == "Running");
  CHECK(st.nominated_node_name == "node-3");
  CHECK(st.start_time == At(2025, 6, 1, 12, 31, 0));
  REQUIRE(st.conditions.size() == 2);
  CHECK(st.conditions[0].type == "PodScheduled");
  CHECK(st.conditions[0].status == "True");
  CHECK(st.conditions[0].reason.empty());
  CHECK(st.conditions[0].message.empty());
  CHECK_FALSE(st.conditions[0].last_probe_time.has_value());
  CHECK(st.conditions[0].last_transition_time == At(2025, 6, 1, 12, 30, 46));
  CHECK(st.conditions[0].observed_generation == 3);
  const auto* disruption = st.FindCondition("DisruptionTarget");
  REQUIRE(disruption != nullptr);
  CHECK(disruption == &st.conditions[1]);
  CHECK(disruption->reason == "PreemptionByScheduler");
  CHECK(disruption->message == "default-scheduler: preempting to accommodate a higher priority pod");
  CHECK(disruption->last_probe_time == At(2025, 6, 1, 12, 59, 0));
  CHECK(disruption->last_transition_time == At(2025, 6, 1, 12, 59, 30));
  CHECK(disruption->observed_generation == 0);
  CHECK(st.FindCondition("Ready") == nullptr);

  REQUIRE(st.resource_status.has_value());
  const auto& reported = st.resource_status.Get();
  REQUIRE(reported.container_statuses.size() == 2);
  CHECK(reported.container_statuses[0].name == "app");
  CHECK(Q(reported.container_statuses[0].allocated_resources, "nvidia.com/gpu") == "1");
  REQUIRE(reported.container_statuses[0].resources.has_value());
  CHECK(Q(reported.container_statuses[0].resources->requests, "cpu") == "500m");
  CHECK(Q(reported.container_statuses[0].resources->limits, "memory") == "1Gi");
  CHECK(reported.container_statuses[1].name == "metrics");
  CHECK_FALSE(reported.container_statuses[1].resources.has_value());
  CHECK(reported.container_statuses[1].allocated_resources.empty());
  REQUIRE(reported.init_container_statuses.size() == 2);
  CHECK(reported.init_container_statuses[1].name == "proxy");
  CHECK(Q(reported.init_container_statuses[1].allocated_resources, "cpu") == "50m");
  // Pod-level status.allocatedResources and status.resources (InPlacePodLevelResourcesVerticalScaling).
  CHECK(Q(reported.allocated_resources, "cpu") == "1100m");
  CHECK(Q(reported.allocated_resources, "memory") == "1Gi");
  REQUIRE(reported.resources.has_value());
  CHECK(Q(reported.resources->requests, "cpu") == "1");
  CHECK(Q(reported.resources->limits, "memory") == "2Gi");
  CHECK_FALSE(reported.resources->limits.Has("cpu"));
}

TEST_CASE("DecodePod: the kubelet-reported resources are boxed, absent on a pending pod", "[api][json]") {
  auto pending = DecodePod(R"json({"metadata": {"name": "p", "namespace": "default"},
    "spec": {"containers": [{"name": "c"}]}, "status": {"phase": "Pending", "conditions": []}})json");
  REQUIRE(pending.ok());
  CHECK_FALSE(pending->status.resource_status.has_value());
  CHECK(pending->status.resource_status.Get().container_statuses.empty());
  CHECK_FALSE(pending->status.resource_status.Get().resources.has_value());
  // Only pod-level fields: boxed, "resources": {} present without requests or limits.
  auto pod_level = DecodePod(R"json({"metadata": {"name": "p", "namespace": "default"},
    "spec": {"containers": [{"name": "c"}]}, "status": {"resources": {}, "allocatedResources": null}})json");
  REQUIRE(pod_level.ok());
  REQUIRE(pod_level->status.resource_status.has_value());
  REQUIRE(pod_level->status.resource_status.Get().resources.has_value());
  CHECK(pod_level->status.resource_status.Get().resources->requests.empty());
  CHECK(pod_level->status.resource_status.Get().allocated_resources.empty());
  auto bad = DecodePod(R"json({"metadata": {"name": "p", "namespace": "default"},
    "spec": {"containers": [{"name": "c"}]}, "status": {"allocatedResources": {"cpu": "1x"}}})json");
  CHECK_FALSE(bad.ok());
  // Equality reads an empty box as empty statuses.
  ksched::api::PodStatus with_empty_box;
  with_empty_box.resource_status.Mutable();
  CHECK(with_empty_box == ksched::api::PodStatus{});
  CHECK(sizeof(ksched::api::CompactBox<ksched::api::PodResourceStatus>) == sizeof(void*));
}

TEST_CASE("DecodePod: in-situ and Value decoding give the same pod", "[api][json]") {
  auto copied = DecodePod(kFullPod);
  REQUIRE(copied.ok());
  std::string buffer(kFullPod);
  auto in_situ = DecodePodInSitu(buffer);
  REQUIRE(in_situ.ok());
  CHECK(*in_situ == *copied);

  rapidjson::Document document;
  REQUIRE(ksched::api::ParseJson(kFullPod, document).ok());
  auto from_value = DecodePod(document);
  REQUIRE(from_value.ok());
  CHECK(*from_value == *copied);
}

TEST_CASE("DecodePod: defaults and absent fields", "[api][json]") {
  auto pod = DecodePod(R"({"metadata":{"name":"p"},"spec":{
      "containers":[{"name":"c","ports":[{"containerPort":80},{"containerPort":53,"protocol":""}]}],
      "initContainers":[{"name":"i","ports":[{"containerPort":81}]}],
      "volumes":[{"name":"r","rbd":{"monitors":["m"],"image":"i"}}]}})");
  REQUIRE(pod.ok());
  CHECK(pod->metadata.name == "p");
  CHECK(pod->metadata.namespace_.empty());
  CHECK_FALSE(pod->metadata.creation_timestamp.has_value());
  CHECK_FALSE(pod->metadata.deletion_timestamp.has_value());
  CHECK(pod->spec.scheduler_name == "default-scheduler");
  CHECK(pod->spec.containers[0].ports[0].protocol == "TCP");
  CHECK(pod->spec.containers[0].ports[1].protocol == "TCP");
  CHECK(pod->spec.init_containers[0].ports[0].protocol == "TCP");
  CHECK(pod->spec.volumes[0].rbd->pool == "rbd");
  // Not defaulted.
  CHECK_FALSE(pod->spec.priority.has_value());
  CHECK_FALSE(pod->spec.termination_grace_period_seconds.has_value());
  CHECK(pod->spec.preemption_policy.empty());
  CHECK_FALSE(pod->spec.affinity.node_affinity.required.has_value());
  CHECK(pod->status.phase.empty());
  CHECK_FALSE(pod->status.start_time.has_value());

  auto empty_scheduler = DecodePod(R"({"metadata":{"name":"p"},"spec":{"schedulerName":""}})");
  REQUIRE(empty_scheduler.ok());
  CHECK(empty_scheduler->spec.scheduler_name == "default-scheduler");
}

TEST_CASE("DecodePod: requests are not copied from limits", "[api][json]") {
  auto pod = DecodePod(
      R"({"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"1"}}}]}})");
  REQUIRE(pod.ok());
  CHECK(pod->spec.containers[0].resources.requests.empty());
  CHECK(Q(pod->spec.containers[0].resources.limits, "cpu") == "1");
}

TEST_CASE("DecodePod: null is absent, null elements are zero values", "[api][json]") {
  auto pod = DecodePod(R"({"metadata":{"name":"p","labels":{"a":null,"b":"x"},"deletionTimestamp":null},
      "spec":{"priority":null,"containers":null,"nodeSelector":null,"affinity":null,
              "tolerations":[null,{"key":"k"}],
              "overhead":{"cpu":null},
              "topologySpreadConstraints":[{"maxSkew":1,"labelSelector":null}]},
      "status":null})");
  REQUIRE(pod.ok());
  CHECK(pod->metadata.labels == Labels{{"a", ""}, {"b", "x"}});
  CHECK_FALSE(pod->metadata.deletion_timestamp.has_value());
  CHECK_FALSE(pod->spec.priority.has_value());
  CHECK(pod->spec.containers.empty());
  REQUIRE(pod->spec.tolerations.size() == 2);
  CHECK(pod->spec.tolerations[0] == ksched::api::Toleration{});
  CHECK(pod->spec.tolerations[1].key == "k");
  REQUIRE(pod->spec.overhead.Has("cpu"));
  CHECK(pod->spec.overhead.Get("cpu")->IsZero());
  CHECK_FALSE(pod->spec.topology_spread_constraints[0].label_selector.has_value());
}

TEST_CASE("DecodePod: unknown fields are ignored whatever their type", "[api][json]") {
  auto pod = DecodePod(R"({"metadata":{"name":"p","futureMeta":[1,{"x":null}]},
      "spec":{"futureField":{"deep":[[[]]]},"containers":[{"name":"c","newThing":true,
              "resources":{"requests":{"cpu":"1"},"claims":[{"name":"gpu"}]}}],
              "Priority":"not the priority field: names are case-sensitive"},
      "status":{"resize":"InProgress","extra":7},
      "topLevelExtra":"x"})");
  REQUIRE(pod.ok());
  CHECK(pod->spec.containers.size() == 1);
  CHECK(Q(pod->spec.containers[0].resources.requests, "cpu") == "1");
  CHECK_FALSE(pod->spec.priority.has_value());
}

TEST_CASE("DecodePod: quantities given as JSON numbers or with spaces", "[api][json]") {
  auto pod = DecodePod(R"({"metadata":{"name":"p"},"spec":{"containers":[{"name":"c",
      "resources":{"requests":{"cpu":2,"memory":" 64Mi ","example.com/frac":1.5,
                               "example.com/huge":"123456789012345678901234567890"}}}]}})");
  REQUIRE(pod.ok());
  const auto& requests = pod->spec.containers[0].resources.requests;
  CHECK(Q(requests, "cpu") == "2");
  CHECK(Q(requests, "memory") == "64Mi");
  CHECK(Q(requests, "example.com/frac") == "1500m");
  CHECK(requests.Get("example.com/huge")->Cmp(*Quantity::Parse("123456789012345678901234567890")) ==
        0);
}

TEST_CASE("DecodePod: wrong JSON types name the field's path", "[api][json]") {
  CHECK(ErrorOf(R"({"metadata":{"name":"p"},"spec":{"priority":"100"}})") ==
        "spec.priority: expected an integer, got string");
  CHECK(ErrorOf(R"({"metadata":{"name":"p"},"spec":{"containers":[
           {"name":"a","resources":{"requests":{"cpu":"1"}}},
           {"name":"b","resources":{"requests":{"memory":"1Gi","cpu":"1x"}}}]}})") ==
        "spec.containers[1].resources.requests[\"cpu\"]: cannot parse '1x': " +
            std::string(ksched::api::kQuantityErrFormatWrong));
  CHECK(ErrorOf(R"({"metadata":{"name":"p"},"spec":{"containers":[{"name":"a","resources":{"limits":{"cpu":true}}}]}})") ==
        "spec.containers[0].resources.limits[\"cpu\"]: expected a quantity string, got bool");
  CHECK(ErrorOf(R"({"metadata":{"name":"p","labels":{"app":1}}})") ==
        "metadata.labels[\"app\"]: expected a string, got number");
  CHECK(ErrorOf(R"({"metadata":{"name":"p"},"spec":{"tolerations":[{"key":"a"},{"tolerationSeconds":1.5}]}})") ==
        "spec.tolerations[1].tolerationSeconds: expected an integer, got 1.5");
  CHECK(ErrorOf(R"({"metadata":{"name":"p"},"spec":{"affinity":{"podAntiAffinity":{
           "requiredDuringSchedulingIgnoredDuringExecution":[{"labelSelector":{
             "matchExpressions":[{"key":"a","operator":"In","values":"x"}]}}]}}}})") ==
        "spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]"
        ".labelSelector.matchExpressions[0].values: expected an array, got string");
  CHECK(ErrorOf(R"({"metadata":{"name":"p"},"spec":{"affinity":{"nodeAffinity":{
           "requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchFields":[
             {"key":"metadata.name","operator":"In","values":["a",2]}]}]}}}}})") ==
        "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution"
        ".nodeSelectorTerms[0].matchFields[0].values[1]: expected a string, got number");
  CHECK(ErrorOf(R"({"metadata":{"name":"p"},"status":{"conditions":[{"type":"PodScheduled","lastTransitionTime":"yesterday"}]}})") ==
        "status.conditions[0].lastTransitionTime: cannot parse time \"yesterday\": not in RFC 3339 "
        "format (YYYY-MM-DDThh:mm:ssZ)");
  CHECK(ErrorOf(R"({"metadata":{"name":"p","creationTimestamp":1700000000}})") ==
        "metadata.creationTimestamp: expected an RFC 3339 time string, got number");
  CHECK(ErrorOf(R"({"metadata":{"name":"p"},"spec":{"hostNetwork":"true"}})") ==
        "spec.hostNetwork: expected a bool, got string");
  CHECK(ErrorOf(R"({"metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","ephemeral":true}]}})") ==
        "spec.volumes[0].ephemeral: expected an object, got bool");
  CHECK(ErrorOf(R"({"metadata":{"name":"p"},"spec":{"schedulingGates":["gate"]}})") ==
        "spec.schedulingGates[0]: expected an object, got string");
  CHECK(ErrorOf(R"({"metadata":[]})") == "metadata: expected an object, got array");
  CHECK(ErrorOf(R"({"metadata":{"name":"p"},"spec":{"containers":{}}})") ==
        "spec.containers: expected an array, got object");
  CHECK(ErrorOf(R"([{"metadata":{"name":"p"}}])") == "expected an object, got array");
  CHECK(ErrorOf(R"("pod")") == "expected an object, got string");
}

TEST_CASE("DecodePod: integers out of range or not integral", "[api][json]") {
  CHECK(ErrorOf(R"({"metadata":{"name":"p"},"spec":{"priority":2147483648}})") ==
        "spec.priority: integer 2147483648 out of range for int32");
  CHECK(ErrorOf(R"({"metadata":{"name":"p"},"spec":{"priority":-2147483649}})") ==
        "spec.priority: integer -2147483649 out of range for int32");
  CHECK(ErrorOf(R"({"metadata":{"name":"p"},"spec":{"priority":1.0}})") ==
        "spec.priority: expected an integer, got a number with a fraction or an exponent");
  CHECK(ErrorOf(R"({"metadata":{"name":"p"},"spec":{"priority":1e3}})") ==
        "spec.priority: expected an integer, got a number with a fraction or an exponent");
  CHECK(ErrorOf(R"({"metadata":{"name":"p","generation":18446744073709551615}})") ==
        "metadata.generation: integer 18446744073709551615 out of range for int64");
  CHECK(ErrorOf(R"({"metadata":{"name":"p","generation":99999999999999999999}})") ==
        "metadata.generation: number 1e+20 out of range for int64");
  CHECK(ErrorOf(R"({"metadata":{"name":"p"},"spec":{"terminationGracePeriodSeconds":-1e300}})") ==
        "spec.terminationGracePeriodSeconds: number -1e+300 out of range for int64");

  auto edges = DecodePod(R"({"metadata":{"name":"p","generation":9223372036854775807},
      "spec":{"priority":-2147483648,"terminationGracePeriodSeconds":-9223372036854775808}})");
  REQUIRE(edges.ok());
  CHECK(edges->metadata.generation == 9223372036854775807LL);
  CHECK(edges->spec.priority == -2147483647 - 1);
  CHECK(edges->spec.termination_grace_period_seconds == -9223372036854775807LL - 1);
}

TEST_CASE("DecodePod: malformed JSON", "[api][json]") {
  const auto starts_with = [](std::string_view json, std::string_view prefix) {
    const std::string message = ErrorOf(json);
    INFO(message);
    return message.rfind(prefix, 0) == 0;
  };
  CHECK(starts_with("", "invalid JSON at offset 0: "));
  CHECK(starts_with("{", "invalid JSON at offset 1: "));
  CHECK(starts_with(R"({"metadata":{"name":"p"},})", "invalid JSON at offset 25: "));
  CHECK(starts_with(R"({"metadata":{"name":"p"}} {})", "invalid JSON at offset 26: "));
  CHECK(starts_with(R"({"metadata":{"name":'p'}})", "invalid JSON at offset 20: "));
  CHECK(ErrorOf(std::string_view("{\"metadata\":{\"name\":\"p\"}}\0x", 27)) ==
        "invalid JSON at offset 25: NUL byte");
  // Deep nesting inside an ignored field: parsed iteratively, no stack overflow.
  std::string deep = R"({"metadata":{"name":"p"},"x":)" + std::string(100000, '[') +
                     std::string(100000, ']') + "}";
  CHECK(ErrorOf(deep) == "<ok>");
  std::string deep_in_situ = deep;
  CHECK(DecodePodInSitu(deep_in_situ).ok());
}

TEST_CASE("DecodePod: metadata.name is required", "[api][json]") {
  CHECK(ErrorOf(R"({"kind":"Pod","spec":{}})") ==
        "metadata.name: required field is missing or empty");
  CHECK(ErrorOf(R"({"metadata":{"namespace":"default"}})") ==
        "metadata.name: required field is missing or empty");
  CHECK(ErrorOf(R"({"metadata":{"name":""}})") ==
        "metadata.name: required field is missing or empty");
  CHECK(ErrorOf(R"({"metadata":{"name":null}})") ==
        "metadata.name: required field is missing or empty");
}

TEST_CASE("DecodePod: kind must be Pod when present", "[api][json]") {
  CHECK(ErrorOf(R"({"kind":"Node","metadata":{"name":"p"}})") ==
        "kind: expected \"Pod\", got \"Node\"");
  CHECK(ErrorOf(R"({"kind":5,"metadata":{"name":"p"}})") == "kind: expected a string, got number");
  CHECK(ErrorOf(R"({"kind":"","metadata":{"name":"p"}})") == "<ok>");
}

TEST_CASE("DecodeList<Pod>: a page with a continue token", "[api][json]") {
  constexpr std::string_view kPodList = R"json({
    "kind": "PodList",
    "apiVersion": "v1",
    "metadata": {
      "resourceVersion": "98765",
      "continue": "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6OTg3NjUsInN0YXJ0IjoicHJvZC9iIn0",
      "remainingItemCount": 1234
    },
    "items": [
      {
        "metadata": {"name": "a", "namespace": "prod", "uid": "u-a", "resourceVersion": "90001",
                     "creationTimestamp": "2025-06-01T00:00:00Z"},
        "spec": {"containers": [{"name": "c", "image": "pause:3.10",
                                 "resources": {"requests": {"cpu": "100m"}}}],
                 "schedulerName": "default-scheduler", "priority": 0},
        "status": {"phase": "Pending", "qosClass": "Burstable"}
      },
      {
        "metadata": {"name": "b", "namespace": "prod", "uid": "u-b", "resourceVersion": "90002",
                     "creationTimestamp": "2025-06-01T00:00:01Z"},
        "spec": {"nodeName": "node-1", "containers": [{"name": "c", "image": "pause:3.10"}]},
        "status": {"phase": "Running", "startTime": "2025-06-01T00:00:05Z"}
      }
    ]
  })json";
  auto list = DecodeList<Pod>(kPodList);
  REQUIRE(list.ok());
  CHECK(list->metadata.resource_version == "98765");
  CHECK(list->metadata.continue_token ==
        "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6OTg3NjUsInN0YXJ0IjoicHJvZC9iIn0");
  CHECK(list->metadata.remaining_item_count == 1234);
  REQUIRE(list->items.size() == 2);
  CHECK(list->items[0].metadata.name == "a");
  CHECK(list->items[0].metadata.uid == "u-a");
  CHECK(list->items[0].metadata.creation_timestamp == At(2025, 6, 1, 0, 0, 0));
  CHECK(list->items[0].spec.priority == 0);
  CHECK(Q(list->items[0].spec.containers[0].resources.requests, "cpu") == "100m");
  CHECK(list->items[0].status.phase == "Pending");
  CHECK(list->items[1].metadata.name == "b");
  CHECK(list->items[1].metadata.resource_version == "90002");
  CHECK(list->items[1].spec.node_name == "node-1");
  CHECK(list->items[1].spec.scheduler_name == "default-scheduler");
  CHECK(list->items[1].status.start_time == At(2025, 6, 1, 0, 0, 5));

  std::string buffer(kPodList);
  auto in_situ = DecodeListInSitu<Pod>(buffer);
  REQUIRE(in_situ.ok());
  CHECK(*in_situ == *list);
}

TEST_CASE("DecodeList<Pod>: last page, empty list and errors", "[api][json]") {
  auto last = DecodeList<Pod>(R"({"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"5"},"items":[]})");
  REQUIRE(last.ok());
  CHECK(last->metadata.resource_version == "5");
  CHECK(last->metadata.continue_token.empty());
  CHECK_FALSE(last->metadata.remaining_item_count.has_value());
  CHECK(last->items.empty());

  auto null_items = DecodeList<Pod>(R"({"kind":"PodList","metadata":{},"items":null})");
  REQUIRE(null_items.ok());
  CHECK(null_items->items.empty());

  const auto error = [](std::string_view json) {
    auto list = DecodeList<Pod>(json);
    return list.ok() ? std::string("<ok>") : std::string(list.status().message());
  };
  CHECK(error(R"({"kind":"PodList","items":[{"metadata":{"name":"a"}},{"metadata":{"name":"b"},"spec":{"priority":"x"}}]})") ==
        "items[1].spec.priority: expected an integer, got string");
  CHECK(error(R"({"kind":"PodList","items":[{"metadata":{}}]})") ==
        "items[0].metadata.name: required field is missing or empty");
  CHECK(error(R"({"kind":"PodList","items":[null]})") ==
        "items[0]: expected an object, got null");
  CHECK(error(R"({"kind":"NodeList","items":[]})") == "kind: expected \"PodList\", got \"NodeList\"");
  CHECK(error(R"({"kind":"PodList","items":[{"kind":"Node","metadata":{"name":"a"}}]})") ==
        "items[0].kind: expected \"Pod\", got \"Node\"");
  CHECK(error(R"({"kind":"PodList","metadata":{"continue":7},"items":[]})") ==
        "metadata.continue: expected a string, got number");
  CHECK(error(R"({"kind":"PodList","items":{}})") == "items: expected an array, got object");
  CHECK(error("[") .rfind("invalid JSON at offset 1: ", 0) == 0);
}

TEST_CASE("DecodePod: spec.resourceClaims and status.resourceClaimStatuses", "[api][json]") {
  auto pod = DecodePod(std::string_view(R"json({"metadata": {"name": "p"},
    "spec": {"resourceClaims": [{"name": "gpu", "resourceClaimTemplateName": "gpu-template"},
                                {"name": "nic", "resourceClaimName": "shared-nic"}, {"name": "empty", "resourceClaimName": ""}]},
    "status": {"resourceClaimStatuses": [{"name": "gpu", "resourceClaimName": "p-gpu-x7k2"}, {"name": "none"}]}})json"));
  REQUIRE(pod.ok());
  using ksched::api::PodResourceClaim;
  using ksched::api::PodResourceClaimStatus;
  CHECK(pod->spec.resource_claims == std::vector<PodResourceClaim>{{"gpu", std::nullopt, "gpu-template"},
                                                                   {"nic", "shared-nic", std::nullopt},
                                                                   {"empty", "", std::nullopt}});
  CHECK(pod->status.resource_claim_statuses ==
        std::vector<PodResourceClaimStatus>{{"gpu", "p-gpu-x7k2"}, {"none", std::nullopt}});
  auto bad = DecodePod(std::string_view(R"({"metadata":{"name":"p"},"status":{"resourceClaimStatuses":[{"resourceClaimName":1}]}})"));
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().message() == "status.resourceClaimStatuses[0].resourceClaimName: expected a string, got number");
}

TEST_CASE("DecodePod: what NodeDeclaredFeatures and ImageLocality read (v1.37.2)", "[api][json]") {
  auto pod = DecodePod(std::string_view(R"json({"metadata": {"name": "p"},
    "spec": {"hostNetwork": true, "hostUsers": false,
             "containers": [{"name": "a", "restartPolicyRules": [{"action": "Restart", "exitCodes": {"operator": "In", "values": [1]}}],
                             "volumeMounts": [{"name": "v", "mountPath": "/v", "bindMountOptions": []}]}],
             "initContainers": [{"name": "i", "restartPolicy": "Always",
                                 "restartPolicyRules": [{"action": "RestartAllContainers"}]}],
             "volumes": [{"name": "img", "image": {"reference": "registry.k8s.io/data:v1", "pullPolicy": "IfNotPresent"}},
                         {"name": "empty-image", "image": {}}, {"name": "scratch", "emptyDir": {}}]}})json"));
  REQUIRE(pod.ok());
  CHECK(pod->spec.host_network);
  CHECK(pod->spec.host_users == std::optional<bool>(false));
  CHECK(pod->spec.has_restart_all_containers_rule);
  CHECK_FALSE(pod->spec.has_bind_mount_options);  // an empty list is no option
  REQUIRE(pod->spec.volumes.size() == 3);
  CHECK(pod->spec.volumes[0].image);
  CHECK(pod->spec.volumes[0].image_reference == "registry.k8s.io/data:v1");
  CHECK(pod->spec.volumes[1].image);
  CHECK(pod->spec.volumes[1].image_reference.empty());
  CHECK_FALSE(pod->spec.volumes[2].image);

  auto ephemeral = DecodePod(std::string_view(R"json({"metadata": {"name": "p"},
    "spec": {"hostUsers": true, "containers": [{"name": "a", "restartPolicyRules": [{"action": "Restart"}]}],
             "ephemeralContainers": [{"name": "debug", "volumeMounts": [{"name": "v", "bindMountOptions": ["noexec"]}]}]}})json"));
  REQUIRE(ephemeral.ok());
  CHECK(ephemeral->spec.host_users == std::optional<bool>(true));
  CHECK_FALSE(ephemeral->spec.has_restart_all_containers_rule);
  CHECK(ephemeral->spec.has_bind_mount_options);

  auto absent = DecodePod(std::string_view(R"({"metadata":{"name":"p"},"spec":{"hostUsers":null}})"));
  REQUIRE(absent.ok());
  CHECK_FALSE(absent->spec.host_users.has_value());
  CHECK_FALSE(absent->spec.has_restart_all_containers_rule);
  CHECK_FALSE(absent->spec.has_bind_mount_options);

  CHECK(ErrorOf(R"({"metadata":{"name":"p"},"spec":{"hostUsers":"false"}})") ==
        "spec.hostUsers: expected a bool, got string");
  CHECK(ErrorOf(R"({"metadata":{"name":"p"},"spec":{"containers":[{"restartPolicyRules":[{"action":1}]}]}})") ==
        "spec.containers[0].restartPolicyRules[0].action: expected a string, got number");
  CHECK(ErrorOf(R"({"metadata":{"name":"p"},"spec":{"ephemeralContainers":[{"volumeMounts":[{"bindMountOptions":"noexec"}]}]}})") ==
        "spec.ephemeralContainers[0].volumeMounts[0].bindMountOptions: expected an array, got string");
  CHECK(ErrorOf(R"({"metadata":{"name":"p"},"spec":{"volumes":[{"name":"v","image":{"reference":7}}]}})") ==
        "spec.volumes[0].image.reference: expected a string, got number");
}

}  // namespace
