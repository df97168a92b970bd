#include "config/strict_decoder.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <utility>

#include "api/go_duration.h"
#include "config/value_writer.h"

namespace ksched::config {
namespace {

// The integer a number holds, if it is one: a float whose JSON text is integral counts (YAML's
// 1e3 reaches Go's decoder as the JSON text 1000).
std::optional<std::int64_t> AsInt64(const Value& value) {
  switch (value.kind()) {
    case Value::Kind::kInt:
      return value.as_int();
    case Value::Kind::kFloat: {
      const std::string text = GoFloat(value.as_float());
      if (text.find_first_of(".eE") != std::string::npos) return std::nullopt;
      std::int64_t parsed = 0;
      const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), parsed);
      if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
      return parsed;
    }
    default:
      return std::nullopt;
  }
}

std::string NumberText(const Value& value) {
  switch (value.kind()) {
    case Value::Kind::kInt:
      return std::to_string(value.as_int());
    case Value::Kind::kUint:
      return std::to_string(value.as_uint());
    case Value::Kind::kFloat:
      return GoFloat(value.as_float());
    default:
      return "";
  }
}

}  // namespace

std::string StrictDecoder::ContextMessage(std::string_view what, std::string_view go_type) const {
  std::string message = "json: cannot unmarshal " + std::string(what);
  if (in_struct_ || !field_stack_.empty()) {
    message += " into Go struct field " + struct_name_ + ".";
    for (std::size_t i = 0; i < field_stack_.size(); ++i) {
      if (i > 0) message += '.';
      message += field_stack_[i];
    }
  } else {
    message += " into Go value";
  }
  message += " of type " + std::string(go_type);
  return message;
}

void StrictDecoder::InEmbedded(std::string_view embedded, const std::function<void()>& body) {
  if (field_stack_.empty()) {
    body();
    return;
  }
  const std::string saved = field_stack_.back();
  field_stack_.back() = std::string(embedded) + "." + saved;
  body();
  field_stack_.back() = saved;
}

void StrictDecoder::TypeError(const Value& value, std::string_view go_type) {
  if (first_type_error_.has_value()) return;
  first_type_error_ = ContextMessage(JsonKindName(value.kind()), go_type);
}

void StrictDecoder::NumberRangeError(const Value& value, std::string_view go_type) {
  if (first_type_error_.has_value()) return;
  first_type_error_ = ContextMessage("number " + NumberText(value), go_type);
}

void StrictDecoder::Fatal(std::string message) {
  if (!fatal_.has_value()) fatal_ = std::move(message);
}

absl::Status StrictDecoder::Result() const {
  if (fatal_.has_value()) return absl::InvalidArgumentError(*fatal_);
  if (first_type_error_.has_value()) return absl::InvalidArgumentError(*first_type_error_);
  return absl::OkStatus();
}

void StrictDecoder::Object(const Value& value, std::string_view go_type,
                           std::string_view struct_name, const FieldHandler& handler) {
  if (failed() || value.is_null()) return;
  if (!value.is_map()) {
    TypeError(value, go_type);
    return;
  }
  const std::string saved_path = strict_path_;
  const std::string saved_struct = struct_name_;
  const bool saved_in_struct = in_struct_;
  for (const MapEntry& entry : value.as_map()) {
    if (failed()) break;
    strict_path_ = saved_path.empty() ? entry.key : saved_path + "." + entry.key;
    struct_name_ = std::string(struct_name);
    in_struct_ = true;
    field_stack_.push_back(entry.key);
    if (!handler(entry.key, entry.value)) {
      unknown_.push_back("unknown field \"" + strict_path_ + "\"");
    }
    field_stack_.pop_back();
  }
  strict_path_ = saved_path;
  struct_name_ = saved_struct;
  in_struct_ = saved_in_struct;
}

void StrictDecoder::List(const Value& value, std::string_view go_type,
                         const ElementHandler& handler) {
  if (failed() || value.is_null()) return;
  if (!value.is_list()) {
    TypeError(value, go_type);
    return;
  }
  const std::string saved_path = strict_path_;
  const Value::List& list = value.as_list();
  for (std::size_t i = 0; i < list.size() && !failed(); ++i) {
    strict_path_ = saved_path + "[" + std::to_string(i) + "]";
    handler(i, list[i]);
  }
  strict_path_ = saved_path;
}

bool StrictDecoder::String(const Value& value, std::string& out, std::string_view go_type) {
  if (failed() || value.is_null()) return false;
  if (!value.is_string()) {
    TypeError(value, go_type);
    return false;
  }
  out = value.as_string();
  return true;
}

bool StrictDecoder::Bool(const Value& value, bool& out) {
  if (failed() || value.is_null()) return false;
  if (value.kind() != Value::Kind::kBool) {
    TypeError(value, "bool");
    return false;
  }
  out = value.as_bool();
  return true;
}

bool StrictDecoder::Int32(const Value& value, std::int32_t& out) {
  std::int64_t wide = 0;
  if (failed() || value.is_null()) return false;
  if (!value.is_number()) {
    TypeError(value, "int32");
    return false;
  }
  const std::optional<std::int64_t> parsed = AsInt64(value);
  if (!parsed.has_value() || *parsed < std::numeric_limits<std::int32_t>::min() ||
      *parsed > std::numeric_limits<std::int32_t>::max()) {
    NumberRangeError(value, "int32");
    return false;
  }
  wide = *parsed;
  out = static_cast<std::int32_t>(wide);
  return true;
}

bool StrictDecoder::Int64(const Value& value, std::int64_t& out) {
  if (failed() || value.is_null()) return false;
  if (!value.is_number()) {
    TypeError(value, "int64");
    return false;
  }
  const std::optional<std::int64_t> parsed = AsInt64(value);
  if (!parsed.has_value()) {
    NumberRangeError(value, "int64");
    return false;
  }
  out = *parsed;
  return true;
}

