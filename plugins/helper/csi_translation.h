// What NodeVolumeLimits and VolumeBinding need of CSI migration (k8s.io/csi-translation-lib v0.34,
// NodeVolumeLimits' isCSIMigrationOn, VolumeBinding's isCSIMigrationOnForPlugin and
// isPluginMigratedToCSIOnNode): which in-tree volumes are migratable, whether migration is on for
// a plugin on a node, the CSI driver that replaces a plugin, the CSI volume handle of a translated
// volume (the handle is what makes two pods' uses of one disk count once) and a translated
// volume's node affinity (its zone key becomes the CSI driver's topology key).
//   GCE PD      pd.csi.storage.gke.io    projects/UNSPECIFIED/zones/<zone>/disks/<pdName> (a PV's
//               zone label; "regions/<region>" for a multi-zone label; UNSPECIFIED inline)
//   AWS EBS     ebs.csi.aws.com          the volumeID without its aws://<zone>/ prefix (vol-...)
//   Azure Disk  disk.csi.azure.com       diskURI (kind Managed only)
//   Cinder      cinder.csi.openstack.org volumeID
//   Portworx    pxd.portworx.com         volumeID
// Azure File and vSphere are migratable too, but neither plugin translates them.
// Topology keys after translation: GCE PD topology.gke.io/zone, AWS EBS
// topology.ebs.csi.aws.com/zone, Cinder topology.cinder.csi.openstack.org/zone; Azure Disk and
// Portworx volumes keep their node affinity.
//
// Thread-safety: free functions over immutable inputs.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "api/node_selector.h"
#include "api/storage.h"
#include "api/volume.h"

namespace ksched::plugins::helper {

// The in-tree plugin of an inline volume CSI migration can translate (IsInlineMigratable and
// GetInTreePluginNameFromSpec), or "".
std::string_view InlineMigratablePlugin(const api::Volume& volume);

// NodeVolumeLimits' isCSIMigrationOn (v1.37): the node has a CSINode and the plugin is GCE PD,
// AWS EBS, Azure Disk, Cinder or Portworx (the CSINode's migrated-plugins annotation is not read).
bool IsCSIMigrationOn(const api::CSINode* csi_node, std::string_view plugin);

// VolumeBinding's isCSIMigrationOnForPlugin && isPluginMigratedToCSIOnNode: the plugin is GCE PD,
// AWS EBS, Azure Disk, Cinder or Portworx (CSIMigrationPortworx is GA) and the node's
// CSINode lists it in its migrated-plugins annotation (no CSINode: not migrated).
bool IsPluginMigratedToCSIOnNode(const api::CSINode* csi_node, std::string_view plugin);

// GetCSINameFromInTreeName; "" for a plugin that is not migratable.
std::string_view CSIDriverOf(std::string_view plugin);

// TranslateInTreeInlineVolumeToCSI's volume handle, or its error.
absl::StatusOr<std::string> InlineVolumeHandle(const api::Volume& volume);

// TranslateInTreePVToCSI's volume handle, or its error.
absl::StatusOr<std::string> PersistentVolumeHandle(const api::PersistentVolume& volume);

// TranslateInTreePVToCSI's spec.nodeAffinity.required for a volume with an in-tree source, or the
// translation's error (the handle's: an EBS volume ID, GCE zones of several regions, an Azure
// Disk that is not Managed). translateTopologyFromInTreeToCSI: the zone key the volume uses
// (GA or beta, node affinity first, then labels) is renamed to the driver's topology key in every
// requirement; without one in the node affinity, the volume's zone label ("__"-separated zones)
// becomes a requirement `<key> In <zones>` added to every term (one term if there were none); a
// beta region key becomes topology.kubernetes.io/region.
absl::StatusOr<std::optional<api::NodeSelector>> TranslatedNodeAffinity(const api::PersistentVolume& volume);

}  // namespace ksched::plugins::helper
