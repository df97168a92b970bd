// Decoding of the storage objects of api/storage.h (see json_decode_internal.h and, for the rules,
// json_decode.h), and the two claim helpers declared there.
#include <algorithm>

#include "api/json_decode_internal.h"
#include "api/storage.h"

namespace ksched::api {

std::string PersistentVolumeClaimClass(const PersistentVolumeClaim& claim) {
  if (std::optional<std::string_view> beta = claim.metadata.annotations.Get(kBetaStorageClassAnnotation)) {
    return std::string(*beta);
  }
  return claim.spec.storage_class_name.value_or("");
}

bool HasAccessMode(const PersistentVolumeClaim& claim, std::string_view mode) {
  return std::find(claim.spec.access_modes.begin(), claim.spec.access_modes.end(), mode) !=
         claim.spec.access_modes.end();
}

std::string PersistentVolumeClass(const PersistentVolume& volume) {
  if (std::optional<std::string_view> beta = volume.metadata.annotations.Get(kBetaStorageClassAnnotation)) {
    return std::string(*beta);
  }
  return volume.spec.storage_class_name;
}

bool VolumeNodeAffinityMatches(const PersistentVolume& volume, const Labels& node_labels) {
  if (!volume.spec.node_affinity.has_value()) return true;
  absl::StatusOr<bool> matched = LazyErrorNodeSelector::Compile(*volume.spec.node_affinity).Match(node_labels, "");
  return matched.ok() && *matched;
}

bool MatchTopologySelectorTerms(const std::vector<NodeSelectorTerm>& terms, const Labels& node_labels) {
  if (terms.empty()) return true;
  for (const NodeSelectorTerm& term : terms) {
    // An empty term selects nothing; an expression without values is invalid (labels.NewRequirement
    // refuses `In` with no values), which skips its term.
    if (term.match_expressions.empty()) continue;
    const bool all = std::all_of(term.match_expressions.begin(), term.match_expressions.end(),
                                 [&](const NodeSelectorRequirement& expression) {
                                   std::optional<std::string_view> value = node_labels.Get(expression.key);
                                   return value.has_value() &&
                                          std::find(expression.values.begin(), expression.values.end(),
                                                    *value) != expression.values.end();
                                 });
    if (all) return true;
  }
  return false;
}

namespace json_internal {

absl::Status ReadInTreeSource(const JsonValue& v, DecodeContext& ctx, std::string_view plugin,
                              std::string_view key, std::optional<InTreeVolumeSource>& out) {
  out.emplace();
  out->plugin = std::string(plugin);
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (!key.empty() && name == key) return ReadString(value, ctx, out->id);
    if (name == "kind") {
      out->kind.emplace();
      return ReadString(value, ctx, *out->kind);
    }
    return absl::OkStatus();
  });
}

namespace {

// {"storage": quantity, ...} (a claim's requests, a volume's capacity): the storage in bytes.
absl::Status ReadStorageBytes(const JsonValue& v, DecodeContext& ctx, StorageBytes& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name != "storage") return absl::OkStatus();
    Quantity quantity;
    if (absl::Status status = ReadQuantity(value, ctx, quantity); !status.ok()) return status;
    out = quantity.Value();
    return absl::OkStatus();
  });
}

absl::Status ReadClaimSpec(const JsonValue& v, DecodeContext& ctx, PersistentVolumeClaimSpec& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "accessModes") return ReadStringList(value, ctx, out.access_modes);
    if (name == "volumeName") return ReadString(value, ctx, out.volume_name);
    if (name == "storageClassName") return ReadOptionalString(value, ctx, out.storage_class_name);
    if (name == "volumeMode") return ReadOptionalString(value, ctx, out.volume_mode);
    if (name == "volumeAttributesClassName") {
      return ReadOptionalString(value, ctx, out.volume_attributes_class_name);
    }
    if (name == "selector") {
      return ReadOptional(value, ctx, out.selector, [](const JsonValue& s, DecodeContext& c, LabelSelector& l) {
        return ReadLabelSelector(s, c, l);
      });
    }
    if (name == "resources") {
      return ForEachField(value, ctx, [&](std::string_view field, const JsonValue& requests) {
        if (field == "requests") return ReadStorageBytes(requests, ctx, out.storage_request);
        return absl::OkStatus();
      });
    }
    return absl::OkStatus();
  });
}

absl::Status ReadPhase(const JsonValue& v, DecodeContext& ctx, std::string& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "phase") return ReadString(value, ctx, out);
    return absl::OkStatus();
  });
}

absl::Status ReadClaimReference(const JsonValue& v, DecodeContext& ctx, ClaimReference& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "namespace") return ReadString(value, ctx, out.namespace_);
    if (name == "name") return ReadString(value, ctx, out.name);
    if (name == "uid") return ReadString(value, ctx, out.uid);
    return absl::OkStatus();
  });
}

