// ProtobufWriter / ProtobufReader wire bytes, the "k8s\0" envelope, and metav1.Status decoding.
#include "api/protobuf_wire.h"

#include <catch2/catch.hpp>

#include <string>

using ksched::api::protobuf::DecodeApiStatus;
using ksched::api::protobuf::Envelope;
using ksched::api::protobuf::IsProtobufContentType;
using ksched::api::protobuf::ProtobufReader;
using ksched::api::protobuf::ProtobufWriter;
using ksched::api::protobuf::Unwrap;

namespace {

std::string Bytes(std::initializer_list<int> values) {
  std::string out;
  for (const int v : values) out.push_back(static_cast<char>(v));
  return out;
}

}  // namespace

TEST_CASE("ProtobufWriter: the encoding guide's examples and nesting", "[protobuf]") {
  ProtobufWriter varint;
  varint.Int(1, 150);  // protobuf.dev/programming-guides/encoding: 08 96 01
  CHECK(varint.bytes() == Bytes({0x08, 0x96, 0x01}));

  ProtobufWriter text;
  text.Bytes(2, "testing");  // 12 07 74 65 73 74 69 6e 67
  CHECK(text.bytes() == Bytes({0x12, 0x07}) + "testing");

  ProtobufWriter negative;
  negative.Int(1, -1);  // int32/int64 -1: ten bytes, sign-extended
  CHECK(negative.bytes() == Bytes({0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}));

  ProtobufWriter outer;
  outer.Message(3, [](ProtobufWriter& inner) { inner.Int(1, 150); });  // 1a 03 08 96 01
  CHECK(outer.bytes() == Bytes({0x1a, 0x03, 0x08, 0x96, 0x01}));

  ProtobufWriter optional;
  optional.OptionalString(1, "");
  optional.Bytes(2, "");
  CHECK(optional.bytes() == Bytes({0x12, 0x00}));  // an empty Bytes field is present; OptionalString is not

  ProtobufWriter big;  // a length over 127 takes a two-byte varint
  big.Bytes(16, std::string(200, 'x'));
  CHECK(big.bytes().substr(0, 4) == Bytes({0x82, 0x01, 0xc8, 0x01}));
  CHECK(big.bytes().size() == 4 + 200);
}

TEST_CASE("Envelope and Unwrap: the k8s magic and NUL, then runtime.Unknown{typeMeta, raw}", "[protobuf]") {
  const std::string body = Envelope("v1", "Binding", "RAW");
  CHECK(body == std::string("k8s\0", 4) + Bytes({0x0a, 0x0d, 0x0a, 0x02}) + "v1" + Bytes({0x12, 0x07}) +
                    "Binding" + Bytes({0x12, 0x03}) + "RAW");
  const auto unwrapped = Unwrap(body);
  REQUIRE(unwrapped.ok());
  CHECK(unwrapped->api_version == "v1");
  CHECK(unwrapped->kind == "Binding");
  CHECK(unwrapped->raw == "RAW");

  CHECK_FALSE(Unwrap("{\"kind\":\"Status\"}").ok());
  CHECK_FALSE(Unwrap(body.substr(0, body.size() - 1)).ok());  // the raw field's length runs past the end
}

TEST_CASE("ProtobufReader walks fields and reports malformed input", "[protobuf]") {
  ProtobufWriter writer;
  writer.Int(6, 409);
  writer.Bytes(3, "conflict");
  ProtobufReader reader(writer.bytes());
  auto next = reader.Next();
  REQUIRE((next.ok() && *next));
  CHECK(reader.field() == 6);
  CHECK(reader.wire_type() == ProtobufReader::WireType::kVarint);
  CHECK(reader.varint() == 409);
  next = reader.Next();
  REQUIRE((next.ok() && *next));
  CHECK(reader.field() == 3);
  CHECK(reader.bytes() == "conflict");
  next = reader.Next();
  REQUIRE(next.ok());
  CHECK_FALSE(*next);

  CHECK_FALSE(ProtobufReader(Bytes({0x08, 0x96})).Next().ok());        // truncated varint
  CHECK_FALSE(ProtobufReader(Bytes({0x12, 0x05, 'a'})).Next().ok());   // length past the end
  CHECK_FALSE(ProtobufReader(Bytes({0x0b})).Next().ok());              // wire type 3 (groups)
  CHECK_FALSE(ProtobufReader(Bytes({0x00, 0x00})).Next().ok());        // field number 0
  const std::string fixed_fields = Bytes({0x0d, 1, 2, 3, 4, 0x11, 1, 2, 3, 4, 5, 6, 7, 8});
  ProtobufReader fixed(fixed_fields);  // a view: the bytes must outlive it
  REQUIRE(*fixed.Next());
  CHECK(fixed.wire_type() == ProtobufReader::WireType::kFixed32);
  REQUIRE(*fixed.Next());
  CHECK(fixed.wire_type() == ProtobufReader::WireType::kFixed64);
  CHECK_FALSE(*fixed.Next());
}

TEST_CASE("DecodeApiStatus reads a protobuf metav1.Status", "[protobuf]") {
  // As the API server writes one: metadata (an empty ListMeta), status, message, reason, details,
  // code.
  ProtobufWriter status;
  status.Message(1, [](ProtobufWriter&) {});
  status.Bytes(2, "Failure");
  status.Bytes(3, "Operation cannot be fulfilled on pods/binding \"p\": pod p is already assigned to node \"n\"");
  status.Bytes(4, "Conflict");
  status.Message(5, [](ProtobufWriter& details) {
    details.Bytes(1, "p");
    details.Bytes(3, "pods/binding");
  });
  status.Int(6, 409);
  const auto decoded = DecodeApiStatus(Envelope("v1", "Status", status.bytes()));
  REQUIRE(decoded.ok());
  CHECK(decoded->status == "Failure");
  CHECK(decoded->reason == "Conflict");
  CHECK(decoded->code == 409);
  CHECK(decoded->message.find("already assigned") != std::string::npos);

  const auto not_status = DecodeApiStatus(Envelope("v1", "Pod", ""));
  REQUIRE_FALSE(not_status.ok());
  CHECK(not_status.status().message() == "protobuf body holds a \"Pod\", not a Status");
  CHECK_FALSE(DecodeApiStatus("{\"kind\":\"Status\"}").ok());
}

TEST_CASE("IsProtobufContentType ignores parameters", "[protobuf]") {
  CHECK(IsProtobufContentType("application/vnd.kubernetes.protobuf"));
  CHECK(IsProtobufContentType("application/vnd.kubernetes.protobuf;stream=watch"));
  CHECK(IsProtobufContentType("application/vnd.kubernetes.protobuf ; charset=x"));
  CHECK_FALSE(IsProtobufContentType("application/json"));
  CHECK_FALSE(IsProtobufContentType(""));
  CHECK_FALSE(IsProtobufContentType("application/vnd.kubernetes.protobuf.extra"));
}
