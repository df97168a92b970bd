#include "scheduler/extender_objects.h"

#include "absl/container/flat_hash_map.h"
#include "api/json_writer.h"
#include "rapidjson/document.h"

namespace ksched::scheduler {

absl::StatusOr<std::string> RestExtenderObjects::PodJson(const api::Pod& pod) {
  {
    std::lock_guard lock(mu_);
    if (!cached_uid_.empty() && cached_uid_ == pod.metadata.uid &&
        cached_version_ == pod.metadata.resource_version) {
      return cached_json_;
    }
  }
  absl::StatusOr<std::string> fetched =
      client_->Get("/api/v1/namespaces/" + pod.metadata.namespace_ + "/pods/" + pod.metadata.name);
  if (!fetched.ok()) return fetched.status();
  // Upstream sends its informer's copy, whose kind and apiVersion are empty (omitted).
  rapidjson::Document document;
  document.Parse(fetched->data(), fetched->size());
  if (document.HasParseError() || !document.IsObject()) {
    return absl::InternalError("reading pod " + pod.metadata.namespace_ + "/" + pod.metadata.name +
                               " for an extender: the API server's answer is not a Pod");
  }
  for (const char* key : {"kind", "apiVersion"}) {
    if (auto it = document.FindMember(key); it != document.MemberEnd()) document.EraseMember(it);
  }
  rapidjson::StringBuffer buffer;
  api::json::JsonWriter writer(buffer);
  document.Accept(writer);
  std::string json(buffer.GetString(), buffer.GetSize());
  std::lock_guard lock(mu_);
  cached_uid_ = pod.metadata.uid;
  cached_version_ = pod.metadata.resource_version;
  cached_json_ = json;
  return json;
}

absl::StatusOr<std::vector<std::string>> RestExtenderObjects::NodesJson(const std::vector<std::string_view>& names) {
  client::ListOptions options;
  options.resource_version = "0";  // the watch cache: what the informers see
  absl::StatusOr<std::string> list = client_->List("/api/v1/nodes", options);
  if (!list.ok()) return list.status();
  rapidjson::Document document;
  document.Parse(list->data(), list->size());
  if (document.HasParseError() || !document.IsObject() || !document.HasMember("items") ||
      !document["items"].IsArray()) {
    return absl::InternalError("listing nodes for an extender: the API server's answer is not a NodeList");
  }
  absl::flat_hash_map<std::string_view, const rapidjson::Value*> by_name;
  for (const rapidjson::Value& item : document["items"].GetArray()) {
    if (!item.IsObject()) continue;
    auto metadata = item.FindMember("metadata");
    if (metadata == item.MemberEnd() || !metadata->value.IsObject()) continue;
    auto name = metadata->value.FindMember("name");
    if (name == metadata->value.MemberEnd() || !name->value.IsString()) continue;
    by_name.emplace(std::string_view(name->value.GetString(), name->value.GetStringLength()), &item);
  }
  std::vector<std::string> nodes;
  nodes.reserve(names.size());
  for (std::string_view name : names) {
    auto it = by_name.find(name);
    if (it == by_name.end()) {
      return absl::NotFoundError("listing nodes for an extender: node \"" + std::string(name) + "\" not found");
    }
    rapidjson::StringBuffer buffer;
    api::json::JsonWriter writer(buffer);
    it->second->Accept(writer);
    nodes.emplace_back(buffer.GetString(), buffer.GetSize());
  }
  return nodes;
}

}  // namespace ksched::scheduler
