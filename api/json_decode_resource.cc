// Decoding of the dynamic resource allocation objects of api/resource.h (resource.k8s.io/v1
// ResourceSlice, DeviceClass, ResourceClaim; see json_decode_internal.h and, for the rules,
// json_decode.h).
//
// Opaque driver configuration (`opaque: {driver, parameters}`) and a claim's status.devices are kept
// as JSON text: the value re-rendered compactly by RapidJSON's Writer (members in their order,
// numbers as RapidJSON renders them), after the fields Go would type-check were checked.
#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/json_decode_internal.h"
#include "api/resource.h"
#include "api/time.h"
#include "rapidjson/stringbuffer.h"
#include "rapidjson/writer.h"

namespace ksched::api::json_internal {

namespace {

// `v` as compact JSON text.
std::string CompactJson(const JsonValue& v) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  v.Accept(writer);
  return std::string(buffer.GetString(), buffer.GetSize());
}

// A map {"<name>": value, ...} into `out`, sorted by name (a repeated name keeps its last value, as
// a Go map); each value decoded by decode(value, ctx, T&) under ["<name>"], a null value T{}.
template <typename T, typename F>
absl::Status ReadSortedMap(const JsonValue& v, DecodeContext& ctx, std::vector<std::pair<std::string, T>>& out,
                           F&& decode) {
  if (!v.IsObject()) return ctx.Error("expected an object, got " + std::string(JsonTypeName(v)));
  std::vector<std::pair<std::string, T>> entries;
  entries.reserve(v.MemberCount());
  for (auto it = v.MemberBegin(); it != v.MemberEnd(); ++it) {
    auto& entry = entries.emplace_back(std::string(AsStringView(it->name)), T{});
    if (it->value.IsNull()) continue;
    ctx.PushKey(AsStringView(it->name));
    PathScope scope(ctx);
    absl::Status status = decode(it->value, ctx, entry.second);
    if (!status.ok()) return status;
  }
  std::stable_sort(entries.begin(), entries.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  out.clear();
  out.reserve(entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    // Of a run of equal names, only the last (the last in the JSON) is kept.
    if (i + 1 < entries.size() && entries[i + 1].first == entries[i].first) continue;
    out.push_back(std::move(entries[i]));
  }
  return absl::OkStatus();
}

// An array member kept only as "has elements" (consumesCounters, bindingConditions).
absl::Status ReadNonEmpty(const JsonValue& v, DecodeContext& ctx, bool& out) {
  if (!v.IsArray()) return ctx.Error("expected an array, got " + std::string(JsonTypeName(v)));
  out = !v.Empty();
  return absl::OkStatus();
}

absl::Status ReadDeviceAttribute(const JsonValue& v, DecodeContext& ctx, DeviceAttribute& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "int") {
      out.kind = DeviceAttribute::Kind::kInt;
      return ReadInt64(value, ctx, out.int_value);
    }
    if (name == "bool") {
      out.kind = DeviceAttribute::Kind::kBool;
      return ReadBool(value, ctx, out.bool_value);
    }
    if (name == "string") {
      out.kind = DeviceAttribute::Kind::kString;
      return ReadString(value, ctx, out.string_value);
    }
    if (name == "version") {
      out.kind = DeviceAttribute::Kind::kVersion;
      return ReadString(value, ctx, out.string_value);
    }
    return absl::OkStatus();
  });
}

// DeviceCapacity: only `value` (requestPolicy belongs to DRAConsumableCapacity, off in v1.34).
absl::Status ReadDeviceCapacity(const JsonValue& v, DecodeContext& ctx, Quantity& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "value") return ReadQuantity(value, ctx, out);
    return absl::OkStatus();
  });
}

