#include "scheduler/extender_answers.h"

#include <cctype>
#include <string_view>

#include "api/outside_json.h"
#include "rapidjson/document.h"

namespace ksched::scheduler {
namespace {

bool EqualFold(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

// Go's encoding/json field lookup: the exact key, else the first key equal but for case.
const rapidjson::Value* Field(const rapidjson::Value& object, std::string_view key) {
  const rapidjson::Value* folded = nullptr;
  for (auto it = object.MemberBegin(); it != object.MemberEnd(); ++it) {
    const std::string_view name(it->name.GetString(), it->name.GetStringLength());
    if (name == key) return &it->value;
    if (folded == nullptr && EqualFold(name, key)) folded = &it->value;
  }
  return folded;
}

std::string JsonKind(const rapidjson::Value& value) {
  if (value.IsString()) return "string";
  if (value.IsNumber()) return "number";
  if (value.IsBool()) return "bool";
  if (value.IsArray()) return "array";
  if (value.IsObject()) return "object";
  return "null";
}

absl::Status CannotUnmarshal(const rapidjson::Value& value, std::string_view field, std::string_view type) {
  return absl::InvalidArgumentError("json: cannot unmarshal " + JsonKind(value) + " into Go struct field " +
                                    std::string(field) + " of type " + std::string(type));
}

// The answer's first JSON value (json.Decoder.Decode reads one value; what follows is ignored).
absl::StatusOr<rapidjson::Document> Decode(const std::string& body) {
  rapidjson::Document document;
  if (absl::Status parsed = api::ParseOutsideJson<rapidjson::kParseStopWhenDoneFlag>(body, document); !parsed.ok()) {
    if (body.find_first_not_of(" \t\r\n") == std::string::npos) return absl::InvalidArgumentError("EOF");
    if (!document.HasParseError()) return parsed;  // refused before parsing: "exceeded max depth"
    return absl::InvalidArgumentError("invalid character in the extender's answer (offset " +
                                      std::to_string(document.GetErrorOffset()) + ")");
  }
  return document;
}

// A map[string]string field (null or absent: empty).
absl::Status ReadFailedNodes(const rapidjson::Value& result, std::string_view key,
                             std::vector<std::pair<std::string, std::string>>& out) {
  const rapidjson::Value* value = Field(result, key);
  if (value == nullptr || value->IsNull()) return absl::OkStatus();
  if (!value->IsObject()) return CannotUnmarshal(*value, "ExtenderFilterResult." + std::string(key), "v1.FailedNodesMap");
  for (auto it = value->MemberBegin(); it != value->MemberEnd(); ++it) {
    if (!it->value.IsString()) {
      return CannotUnmarshal(it->value, "ExtenderFilterResult." + std::string(key), "string");
    }
    out.emplace_back(std::string(it->name.GetString(), it->name.GetStringLength()),
                     std::string(it->value.GetString(), it->value.GetStringLength()));
  }
  return absl::OkStatus();
}

// The "Error" string of a result, "" when absent or null.
absl::StatusOr<std::string> ReadError(const rapidjson::Value& result, std::string_view type) {
  const rapidjson::Value* error = Field(result, "Error");
  if (error == nullptr || error->IsNull()) return std::string();
  if (!error->IsString()) return CannotUnmarshal(*error, std::string(type) + ".Error", "string");
  return std::string(error->GetString(), error->GetStringLength());
}

}  // namespace

absl::StatusOr<ExtenderFilterAnswer> DecodeExtenderFilterAnswer(const std::string& body, bool node_cache_capable) {
  ExtenderFilterAnswer out;
  absl::StatusOr<rapidjson::Document> result = Decode(body);
  if (!result.ok()) return result.status();
  if (!result->IsObject()) {
    if (result->IsNull()) return out;  // Go decodes null into the zero result: no node kept
    return CannotUnmarshal(*result, "ExtenderFilterResult", "v1.ExtenderFilterResult");
  }
  absl::StatusOr<std::string> error = ReadError(*result, "ExtenderFilterResult");
  if (!error.ok()) return error.status();
  if (absl::Status read = ReadFailedNodes(*result, "FailedNodes", out.failed); !read.ok()) return read;
  if (absl::Status read = ReadFailedNodes(*result, "FailedAndUnresolvableNodes", out.failed_unresolvable); !read.ok()) {
    return read;
  }
  out.error = *std::move(error);
  if (!out.error.empty()) return out;

  const rapidjson::Value* names = Field(*result, "NodeNames");
  const rapidjson::Value* list = Field(*result, "Nodes");
  if (node_cache_capable && names != nullptr && !names->IsNull()) {
    if (!names->IsArray()) return CannotUnmarshal(*names, "ExtenderFilterResult.NodeNames", "[]string");
    for (const rapidjson::Value& name : names->GetArray()) {
      if (!name.IsString()) return CannotUnmarshal(name, "ExtenderFilterResult.NodeNames", "string");
      out.node_names.emplace_back(name.GetString(), name.GetStringLength());
    }
  } else if (list != nullptr && !list->IsNull()) {
    if (!list->IsObject()) return CannotUnmarshal(*list, "ExtenderFilterResult.Nodes", "v1.NodeList");
    const rapidjson::Value* items = Field(*list, "items");
    if (items != nullptr && !items->IsNull()) {
      if (!items->IsArray()) return CannotUnmarshal(*items, "ExtenderFilterResult.Nodes.items", "[]v1.Node");
      for (const rapidjson::Value& item : items->GetArray()) {
        const rapidjson::Value* metadata = item.IsObject() ? Field(item, "metadata") : nullptr;
        const rapidjson::Value* name = metadata != nullptr && metadata->IsObject() ? Field(*metadata, "name") : nullptr;
        std::string& node_name = out.node_names.emplace_back();
        if (name != nullptr && name->IsString()) node_name.assign(name->GetString(), name->GetStringLength());
      }
    }
  }
  return out;
}

absl::StatusOr<std::vector<ExtenderHostScore>> DecodeExtenderPrioritizeAnswer(const std::string& body) {
  std::vector<ExtenderHostScore> scores;
  absl::StatusOr<rapidjson::Document> result = Decode(body);
  if (!result.ok()) return result.status();
  if (result->IsNull()) return scores;
  if (!result->IsArray()) return CannotUnmarshal(*result, "HostPriorityList", "v1.HostPriorityList");
  for (const rapidjson::Value& entry : result->GetArray()) {
    if (!entry.IsObject()) return CannotUnmarshal(entry, "HostPriorityList", "v1.HostPriority");
    ExtenderHostScore score;
    if (const rapidjson::Value* host = Field(entry, "Host"); host != nullptr && !host->IsNull()) {
      if (!host->IsString()) return CannotUnmarshal(*host, "HostPriority.Host", "string");
      score.host.assign(host->GetString(), host->GetStringLength());
    }
    if (const rapidjson::Value* value = Field(entry, "Score"); value != nullptr && !value->IsNull()) {
      if (!value->IsInt64()) return CannotUnmarshal(*value, "HostPriority.Score", "int64");
      score.score = value->GetInt64();
    }
    scores.push_back(std::move(score));
  }
  return scores;
}

absl::StatusOr<std::string> DecodeExtenderBindAnswer(const std::string& body) {
  absl::StatusOr<rapidjson::Document> result = Decode(body);
  if (!result.ok()) return result.status();
  if (result->IsNull()) return std::string();
  if (!result->IsObject()) return CannotUnmarshal(*result, "ExtenderBindingResult", "v1.ExtenderBindingResult");
  return ReadError(*result, "ExtenderBindingResult");
}

absl::StatusOr<std::vector<ExtenderMetaVictims>> DecodeExtenderPreemptionAnswer(const std::string& body) {
  std::vector<ExtenderMetaVictims> out;
  absl::StatusOr<rapidjson::Document> result = Decode(body);
  if (!result.ok()) return result.status();
  if (result->IsNull()) return out;
  if (!result->IsObject()) {
    return CannotUnmarshal(*result, "ExtenderPreemptionResult", "v1.ExtenderPreemptionResult");
  }
  const rapidjson::Value* meta = Field(*result, "NodeNameToMetaVictims");
  if (meta == nullptr || meta->IsNull()) return out;
  if (!meta->IsObject()) {
    return CannotUnmarshal(*meta, "ExtenderPreemptionResult.NodeNameToMetaVictims", "map[string]*v1.MetaVictims");
  }
  for (auto it = meta->MemberBegin(); it != meta->MemberEnd(); ++it) {
    ExtenderMetaVictims& victims = out.emplace_back();
    victims.node.assign(it->name.GetString(), it->name.GetStringLength());
    if (it->value.IsNull()) {
      victims.null = true;
      continue;
    }
    if (!it->value.IsObject()) {
      return CannotUnmarshal(it->value, "ExtenderPreemptionResult.NodeNameToMetaVictims", "v1.MetaVictims");
    }
    if (const rapidjson::Value* count = Field(it->value, "NumPDBViolations"); count != nullptr && !count->IsNull()) {
      if (!count->IsInt64()) return CannotUnmarshal(*count, "MetaVictims.NumPDBViolations", "int64");
      victims.num_pdb_violations = count->GetInt64();
    }
    const rapidjson::Value* pods = Field(it->value, "Pods");
    if (pods == nullptr || pods->IsNull()) continue;
    if (!pods->IsArray()) return CannotUnmarshal(*pods, "MetaVictims.Pods", "[]*v1.MetaPod");
    for (const rapidjson::Value& meta_pod : pods->GetArray()) {
      std::string& uid = victims.pod_uids.emplace_back();
      if (meta_pod.IsObject()) {
        if (const rapidjson::Value* value = Field(meta_pod, "UID"); value != nullptr && value->IsString()) {
          uid.assign(value->GetString(), value->GetStringLength());
        }
      }
    }
  }
  return out;
}

}  // namespace ksched::scheduler
