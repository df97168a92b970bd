#include "api/protobuf_wire.h"

#include <string>

#include "absl/status/status.h"

namespace ksched::api::protobuf {
namespace {

constexpr std::string_view kMagic("k8s\0", 4);

// runtime.Unknown and runtime.TypeMeta field numbers.
constexpr int kUnknownTypeMeta = 1;
constexpr int kUnknownRaw = 2;
constexpr int kTypeMetaApiVersion = 1;
constexpr int kTypeMetaKind = 2;
// metav1.Status field numbers.
constexpr int kStatusStatus = 2;
constexpr int kStatusMessage = 3;
constexpr int kStatusReason = 4;
constexpr int kStatusCode = 6;

absl::Status Malformed(std::string_view what) {
  return absl::InvalidArgumentError(std::string("malformed protobuf: ") + std::string(what));
}

}  // namespace

bool IsProtobufContentType(std::string_view content_type) {
  const std::size_t semicolon = content_type.find(';');
  std::string_view media = content_type.substr(0, semicolon);
  while (!media.empty() && media.back() == ' ') media.remove_suffix(1);
  return media == kContentType;
}

void ProtobufWriter::Varint(std::uint64_t value) {
  while (value >= 0x80) {
    out_.push_back(static_cast<char>((value & 0x7F) | 0x80));
    value >>= 7;
  }
  out_.push_back(static_cast<char>(value));
}

void ProtobufWriter::Tag(int field, int wire_type) {
  Varint((static_cast<std::uint64_t>(field) << 3) | static_cast<std::uint64_t>(wire_type));
}

void ProtobufWriter::Int(int field, std::int64_t value) {
  Tag(field, 0);
  Varint(static_cast<std::uint64_t>(value));
}

void ProtobufWriter::Bytes(int field, std::string_view value) {
  Tag(field, 2);
  Varint(value.size());
  out_.append(value);
}

void ProtobufWriter::Message(int field, const std::function<void(ProtobufWriter&)>& fill) {
  ProtobufWriter nested;
  fill(nested);
  Bytes(field, nested.out_);
}

absl::StatusOr<std::uint64_t> ProtobufReader::ReadVarint() {
  std::uint64_t value = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (in_.empty()) return Malformed("truncated varint");
    const auto byte = static_cast<unsigned char>(in_.front());
    in_.remove_prefix(1);
    value |= static_cast<std::uint64_t>(byte & 0x7F) << shift;
    if ((byte & 0x80) == 0) return value;
  }
  return Malformed("varint longer than 10 bytes");
}

absl::StatusOr<bool> ProtobufReader::Next() {
  if (in_.empty()) return false;
  absl::StatusOr<std::uint64_t> tag = ReadVarint();
  if (!tag.ok()) return tag.status();
  field_ = static_cast<int>(*tag >> 3);
  if (field_ == 0) return Malformed("field number 0");
  varint_ = 0;
  bytes_ = {};
  switch (*tag & 7) {
    case 0: {
      wire_type_ = WireType::kVarint;
      absl::StatusOr<std::uint64_t> value = ReadVarint();
      if (!value.ok()) return value.status();
      varint_ = *value;
      return true;
    }
    case 1:
    case 5: {
      const std::size_t size = (*tag & 7) == 1 ? 8 : 4;
      wire_type_ = size == 8 ? WireType::kFixed64 : WireType::kFixed32;
      if (in_.size() < size) return Malformed("truncated fixed-width field");
      bytes_ = in_.substr(0, size);
      in_.remove_prefix(size);
      return true;
    }
    case 2: {
      wire_type_ = WireType::kLengthDelimited;
      absl::StatusOr<std::uint64_t> size = ReadVarint();
      if (!size.ok()) return size.status();
      if (*size > in_.size()) return Malformed("length past the end of the message");
      bytes_ = in_.substr(0, *size);
      in_.remove_prefix(*size);
      return true;
    }
    default:
      return Malformed("unsupported wire type " + std::to_string(*tag & 7));
  }
}

std::string Envelope(std::string_view api_version, std::string_view kind, std::string_view raw) {
  ProtobufWriter unknown;
  unknown.Message(kUnknownTypeMeta, [&](ProtobufWriter& type_meta) {
    type_meta.Bytes(kTypeMetaApiVersion, api_version);
    type_meta.Bytes(kTypeMetaKind, kind);
  });
  unknown.Bytes(kUnknownRaw, raw);
  std::string out(kMagic);
  out += unknown.bytes();
  return out;
}

absl::StatusOr<Unwrapped> Unwrap(std::string_view body) {
  if (!body.starts_with(kMagic)) return Malformed("no \"k8s\\0\" prefix");
  Unwrapped result;
  ProtobufReader unknown(body.substr(kMagic.size()));
  for (;;) {
    absl::StatusOr<bool> more = unknown.Next();
    if (!more.ok()) return more.status();
    if (!*more) break;
    if (unknown.field() == kUnknownRaw && unknown.wire_type() == ProtobufReader::WireType::kLengthDelimited) {
      result.raw = unknown.bytes();
    } else if (unknown.field() == kUnknownTypeMeta &&
               unknown.wire_type() == ProtobufReader::WireType::kLengthDelimited) {
      ProtobufReader type_meta(unknown.bytes());
      for (;;) {
        absl::StatusOr<bool> next = type_meta.Next();
        if (!next.ok()) return next.status();
        if (!*next) break;
        if (type_meta.wire_type() != ProtobufReader::WireType::kLengthDelimited) continue;
        if (type_meta.field() == kTypeMetaApiVersion) result.api_version = type_meta.bytes();
        if (type_meta.field() == kTypeMetaKind) result.kind = type_meta.bytes();
      }
    }
  }
  return result;
}

absl::StatusOr<ApiStatus> DecodeApiStatus(std::string_view body) {
  absl::StatusOr<Unwrapped> unwrapped = Unwrap(body);
  if (!unwrapped.ok()) return unwrapped.status();
  if (unwrapped->kind != "Status") {
    return absl::InvalidArgumentError("protobuf body holds a \"" + std::string(unwrapped->kind) +
                                      "\", not a Status");
  }
  ApiStatus status;
  ProtobufReader reader(unwrapped->raw);
  for (;;) {
    absl::StatusOr<bool> more = reader.Next();
    if (!more.ok()) return more.status();
    if (!*more) break;
    const bool text = reader.wire_type() == ProtobufReader::WireType::kLengthDelimited;
    switch (reader.field()) {
      case kStatusStatus:
        if (text) status.status = std::string(reader.bytes());
        break;
      case kStatusMessage:
        if (text) status.message = std::string(reader.bytes());
        break;
      case kStatusReason:
        if (text) status.reason = std::string(reader.bytes());
        break;
      case kStatusCode:
        if (reader.wire_type() == ProtobufReader::WireType::kVarint) {
          status.code = static_cast<std::int32_t>(reader.varint());
        }
        break;
      default:
        break;  // metadata, details: not kept
    }
  }
  return status;
}

}  // namespace ksched::api::protobuf
