// Pod decoding (see json_decode_internal.h and, for the rules, json_decode.h).
#include <string>

#include "api/json_decode_internal.h"

namespace ksched::api::json_internal {

namespace {

absl::Status ReadToleration(const JsonValue& v, DecodeContext& ctx, Toleration& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "key") return ReadString(value, ctx, out.key);
    if (name == "operator") return ReadString(value, ctx, out.op);
    if (name == "value") return ReadString(value, ctx, out.value);
    if (name == "effect") return ReadString(value, ctx, out.effect);
    if (name == "tolerationSeconds") return ReadOptionalInt64(value, ctx, out.toleration_seconds);
    return absl::OkStatus();
  });
}

absl::Status ReadPodAffinityTerm(const JsonValue& v, DecodeContext& ctx, PodAffinityTerm& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "labelSelector") {
      return ReadOptional(value, ctx, out.label_selector, ReadLabelSelector);
    }
    if (name == "namespaces") return ReadStringList(value, ctx, out.namespaces);
    if (name == "namespaceSelector") {
      return ReadOptional(value, ctx, out.namespace_selector, ReadLabelSelector);
    }
    if (name == "topologyKey") return ReadString(value, ctx, out.topology_key);
    if (name == "matchLabelKeys") return ReadStringList(value, ctx, out.match_label_keys);
    if (name == "mismatchLabelKeys") return ReadStringList(value, ctx, out.mismatch_label_keys);
    return absl::OkStatus();
  });
}

absl::Status ReadWeightedPodAffinityTerm(const JsonValue& v, DecodeContext& ctx,
                                         WeightedPodAffinityTerm& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "weight") return ReadInt32(value, ctx, out.weight);
    if (name == "podAffinityTerm") return ReadPodAffinityTerm(value, ctx, out.pod_affinity_term);
    return absl::OkStatus();
  });
}

absl::Status ReadPodAffinity(const JsonValue& v, DecodeContext& ctx, PodAffinity& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "requiredDuringSchedulingIgnoredDuringExecution") {
      return ReadArray(value, ctx, out.required, ReadPodAffinityTerm);
    }
    if (name == "preferredDuringSchedulingIgnoredDuringExecution") {
      return ReadArray(value, ctx, out.preferred, ReadWeightedPodAffinityTerm);
    }
    return absl::OkStatus();
  });
}

absl::Status ReadNodeAffinity(const JsonValue& v, DecodeContext& ctx, NodeAffinity& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "requiredDuringSchedulingIgnoredDuringExecution") {
      return ReadOptional(value, ctx, out.required, ReadNodeSelector);
    }
    if (name == "preferredDuringSchedulingIgnoredDuringExecution") {
      return ReadArray(value, ctx, out.preferred, ReadPreferredSchedulingTerm);
    }
    return absl::OkStatus();
  });
}

absl::Status ReadAffinity(const JsonValue& v, DecodeContext& ctx, Affinity& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "nodeAffinity") return ReadNodeAffinity(value, ctx, out.node_affinity);
    if (name == "podAffinity") return ReadPodAffinity(value, ctx, out.pod_affinity);
    if (name == "podAntiAffinity") return ReadPodAffinity(value, ctx, out.pod_anti_affinity);
    return absl::OkStatus();
  });
}

absl::Status ReadTopologySpreadConstraint(const JsonValue& v, DecodeContext& ctx,
                                          TopologySpreadConstraint& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "maxSkew") return ReadInt32(value, ctx, out.max_skew);
    if (name == "topologyKey") return ReadString(value, ctx, out.topology_key);
    if (name == "whenUnsatisfiable") return ReadString(value, ctx, out.when_unsatisfiable);
    if (name == "labelSelector") {
      return ReadOptional(value, ctx, out.label_selector, ReadLabelSelector);
    }
    if (name == "minDomains") return ReadOptionalInt32(value, ctx, out.min_domains);
    if (name == "nodeAffinityPolicy") return ReadString(value, ctx, out.node_affinity_policy);
    if (name == "nodeTaintsPolicy") return ReadString(value, ctx, out.node_taints_policy);
    if (name == "matchLabelKeys") return ReadStringList(value, ctx, out.match_label_keys);
    return absl::OkStatus();
  });
}

absl::Status ReadContainerPort(const JsonValue& v, DecodeContext& ctx, ContainerPort& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "containerPort") return ReadInt32(value, ctx, out.container_port);
    if (name == "hostPort") return ReadInt32(value, ctx, out.host_port);
    if (name == "protocol") return ReadString(value, ctx, out.protocol);
    if (name == "hostIP") return ReadString(value, ctx, out.host_ip);
    return absl::OkStatus();
  });
}

