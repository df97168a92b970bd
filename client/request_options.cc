#include "client/request_options.h"

#include <utility>
#include <vector>

#include "api/json_writer.h"
#include "api/protobuf_wire.h"
#include "client/resource_path.h"
#include "rapidjson/stringbuffer.h"
#include "rapidjson/writer.h"

namespace ksched::client {

namespace {

using api::json::Field;
using api::json::JsonWriter;
using api::json::String;

}  // namespace

std::string ListQuery(const ListOptions& options, bool watch) {
  // In key order, as url.Values.Encode.
  std::vector<std::pair<std::string_view, std::string>> params;
  if (watch) params.emplace_back("allowWatchBookmarks", "true");
  if (!options.continue_token.empty()) params.emplace_back("continue", options.continue_token);
  if (!options.field_selector.empty()) params.emplace_back("fieldSelector", options.field_selector);
  if (!options.label_selector.empty()) params.emplace_back("labelSelector", options.label_selector);
  if (options.limit > 0) params.emplace_back("limit", std::to_string(options.limit));
  if (!options.resource_version.empty()) params.emplace_back("resourceVersion", options.resource_version);
  if (!options.resource_version_match.empty()) {
    params.emplace_back("resourceVersionMatch", options.resource_version_match);
  }
  if (options.timeout_seconds > 0) params.emplace_back("timeoutSeconds", std::to_string(options.timeout_seconds));
  if (watch) params.emplace_back("watch", "1");
  std::string query;
  for (const auto& [key, value] : params) {
    query += query.empty() ? '?' : '&';
    query += key;
    query += '=';
    query += QueryEscape(value);
  }
  return query;
}

std::string DeleteOptionsJson(const DeleteOptions& options) {
  const bool preconditions =
      !options.precondition_uid.empty() || !options.precondition_resource_version.empty();
  if (!options.grace_period_seconds.has_value() && !preconditions && options.propagation_policy.empty()) {
    return "";
  }
  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  writer.StartObject();
  Field(writer, "apiVersion", "v1");
  Field(writer, "kind", "DeleteOptions");
  if (options.grace_period_seconds.has_value()) {
    String(writer, "gracePeriodSeconds");
    writer.Int64(*options.grace_period_seconds);
  }
  if (preconditions) {
    String(writer, "preconditions");
    writer.StartObject();
    if (!options.precondition_uid.empty()) Field(writer, "uid", options.precondition_uid);
    if (!options.precondition_resource_version.empty()) {
      Field(writer, "resourceVersion", options.precondition_resource_version);
    }
    writer.EndObject();
  }
  if (!options.propagation_policy.empty()) Field(writer, "propagationPolicy", options.propagation_policy);
  writer.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string_view PatchContentType(PatchType type) {
  switch (type) {
    case PatchType::kMerge: return "application/merge-patch+json";
    case PatchType::kStrategic: return "application/strategic-merge-patch+json";
    case PatchType::kJson: return "application/json-patch+json";
  }
  return "application/merge-patch+json";
}

std::string BindingJson(std::string_view namespace_name, std::string_view pod_name,
                        std::string_view pod_uid, std::string_view node_name) {
  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  writer.StartObject();
  Field(writer, "apiVersion", "v1");
  Field(writer, "kind", "Binding");
  String(writer, "metadata");
  writer.StartObject();
  Field(writer, "name", pod_name);
  Field(writer, "namespace", namespace_name);
  if (!pod_uid.empty()) Field(writer, "uid", pod_uid);
  writer.EndObject();
  String(writer, "target");
  writer.StartObject();
  Field(writer, "kind", "Node");
  Field(writer, "name", node_name);
  writer.EndObject();
  writer.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string BindingProtobuf(std::string_view namespace_name, std::string_view pod_name,
                            std::string_view pod_uid, std::string_view node_name) {
  api::protobuf::ProtobufWriter binding;
  binding.Message(1, [&](api::protobuf::ProtobufWriter& metadata) {
    metadata.Bytes(1, pod_name);
    metadata.Bytes(3, namespace_name);
    metadata.OptionalString(5, pod_uid);
  });
  binding.Message(2, [&](api::protobuf::ProtobufWriter& target) {
    target.Bytes(1, "Node");
    target.Bytes(3, node_name);
  });
  return api::protobuf::Envelope("v1", "Binding", binding.bytes());
}

}  // namespace ksched::client
