// Readers for primitives and for the types shared by every kind (see json_decode_internal.h).
#include <charconv>
#include <cmath>
#include <string>
#include <system_error>

#include "api/field_errors.h"
#include "api/json_decode_internal.h"

namespace ksched::api::json_internal {

namespace {

std::string TypeError(std::string_view expected, const JsonValue& v) {
  std::string message = "expected ";
  message.append(expected);
  message.append(", got ");
  message.append(JsonTypeName(v));
  return message;
}

// The shortest text that reads back as `d` ("1.5", "1e+20").
std::string FormatDouble(double d) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, d);
  if (result.ec != std::errc{}) return "?";
  return std::string(buffer, result.ptr);
}

// The error for a number that is not an integer of the requested range. `type_name` is "int32" or
// "int64".
absl::Status IntegerError(const JsonValue& v, DecodeContext& ctx, std::string_view type_name) {
  if (!v.IsNumber()) return ctx.Error(TypeError("an integer", v));
  std::string message;
  if (v.IsInt64() || v.IsUint64()) {
    message = "integer ";
    message.append(v.IsInt64() ? std::to_string(v.GetInt64()) : std::to_string(v.GetUint64()));
    message.append(" out of range for ");
    message.append(type_name);
    return ctx.Error(message);
  }
  const double d = v.GetDouble();
  if (std::isfinite(d) && d == std::trunc(d)) {
    // Integral but written as a double: either too large for any 64-bit integer, or written with a
    // fraction or an exponent ("1.0", "1e3"), which Go rejects for integer fields too.
    if (std::fabs(d) >= 9223372036854775808.0) {
      message = "number ";
      message.append(FormatDouble(d));
      message.append(" out of range for ");
      message.append(type_name);
      return ctx.Error(message);
    }
    return ctx.Error("expected an integer, got a number with a fraction or an exponent");
  }
  return ctx.Error("expected an integer, got " + FormatDouble(d));
}

bool IsAsciiSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

std::string_view TrimAsciiSpace(std::string_view s) {
  while (!s.empty() && IsAsciiSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsAsciiSpace(s.back())) s.remove_suffix(1);
  return s;
}

absl::Status ReadLabelSelectorRequirement(const JsonValue& v, DecodeContext& ctx,
                                          LabelSelectorRequirement& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "key") return ReadString(value, ctx, out.key);
    if (name == "operator") return ReadString(value, ctx, out.op);
    if (name == "values") return ReadStringList(value, ctx, out.values);
    return absl::OkStatus();
  });
}

absl::Status ReadNodeSelectorRequirement(const JsonValue& v, DecodeContext& ctx,
                                         NodeSelectorRequirement& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "key") return ReadString(value, ctx, out.key);
    if (name == "operator") return ReadString(value, ctx, out.op);
    if (name == "values") return ReadStringList(value, ctx, out.values);
    return absl::OkStatus();
  });
}

absl::Status ReadOwnerReference(const JsonValue& v, DecodeContext& ctx, OwnerReference& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "apiVersion") return ReadString(value, ctx, out.api_version);
    if (name == "kind") return ReadString(value, ctx, out.kind);
    if (name == "name") return ReadString(value, ctx, out.name);
    if (name == "uid") return ReadString(value, ctx, out.uid);
    if (name == "controller") return ReadBool(value, ctx, out.controller);
    return absl::OkStatus();
  });
}

}  // namespace

std::string_view JsonTypeName(const JsonValue& v) noexcept {
  switch (v.GetType()) {
    case rapidjson::kNullType:
      return "null";
    case rapidjson::kFalseType:
    case rapidjson::kTrueType:
      return "bool";
    case rapidjson::kObjectType:
      return "object";
    case rapidjson::kArrayType:
      return "array";
    case rapidjson::kStringType:
      return "string";
    case rapidjson::kNumberType:
      return "number";
  }
  return "unknown";
}

std::string DecodeContext::Path() const {
  std::string path;
  const std::size_t depth = depth_ < kMaxDepth ? depth_ : kMaxDepth;
  for (std::size_t i = 0; i < depth; ++i) {
    const Segment& segment = segments_[i];
    switch (segment.kind) {
      case Segment::kField:
        if (!path.empty()) path.push_back('.');
        path.append(segment.name);
        break;
      case Segment::kIndex:
        path.push_back('[');
        path.append(std::to_string(segment.index));
        path.push_back(']');
        break;
      case Segment::kKey:
        path.push_back('[');
        path.append(GoQuote(segment.name));
        path.push_back(']');
        break;
    }
  }
  return path;
}

absl::Status DecodeContext::Error(std::string_view message) const {
  std::string text = Path();
  if (!text.empty()) text.append(": ");
  text.append(message);
  return absl::InvalidArgumentError(text);
}

absl::Status ReadString(const JsonValue& v, DecodeContext& ctx, std::string& out) {
  if (!v.IsString()) return ctx.Error(TypeError("a string", v));
  out.assign(v.GetString(), v.GetStringLength());
  return absl::OkStatus();
}

