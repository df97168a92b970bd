#include "api/lease.h"

#include <utility>

#include "api/json_decode.h"
#include "api/json_decode_internal.h"
#include "api/time_format.h"
#include "rapidjson/stringbuffer.h"
#include "rapidjson/writer.h"

namespace ksched::api {
namespace {

using json_internal::DecodeContext;
using json_internal::JsonValue;
using json_internal::ReadOptionalString;
using JsonWriter = rapidjson::Writer<rapidjson::StringBuffer>;

absl::Status ReadLeaseSpec(const JsonValue& v, DecodeContext& ctx, LeaseSpec& out) {
  return json_internal::ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "holderIdentity") return ReadOptionalString(value, ctx, out.holder_identity);
    if (name == "leaseDurationSeconds") return json_internal::ReadOptionalInt32(value, ctx, out.lease_duration_seconds);
    if (name == "acquireTime") return json_internal::ReadTime(value, ctx, out.acquire_time);
    if (name == "renewTime") return json_internal::ReadTime(value, ctx, out.renew_time);
    if (name == "leaseTransitions") return json_internal::ReadOptionalInt32(value, ctx, out.lease_transitions);
    if (name == "strategy") return ReadOptionalString(value, ctx, out.strategy);
    if (name == "preferredHolder") return ReadOptionalString(value, ctx, out.preferred_holder);
    return absl::OkStatus();
  });
}

void String(JsonWriter& writer, std::string_view value) {
  writer.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
}

void WriteStringMap(JsonWriter& writer, std::string_view key, const Labels& map) {
  String(writer, key);
  writer.StartObject();
  for (const auto& [k, v] : map) {
    String(writer, k);
    String(writer, v);
  }
  writer.EndObject();
}

void WriteLeaseSpec(JsonWriter& writer, const LeaseSpec& spec) {
  writer.StartObject();
  if (spec.holder_identity) {
    String(writer, "holderIdentity");
    String(writer, *spec.holder_identity);
  }
  if (spec.lease_duration_seconds) {
    String(writer, "leaseDurationSeconds");
    writer.Int(*spec.lease_duration_seconds);
  }
  if (spec.acquire_time) {
    String(writer, "acquireTime");
    String(writer, FormatMicroTime(*spec.acquire_time));
  }
  if (spec.renew_time) {
    String(writer, "renewTime");
    String(writer, FormatMicroTime(*spec.renew_time));
  }
  if (spec.lease_transitions) {
    String(writer, "leaseTransitions");
    writer.Int(*spec.lease_transitions);
  }
  if (spec.strategy) {
    String(writer, "strategy");
    String(writer, *spec.strategy);
  }
  if (spec.preferred_holder) {
    String(writer, "preferredHolder");
    String(writer, *spec.preferred_holder);
  }
  writer.EndObject();
}

}  // namespace

absl::StatusOr<Lease> DecodeLease(std::string_view json) {
  rapidjson::Document document;
  if (absl::Status parsed = ParseJson(json, document); !parsed.ok()) return parsed;
  DecodeContext ctx;
  Lease lease;
  if (absl::Status kind = json_internal::CheckKind(document, ctx, kLeaseKind); !kind.ok()) return kind;
  absl::Status status = json_internal::ForEachField(document, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "metadata") return json_internal::ReadObjectMeta(value, ctx, lease.metadata);
    if (name == "spec") return ReadLeaseSpec(value, ctx, lease.spec);
    return absl::OkStatus();
  });
  if (status.ok()) status = json_internal::CheckName(lease.metadata, ctx);
  if (!status.ok()) return status;
  return lease;
}

std::string EncodeLeaseSpec(const LeaseSpec& spec) {
  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  WriteLeaseSpec(writer, spec);
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string EncodeLease(const Lease& lease) {
  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  writer.StartObject();
  String(writer, "apiVersion");
  String(writer, kLeaseApiVersion);
  String(writer, "kind");
  String(writer, kLeaseKind);
  String(writer, "metadata");
  writer.StartObject();
  String(writer, "name");
  String(writer, lease.metadata.name);
  if (!lease.metadata.namespace_.empty()) {
    String(writer, "namespace");
    String(writer, lease.metadata.namespace_);
  }
  if (!lease.metadata.resource_version.empty()) {
    String(writer, "resourceVersion");
    String(writer, lease.metadata.resource_version);
  }
  if (!lease.metadata.labels.empty()) WriteStringMap(writer, "labels", lease.metadata.labels);
  if (!lease.metadata.annotations.empty()) WriteStringMap(writer, "annotations", lease.metadata.annotations);
  writer.EndObject();
  String(writer, "spec");
  WriteLeaseSpec(writer, lease.spec);
  writer.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

absl::StatusOr<std::string> ReplaceLeaseSpec(std::string_view lease_json, const LeaseSpec& spec) {
  rapidjson::Document document;
  if (absl::Status parsed = ParseJson(lease_json, document); !parsed.ok()) return parsed;
  if (!document.IsObject()) return absl::InvalidArgumentError("a Lease must be a JSON object");
  rapidjson::Document spec_document(&document.GetAllocator());
  const std::string spec_json = EncodeLeaseSpec(spec);
  spec_document.Parse(spec_json.data(), spec_json.size());  // our own output: always valid
  rapidjson::Value spec_value(spec_document, document.GetAllocator());
  if (auto it = document.FindMember("spec"); it != document.MemberEnd()) {
    it->value = std::move(spec_value);
  } else {
    document.AddMember("spec", std::move(spec_value), document.GetAllocator());
  }
  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  document.Accept(writer);
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace ksched::api
