#include "plugins/helper/csi_translation.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <vector>

namespace ksched::plugins::helper {
namespace {

constexpr std::string_view kUnspecified = "UNSPECIFIED";

std::vector<std::string_view> Split(std::string_view text, std::string_view delimiter) {
  std::vector<std::string_view> parts;
  while (true) {
    const std::size_t at = text.find(delimiter);
    parts.push_back(text.substr(0, at));
    if (at == std::string_view::npos) return parts;
    text.remove_prefix(at + delimiter.size());
  }
}

// KubernetesVolumeIDToEBSVolumeID: aws://<zone>/<id>, aws:///<id> or a bare id.
absl::StatusOr<std::string> EbsVolumeId(std::string_view kubernetes_id) {
  constexpr std::string_view kScheme = "aws://";
  if (!kubernetes_id.starts_with(kScheme)) return std::string(kubernetes_id);
  std::string_view rest = kubernetes_id.substr(kScheme.size());
  const std::size_t slash = rest.find('/');
  std::string_view id = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
  while (!id.empty() && id.front() == '/') id.remove_prefix(1);
  while (!id.empty() && id.back() == '/') id.remove_suffix(1);
  if (!id.starts_with("vol-") || id.find('/') != std::string_view::npos) {
    return absl::InvalidArgumentError("failed to translate Kubernetes ID to EBS Volume ID Invalid format for AWS volume (" +
                                      std::string(kubernetes_id) + ")");
  }
  return std::string(id);
}

absl::StatusOr<std::string> AzureDiskHandle(const api::InTreeVolumeSource& source) {
  if (source.kind.has_value()) {
    std::string lower = *source.kind;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower != "managed") {
      return absl::InvalidArgumentError("kind(" + *source.kind + ") is not supported in csi migration");
    }
  }
  return source.id;
}

// gceGetRegionFromZones: every zone {locale}-{region}-{zone} of one region.
absl::StatusOr<std::string> GceRegion(const std::vector<std::string_view>& zones) {
  std::set<std::string> regions;
  for (std::string_view zone : zones) {
    std::vector<std::string_view> parts = Split(zone, "-");
    if (parts.size() != 3) {
      return absl::InvalidArgumentError(
          "failed to get region from zones: zone in unexpected format, expected: {locale}-{region}-{zone}, got: " +
          std::string(zone));
    }
    regions.insert(std::string(parts[0]) + "-" + std::string(parts[1]));
  }
  if (regions.size() != 1) {
    return absl::InvalidArgumentError("failed to get region from zones: multiple or no regions gotten from zones");
  }
  return *regions.begin();
}

std::string GceHandle(std::string_view scope, std::string_view where, std::string_view pd_name) {
  return "projects/" + std::string(kUnspecified) + "/" + std::string(scope) + "/" + std::string(where) + "/disks/" +
         std::string(pd_name);
}

constexpr std::string_view kZoneGA = "topology.kubernetes.io/zone";
constexpr std::string_view kZoneBeta = "failure-domain.beta.kubernetes.io/zone";
constexpr std::string_view kRegionGA = "topology.kubernetes.io/region";
constexpr std::string_view kRegionBeta = "failure-domain.beta.kubernetes.io/region";

bool ListsPlugin(const api::CSINode* csi_node, std::string_view plugin) {
  if (csi_node == nullptr) return false;
  std::optional<std::string_view> migrated = csi_node->metadata.annotations.Get(api::kMigratedPluginsAnnotation);
  if (!migrated.has_value() || migrated->empty()) return false;
  for (std::string_view name : Split(*migrated, ",")) {
    if (name == plugin) return true;
  }
  return false;
}

// The CSI topology key translateTopologyFromInTreeToCSI writes for a plugin, or "" (Azure Disk and
// Portworx keep the volume's topology).
std::string_view CSITopologyKeyOf(std::string_view plugin) {
  if (plugin == api::kGcePdInTreePlugin) return "topology.gke.io/zone";
  if (plugin == api::kAwsEbsInTreePlugin) return "topology.ebs.csi.aws.com/zone";
  if (plugin == api::kCinderInTreePlugin) return "topology.cinder.csi.openstack.org/zone";
  return {};
}

// TopologyKeyExist: some term has a match expression on `key`.
bool KeyInAffinity(const std::optional<api::NodeSelector>& affinity, std::string_view key) {
  if (!affinity.has_value()) return false;
  for (const api::NodeSelectorTerm& term : affinity->node_selector_terms) {
    for (const api::NodeSelectorRequirement& requirement : term.match_expressions) {
      if (requirement.key == key) return true;
    }
  }
  return false;
}

// getTopologyValues: the values of every match expression on `key`, unique and sorted.
std::vector<std::string> ValuesInAffinity(const std::optional<api::NodeSelector>& affinity, std::string_view key) {
  std::set<std::string> values;
  if (affinity.has_value()) {
    for (const api::NodeSelectorTerm& term : affinity->node_selector_terms) {
      for (const api::NodeSelectorRequirement& requirement : term.match_expressions) {
        if (requirement.key == key) values.insert(requirement.values.begin(), requirement.values.end());
      }
    }
  }
  return {values.begin(), values.end()};
}

// replaceTopology: every match expression on `old_key` now names `new_key`.
void RenameKey(std::optional<api::NodeSelector>& affinity, std::string_view old_key, std::string_view new_key) {
  if (!affinity.has_value()) return;
  for (api::NodeSelectorTerm& term : affinity->node_selector_terms) {
    for (api::NodeSelectorRequirement& requirement : term.match_expressions) {
      if (requirement.key == old_key) requirement.key = std::string(new_key);
    }
  }
}

// addTopology: `key In zones` (trimmed, non-empty, unique, sorted) appended to every term, one
// term made when there is none; no valid zone changes nothing (upstream ignores that error).
void AddZones(std::optional<api::NodeSelector>& affinity, std::string_view key,
              const std::vector<std::string_view>& zones) {
  std::set<std::string> valid;
  for (std::string_view zone : zones) {
    while (!zone.empty() && std::isspace(static_cast<unsigned char>(zone.front()))) zone.remove_prefix(1);
    while (!zone.empty() && std::isspace(static_cast<unsigned char>(zone.back()))) zone.remove_suffix(1);
    if (!zone.empty()) valid.emplace(zone);
  }
  if (valid.empty()) return;
  if (!affinity.has_value()) affinity.emplace();
  if (affinity->node_selector_terms.empty()) affinity->node_selector_terms.emplace_back();
  const api::NodeSelectorRequirement requirement{std::string(key), "In", {valid.begin(), valid.end()}};
  for (api::NodeSelectorTerm& term : affinity->node_selector_terms) term.match_expressions.push_back(requirement);
}

}  // namespace