absl::Status ReadString(const JsonValue& v, DecodeContext& ctx, InternedString& out) {
  if (!v.IsString()) return ctx.Error(TypeError("a string", v));
  out = std::string_view(v.GetString(), v.GetStringLength());
  return absl::OkStatus();
}

absl::Status ReadBool(const JsonValue& v, DecodeContext& ctx, bool& out) {
  if (!v.IsBool()) return ctx.Error(TypeError("a bool", v));
  out = v.GetBool();
  return absl::OkStatus();
}

absl::Status ReadInt32(const JsonValue& v, DecodeContext& ctx, std::int32_t& out) {
  if (!v.IsInt()) return IntegerError(v, ctx, "int32");
  out = v.GetInt();
  return absl::OkStatus();
}

absl::Status ReadInt64(const JsonValue& v, DecodeContext& ctx, std::int64_t& out) {
  if (!v.IsInt64()) return IntegerError(v, ctx, "int64");
  out = v.GetInt64();
  return absl::OkStatus();
}

absl::Status ReadOptionalInt32(const JsonValue& v, DecodeContext& ctx,
                               std::optional<std::int32_t>& out) {
  std::int32_t value = 0;
  absl::Status status = ReadInt32(v, ctx, value);
  if (status.ok()) out = value;
  return status;
}

absl::Status ReadOptionalInt64(const JsonValue& v, DecodeContext& ctx,
                               std::optional<std::int64_t>& out) {
  std::int64_t value = 0;
  absl::Status status = ReadInt64(v, ctx, value);
  if (status.ok()) out = value;
  return status;
}

absl::Status ReadTime(const JsonValue& v, DecodeContext& ctx, std::optional<Time>& out) {
  if (!v.IsString()) return ctx.Error(TypeError("an RFC 3339 time string", v));
  absl::StatusOr<std::optional<Time>> time = ParseApiTime(AsStringView(v));
  if (!time.ok()) return ctx.ErrorFrom(time.status());
  out = *time;
  return absl::OkStatus();
}

absl::Status ReadQuantity(const JsonValue& v, DecodeContext& ctx, Quantity& out) {
  absl::StatusOr<Quantity> parsed;
  if (v.IsString()) {
    // Go's Quantity.UnmarshalJSON trims surrounding whitespace before parsing.
    parsed = Quantity::Parse(TrimAsciiSpace(AsStringView(v)));
  } else if (v.IsInt64()) {
    parsed = Quantity::Parse(std::to_string(v.GetInt64()));
  } else if (v.IsUint64()) {
    parsed = Quantity::Parse(std::to_string(v.GetUint64()));
  } else if (v.IsNumber()) {
    parsed = Quantity::Parse(FormatDouble(v.GetDouble()));
  } else if (v.IsNull()) {
    out = Quantity();
    return absl::OkStatus();
  } else {
    return ctx.Error(TypeError("a quantity string", v));
  }
  if (!parsed.ok()) return ctx.ErrorFrom(parsed.status());
  out = *std::move(parsed);
  return absl::OkStatus();
}

absl::Status ReadStringList(const JsonValue& v, DecodeContext& ctx, std::vector<std::string>& out) {
  return ReadArray(v, ctx, out, [](const JsonValue& element, DecodeContext& c, std::string& s) {
    return ReadString(element, c, s);
  });
}

absl::Status ReadStringList(const JsonValue& v, DecodeContext& ctx,
                            CompactVector<std::string>& out) {
  return ReadArray(v, ctx, out, [](const JsonValue& element, DecodeContext& c, std::string& s) {
    return ReadString(element, c, s);
  });
}

absl::Status ReadStringMap(const JsonValue& v, DecodeContext& ctx, Labels& out) {
  if (!v.IsObject()) return ctx.Error(TypeError("an object", v));
  std::vector<Labels::value_type> entries;
  entries.reserve(v.MemberCount());
  for (auto it = v.MemberBegin(); it != v.MemberEnd(); ++it) {
    auto& entry = entries.emplace_back(InternedString(AsStringView(it->name)), std::string());
    if (it->value.IsNull()) continue;
    ctx.PushKey(AsStringView(it->name));
    PathScope scope(ctx);
    absl::Status status = ReadString(it->value, ctx, entry.second);
    if (!status.ok()) return status;
  }
  if (out.empty()) {
    out = Labels(std::move(entries));
  } else {
    for (auto& entry : entries) out.Set(std::move(entry.first), std::move(entry.second));
  }
  return absl::OkStatus();
}

absl::Status ReadResourceList(const JsonValue& v, DecodeContext& ctx, ResourceList& out) {
  if (!v.IsObject()) return ctx.Error(TypeError("an object", v));
  std::vector<ResourceList::value_type> entries;
  entries.reserve(v.MemberCount());
  for (auto it = v.MemberBegin(); it != v.MemberEnd(); ++it) {
    auto& entry = entries.emplace_back(InternedString(AsStringView(it->name)), Quantity());
    ctx.PushKey(AsStringView(it->name));
    PathScope scope(ctx);
    absl::Status status = ReadQuantity(it->value, ctx, entry.second);
    if (!status.ok()) return status;
  }
  if (out.empty()) {
    out = ResourceList(std::move(entries));
  } else {
    for (auto& entry : entries) out.Set(std::move(entry.first), std::move(entry.second));
  }
  return absl::OkStatus();
}