absl::Status ReadDevice(const JsonValue& v, DecodeContext& ctx, Device& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "name") return ReadString(value, ctx, out.name);
    if (name == "attributes") return ReadSortedMap(value, ctx, out.attributes, ReadDeviceAttribute);
    if (name == "capacity") return ReadSortedMap(value, ctx, out.capacity, ReadDeviceCapacity);
    if (name == "consumesCounters") return ReadNonEmpty(value, ctx, out.consumes_counters);
    if (name == "bindingConditions") return ReadNonEmpty(value, ctx, out.has_binding_conditions);
    return absl::OkStatus();
  });
}

absl::Status ReadResourcePool(const JsonValue& v, DecodeContext& ctx, ResourcePool& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "name") return ReadString(value, ctx, out.name);
    if (name == "generation") return ReadInt64(value, ctx, out.generation);
    if (name == "resourceSliceCount") return ReadInt64(value, ctx, out.resource_slice_count);
    return absl::OkStatus();
  });
}

absl::Status ReadOptionalNodeSelector(const JsonValue& v, DecodeContext& ctx, std::optional<NodeSelector>& out) {
  return ReadOptional(v, ctx, out, [](const JsonValue& s, DecodeContext& c, NodeSelector& selector) {
    return ReadNodeSelector(s, c, selector);
  });
}

absl::Status ReadResourceSliceSpec(const JsonValue& v, DecodeContext& ctx, ResourceSlice& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "driver") return ReadString(value, ctx, out.driver);
    if (name == "pool") return ReadResourcePool(value, ctx, out.pool);
    if (name == "nodeName") return ReadString(value, ctx, out.node_name);
    if (name == "nodeSelector") return ReadOptionalNodeSelector(value, ctx, out.node_selector);
    if (name == "allNodes") return ReadBool(value, ctx, out.all_nodes);
    if (name == "perDeviceNodeSelection") {
      out.per_device_node_selection.emplace();
      return ReadBool(value, ctx, *out.per_device_node_selection);
    }
    if (name == "devices") return ReadArray(value, ctx, out.devices, ReadDevice);
    return absl::OkStatus();
  });
}

// {"cel": {"expression": ...}}; a selector without `cel` keeps nullopt.
absl::Status ReadDeviceSelector(const JsonValue& v, DecodeContext& ctx, DeviceSelector& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name != "cel") return absl::OkStatus();
    out.cel_expression.emplace();
    return ForEachField(value, ctx, [&](std::string_view field, const JsonValue& expression) {
      if (field == "expression") return ReadString(expression, ctx, *out.cel_expression);
      return absl::OkStatus();
    });
  });
}

// `opaque` ({"driver": ..., "parameters": <any JSON>}) as its JSON text.
absl::Status ReadOpaque(const JsonValue& v, DecodeContext& ctx, DeviceConfiguration& out) {
  absl::Status status = ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "driver") {
      std::string driver;
      return ReadString(value, ctx, driver);
    }
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  out.opaque_json = CompactJson(v);
  return absl::OkStatus();
}

// The members of a configuration entry: `opaque`, and `requests` when the entry has them
// (DeviceClaimConfiguration, DeviceAllocationConfiguration); nullopt for any other member.
std::optional<absl::Status> ReadConfigurationField(std::string_view name, const JsonValue& value,
                                                   DecodeContext& ctx, DeviceConfiguration& configuration,
                                                   std::vector<std::string>* requests) {
  if (name == "opaque") return ReadOpaque(value, ctx, configuration);
  if (requests != nullptr && name == "requests") return ReadStringList(value, ctx, *requests);
  return std::nullopt;
}

absl::Status ReadDeviceClassConfiguration(const JsonValue& v, DecodeContext& ctx, DeviceConfiguration& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    return ReadConfigurationField(name, value, ctx, out, nullptr).value_or(absl::OkStatus());
  });
}

absl::Status ReadDeviceClaimConfiguration(const JsonValue& v, DecodeContext& ctx, DeviceClaimConfiguration& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    return ReadConfigurationField(name, value, ctx, out.configuration, &out.requests).value_or(absl::OkStatus());
  });
}

