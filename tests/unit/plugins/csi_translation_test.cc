// CSI migration's translation (helper/csi_translation): handles and drivers (NodeVolumeLimits),
// migration per node for both plugins' rules, and the node affinity of a translated in-tree volume
// (VolumeBinding), after csi-translation-lib v0.34.4's TestTranslateTopologyFromInTreeToCSI and
// its per-plugin TranslateInTreePVToCSI.
#include "plugins/helper/csi_translation.h"

#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

namespace {

using ksched::api::CSINode;
using ksched::api::Labels;
using ksched::api::NodeSelector;
using ksched::api::NodeSelectorRequirement;
using ksched::api::NodeSelectorTerm;
using ksched::api::PersistentVolume;
namespace helper = ksched::plugins::helper;

constexpr const char* kZone = "topology.kubernetes.io/zone";
constexpr const char* kRegion = "topology.kubernetes.io/region";
constexpr const char* kBetaZone = "failure-domain.beta.kubernetes.io/zone";
constexpr const char* kBetaRegion = "failure-domain.beta.kubernetes.io/region";

PersistentVolume InTree(std::string plugin, std::string id, Labels labels = {},
                        std::optional<std::vector<NodeSelectorTerm>> terms = std::nullopt) {
  PersistentVolume pv;
  pv.metadata.name = "pv";
  pv.metadata.labels = std::move(labels);
  pv.spec.in_tree = ksched::api::InTreeVolumeSource{std::move(plugin), std::move(id), std::nullopt};
  if (terms.has_value()) {
    pv.spec.node_affinity.emplace();
    for (NodeSelectorTerm& term : *terms) pv.spec.node_affinity->node_selector_terms.push_back(std::move(term));
  }
  return pv;
}

NodeSelectorTerm Term(std::vector<NodeSelectorRequirement> requirements) {
  NodeSelectorTerm term;
  term.match_expressions = std::move(requirements);
  return term;
}

std::vector<NodeSelectorTerm> TermsOf(const std::optional<NodeSelector>& selector) {
  REQUIRE(selector.has_value());
  return {selector->node_selector_terms.begin(), selector->node_selector_terms.end()};
}

TEST_CASE("CSI translation: drivers, handles and migration per node", "[plugins][csi_translation]") {
  PersistentVolume pd;
  pd.metadata.name = "pd";
  pd.spec.in_tree = ksched::api::InTreeVolumeSource{"kubernetes.io/gce-pd", "disk-1", std::nullopt};
  CHECK(helper::PersistentVolumeHandle(pd).value() == "projects/UNSPECIFIED/zones/UNSPECIFIED/disks/disk-1");
  pd.metadata.labels = Labels{{"topology.kubernetes.io/zone", "us-central1-a"}};
  CHECK(helper::PersistentVolumeHandle(pd).value() == "projects/UNSPECIFIED/zones/us-central1-a/disks/disk-1");
  pd.metadata.labels = Labels{{"topology.kubernetes.io/zone", "us-central1-a__us-central1-b"}};
  CHECK(helper::PersistentVolumeHandle(pd).value() == "projects/UNSPECIFIED/regions/us-central1/disks/disk-1");
  pd.metadata.labels = Labels{{"topology.kubernetes.io/zone", "us-central1-a__europe-west1-b"}};
  CHECK_FALSE(helper::PersistentVolumeHandle(pd).ok());

  PersistentVolume azure;
  azure.metadata.name = "azure";
  azure.spec.in_tree = ksched::api::InTreeVolumeSource{"kubernetes.io/azure-disk", "uri", std::string("Shared")};
  CHECK(helper::PersistentVolumeHandle(azure).status().message() == "kind(Shared) is not supported in csi migration");
  azure.spec.in_tree->kind = "managed";
  CHECK(helper::PersistentVolumeHandle(azure).value() == "uri");

  CHECK(helper::CSIDriverOf("kubernetes.io/cinder") == "cinder.csi.openstack.org");
  CHECK(helper::CSIDriverOf("example.com/csi").empty());
  CSINode csi_node;
  csi_node.metadata.name = "node-1";
  CHECK_FALSE(helper::IsCSIMigrationOn(nullptr, "kubernetes.io/gce-pd"));
  CHECK(helper::IsCSIMigrationOn(&csi_node, "kubernetes.io/gce-pd"));
  // v1.37 (utils.go): Portworx is on like the others, without the migrated-plugins annotation
  // (v1.34 required the annotation for it).
  CHECK(helper::IsCSIMigrationOn(&csi_node, "kubernetes.io/portworx-volume"));
  csi_node.metadata.annotations.Set("storage.alpha.kubernetes.io/migrated-plugins",
                                    "kubernetes.io/aws-ebs,kubernetes.io/portworx-volume");
  CHECK(helper::IsCSIMigrationOn(&csi_node, "kubernetes.io/portworx-volume"));
  CHECK_FALSE(helper::IsCSIMigrationOn(&csi_node, "kubernetes.io/vsphere-volume"));
}

TEST_CASE("CSI translation: node affinity of translated in-tree volumes", "[plugins][csi_translation]") {
  SECTION("a GA zone becomes the GCE PD topology key; the GA region stays") {
    PersistentVolume pv = InTree("kubernetes.io/gce-pd", "pd", Labels{{kZone, "us-east1-a"}, {kRegion, "us-east1"}},
                                 std::vector{Term({{kZone, "In", {"us-east1-a"}}, {kRegion, "In", {"us-east1"}}})});
    CHECK(TermsOf(helper::TranslatedNodeAffinity(pv).value()) ==
          std::vector{Term({{"topology.gke.io/zone", "In", {"us-east1-a"}}, {kRegion, "In", {"us-east1"}}})});
  }
  SECTION("beta keys in the node affinity win over GA labels; the beta region becomes GA") {
    PersistentVolume pv = InTree("kubernetes.io/gce-pd", "pd", Labels{{kZone, "us-east1-a"}, {kRegion, "us-east1"}},
                                 std::vector{Term({{kBetaZone, "In", {"us-west2-b"}}, {kBetaRegion, "In", {"us-west2"}}})});
    CHECK(TermsOf(helper::TranslatedNodeAffinity(pv).value()) ==
          std::vector{Term({{"topology.gke.io/zone", "In", {"us-west2-b"}}, {kRegion, "In", {"us-west2"}}})});
  }
  SECTION("without a zone in the node affinity, the zone label's zones are added to every term") {
    PersistentVolume pv = InTree("kubernetes.io/aws-ebs", "aws://us-east-1a/vol-1", Labels{{kZone, "us-east-1b__ us-east-1a"}});
    CHECK(TermsOf(helper::TranslatedNodeAffinity(pv).value()) ==
          std::vector{Term({{"topology.ebs.csi.aws.com/zone", "In", {"us-east-1a", "us-east-1b"}}})});
    pv = InTree("kubernetes.io/cinder", "c1", Labels{{kBetaZone, "nova"}},
                std::vector{Term({{"kubernetes.io/hostname", "In", {"a"}}}), Term({{"rack", "Exists", {}}})});
    CHECK(TermsOf(helper::TranslatedNodeAffinity(pv).value()) ==
          std::vector{Term({{"kubernetes.io/hostname", "In", {"a"}},
                            {"topology.cinder.csi.openstack.org/zone", "In", {"nova"}}}),
                      Term({{"rack", "Exists", {}}, {"topology.cinder.csi.openstack.org/zone", "In", {"nova"}}})});
  }
  SECTION("no zone anywhere, or a label without zones, changes nothing") {
    PersistentVolume pv = InTree("kubernetes.io/aws-ebs", "vol-1");
    CHECK_FALSE(helper::TranslatedNodeAffinity(pv).value().has_value());
    pv.metadata.labels = Labels{{kZone, " __"}};
    CHECK_FALSE(helper::TranslatedNodeAffinity(pv).value().has_value());
    // A zone key without values in the node affinity falls back to the label.
    pv = InTree("kubernetes.io/aws-ebs", "vol-1", Labels{{kZone, "z1"}}, std::vector{Term({{kZone, "Exists", {}}})});
    CHECK(TermsOf(helper::TranslatedNodeAffinity(pv).value()) ==
          std::vector{Term({{kZone, "Exists", {}}, {"topology.ebs.csi.aws.com/zone", "In", {"z1"}}})});
  }
  SECTION("Azure Disk and Portworx keep their node affinity") {
    const std::vector terms{Term({{kZone, "In", {"westeurope-1"}}})};
    PersistentVolume azure = InTree("kubernetes.io/azure-disk", "uri", {}, terms);
    CHECK(TermsOf(helper::TranslatedNodeAffinity(azure).value()) == terms);
    PersistentVolume portworx = InTree("kubernetes.io/portworx-volume", "px", {}, terms);
    CHECK(TermsOf(helper::TranslatedNodeAffinity(portworx).value()) == terms);
  }
  SECTION("a volume that does not translate is an error") {
    PersistentVolume ebs = InTree("kubernetes.io/aws-ebs", "aws://us-east-1a/not-a-volume", Labels{{kZone, "us-east-1a"}});
    CHECK(helper::TranslatedNodeAffinity(ebs).status().message() ==
          "failed to translate Kubernetes ID to EBS Volume ID Invalid format for AWS volume "
          "(aws://us-east-1a/not-a-volume)");
    PersistentVolume pd = InTree("kubernetes.io/gce-pd", "pd", Labels{{kZone, "us-central1-a__europe-west1-b"}});
    CHECK(helper::TranslatedNodeAffinity(pd).status().message() ==
          "failed to get region from zones: multiple or no regions gotten from zones");
  }
}

TEST_CASE("CSI translation: VolumeBinding's migration per node needs the CSINode's annotation",
          "[plugins][csi_translation]") {
  CSINode csi_node;
  csi_node.metadata.name = "node-1";
  CHECK_FALSE(helper::IsPluginMigratedToCSIOnNode(nullptr, "kubernetes.io/gce-pd"));
  CHECK_FALSE(helper::IsPluginMigratedToCSIOnNode(&csi_node, "kubernetes.io/gce-pd"));
  csi_node.metadata.annotations.Set("storage.alpha.kubernetes.io/migrated-plugins",
                                    "kubernetes.io/gce-pd,kubernetes.io/vsphere-volume,kubernetes.io/azure-file,"
                                    "kubernetes.io/portworx-volume");
  CHECK(helper::IsPluginMigratedToCSIOnNode(&csi_node, "kubernetes.io/gce-pd"));
  CHECK(helper::IsPluginMigratedToCSIOnNode(&csi_node, "kubernetes.io/portworx-volume"));
  CHECK_FALSE(helper::IsPluginMigratedToCSIOnNode(&csi_node, "kubernetes.io/aws-ebs"));
  // Listed, but their migration is not on for VolumeBinding (isCSIMigrationOnForPlugin).
  CHECK_FALSE(helper::IsPluginMigratedToCSIOnNode(&csi_node, "kubernetes.io/vsphere-volume"));
  CHECK_FALSE(helper::IsPluginMigratedToCSIOnNode(&csi_node, "kubernetes.io/azure-file"));
}

}  // namespace