absl::Status ReadResourceRequirements(const JsonValue& v, DecodeContext& ctx,
                                      ResourceRequirements& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "requests") return ReadResourceList(value, ctx, out.requests);
    if (name == "limits") return ReadResourceList(value, ctx, out.limits);
    return absl::OkStatus();
  });
}

absl::Status ReadObjectMeta(const JsonValue& v, DecodeContext& ctx, ObjectMeta& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "name") return ReadString(value, ctx, out.name);
    if (name == "namespace") return ReadString(value, ctx, out.namespace_);
    if (name == "uid") return ReadString(value, ctx, out.uid);
    if (name == "resourceVersion") return ReadString(value, ctx, out.resource_version);
    if (name == "generation") return ReadInt64(value, ctx, out.generation);
    if (name == "creationTimestamp") return ReadTime(value, ctx, out.creation_timestamp);
    if (name == "deletionTimestamp") return ReadTime(value, ctx, out.deletion_timestamp);
    if (name == "labels") return ReadStringMap(value, ctx, out.labels);
    if (name == "annotations") return ReadStringMap(value, ctx, out.annotations);
    if (name == "ownerReferences") {
      return ReadArray(value, ctx, out.owner_references, ReadOwnerReference);
    }
    return absl::OkStatus();
  });
}

absl::Status ReadLabelSelector(const JsonValue& v, DecodeContext& ctx, LabelSelector& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "matchLabels") return ReadStringMap(value, ctx, out.match_labels);
    if (name == "matchExpressions") {
      return ReadArray(value, ctx, out.match_expressions, ReadLabelSelectorRequirement);
    }
    return absl::OkStatus();
  });
}

absl::Status ReadNodeSelectorTerm(const JsonValue& v, DecodeContext& ctx, NodeSelectorTerm& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "matchExpressions") {
      return ReadArray(value, ctx, out.match_expressions, ReadNodeSelectorRequirement);
    }
    if (name == "matchFields") {
      return ReadArray(value, ctx, out.match_fields, ReadNodeSelectorRequirement);
    }
    return absl::OkStatus();
  });
}

absl::Status ReadNodeSelector(const JsonValue& v, DecodeContext& ctx, NodeSelector& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "nodeSelectorTerms") {
      return ReadArray(value, ctx, out.node_selector_terms, ReadNodeSelectorTerm);
    }
    return absl::OkStatus();
  });
}

absl::Status ReadPreferredSchedulingTerm(const JsonValue& v, DecodeContext& ctx,
                                         PreferredSchedulingTerm& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "weight") return ReadInt32(value, ctx, out.weight);
    if (name == "preference") return ReadNodeSelectorTerm(value, ctx, out.preference);
    return absl::OkStatus();
  });
}

absl::Status ReadApiStatus(const JsonValue& v, DecodeContext& ctx, ApiStatus& out) {
  return ForEachField(v, ctx, [&](std::string_view name, const JsonValue& value) {
    if (name == "status") return ReadString(value, ctx, out.status);
    if (name == "message") return ReadString(value, ctx, out.message);
    if (name == "reason") return ReadString(value, ctx, out.reason);
    if (name == "code") return ReadInt32(value, ctx, out.code);
    return absl::OkStatus();
  });
}

absl::Status CheckKind(const JsonValue& object, DecodeContext& ctx, std::string_view expected) {
  if (!object.IsObject()) return absl::OkStatus();  // the object's own decoder reports it
  auto it = object.FindMember("kind");
  if (it == object.MemberEnd() || it->value.IsNull()) return absl::OkStatus();
  ctx.PushField("kind");
  PathScope scope(ctx);
  if (!it->value.IsString()) return ctx.Error(TypeError("a string", it->value));
  const std::string_view kind = AsStringView(it->value);
  if (kind.empty() || kind == expected) return absl::OkStatus();
  return ctx.Error("expected " + GoQuote(expected) + ", got " + GoQuote(kind));
}

absl::Status CheckName(const ObjectMeta& metadata, DecodeContext& ctx) {
  if (!metadata.name.empty()) return absl::OkStatus();
  ctx.PushField("metadata");
  PathScope meta_scope(ctx);
  ctx.PushField("name");
  PathScope name_scope(ctx);
  return ctx.Error("required field is missing or empty");
}

absl::Status ReadOptionalString(const JsonValue& v, DecodeContext& ctx, std::optional<std::string>& out) {
  return ReadOptional(v, ctx, out, [](const JsonValue& value, DecodeContext& c, std::string& s) {
    return ReadString(value, c, s);
  });
}

}  // namespace ksched::api::json_internal