absl::Status ReadCsiPersistentVolumeSource(const JsonValue& v, DecodeContext& ctx, CsiPersistentVolumeSource& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "driver") return ReadString(value, ctx, out.driver);
    if (name == "volumeHandle") return ReadString(value, ctx, out.volume_handle);
    return absl::OkStatus();
  });
}

absl::Status ReadVolumeSpec(const JsonValue& v, DecodeContext& ctx, PersistentVolumeSpec& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "csi") return ReadOptional(value, ctx, out.csi, ReadCsiPersistentVolumeSource);
    if (name == "gcePersistentDisk") return ReadInTreeSource(value, ctx, kGcePdInTreePlugin, "pdName", out.in_tree);
    if (name == "awsElasticBlockStore") {
      return ReadInTreeSource(value, ctx, kAwsEbsInTreePlugin, "volumeID", out.in_tree);
    }
    if (name == "azureDisk") return ReadInTreeSource(value, ctx, kAzureDiskInTreePlugin, "diskURI", out.in_tree);
    if (name == "azureFile") return ReadInTreeSource(value, ctx, kAzureFileInTreePlugin, "", out.in_tree);
    if (name == "cinder") return ReadInTreeSource(value, ctx, kCinderInTreePlugin, "volumeID", out.in_tree);
    if (name == "vsphereVolume") return ReadInTreeSource(value, ctx, kVsphereInTreePlugin, "", out.in_tree);
    if (name == "portworxVolume") {
      return ReadInTreeSource(value, ctx, kPortworxInTreePlugin, "volumeID", out.in_tree);
    }
    if (name == "capacity") return ReadStorageBytes(value, ctx, out.capacity);
    if (name == "accessModes") return ReadStringList(value, ctx, out.access_modes);
    if (name == "storageClassName") return ReadString(value, ctx, out.storage_class_name);
    if (name == "volumeMode") return ReadOptionalString(value, ctx, out.volume_mode);
    if (name == "volumeAttributesClassName") {
      return ReadOptionalString(value, ctx, out.volume_attributes_class_name);
    }
    if (name == "claimRef") {
      return ReadOptional(value, ctx, out.claim_ref, [](const JsonValue& r, DecodeContext& c, ClaimReference& ref) {
        return ReadClaimReference(r, c, ref);
      });
    }
    if (name == "nodeAffinity") {
      return ForEachField(value, ctx, [&](std::string_view field, const JsonValue& required) {
        if (field != "required") return absl::OkStatus();
        return ReadOptional(required, ctx, out.node_affinity, [](const JsonValue& n, DecodeContext& c, NodeSelector& s) {
          return ReadNodeSelector(n, c, s);
        });
      });
    }
    return absl::OkStatus();
  });
}

// allowedTopologies: [{"matchLabelExpressions": [{"key": k, "values": [...]}]}]
absl::Status ReadTopologySelectorTerm(const JsonValue& v, DecodeContext& ctx, NodeSelectorTerm& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name != "matchLabelExpressions") return absl::OkStatus();
    return ReadArray(value, ctx, out.match_expressions,
                     [](const JsonValue& e, DecodeContext& c, NodeSelectorRequirement& requirement) {
                       requirement.op = std::string(kNodeSelectorOpIn);
                       return ForEachField(e, c, [&](std::string_view field, const JsonValue& item) {
                         if (field == "key") return ReadString(item, c, requirement.key);
                         if (field == "values") return ReadStringList(item, c, requirement.values);
                         return absl::OkStatus();
                       });
                     });
  });
}

}  // namespace

absl::Status ReadPersistentVolumeClaim(const JsonValue& v, DecodeContext& ctx,
                                       PersistentVolumeClaim& out) {
  absl::Status status = ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "metadata") return ReadObjectMeta(value, ctx, out.metadata);
    if (name == "spec") return ReadClaimSpec(value, ctx, out.spec);
    if (name == "status") return ReadPhase(value, ctx, out.phase);
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return CheckName(out.metadata, ctx);
}

absl::Status ReadPersistentVolume(const JsonValue& v, DecodeContext& ctx, PersistentVolume& out) {
  absl::Status status = ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "metadata") {
      absl::Status meta = ReadObjectMeta(value, ctx, out.metadata);
      out.metadata.owner_references.clear();
      return meta;
    }
    if (name == "spec") return ReadVolumeSpec(value, ctx, out.spec);
    if (name == "status") return ReadPhase(value, ctx, out.phase);
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return CheckName(out.metadata, ctx);
}

