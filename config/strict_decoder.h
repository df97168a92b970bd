// StrictDecoder: types a Value the way upstream's strict JSON decoding (sigs.k8s.io/json, the
// fork of encoding/json apimachinery uses) does, so that a bad file is reported in upstream's
// words:
//   - an unknown field is a strict error naming its path from the decoded root, indices included:
//       unknown field "profiles[0].pluginz"
//     all of them are collected, in input order;
//   - a value of the wrong JSON type names the innermost Go struct, the field path (JSON names,
//     no indices) and the Go type, and decoding goes on (only the first such error is kept):
//       json: cannot unmarshal string into Go struct field Plugin.profiles.plugins.score.enabled.weight of type int32
//     and outside any struct: json: cannot unmarshal array into Go value of type v1.Foo;
//   - an error from a value's own parser (a duration, a duration of the wrong type) ends
//     decoding at once, as an UnmarshalJSON error does in Go;
//   - null leaves a field unset (a non-pointer Duration is the exception: Go parses "" and fails).
//
// Use: the caller walks its schema with Object/List and the scalar readers, which read the
// current field context. Result(): the fatal error, else the first type error, else OK;
// strict_errors() are the unknown-field messages.
//
// Thread-safety: one decoder per decode.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "config/value.h"

namespace ksched::config {

class StrictDecoder {
 public:
  StrictDecoder() = default;

  // Handles one entry of an object; returns false when `key` is not a field of the struct.
  using FieldHandler = std::function<bool(std::string_view key, const Value& value)>;
  using ElementHandler = std::function<void(std::size_t index, const Value& element)>;

  // Decodes `value` as Go struct `struct_name` (unqualified, e.g. "KubeSchedulerProfile") of Go
  // type `go_type` (e.g. "v1.KubeSchedulerProfile"). Null: nothing. Not an object: a type error.
  void Object(const Value& value, std::string_view go_type, std::string_view struct_name,
              const FieldHandler& handler);
  // Decodes `value` as a Go slice of type `go_type` (e.g. "[]v1.Plugin"). Null: nothing.
  void List(const Value& value, std::string_view go_type, const ElementHandler& handler);

  // Scalars. Each returns whether it stored a value (false for null and after an error).
  bool String(const Value& value, std::string& out, std::string_view go_type = "string");
  bool Bool(const Value& value, bool& out);
  bool Int32(const Value& value, std::int32_t& out);
  bool Int64(const Value& value, std::int64_t& out);
  bool Float32(const Value& value, float& out);
  // metav1.Duration (a Go duration string); `nullable` for a *metav1.Duration field.
  bool Duration(const Value& value, std::chrono::nanoseconds& out, bool nullable = false);
  // []byte: base64 text.
  bool Bytes(const Value& value, std::string& out);

  // Optional-typed conveniences: set on success.
  void OptionalString(const Value& value, std::optional<std::string>& out);
  void OptionalBool(const Value& value, std::optional<bool>& out);
  void OptionalInt32(const Value& value, std::optional<std::int32_t>& out);
  void OptionalInt64(const Value& value, std::optional<std::int64_t>& out);

  // Runs `body` on the current field as a field of the embedded struct `embedded` (Go 1.24+ names
  // embedded structs in a type error's field path: "KubeSchedulerConfiguration.
  // DebuggingConfiguration.enableProfiling").
  void InEmbedded(std::string_view embedded, const std::function<void()>& body);
  // A type error at the current position (for a caller-checked shape).
  void TypeError(const Value& value, std::string_view go_type);
  // An error that ends decoding.
  void Fatal(std::string message);

  bool failed() const noexcept { return fatal_.has_value(); }
  absl::Status Result() const;
  const std::vector<std::string>& strict_errors() const noexcept { return unknown_; }

 private:
  // "number 1.5" for a number that does not fit the integer type, as Go words it.
  void NumberRangeError(const Value& value, std::string_view go_type);
  std::string ContextMessage(std::string_view what, std::string_view go_type) const;

  std::optional<std::string> fatal_;
  std::optional<std::string> first_type_error_;
  std::vector<std::string> unknown_;
  // Strict path with indices ("profiles[0].pluginz"), and Go's error context.
  std::string strict_path_;
  std::vector<std::string> field_stack_;
  std::string struct_name_;
  bool in_struct_ = false;
};

// Go's standard base64 (with padding) as encoding/json decodes []byte; the error reads
// "illegal base64 data at input byte <n>".
absl::Status DecodeBase64(std::string_view text, std::string& out);
std::string EncodeBase64(std::string_view bytes);

}  // namespace ksched::config
