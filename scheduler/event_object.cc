#include "scheduler/event_object.h"

#include <cstdint>
#include <random>
#include <utility>

#include "api/json_writer.h"
#include "api/protobuf_wire.h"
#include "client/resource_path.h"
#include "fmt/format.h"
#include "rapidjson/stringbuffer.h"
#include "rapidjson/writer.h"
#include "scheduler/api_time_format.h"

namespace ksched::scheduler {
namespace {

using api::json::Field;
using api::json::JsonWriter;
using api::json::OptionalField;
using api::json::String;

constexpr std::size_t kDnsSubdomainMaxLength = 253;
constexpr std::string_view kTruncationSuffix = " ...";

void WriteReference(JsonWriter& writer, std::string_view key, const ObjectReference& ref) {
  String(writer, key);
  writer.StartObject();
  OptionalField(writer, "kind", ref.kind);
  OptionalField(writer, "namespace", ref.namespace_);
  OptionalField(writer, "name", ref.name);
  OptionalField(writer, "uid", ref.uid);
  OptionalField(writer, "apiVersion", ref.api_version);
  OptionalField(writer, "resourceVersion", ref.resource_version);
  writer.EndObject();
}

void WriteSeries(JsonWriter& writer, const EventSeries& series) {
  String(writer, "series");
  writer.StartObject();
  String(writer, "count");
  writer.Int(series.count);
  Field(writer, "lastObservedTime", FormatApiMicroTime(series.last_observed_time));
  writer.EndObject();
}

using api::protobuf::ProtobufWriter;

// core/v1 ObjectReference: kind(1) namespace(2) name(3) uid(4) apiVersion(5) resourceVersion(6).
void WriteReference(ProtobufWriter& writer, int field, const ObjectReference& ref) {
  writer.Message(field, [&](ProtobufWriter& out) {
    out.OptionalString(1, ref.kind);
    out.OptionalString(2, ref.namespace_);
    out.OptionalString(3, ref.name);
    out.OptionalString(4, ref.uid);
    out.OptionalString(5, ref.api_version);
    out.OptionalString(6, ref.resource_version);
  });
}

// metav1.MicroTime: seconds(1) since the epoch (floored, as Go's Unix()) and nanos(2) truncated to
// microseconds (MicroTime.ProtoMicroTime), the precision its JSON form has.
void WriteMicroTime(ProtobufWriter& writer, int field, api::Time time) {
  const std::int64_t nanos = time.time_since_epoch().count();
  std::int64_t seconds = nanos / 1'000'000'000;
  std::int64_t fraction = nanos % 1'000'000'000;
  if (fraction < 0) {
    fraction += 1'000'000'000;
    --seconds;
  }
  fraction -= fraction % 1000;
  writer.Message(field, [&](ProtobufWriter& out) {
    out.Int(1, seconds);
    if (fraction != 0) out.Int(2, fraction);
  });
}

bool IsAlphanumeric(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

// A DNS-1123 label without its length limit (63): the subdomain check only limits the whole.
bool IsDnsLabelShape(std::string_view label) {
  if (label.empty() || !IsAlphanumeric(label.front()) || !IsAlphanumeric(label.back())) return false;
  for (const char c : label) {
    if (!IsAlphanumeric(c) && c != '-') return false;
  }
  return true;
}

std::string RandomUuid() {
  thread_local std::mt19937_64 rng{std::random_device{}()};
  std::uint64_t high = rng();
  std::uint64_t low = rng();
  high = (high & ~0xF000ULL) | 0x4000ULL;                   // version 4
  low = (low & 0x3FFFFFFFFFFFFFFFULL) | 0x8000000000000000ULL;  // RFC 4122 variant
  return fmt::format("{:08x}-{:04x}-{:04x}-{:04x}-{:012x}", high >> 32, (high >> 16) & 0xFFFF,
                     high & 0xFFFF, low >> 48, low & 0xFFFFFFFFFFFFULL);
}

}  // namespace

ObjectReference PodReference(const api::Pod& pod) {
  ObjectReference ref;
  ref.kind = "Pod";
  ref.namespace_ = pod.metadata.namespace_;
  ref.name = pod.metadata.name;
  ref.uid = pod.metadata.uid;
  ref.api_version = "v1";
  ref.resource_version = pod.metadata.resource_version;
  return ref;
}

EventKey KeyOf(const Event& event) {
  EventKey key;
  key.type = event.type;
  key.action = event.action;
  key.reason = event.reason;
  key.reporting_controller = event.reporting_controller;
  key.reporting_instance = event.reporting_instance;
  key.regarding = event.regarding;
  if (event.related.has_value()) key.related = *event.related;
  return key;
}

std::string TruncateNote(std::string note) {
  if (note.size() <= kNoteLengthLimit) return note;
  std::size_t cut = kNoteLengthLimit - kTruncationSuffix.size();
  // note[cut] is the first byte dropped; while it continues a character, that character started
  // before the cut and must go too.
  while (cut > 0 && (static_cast<unsigned char>(note[cut]) & 0xC0U) == 0x80U) --cut;
  note.resize(cut);
  note += kTruncationSuffix;
  return note;
}

bool IsDnsSubdomain(std::string_view name) {
  if (name.empty() || name.size() > kDnsSubdomainMaxLength) return false;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = name.find('.', start);
    const std::string_view label = name.substr(start, dot == std::string_view::npos ? dot : dot - start);
    if (!IsDnsLabelShape(label)) return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

std::string EventName(std::string_view regarding_name, api::Time time) {
  std::string name = fmt::format("{}.{:x}", regarding_name, time.time_since_epoch().count());
  if (!IsDnsSubdomain(name)) return RandomUuid();
  return name;
}

std::string EventJson(const Event& event) {
  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  writer.StartObject();
  Field(writer, "apiVersion", "events.k8s.io/v1");
  Field(writer, "kind", "Event");
  String(writer, "metadata");
  writer.StartObject();
  Field(writer, "name", event.name);
  Field(writer, "namespace", event.namespace_);
  writer.EndObject();
  Field(writer, "eventTime", FormatApiMicroTime(event.event_time));
  if (event.series.has_value()) WriteSeries(writer, *event.series);
  OptionalField(writer, "reportingController", event.reporting_controller);
  OptionalField(writer, "reportingInstance", event.reporting_instance);
  OptionalField(writer, "action", event.action);
  OptionalField(writer, "reason", event.reason);
  WriteReference(writer, "regarding", event.regarding);
  if (event.related.has_value()) WriteReference(writer, "related", *event.related);
  OptionalField(writer, "note", event.note);
  OptionalField(writer, "type", event.type);
  writer.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string EventProtobuf(const Event& event) {
  ProtobufWriter writer;
  writer.Message(1, [&](ProtobufWriter& metadata) {
    metadata.Bytes(1, event.name);
    metadata.Bytes(3, event.namespace_);
  });
  WriteMicroTime(writer, 2, event.event_time);
  if (event.series.has_value()) {
    writer.Message(3, [&](ProtobufWriter& series) {
      series.Int(1, event.series->count);
      WriteMicroTime(series, 2, event.series->last_observed_time);
    });
  }
  writer.OptionalString(4, event.reporting_controller);
  writer.OptionalString(5, event.reporting_instance);
  writer.OptionalString(6, event.action);
  writer.OptionalString(7, event.reason);
  WriteReference(writer, 8, event.regarding);
  if (event.related.has_value()) WriteReference(writer, 9, *event.related);
  writer.OptionalString(10, event.note);
  writer.OptionalString(11, event.type);
  return api::protobuf::Envelope("events.k8s.io/v1", "Event", writer.bytes());
}

std::string EventSeriesPatchJson(const EventSeries& series) {
  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  writer.StartObject();
  WriteSeries(writer, series);
  writer.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string EventsPath(std::string_view namespace_name) {
  return client::ResourcePath("events.k8s.io", "v1")
      .Namespace(std::string(namespace_name))
      .Resource("events")
      .String();
}

std::string EventPath(std::string_view namespace_name, std::string_view name) {
  return client::ResourcePath("events.k8s.io", "v1")
      .Namespace(std::string(namespace_name))
      .Resource("events")
      .Name(std::string(name))
      .String();
}

}  // namespace ksched::scheduler