// Calls f(element) for each non-null element of the array `v`, with its index on the path.
template <typename F>
absl::Status ForEachElement(const JsonValue& v, DecodeContext& ctx, F&& f) {
  if (!v.IsArray()) {
    return ctx.Error(std::string("expected an array, got ") + std::string(JsonTypeName(v)));
  }
  for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
    if (v[i].IsNull()) continue;
    ctx.PushIndex(i);
    PathScope scope(ctx);
    absl::Status status = f(v[i]);
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

// A container's restartPolicyRules: sets `found` when a rule's action is RestartAllContainers.
absl::Status ScanRestartPolicyRules(const JsonValue& v, DecodeContext& ctx, bool& found) {
  return ForEachElement(v, ctx, [&](const JsonValue& rule) {
    return ForEachField(rule, ctx, [&](std::string_view name, const JsonValue& value) {
      if (name != "action") return absl::OkStatus();
      InternedString action;
      absl::Status status = ReadString(value, ctx, action);
      if (status.ok() && action == kContainerRestartRuleActionRestartAllContainers) found = true;
      return status;
    });
  });
}

// A container's volumeMounts: sets `found` when one has a non-empty bindMountOptions.
absl::Status ScanVolumeMounts(const JsonValue& v, DecodeContext& ctx, bool& found) {
  return ForEachElement(v, ctx, [&](const JsonValue& mount) {
    return ForEachField(mount, ctx, [&](std::string_view name, const JsonValue& value) {
      if (name != "bindMountOptions") return absl::OkStatus();
      std::vector<std::string> options;
      absl::Status status = ReadStringList(value, ctx, options);
      if (status.ok() && !options.empty()) found = true;
      return status;
    });
  });
}

// A container or init container; the facts about it that PodSpec keeps as flags go to `spec`.
absl::Status ReadContainer(const JsonValue& v, DecodeContext& ctx, Container& out,
                           PodSpec& spec) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "name") return ReadString(value, ctx, out.name);
    if (name == "image") return ReadString(value, ctx, out.image);
    if (name == "resources") return ReadResourceRequirements(value, ctx, out.resources);
    if (name == "ports") return ReadArray(value, ctx, out.ports, ReadContainerPort);
    if (name == "restartPolicy") return ReadString(value, ctx, out.restart_policy);
    if (name == "restartPolicyRules") {
      return ScanRestartPolicyRules(value, ctx, spec.has_restart_all_containers_rule);
    }
    if (name == "volumeMounts") return ScanVolumeMounts(value, ctx, spec.has_bind_mount_options);
    return absl::OkStatus();
  });
}

// spec.ephemeralContainers: only their volumeMounts' bindMountOptions are read (into `spec`).
absl::Status ScanEphemeralContainers(const JsonValue& v, DecodeContext& ctx, PodSpec& spec) {
  return ForEachElement(v, ctx, [&](const JsonValue& container) {
    return ForEachField(container, ctx, [&](std::string_view name, const JsonValue& value) {
      if (name == "volumeMounts") return ScanVolumeMounts(value, ctx, spec.has_bind_mount_options);
      return absl::OkStatus();
    });
  });
}

absl::Status ReadPvcSource(const JsonValue& v, DecodeContext& ctx,
                           PersistentVolumeClaimVolumeSource& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "claimName") return ReadString(value, ctx, out.claim_name);
    if (name == "readOnly") return ReadBool(value, ctx, out.read_only);
    return absl::OkStatus();
  });
}

absl::Status ReadGceSource(const JsonValue& v, DecodeContext& ctx,
                           GcePersistentDiskVolumeSource& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "pdName") return ReadString(value, ctx, out.pd_name);
    if (name == "readOnly") return ReadBool(value, ctx, out.read_only);
    return absl::OkStatus();
  });
}

absl::Status ReadAwsSource(const JsonValue& v, DecodeContext& ctx,
                           AwsElasticBlockStoreVolumeSource& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "volumeID") return ReadString(value, ctx, out.volume_id);
    if (name == "readOnly") return ReadBool(value, ctx, out.read_only);
    return absl::OkStatus();
  });
}

absl::Status ReadRbdSource(const JsonValue& v, DecodeContext& ctx, RbdVolumeSource& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "monitors") return ReadStringList(value, ctx, out.monitors);
    if (name == "pool") return ReadString(value, ctx, out.pool);
    if (name == "image") return ReadString(value, ctx, out.image);
    if (name == "readOnly") return ReadBool(value, ctx, out.read_only);
    return absl::OkStatus();
  });
}

