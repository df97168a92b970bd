#include "plugins/binpack/args.h"

#include <set>
#include <utility>

#include "api/field_errors.h"
#include "api/json_decode.h"
#include "api/resource_list.h"
#include "framework/resource.h"
#include "rapidjson/stringbuffer.h"
#include "rapidjson/writer.h"

namespace ksched::plugins::binpack {

namespace {

constexpr std::string_view kErrorPrefix = "Binpack args: ";
constexpr std::string_view kKind = "BinpackArgs";

// A JSON value as written, for "Invalid value: <v>" (Go renders the decoded value; the JSON text
// is the closest faithful form for values of the wrong type).
std::string Render(const rapidjson::Value& value) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  value.Accept(writer);
  return std::string(buffer.GetString(), buffer.GetSize());
}

absl::Status Prefixed(const api::FieldErrorList& errors) {
  if (errors.empty()) return absl::OkStatus();
  std::string message(kErrorPrefix);
  message += errors.Message();
  return absl::InvalidArgumentError(message);
}

// Names the node accounting (framework::Resource) keeps: the three native ones and scalars.
bool IsScorableResource(std::string_view name) {
  return name == api::kResourceCPU || name == api::kResourceMemory ||
         name == api::kResourceEphemeralStorage || framework::IsScalarResourceName(name);
}

void ValidateResources(const std::vector<BinpackResource>& resources, const api::FieldPath& path,
                       api::FieldErrorList& errors) {
  std::set<std::string, std::less<>> seen;
  for (std::size_t i = 0; i < resources.size(); ++i) {
    const BinpackResource& resource = resources[i];
    const api::FieldPath entry = path.Index(i);
    if (resource.name.empty()) {
      errors.Add(entry.Child("name").String() + ": Required value");
    } else if (!IsScorableResource(resource.name)) {
      errors.Add(api::InvalidValueError(
          entry.Child("name"), api::GoQuote(resource.name),
          "must be cpu, memory, ephemeral-storage or a scalar resource (an extended resource such "
          "as nvidia.com/gpu, hugepages-*, attachable-volumes-*)"));
    } else if (!seen.insert(resource.name).second) {
      errors.Add(entry.Child("name").String() + ": Duplicate value: " + api::GoQuote(resource.name));
    }
    if (resource.weight < kMinResourceWeight) {
      errors.Add(api::InvalidValueError(entry.Child("weight"), std::to_string(resource.weight),
                                        "must be positive"));
    } else if (resource.weight > kMaxResourceWeight) {
      errors.Add(api::InvalidValueError(entry.Child("weight"), std::to_string(resource.weight),
                                        "must not be greater than 100"));
    }
  }
}

// One resources[i] object into `out`; type errors go to `errors` (the entry is then unusable
// for the value checks, which are skipped for it).
bool DecodeResource(const rapidjson::Value& json, const api::FieldPath& path,
                    api::FieldErrorList& errors, BinpackResource& out) {
  if (!json.IsObject()) {
    errors.Add(api::InvalidValueError(path, Render(json), "must be an object"));
    return false;
  }
  bool ok = true;
  bool has_weight = false;
  for (auto it = json.MemberBegin(); it != json.MemberEnd(); ++it) {
    const std::string_view key(it->name.GetString(), it->name.GetStringLength());
    const rapidjson::Value& value = it->value;
    if (key == "name") {
      if (value.IsNull()) continue;
      if (!value.IsString()) {
        errors.Add(api::InvalidValueError(path.Child("name"), Render(value), "must be a string"));
        ok = false;
        continue;
      }
      out.name.assign(value.GetString(), value.GetStringLength());
    } else if (key == "weight") {
      if (value.IsNull()) continue;
      if (!value.IsInt64()) {
        errors.Add(api::InvalidValueError(path.Child("weight"), Render(value),
                                          "must be an integer"));
        ok = false;
        continue;
      }
      out.weight = value.GetInt64();
      has_weight = true;
    } else {
      errors.Add(path.String() + ": unknown field " + api::GoQuote(key));
      ok = false;
    }
  }
  if (!has_weight) out.weight = 1;
  return ok;
}

}  // namespace

absl::Status ValidateBinpackArgs(const BinpackArgs& args) {
  api::FieldErrorList errors;
  if (args.resources.empty()) {
    errors.Add("resources: Required value: at least one resource");
  }
  ValidateResources(args.resources, api::FieldPath("resources"), errors);
  return Prefixed(errors);
}

absl::StatusOr<BinpackArgs> ParseBinpackArgs(std::string_view json) {
  BinpackArgs args;
  if (json.find_first_not_of(" \t\r\n") == std::string_view::npos) return args;
  rapidjson::Document document;
  if (absl::Status parsed = api::ParseJson(json, document); !parsed.ok()) {
    return absl::InvalidArgumentError(std::string(kErrorPrefix) + std::string(parsed.message()));
  }
  api::FieldErrorList errors;
  if (document.IsNull()) return args;
  if (!document.IsObject()) {
    errors.Add("Invalid value: " + Render(document) + ": must be an object");
    return Prefixed(errors);
  }

  std::vector<BinpackResource> decoded;
  bool decoded_ok = true;
  for (auto it = document.MemberBegin(); it != document.MemberEnd(); ++it) {
    const std::string_view key(it->name.GetString(), it->name.GetStringLength());
    const rapidjson::Value& value = it->value;
    if (key == "apiVersion") continue;
    if (key == "kind") {
      if (!value.IsString() || std::string_view(value.GetString(), value.GetStringLength()) != kKind) {
        errors.Add(api::InvalidValueError(api::FieldPath("kind"), Render(value),
                                          "must be \"BinpackArgs\""));
      }
      continue;
    }
    if (key != "resources") {
      errors.Add("unknown field " + api::GoQuote(key));
      continue;
    }
    if (value.IsNull()) continue;
    if (!value.IsArray()) {
      errors.Add(api::InvalidValueError(api::FieldPath("resources"), Render(value),
                                        "must be a list"));
      decoded_ok = false;
      continue;
    }
    const api::FieldPath path("resources");
    for (rapidjson::SizeType i = 0; i < value.Size(); ++i) {
      BinpackResource resource;
      if (!DecodeResource(value[i], path.Index(i), errors, resource)) decoded_ok = false;
      decoded.push_back(std::move(resource));
    }
  }
  // An empty or absent list means the default, as upstream's resource-list args default.
  if (!decoded.empty()) args.resources = std::move(decoded);
  if (decoded_ok) ValidateResources(args.resources, api::FieldPath("resources"), errors);
  if (!errors.empty()) return Prefixed(errors);
  return args;
}

}  // namespace ksched::plugins::binpack
