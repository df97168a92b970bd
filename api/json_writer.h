// Small helpers for writing Kubernetes JSON with RapidJSON's Writer: std::string_view strings,
// "key": "value" fields, and Go's `omitempty` for strings. Used wherever a request body is built
// (events, delete options, leases).
//
// Thread-safety: stateless; a JsonWriter belongs to its caller.
#pragma once

#include <string_view>

#include "rapidjson/stringbuffer.h"
#include "rapidjson/writer.h"

namespace ksched::api::json {

using JsonWriter = rapidjson::Writer<rapidjson::StringBuffer>;

inline void String(JsonWriter& writer, std::string_view value) {
  writer.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
}

inline void Field(JsonWriter& writer, std::string_view key, std::string_view value) {
  String(writer, key);
  String(writer, value);
}

// Go's omitempty for strings: nothing when empty.
inline void OptionalField(JsonWriter& writer, std::string_view key, std::string_view value) {
  if (!value.empty()) Field(writer, key, value);
}

}  // namespace ksched::api::json