std::string_view InlineMigratablePlugin(const api::Volume& volume) {
  if (volume.gce_persistent_disk.has_value()) return api::kGcePdInTreePlugin;
  if (volume.aws_elastic_block_store.has_value()) return api::kAwsEbsInTreePlugin;
  if (volume.other_in_tree.has_value()) return volume.other_in_tree->plugin;
  return {};
}

bool IsCSIMigrationOn(const api::CSINode* csi_node, std::string_view plugin) {
  if (csi_node == nullptr || plugin.empty()) return false;
  // v1.37: every migratable plugin, Portworx included, whatever the CSINode's annotation says.
  return plugin == api::kAwsEbsInTreePlugin || plugin == api::kGcePdInTreePlugin ||
         plugin == api::kAzureDiskInTreePlugin || plugin == api::kCinderInTreePlugin ||
         plugin == api::kPortworxInTreePlugin;
}

bool IsPluginMigratedToCSIOnNode(const api::CSINode* csi_node, std::string_view plugin) {
  const bool migration_on = plugin == api::kAwsEbsInTreePlugin || plugin == api::kGcePdInTreePlugin ||
                            plugin == api::kAzureDiskInTreePlugin || plugin == api::kCinderInTreePlugin ||
                            plugin == api::kPortworxInTreePlugin;
  return migration_on && ListsPlugin(csi_node, plugin);
}

