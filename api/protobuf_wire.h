// Kubernetes' protobuf wire format ("application/vnd.kubernetes.protobuf"), for the few objects the
// scheduler writes on every pod (Binding, events.k8s.io Event) and the metav1.Status an API error
// comes back as. client-go, and so the upstream kube-scheduler, sends these as protobuf by default
// (clientConnection.contentType); the API server decodes protobuf with less work than JSON.
//
// Envelope (apimachinery runtime/serializer/protobuf): the 4 bytes "k8s\0" followed by a
// runtime.Unknown message {typeMeta(1): {apiVersion(1), kind(2)}, raw(2): the object's message,
// contentEncoding(3), contentType(4)}. Objects are proto2 messages whose field numbers are those of
// k8s.io/api's generated.proto files; a field left out decodes as its zero value, so writers here
// omit empty strings (the API server cannot tell them from Go's explicit empty fields).
//
// ProtobufWriter builds one message in a std::string it owns; nested messages are written through
// a callback into a scratch writer and then length-prefixed. It allocates per message, which is
// fine for one request body per pod and is never used in a per-node loop.
//
// ProtobufReader walks the fields of a message without copying (string_views into the input); it
// reports malformed input (truncated varint or length, unknown wire type) as an error value.
//
// Thread-safety: a writer or reader belongs to its caller; the free functions are pure.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "api/api_status.h"

namespace ksched::api::protobuf {

inline constexpr std::string_view kContentType = "application/vnd.kubernetes.protobuf";

// The Accept header client-go sends with a protobuf content type and no acceptContentTypes.
inline constexpr std::string_view kAcceptProtobufFirst = "application/vnd.kubernetes.protobuf, */*";

// Whether an HTTP Content-Type names the Kubernetes protobuf encoding (parameters ignored).
bool IsProtobufContentType(std::string_view content_type);

class ProtobufWriter {
 public:
  // Varint field (int32/int64/bool). Negative values take ten bytes, as protobuf's int32 does.
  void Int(int field, std::int64_t value);
  // Length-delimited field, always written (an empty string is a present, empty field).
  void Bytes(int field, std::string_view value);
  // Bytes, omitted when empty (Go's zero value).
  void OptionalString(int field, std::string_view value) {
    if (!value.empty()) Bytes(field, value);
  }
  // A nested message: `fill` writes its fields into a fresh writer.
  void Message(int field, const std::function<void(ProtobufWriter&)>& fill);

  const std::string& bytes() const { return out_; }
  std::string Take() { return std::move(out_); }

 private:
  void Tag(int field, int wire_type);
  void Varint(std::uint64_t value);

  std::string out_;
};

class ProtobufReader {
 public:
  enum class WireType { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5 };

  explicit ProtobufReader(std::string_view message) : in_(message) {}

  // Advances to the next field. false at the end of the message; an error when the input is
  // malformed. After true: field(), wire_type(), and varint() or bytes() for the value.
  absl::StatusOr<bool> Next();

  int field() const { return field_; }
  WireType wire_type() const { return wire_type_; }
  std::uint64_t varint() const { return varint_; }
  std::string_view bytes() const { return bytes_; }

 private:
  absl::StatusOr<std::uint64_t> ReadVarint();

  std::string_view in_;
  int field_ = 0;
  WireType wire_type_ = WireType::kVarint;
  std::uint64_t varint_ = 0;
  std::string_view bytes_;
};

// "k8s\0" + runtime.Unknown{typeMeta{api_version, kind}, raw}.
std::string Envelope(std::string_view api_version, std::string_view kind, std::string_view raw);

// The raw object message of an envelope, with its kind. Errors: InvalidArgument when the prefix
// is missing or the Unknown message is malformed.
struct Unwrapped {
  std::string_view api_version;
  std::string_view kind;
  std::string_view raw;
};
absl::StatusOr<Unwrapped> Unwrap(std::string_view body);

// A metav1.Status response body in protobuf (the envelope included). Errors: InvalidArgument
// when the body is not a protobuf Status.
absl::StatusOr<ApiStatus> DecodeApiStatus(std::string_view body);

}  // namespace ksched::api::protobuf
