#include "scheduler/extender_objects.h"

#include "absl/container/flat_hash_map.h"
#include "api/json_writer.h"
#include "api/outside_json.h"
#include "rapidjson/document.h"

namespace ksched::scheduler {

absl::StatusOr<std::string> RestExtenderObjects::PodJson(const api::Pod& pod) {
  {
    base::MutexLock lock(&mu_);
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
  if (!api::ParseOutsideJson(*fetched, document).ok() || !document.IsObject()) {
    return absl::InternalError("reading pod " + pod.metadata.namespace_ + "/" + pod.metadata.name +
                               " for an extender: the API server's answer is not a Pod");
  }
  for (const char* key : {"kind", "apiVersion"}) {
    if (auto it = document.FindMember(key); it != document.MemberEnd()) document.EraseMember(it);
  }
  // Upstream's pod informer drops metadata.managedFields (its transform in newPodInformer).
  if (auto meta = document.FindMember("metadata"); meta != document.MemberEnd() && meta->value.IsObject()) {
    if (auto it = meta->value.FindMember("managedFields"); it != meta->value.MemberEnd()) meta->value.EraseMember(it);
  }
  rapidjson::StringBuffer buffer;
  api::json::JsonWriter writer(buffer);
  document.Accept(writer);
  std::string json(buffer.GetString(), buffer.GetSize());
  base::MutexLock lock(&mu_);
  cached_uid_ = pod.metadata.uid;
  cached_version_ = pod.metadata.resource_version;
  cached_json_ = json;
  return json;
}

const NodeVersion* RestExtenderObjects::Collect(const NodeMap& listed, std::span<const NodeVersion> nodes, bool exact,
                                                 std::vector<NodeJson>& out) {
  out.clear();
  out.reserve(nodes.size());
  for (const NodeVersion& node : nodes) {
    auto it = listed.find(absl::string_view(node.name.data(), node.name.size()));
    if (it == listed.end() || (exact && it->second.resource_version != node.resource_version)) return &node;
    out.push_back(it->second.json);
  }
  return nullptr;
}

absl::StatusOr<std::shared_ptr<const RestExtenderObjects::NodeMap>> RestExtenderObjects::ListNodes() {
  client::ListOptions options;
  options.resource_version = "0";  // the watch cache: what the informers see
  absl::StatusOr<std::string> list = client_->List("/api/v1/nodes", options);
  if (!list.ok()) return list.status();
  rapidjson::Document document;
  if (!api::ParseOutsideJson(*list, document).ok() || !document.IsObject() || !document.HasMember("items") ||
      !document["items"].IsArray()) {
    return absl::InternalError("listing nodes for an extender: the API server's answer is not a NodeList");
  }
  auto listed = std::make_shared<NodeMap>();
  for (const rapidjson::Value& item : document["items"].GetArray()) {
    if (!item.IsObject()) continue;
    auto metadata = item.FindMember("metadata");
    if (metadata == item.MemberEnd() || !metadata->value.IsObject()) continue;
    auto name = metadata->value.FindMember("name");
    if (name == metadata->value.MemberEnd() || !name->value.IsString()) continue;
    auto version = metadata->value.FindMember("resourceVersion");
    rapidjson::StringBuffer buffer;
    api::json::JsonWriter writer(buffer);
    item.Accept(writer);
    ListedNode node;
    if (version != metadata->value.MemberEnd() && version->value.IsString()) {
      node.resource_version.assign(version->value.GetString(), version->value.GetStringLength());
    }
    node.json = std::make_shared<const std::string>(buffer.GetString(), buffer.GetSize());
    listed->insert_or_assign(std::string(name->value.GetString(), name->value.GetStringLength()), std::move(node));
  }
  return listed;
}

absl::StatusOr<std::vector<NodeJson>> RestExtenderObjects::NodesJson(std::span<const NodeVersion> nodes) {
  std::vector<NodeJson> out;
  std::shared_ptr<const NodeMap> kept;
  {
    base::MutexLock lock(&mu_);
    kept = listed_nodes_;
  }
  if (kept != nullptr && Collect(*kept, nodes, /*exact=*/true, out) == nullptr) return out;
  absl::StatusOr<std::shared_ptr<const NodeMap>> listed = ListNodes();
  if (!listed.ok()) return listed.status();
  {
    base::MutexLock lock(&mu_);
    listed_nodes_ = *listed;
  }
  if (const NodeVersion* missing = Collect(**listed, nodes, /*exact=*/false, out)) {
    return absl::NotFoundError("listing nodes for an extender: node \"" + std::string(missing->name) + "\" not found");
  }
  return out;
}

}  // namespace ksched::scheduler