absl::Status ReadStorageClass(const JsonValue& v, DecodeContext& ctx, StorageClass& out) {
  absl::Status status = ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "metadata") return ReadObjectMetaWithoutAnnotations(value, ctx, out.metadata);
    if (name == "provisioner") return ReadString(value, ctx, out.provisioner);
    if (name == "volumeBindingMode") return ReadOptionalString(value, ctx, out.volume_binding_mode);
    if (name == "allowedTopologies") {
      return ReadArray(value, ctx, out.allowed_topologies,
                       [](const JsonValue& t, DecodeContext& c, NodeSelectorTerm& term) {
                         return ReadTopologySelectorTerm(t, c, term);
                       });
    }
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return CheckName(out.metadata, ctx);
}

absl::Status ReadCSINode(const JsonValue& v, DecodeContext& ctx, CSINode& out) {
  absl::Status status = ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "metadata") {
      absl::Status meta = ReadObjectMeta(value, ctx, out.metadata);
      out.metadata.owner_references.clear();
      return meta;
    }
    if (name != "spec") return absl::OkStatus();
    return ForEachField(value, ctx, [&](std::string_view field, const JsonValue& drivers) {
      if (field != "drivers") return absl::OkStatus();
      return ReadArray(drivers, ctx, out.drivers, [](const JsonValue& d, DecodeContext& c, CSINodeDriver& driver) {
        return ForEachField(d, c, [&](std::string_view key, const JsonValue& item) {
          if (key == "name") return ReadString(item, c, driver.name);
          if (key != "allocatable") return absl::OkStatus();
          return ForEachField(item, c, [&](std::string_view k, const JsonValue& count) {
            if (k == "count") return ReadOptionalInt32(count, c, driver.allocatable_count);
            return absl::OkStatus();
          });
        });
      });
    });
  });
  if (!status.ok()) return status;
  return CheckName(out.metadata, ctx);
}

absl::Status ReadVolumeAttachment(const JsonValue& v, DecodeContext& ctx, VolumeAttachment& out) {
  absl::Status status = ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "metadata") return ReadObjectMetaWithoutAnnotations(value, ctx, out.metadata);
    if (name != "spec") return absl::OkStatus();
    return ForEachField(value, ctx, [&](std::string_view field, const JsonValue& item) {
      if (field == "attacher") return ReadString(item, ctx, out.attacher);
      if (field == "nodeName") return ReadString(item, ctx, out.node_name);
      if (field != "source") return absl::OkStatus();
      return ForEachField(item, ctx, [&](std::string_view key, const JsonValue& pv) {
        if (key == "persistentVolumeName") {
          out.persistent_volume_name.emplace();
          return ReadString(pv, ctx, *out.persistent_volume_name);
        }
        return absl::OkStatus();
      });
    });
  });
  if (!status.ok()) return status;
  return CheckName(out.metadata, ctx);
}

absl::Status ReadCSIDriver(const JsonValue& v, DecodeContext& ctx, CSIDriver& out) {
  absl::Status status = ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "metadata") return ReadObjectMetaWithoutAnnotations(value, ctx, out.metadata);
    if (name != "spec") return absl::OkStatus();
    return ForEachField(value, ctx, [&](std::string_view field, const JsonValue& item) {
      if (field == "storageCapacity") {
        out.storage_capacity.emplace();
        return ReadBool(item, ctx, *out.storage_capacity);
      }
      if (field == "preventPodSchedulingIfMissing") {
        out.prevent_pod_scheduling_if_missing.emplace();
        return ReadBool(item, ctx, *out.prevent_pod_scheduling_if_missing);
      }
      return absl::OkStatus();
    });
  });
  if (!status.ok()) return status;
  return CheckName(out.metadata, ctx);
}

absl::Status ReadCSIStorageCapacity(const JsonValue& v, DecodeContext& ctx, CSIStorageCapacity& out) {
  auto read_bytes = [&](const JsonValue& value, StorageBytes& bytes) {
    Quantity quantity;
    if (absl::Status status = ReadQuantity(value, ctx, quantity); !status.ok()) return status;
    bytes = quantity.Value();
    return absl::OkStatus();
  };
  absl::Status status = ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "metadata") return ReadObjectMetaWithoutAnnotations(value, ctx, out.metadata);
    if (name == "storageClassName") return ReadString(value, ctx, out.storage_class_name);
    if (name == "capacity") return read_bytes(value, out.capacity);
    if (name == "maximumVolumeSize") return read_bytes(value, out.maximum_volume_size);
    if (name == "nodeTopology") {
      return ReadOptional(value, ctx, out.node_topology, [](const JsonValue& s, DecodeContext& c, LabelSelector& l) {
        return ReadLabelSelector(s, c, l);
      });
    }
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return CheckName(out.metadata, ctx);
}

}  // namespace json_internal

}  // namespace ksched::api
