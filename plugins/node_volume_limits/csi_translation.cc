#include "plugins/node_volume_limits/csi_translation.h"

#include <cctype>
#include <set>
#include <vector>

namespace ksched::plugins::node_volume_limits {
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

}  // namespace

std::string_view InlineMigratablePlugin(const api::Volume& volume) {
  if (volume.gce_persistent_disk.has_value()) return api::kGcePdInTreePlugin;
  if (volume.aws_elastic_block_store.has_value()) return api::kAwsEbsInTreePlugin;
  if (volume.other_in_tree.has_value()) return volume.other_in_tree->plugin;
  return {};
}

bool IsCSIMigrationOn(const api::CSINode* csi_node, std::string_view plugin) {
  if (csi_node == nullptr || plugin.empty()) return false;
  if (plugin == api::kAwsEbsInTreePlugin || plugin == api::kGcePdInTreePlugin ||
      plugin == api::kAzureDiskInTreePlugin || plugin == api::kCinderInTreePlugin) {
    return true;
  }
  // Portworx (CSIMigrationPortworx is on in v1.34) only where the node says it migrated.
  if (plugin != api::kPortworxInTreePlugin) return false;
  std::optional<std::string_view> migrated = csi_node->metadata.annotations.Get(api::kMigratedPluginsAnnotation);
  if (!migrated.has_value()) return false;
  for (std::string_view name : Split(*migrated, ",")) {
    if (name == plugin) return true;
  }
  return false;
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

}  // namespace ksched::plugins::node_volume_limits
