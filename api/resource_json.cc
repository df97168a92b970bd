#include "api/resource_json.h"

#include <string_view>
#include <vector>

#include "api/json_writer.h"

namespace ksched::api {

namespace {

using json::Field;
using json::JsonWriter;
using json::OptionalField;
using json::String;

std::string Text(const rapidjson::StringBuffer& buffer) { return std::string(buffer.GetString(), buffer.GetSize()); }

void StringArray(JsonWriter& writer, const std::vector<std::string>& values) {
  writer.StartArray();
  for (const std::string& value : values) String(writer, value);
  writer.EndArray();
}

// `key`: [...] with Go's omitempty: nothing when empty.
void OptionalStringArray(JsonWriter& writer, std::string_view key, const std::vector<std::string>& values) {
  if (values.empty()) return;
  String(writer, key);
  StringArray(writer, values);
}

void Requirements(JsonWriter& writer, std::string_view key, const std::vector<NodeSelectorRequirement>& requirements) {
  if (requirements.empty()) return;
  String(writer, key);
  writer.StartArray();
  for (const NodeSelectorRequirement& requirement : requirements) {
    writer.StartObject();
    Field(writer, "key", requirement.key);
    Field(writer, "operator", requirement.op);
    OptionalStringArray(writer, "values", requirement.values);
    writer.EndObject();
  }
  writer.EndArray();
}

void WriteNodeSelector(JsonWriter& writer, const NodeSelector& selector) {
  writer.StartObject();
  String(writer, "nodeSelectorTerms");
  writer.StartArray();
  for (const NodeSelectorTerm& term : selector.node_selector_terms) {
    writer.StartObject();
    Requirements(writer, "matchExpressions", term.match_expressions);
    Requirements(writer, "matchFields", term.match_fields);
    writer.EndObject();
  }
  writer.EndArray();
  writer.EndObject();
}

void WriteResult(JsonWriter& writer, const DeviceRequestAllocationResult& result) {
  writer.StartObject();
  Field(writer, "request", result.request);
  Field(writer, "driver", result.driver);
  Field(writer, "pool", result.pool);
  Field(writer, "device", result.device);
  if (result.admin_access.has_value()) {
    String(writer, "adminAccess");
    writer.Bool(*result.admin_access);
  }
  writer.EndObject();
}

void WriteConfig(JsonWriter& writer, const DeviceAllocationConfiguration& config) {
  writer.StartObject();
  Field(writer, "source", config.source);
  OptionalStringArray(writer, "requests", config.requests);
  const std::string& opaque = config.configuration.opaque_json;
  if (!opaque.empty()) {
    String(writer, "opaque");
    writer.RawValue(opaque.data(), opaque.size(), rapidjson::kObjectType);
  }
  writer.EndObject();
}

}  // namespace

std::string AllocationResultJson(const AllocationResult& allocation) {
  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  writer.StartObject();
  String(writer, "devices");
  writer.StartObject();
  if (!allocation.results.empty()) {
    String(writer, "results");
    writer.StartArray();
    for (const DeviceRequestAllocationResult& result : allocation.results) WriteResult(writer, result);
    writer.EndArray();
  }
  if (!allocation.config.empty()) {
    String(writer, "config");
    writer.StartArray();
    for (const DeviceAllocationConfiguration& config : allocation.config) WriteConfig(writer, config);
    writer.EndArray();
  }
  writer.EndObject();
  if (allocation.node_selector.has_value()) {
    String(writer, "nodeSelector");
    WriteNodeSelector(writer, *allocation.node_selector);
  }
  OptionalField(writer, "allocationTimestamp", allocation.allocation_timestamp);
  writer.EndObject();
  return Text(buffer);
}

std::string ConsumerReferenceJson(const ResourceClaimConsumerReference& reference) {
  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  writer.StartObject();
  OptionalField(writer, "apiGroup", reference.api_group);
  Field(writer, "resource", reference.resource);
  Field(writer, "name", reference.name);
  Field(writer, "uid", reference.uid);
  writer.EndObject();
  return Text(buffer);
}

}  // namespace ksched::api
