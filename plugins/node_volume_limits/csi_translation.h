// What NodeVolumeLimits needs of CSI migration (k8s.io/csi-translation-lib v0.34 and the plugin's
// isCSIMigrationOn): which in-tree volumes are migratable, whether migration is on for a plugin on
// a node, the CSI driver that replaces a plugin, and the CSI volume handle of a translated volume
// (the handle is what makes two pods' uses of one disk count once).
//   GCE PD      pd.csi.storage.gke.io    projects/UNSPECIFIED/zones/<zone>/disks/<pdName> (a PV's
//               zone label; "regions/<region>" for a multi-zone label; UNSPECIFIED inline)
//   AWS EBS     ebs.csi.aws.com          the volumeID without its aws://<zone>/ prefix (vol-...)
//   Azure Disk  disk.csi.azure.com       diskURI (kind Managed only)
//   Cinder      cinder.csi.openstack.org volumeID
//   Portworx    pxd.portworx.com         volumeID
// Azure File and vSphere are migratable too, but NodeVolumeLimits never counts them.
//
// Thread-safety: free functions over immutable inputs.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "api/storage.h"
#include "api/volume.h"

namespace ksched::plugins::node_volume_limits {

// The in-tree plugin of an inline volume CSI migration can translate (IsInlineMigratable and
// GetInTreePluginNameFromSpec), or "".
std::string_view InlineMigratablePlugin(const api::Volume& volume);

// isCSIMigrationOn: the node has a CSINode and the plugin is GCE PD, AWS EBS, Azure Disk or
// Cinder, or Portworx listed in the CSINode's migrated-plugins annotation.
bool IsCSIMigrationOn(const api::CSINode* csi_node, std::string_view plugin);

// GetCSINameFromInTreeName; "" for a plugin that is not migratable.
std::string_view CSIDriverOf(std::string_view plugin);

// TranslateInTreeInlineVolumeToCSI's volume handle, or its error.
absl::StatusOr<std::string> InlineVolumeHandle(const api::Volume& volume);

// TranslateInTreePVToCSI's volume handle, or its error.
absl::StatusOr<std::string> PersistentVolumeHandle(const api::PersistentVolume& volume);

}  // namespace ksched::plugins::node_volume_limits