absl::Status ReadIscsiSource(const JsonValue& v, DecodeContext& ctx, IscsiVolumeSource& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "targetPortal") return ReadString(value, ctx, out.target_portal);
    if (name == "iqn") return ReadString(value, ctx, out.iqn);
    if (name == "lun") return ReadInt32(value, ctx, out.lun);
    if (name == "readOnly") return ReadBool(value, ctx, out.read_only);
    return absl::OkStatus();
  });
}

absl::Status ReadCsiSource(const JsonValue& v, DecodeContext& ctx, CsiVolumeSource& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "driver") return ReadString(value, ctx, out.driver);
    if (name == "readOnly") return ReadBool(value, ctx, out.read_only);
    return absl::OkStatus();
  });
}

// An `image` volume source: its reference ("" when absent).
absl::Status ReadImageSource(const JsonValue& v, DecodeContext& ctx, Volume& out) {
  out.image = true;
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "reference") return ReadString(value, ctx, out.image_reference);
    return absl::OkStatus();
  });
}

absl::Status ReadVolume(const JsonValue& v, DecodeContext& ctx, Volume& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "name") return ReadString(value, ctx, out.name);
    if (name == "persistentVolumeClaim") {
      return ReadOptional(value, ctx, out.persistent_volume_claim, ReadPvcSource);
    }
    if (name == "ephemeral") {
      if (!value.IsObject()) {
        return ctx.Error("expected an object, got " + std::string(JsonTypeName(value)));
      }
      out.ephemeral = true;
      return absl::OkStatus();
    }
    if (name == "gcePersistentDisk") {
      return ReadOptional(value, ctx, out.gce_persistent_disk, ReadGceSource);
    }
    if (name == "awsElasticBlockStore") {
      return ReadOptional(value, ctx, out.aws_elastic_block_store, ReadAwsSource);
    }
    if (name == "rbd") return ReadOptional(value, ctx, out.rbd, ReadRbdSource);
    if (name == "iscsi") return ReadOptional(value, ctx, out.iscsi, ReadIscsiSource);
    if (name == "csi") return ReadOptional(value, ctx, out.csi, ReadCsiSource);
    if (name == "azureDisk") return ReadInTreeSource(value, ctx, kAzureDiskInTreePlugin, "diskURI", out.other_in_tree);
    if (name == "cinder") return ReadInTreeSource(value, ctx, kCinderInTreePlugin, "volumeID", out.other_in_tree);
    if (name == "portworxVolume") {
      return ReadInTreeSource(value, ctx, kPortworxInTreePlugin, "volumeID", out.other_in_tree);
    }
    if (name == "image") return ReadImageSource(value, ctx, out);
    return absl::OkStatus();
  });
}

absl::Status ReadPodResourceClaim(const JsonValue& v, DecodeContext& ctx, PodResourceClaim& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "name") return ReadString(value, ctx, out.name);
    if (name == "resourceClaimName") return ReadOptionalString(value, ctx, out.resource_claim_name);
    if (name == "resourceClaimTemplateName") {
      return ReadOptionalString(value, ctx, out.resource_claim_template_name);
    }
    return absl::OkStatus();
  });
}

absl::Status ReadPodResourceClaimStatus(const JsonValue& v, DecodeContext& ctx, PodResourceClaimStatus& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "name") return ReadString(value, ctx, out.name);
    if (name == "resourceClaimName") return ReadOptionalString(value, ctx, out.resource_claim_name);
    return absl::OkStatus();
  });
}

// spec.schedulingGates[*] is {"name": ...}; only the name is kept.
absl::Status ReadNameOnly(const JsonValue& v, DecodeContext& ctx, std::string& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "name") return ReadString(value, ctx, out);
    return absl::OkStatus();
  });
}

absl::Status ReadPodSpec(const JsonValue& v, DecodeContext& ctx, PodSpec& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "nodeName") return ReadString(value, ctx, out.node_name);
    if (name == "schedulerName") return ReadString(value, ctx, out.scheduler_name);
    if (name == "priority") return ReadOptionalInt32(value, ctx, out.priority);
    if (name == "priorityClassName") return ReadString(value, ctx, out.priority_class_name);
    if (name == "preemptionPolicy") return ReadString(value, ctx, out.preemption_policy);
    if (name == "nodeSelector") return ReadStringMap(value, ctx, out.node_selector);
    if (name == "affinity") return ReadAffinity(value, ctx, out.affinity);
    if (name == "tolerations") return ReadArray(value, ctx, out.tolerations, ReadToleration);
    if (name == "topologySpreadConstraints") {
      return ReadArray(value, ctx, out.topology_spread_constraints, ReadTopologySpreadConstraint);
    }
    const auto read_container = [&out](const JsonValue& element, DecodeContext& element_ctx,
                                       Container& container) {
      return ReadContainer(element, element_ctx, container, out);
    };
    if (name == "containers") return ReadArray(value, ctx, out.containers, read_container);
    if (name == "initContainers") {
      return ReadArray(value, ctx, out.init_containers, read_container);
    }
    if (name == "ephemeralContainers") return ScanEphemeralContainers(value, ctx, out);
    if (name == "overhead") return ReadResourceList(value, ctx, out.overhead);
    if (name == "resources") return ReadResourceRequirements(value, ctx, out.resources);
    if (name == "volumes") return ReadArray(value, ctx, out.volumes, ReadVolume);
    if (name == "schedulingGates") {
      return ReadArray(value, ctx, out.scheduling_gates, ReadNameOnly);
    }
    if (name == "hostNetwork") return ReadBool(value, ctx, out.host_network);
    if (name == "hostUsers") {
      bool host_users = false;
      absl::Status status = ReadBool(value, ctx, host_users);
      if (status.ok()) out.host_users = host_users;
      return status;
    }
    if (name == "terminationGracePeriodSeconds") {
      return ReadOptionalInt64(value, ctx, out.termination_grace_period_seconds);
    }
    if (name == "resourceClaims") return ReadArray(value, ctx, out.resource_claims, ReadPodResourceClaim);
    return absl::OkStatus();
  });
}