bool StrictDecoder::Float32(const Value& value, float& out) {
  if (failed() || value.is_null()) return false;
  if (!value.is_number()) {
    TypeError(value, "float32");
    return false;
  }
  double wide = 0;
  switch (value.kind()) {
    case Value::Kind::kInt:
      wide = static_cast<double>(value.as_int());
      break;
    case Value::Kind::kUint:
      wide = static_cast<double>(value.as_uint());
      break;
    default:
      wide = value.as_float();
  }
  if (std::fabs(wide) > std::numeric_limits<float>::max()) {
    NumberRangeError(value, "float32");
    return false;
  }
  out = static_cast<float>(wide);
  return true;
}

bool StrictDecoder::Duration(const Value& value, std::chrono::nanoseconds& out, bool nullable) {
  if (failed()) return false;
  if (value.is_null() && nullable) return false;
  std::string text;
  if (!value.is_null()) {
    if (!value.is_string()) {
      // metav1.Duration.UnmarshalJSON decodes a string; its error carries the field context.
      Fatal(ContextMessage(JsonKindName(value.kind()), "string"));
      return false;
    }
    text = value.as_string();
  }
  absl::StatusOr<std::chrono::nanoseconds> parsed = api::ParseGoDuration(text);
  if (!parsed.ok()) {
    Fatal(std::string(parsed.status().message()));
    return false;
  }
  out = *parsed;
  return true;
}

bool StrictDecoder::Bytes(const Value& value, std::string& out) {
  if (failed() || value.is_null()) return false;
  if (!value.is_string()) {
    TypeError(value, "[]uint8");
    return false;
  }
  std::string decoded;
  if (absl::Status status = DecodeBase64(value.as_string(), decoded); !status.ok()) {
    if (!first_type_error_.has_value()) first_type_error_ = std::string(status.message());
    return false;
  }
  out = std::move(decoded);
  return true;
}

void StrictDecoder::OptionalString(const Value& value, std::optional<std::string>& out) {
  std::string parsed;
  if (String(value, parsed)) out = std::move(parsed);
}

void StrictDecoder::OptionalBool(const Value& value, std::optional<bool>& out) {
  bool parsed = false;
  if (Bool(value, parsed)) out = parsed;
}

void StrictDecoder::OptionalInt32(const Value& value, std::optional<std::int32_t>& out) {
  std::int32_t parsed = 0;
  if (Int32(value, parsed)) out = parsed;
}

void StrictDecoder::OptionalInt64(const Value& value, std::optional<std::int64_t>& out) {
  std::int64_t parsed = 0;
  if (Int64(value, parsed)) out = parsed;
}

namespace {

constexpr std::string_view kBase64Alphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int Base64Digit(char c) {
  const std::size_t at = kBase64Alphabet.find(c);
  return at == std::string_view::npos ? -1 : static_cast<int>(at);
}

}  // namespace

absl::Status DecodeBase64(std::string_view text, std::string& out) {
  out.clear();
  auto illegal = [](std::size_t at) {
    return absl::InvalidArgumentError("illegal base64 data at input byte " + std::to_string(at));
  };
  // Go skips \r and \n; positions in errors count them.
  std::uint32_t buffer = 0;
  int have = 0;
  std::size_t padding = 0;
  std::size_t quantum_start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\r' || c == '\n') continue;
    if (have == 0) quantum_start = i;
    if (c == '=') {
      if (have < 2) return illegal(i);
      padding = 4 - static_cast<std::size_t>(have);
      // The rest must be exactly the padding.
      std::size_t seen = 0;
      std::size_t j = i;
      for (; j < text.size(); ++j) {
        if (text[j] == '\r' || text[j] == '\n') continue;
        if (text[j] != '=' || seen == padding) return illegal(j);
        ++seen;
      }
      if (seen != padding) return illegal(text.size());
      if (have == 2) out.push_back(static_cast<char>((buffer >> 4) & 0xFF));
      if (have == 3) {
        out.push_back(static_cast<char>((buffer >> 10) & 0xFF));
        out.push_back(static_cast<char>((buffer >> 2) & 0xFF));
      }
      return absl::OkStatus();
    }
    const int digit = Base64Digit(c);
    if (digit < 0) return illegal(i);
    buffer = (buffer << 6) | static_cast<std::uint32_t>(digit);
    if (++have == 4) {
      out.push_back(static_cast<char>((buffer >> 16) & 0xFF));
      out.push_back(static_cast<char>((buffer >> 8) & 0xFF));
      out.push_back(static_cast<char>(buffer & 0xFF));
      buffer = 0;
      have = 0;
    }
  }
  if (have != 0) return illegal(quantum_start);
  return absl::OkStatus();
}

std::string EncodeBase64(std::string_view bytes) {
  std::string out;
  std::size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const std::uint32_t n = (static_cast<unsigned char>(bytes[i]) << 16) |
                            (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                            static_cast<unsigned char>(bytes[i + 2]);
    out += kBase64Alphabet[(n >> 18) & 63];
    out += kBase64Alphabet[(n >> 12) & 63];
    out += kBase64Alphabet[(n >> 6) & 63];
    out += kBase64Alphabet[n & 63];
  }
  const std::size_t rest = bytes.size() - i;
  if (rest > 0) {
    std::uint32_t n = static_cast<unsigned char>(bytes[i]) << 16;
    if (rest == 2) n |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    out += kBase64Alphabet[(n >> 18) & 63];
    out += kBase64Alphabet[(n >> 12) & 63];
    out += rest == 2 ? kBase64Alphabet[(n >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

}  // namespace ksched::config