absl::Status ReadDeviceAllocationConfiguration(const JsonValue& v, DecodeContext& ctx,
                                               DeviceAllocationConfiguration& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "source") return ReadString(value, ctx, out.source);
    return ReadConfigurationField(name, value, ctx, out.configuration, &out.requests).value_or(absl::OkStatus());
  });
}

absl::Status ReadDeviceClassSpec(const JsonValue& v, DecodeContext& ctx, DeviceClass& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "selectors") return ReadArray(value, ctx, out.selectors, ReadDeviceSelector);
    if (name == "config") return ReadArray(value, ctx, out.config, ReadDeviceClassConfiguration);
    return absl::OkStatus();
  });
}

// The members ExactDeviceRequest and DeviceSubRequest share; nullopt for any other member.
template <typename Request>
std::optional<absl::Status> ReadClassRequestField(std::string_view name, const JsonValue& value,
                                                  DecodeContext& ctx, Request& out) {
  if (name == "deviceClassName") return ReadString(value, ctx, out.device_class_name);
  if (name == "selectors") return ReadArray(value, ctx, out.selectors, ReadDeviceSelector);
  if (name == "allocationMode") return ReadString(value, ctx, out.allocation_mode);
  if (name == "count") return ReadInt64(value, ctx, out.count);
  return std::nullopt;
}

absl::Status ReadExactDeviceRequest(const JsonValue& v, DecodeContext& ctx, ExactDeviceRequest& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (std::optional<absl::Status> status = ReadClassRequestField(name, value, ctx, out)) return *status;
    if (name == "adminAccess") {
      out.admin_access.emplace();
      return ReadBool(value, ctx, *out.admin_access);
    }
    return absl::OkStatus();
  });
}

absl::Status ReadDeviceSubRequest(const JsonValue& v, DecodeContext& ctx, DeviceSubRequest& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "name") return ReadString(value, ctx, out.name);
    return ReadClassRequestField(name, value, ctx, out).value_or(absl::OkStatus());
  });
}

absl::Status ReadDeviceRequest(const JsonValue& v, DecodeContext& ctx, DeviceRequest& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "name") return ReadString(value, ctx, out.name);
    if (name == "exactly") return ReadOptional(value, ctx, out.exactly, ReadExactDeviceRequest);
    if (name == "firstAvailable") return ReadArray(value, ctx, out.first_available, ReadDeviceSubRequest);
    return absl::OkStatus();
  });
}

absl::Status ReadDeviceConstraint(const JsonValue& v, DecodeContext& ctx, DeviceConstraint& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "requests") return ReadStringList(value, ctx, out.requests);
    if (name == "matchAttribute") return ReadOptionalString(value, ctx, out.match_attribute);
    return absl::OkStatus();
  });
}

absl::Status ReadResourceClaimSpec(const JsonValue& v, DecodeContext& ctx, ResourceClaimSpec& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& devices) {
    if (name != "devices") return absl::OkStatus();
    return ForEachField(devices, ctx, [&](std::string_view field, const JsonValue& value) {
      if (field == "requests") return ReadArray(value, ctx, out.requests, ReadDeviceRequest);
      if (field == "constraints") return ReadArray(value, ctx, out.constraints, ReadDeviceConstraint);
      if (field == "config") return ReadArray(value, ctx, out.config, ReadDeviceClaimConfiguration);
      return absl::OkStatus();
    });
  });
}

absl::Status ReadDeviceRequestAllocationResult(const JsonValue& v, DecodeContext& ctx,
                                               DeviceRequestAllocationResult& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "request") return ReadString(value, ctx, out.request);
    if (name == "driver") return ReadString(value, ctx, out.driver);
    if (name == "pool") return ReadString(value, ctx, out.pool);
    if (name == "device") return ReadString(value, ctx, out.device);
    if (name == "adminAccess") {
      out.admin_access.emplace();
      return ReadBool(value, ctx, *out.admin_access);
    }
    return absl::OkStatus();
  });
}