std::string_view CSIDriverOf(std::string_view plugin) {
  if (plugin == api::kGcePdInTreePlugin) return "pd.csi.storage.gke.io";
  if (plugin == api::kAwsEbsInTreePlugin) return "ebs.csi.aws.com";
  if (plugin == api::kAzureDiskInTreePlugin) return "disk.csi.azure.com";
  if (plugin == api::kAzureFileInTreePlugin) return "file.csi.azure.com";
  if (plugin == api::kCinderInTreePlugin) return "cinder.csi.openstack.org";
  if (plugin == api::kVsphereInTreePlugin) return "csi.vsphere.vmware.com";
  if (plugin == api::kPortworxInTreePlugin) return "pxd.portworx.com";
  return {};
}

absl::StatusOr<std::string> InlineVolumeHandle(const api::Volume& volume) {
  if (volume.gce_persistent_disk.has_value()) {
    return GceHandle("zones", kUnspecified, volume.gce_persistent_disk->pd_name);
  }
  if (volume.aws_elastic_block_store.has_value()) return EbsVolumeId(volume.aws_elastic_block_store->volume_id);
  if (volume.other_in_tree.has_value()) {
    if (volume.other_in_tree->plugin == api::kAzureDiskInTreePlugin) return AzureDiskHandle(*volume.other_in_tree);
    return volume.other_in_tree->id;
  }
  return absl::InvalidArgumentError("volume " + volume.name + " has no in-tree source to translate");
}

absl::StatusOr<std::string> PersistentVolumeHandle(const api::PersistentVolume& volume) {
  if (!volume.spec.in_tree.has_value()) {
    return absl::InvalidArgumentError("pv " + volume.metadata.name + " has no in-tree source to translate");
  }
  const api::InTreeVolumeSource& source = *volume.spec.in_tree;
  if (source.plugin == api::kGcePdInTreePlugin) {
    std::string_view zones_label = volume.metadata.labels.Get("failure-domain.beta.kubernetes.io/zone").value_or("");
    if (zones_label.empty()) zones_label = volume.metadata.labels.Get("topology.kubernetes.io/zone").value_or("");
    std::vector<std::string_view> zones = Split(zones_label, "__");
    if (zones.size() == 1 && !zones[0].empty()) return GceHandle("zones", zones[0], source.id);
    if (zones.size() > 1) {
      absl::StatusOr<std::string> region = GceRegion(zones);
      if (!region.ok()) return region.status();
      return GceHandle("regions", *region, source.id);
    }
    return GceHandle("zones", kUnspecified, source.id);
  }
  if (source.plugin == api::kAwsEbsInTreePlugin) return EbsVolumeId(source.id);
  if (source.plugin == api::kAzureDiskInTreePlugin) return AzureDiskHandle(source);
  return source.id;
}

absl::StatusOr<std::optional<api::NodeSelector>> TranslatedNodeAffinity(const api::PersistentVolume& volume) {
  // The handle is translated first; its error is the translation's.
  absl::StatusOr<std::string> handle = PersistentVolumeHandle(volume);
  if (!handle.ok()) return handle.status();
  std::optional<api::NodeSelector> affinity = volume.spec.node_affinity;
  const std::string_view csi_key = CSITopologyKeyOf(volume.spec.in_tree->plugin);
  if (csi_key.empty()) return affinity;

  // getTopologyLabel: GA before beta, the node affinity before the labels, GA by default.
  const api::Labels& labels = volume.metadata.labels;
  std::string_view zone_key = kZoneGA;
  std::string_view region_key = kRegionGA;
  if (!KeyInAffinity(affinity, kZoneGA) &&
      (KeyInAffinity(affinity, kZoneBeta) || (!labels.Has(kZoneGA) && labels.Has(kZoneBeta)))) {
    zone_key = kZoneBeta;
    region_key = kRegionBeta;
  }
  if (!ValuesInAffinity(affinity, zone_key).empty()) {
    RenameKey(affinity, zone_key, csi_key);
  } else if (std::optional<std::string_view> zones = labels.Get(zone_key)) {
    AddZones(affinity, csi_key, Split(*zones, "__"));
  }
  // A beta region becomes GA, so nodes with only GA labels still match.
  if (region_key == kRegionBeta && !ValuesInAffinity(affinity, kRegionBeta).empty()) {
    RenameKey(affinity, kRegionBeta, kRegionGA);
  }
  return affinity;
}

}  // namespace ksched::plugins::helper
