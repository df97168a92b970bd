#include "client/core_event.h"

#include <chrono>
#include <cinttypes>
#include <cstdio>

#include "api/json_writer.h"
#include "api/time_format.h"
#include "client/resource_path.h"
#include "client/uuid.h"
#include "rapidjson/stringbuffer.h"
#include "rapidjson/writer.h"

namespace ksched::client {
namespace {

using api::json::Field;
using api::json::JsonWriter;
using api::json::OptionalField;
using api::json::String;

constexpr std::size_t kDnsSubdomainMaxLength = 253;

}  // namespace

std::string CoreEventName(std::string_view object_name, api::Time time) {
  char hex[24];
  const auto nanos = static_cast<std::uint64_t>(time.time_since_epoch().count());
  std::snprintf(hex, sizeof hex, "%" PRIx64, nanos);
  std::string name(object_name);
  name += '.';
  name += hex;
  // Object names are DNS subdomains already; only the length can break the rule.
  if (name.size() > kDnsSubdomainMaxLength) return NewRandomUuid();
  return name;
}

std::string CoreEventNamespace(const CoreEvent& event) {
  return event.involved_object.namespace_.empty() ? std::string("default") : event.involved_object.namespace_;
}

std::string CoreEventJson(const CoreEvent& event) {
  const CoreEventObjectReference& ref = event.involved_object;
  const std::string timestamp = api::FormatTime(event.time);
  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  writer.StartObject();
  Field(writer, "apiVersion", "v1");
  Field(writer, "kind", "Event");
  String(writer, "metadata");
  writer.StartObject();
  Field(writer, "name", CoreEventName(ref.name, event.time));
  Field(writer, "namespace", CoreEventNamespace(event));
  writer.EndObject();
  String(writer, "involvedObject");
  writer.StartObject();
  OptionalField(writer, "kind", ref.kind);
  OptionalField(writer, "namespace", ref.namespace_);
  OptionalField(writer, "name", ref.name);
  OptionalField(writer, "uid", ref.uid);
  OptionalField(writer, "apiVersion", ref.api_version);
  OptionalField(writer, "resourceVersion", ref.resource_version);
  writer.EndObject();
  OptionalField(writer, "reason", event.reason);
  OptionalField(writer, "message", event.message);
  String(writer, "source");
  writer.StartObject();
  OptionalField(writer, "component", event.source_component);
  writer.EndObject();
  Field(writer, "firstTimestamp", timestamp);
  Field(writer, "lastTimestamp", timestamp);
  String(writer, "count");
  writer.Int(1);
  OptionalField(writer, "type", event.type);
  String(writer, "eventTime");
  writer.Null();
  Field(writer, "reportingComponent", event.source_component);
  Field(writer, "reportingInstance", "");
  writer.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string CoreEventsPath(std::string_view namespace_name) {
  return ResourcePath().Namespace(std::string(namespace_name)).Resource("events").String();
}

}  // namespace ksched::client