// An RFC 3339 time, kept as its text once it parses.
absl::Status ReadTimeText(const JsonValue& v, DecodeContext& ctx, std::string& out) {
  std::optional<Time> parsed;
  if (absl::Status status = ReadTime(v, ctx, parsed); !status.ok()) return status;
  return ReadString(v, ctx, out);
}

absl::Status ReadAllocationResult(const JsonValue& v, DecodeContext& ctx, AllocationResult& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "devices") {
      return ForEachField(value, ctx, [&](std::string_view field, const JsonValue& item) {
        if (field == "results") return ReadArray(item, ctx, out.results, ReadDeviceRequestAllocationResult);
        if (field == "config") return ReadArray(item, ctx, out.config, ReadDeviceAllocationConfiguration);
        return absl::OkStatus();
      });
    }
    if (name == "nodeSelector") return ReadOptionalNodeSelector(value, ctx, out.node_selector);
    if (name == "allocationTimestamp") return ReadTimeText(value, ctx, out.allocation_timestamp);
    return absl::OkStatus();
  });
}

absl::Status ReadConsumerReference(const JsonValue& v, DecodeContext& ctx, ResourceClaimConsumerReference& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "apiGroup") return ReadString(value, ctx, out.api_group);
    if (name == "resource") return ReadString(value, ctx, out.resource);
    if (name == "name") return ReadString(value, ctx, out.name);
    if (name == "uid") return ReadString(value, ctx, out.uid);
    return absl::OkStatus();
  });
}

absl::Status ReadResourceClaimStatus(const JsonValue& v, DecodeContext& ctx, ResourceClaimStatus& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "allocation") return ReadOptional(value, ctx, out.allocation, ReadAllocationResult);
    if (name == "reservedFor") return ReadArray(value, ctx, out.reserved_for, ReadConsumerReference);
    if (name == "devices") {
      if (!value.IsArray()) return ctx.Error("expected an array, got " + std::string(JsonTypeName(value)));
      out.devices_json = CompactJson(value);
    }
    return absl::OkStatus();
  });
}

// metadata (ReadObjectMeta) and metadata.finalizers.
absl::Status ReadClaimMetadata(const JsonValue& v, DecodeContext& ctx, ResourceClaim& out) {
  if (absl::Status status = ReadObjectMeta(v, ctx, out.metadata); !status.ok()) return status;
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "finalizers") return ReadStringList(value, ctx, out.finalizers);
    return absl::OkStatus();
  });
}

// An object of `metadata` (annotations and ownerReferences dropped; the name required) and
// `spec`, read by read_spec(spec, ctx, out).
template <typename T, typename F>
absl::Status ReadMetadataAndSpec(const JsonValue& v, DecodeContext& ctx, T& out, F&& read_spec) {
  absl::Status status = ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "metadata") return ReadObjectMetaWithoutAnnotations(value, ctx, out.metadata);
    if (name == "spec") return read_spec(value, ctx, out);
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return CheckName(out.metadata, ctx);
}

}  // namespace

absl::Status ReadResourceSlice(const JsonValue& v, DecodeContext& ctx, ResourceSlice& out) {
  return ReadMetadataAndSpec(v, ctx, out, ReadResourceSliceSpec);
}

absl::Status ReadDeviceClass(const JsonValue& v, DecodeContext& ctx, DeviceClass& out) {
  return ReadMetadataAndSpec(v, ctx, out, ReadDeviceClassSpec);
}

absl::Status ReadResourceClaim(const JsonValue& v, DecodeContext& ctx, ResourceClaim& out) {
  absl::Status status = ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "metadata") return ReadClaimMetadata(value, ctx, out);
    if (name == "spec") return ReadResourceClaimSpec(value, ctx, out.spec);
    if (name == "status") return ReadResourceClaimStatus(value, ctx, out.status);
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return CheckName(out.metadata, ctx);
}

}  // namespace ksched::api::json_internal