absl::Status ReadPodCondition(const JsonValue& v, DecodeContext& ctx, PodCondition& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "type") return ReadString(value, ctx, out.type);
    if (name == "status") return ReadString(value, ctx, out.status);
    if (name == "reason") return ReadString(value, ctx, out.reason);
    if (name == "message") return ReadString(value, ctx, out.message);
    if (name == "lastProbeTime") return ReadTime(value, ctx, out.last_probe_time);
    if (name == "lastTransitionTime") return ReadTime(value, ctx, out.last_transition_time);
    if (name == "observedGeneration") return ReadInt64(value, ctx, out.observed_generation);
    return absl::OkStatus();
  });
}

absl::Status ReadContainerStatus(const JsonValue& v, DecodeContext& ctx, ContainerStatus& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "name") return ReadString(value, ctx, out.name);
    if (name == "allocatedResources") {
      return ReadResourceList(value, ctx, out.allocated_resources);
    }
    if (name == "resources") {
      return ReadOptional(value, ctx, out.resources, ReadResourceRequirements);
    }
    return absl::OkStatus();
  });
}

absl::Status ReadPodStatus(const JsonValue& v, DecodeContext& ctx, PodStatus& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "phase") return ReadString(value, ctx, out.phase);
    if (name == "nominatedNodeName") return ReadString(value, ctx, out.nominated_node_name);
    if (name == "conditions") return ReadArray(value, ctx, out.conditions, ReadPodCondition);
    if (name == "startTime") return ReadTime(value, ctx, out.start_time);
    if (name == "containerStatuses") {
      return ReadArray(value, ctx, out.resource_status.Mutable().container_statuses, ReadContainerStatus);
    }
    if (name == "initContainerStatuses") {
      return ReadArray(value, ctx, out.resource_status.Mutable().init_container_statuses, ReadContainerStatus);
    }
    if (name == "allocatedResources") {
      return ReadResourceList(value, ctx, out.resource_status.Mutable().allocated_resources);
    }
    if (name == "resources") {
      return ReadOptional(value, ctx, out.resource_status.Mutable().resources, ReadResourceRequirements);
    }
    if (name == "resourceClaimStatuses") {
      return ReadArray(value, ctx, out.resource_claim_statuses, ReadPodResourceClaimStatus);
    }
    return absl::OkStatus();
  });
}

void DefaultPorts(CompactVector<Container>& containers) {
  for (Container& container : containers) {
    for (ContainerPort& port : container.ports) {
      if (port.protocol.empty()) port.protocol = kProtocolTCP;
    }
  }
}

// The API server's defaults that the decoder reproduces (see json_decode.h).
void ApplyPodDefaults(PodSpec& spec) {
  if (spec.scheduler_name.empty()) spec.scheduler_name = kDefaultSchedulerName;
  DefaultPorts(spec.containers);
  DefaultPorts(spec.init_containers);
  for (Volume& volume : spec.volumes) {
    if (volume.rbd.has_value() && volume.rbd->pool.empty()) volume.rbd->pool = "rbd";
  }
}

}  // namespace

absl::Status ReadPod(const JsonValue& v, DecodeContext& ctx, Pod& out) {
  absl::Status status = ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "metadata") return ReadObjectMeta(value, ctx, out.metadata);
    if (name == "spec") return ReadPodSpec(value, ctx, out.spec);
    if (name == "status") return ReadPodStatus(value, ctx, out.status);
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  ApplyPodDefaults(out.spec);
  return CheckName(out.metadata, ctx);
}

}  // namespace ksched::api::json_internal
