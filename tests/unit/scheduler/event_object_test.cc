// The events.k8s.io/v1 Event wire format, API time formatting, note truncation, event names and
// the series key.
#include "scheduler/event_object.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <set>
#include <string>
#include <vector>

#include "api/protobuf_wire.h"
#include "scheduler/api_time_format.h"

namespace {

using ksched::api::Time;
using ksched::scheduler::Event;
using ksched::scheduler::EventSeries;
using ksched::scheduler::ObjectReference;
using namespace std::chrono_literals;

// 2026-11-30T12:00:00.123456789Z; UnixNano 1796040000123456789 = 0x18ecd0dd41c04d15.
const Time kNow = Time(std::chrono::seconds(1796040000)) + 123456789ns;

Event SampleEvent() {
  Event event;
  event.name = "p1.18ecd0dd41c04d15";
  event.namespace_ = "ns1";
  event.event_time = kNow;
  event.reporting_controller = "default-scheduler";
  event.reporting_instance = "default-scheduler-host1";
  event.action = "Scheduling";
  event.reason = "FailedScheduling";
  event.regarding = {"Pod", "ns1", "p1", "uid-1", "v1", "42"};
  event.note = "0/3 nodes are available";
  event.type = "Warning";
  return event;
}

}  // namespace

TEST_CASE("API timestamps: whole seconds and microseconds, UTC, truncated", "[event_object]") {
  struct Case {
    Time time;
    const char* seconds;
    const char* micro;
  };
  const std::vector<Case> cases = {
      {kNow, "2026-11-30T12:00:00Z", "2026-11-30T12:00:00.123456Z"},
      {Time(0ns), "1970-01-01T00:00:00Z", "1970-01-01T00:00:00.000000Z"},
      {Time(std::chrono::seconds(951868799)) + 999999999ns, "2000-02-29T23:59:59Z", "2000-02-29T23:59:59.999999Z"},
      {Time(std::chrono::seconds(951782400 + 86400)), "2000-03-01T00:00:00Z", "2000-03-01T00:00:00.000000Z"},
      {Time(-1s) + 500ms, "1969-12-31T23:59:59Z", "1969-12-31T23:59:59.500000Z"},
  };
  for (const Case& c : cases) {
    CHECK(ksched::scheduler::FormatApiTime(c.time) == c.seconds);
    CHECK(ksched::scheduler::FormatApiMicroTime(c.time) == c.micro);
  }
}

TEST_CASE("EventJson writes the fields client-go sends, empty ones omitted", "[event_object]") {
  Event event = SampleEvent();
  SECTION("regarding only") {
    CHECK(ksched::scheduler::EventJson(event) ==
          R"({"apiVersion":"events.k8s.io/v1","kind":"Event",)"
          R"("metadata":{"name":"p1.18ecd0dd41c04d15","namespace":"ns1"},)"
          R"("eventTime":"2026-11-30T12:00:00.123456Z","reportingController":"default-scheduler",)"
          R"("reportingInstance":"default-scheduler-host1","action":"Scheduling","reason":"FailedScheduling",)"
          R"("regarding":{"kind":"Pod","namespace":"ns1","name":"p1","uid":"uid-1","apiVersion":"v1",)"
          R"("resourceVersion":"42"},"note":"0/3 nodes are available","type":"Warning"})");
  }
  SECTION("related, series, and an empty note and resourceVersion") {
    event.related = ObjectReference{"Pod", "ns1", "preemptor", "uid-2", "v1", ""};
    event.series = EventSeries{3, kNow + 2s};
    event.note.clear();
    event.regarding.resource_version.clear();
    CHECK(ksched::scheduler::EventJson(event) ==
          R"({"apiVersion":"events.k8s.io/v1","kind":"Event",)"
          R"("metadata":{"name":"p1.18ecd0dd41c04d15","namespace":"ns1"},)"
          R"("eventTime":"2026-11-30T12:00:00.123456Z","series":{"count":3,)"
          R"("lastObservedTime":"2026-11-30T12:00:02.123456Z"},"reportingController":"default-scheduler",)"
          R"("reportingInstance":"default-scheduler-host1","action":"Scheduling","reason":"FailedScheduling",)"
          R"("regarding":{"kind":"Pod","namespace":"ns1","name":"p1","uid":"uid-1","apiVersion":"v1"},)"
          R"("related":{"kind":"Pod","namespace":"ns1","name":"preemptor","uid":"uid-2","apiVersion":"v1"},)"
          R"("type":"Warning"})");
  }
}

namespace {

// A message's fields as "number=value" lines, varints in decimal, the nested messages (the field
// paths in `messages`, e.g. "3.2") in braces: what a reviewer can check against events.k8s.io/v1
// generated.proto by eye.
std::string Fields(std::string_view message, const std::set<std::string>& messages, const std::string& path = "",
                   int depth = 0) {
  using ksched::api::protobuf::ProtobufReader;
  ProtobufReader reader(message);
  std::string out;
  for (;;) {
    auto next = reader.Next();
    REQUIRE(next.ok());
    if (!*next) break;
    const std::string field_path = path + std::to_string(reader.field());
    out += std::string(depth * 2, ' ') + std::to_string(reader.field()) + "=";
    if (reader.wire_type() == ProtobufReader::WireType::kVarint) {
      out += std::to_string(reader.varint()) + "\n";
    } else if (messages.contains(field_path)) {
      out += "{\n" + Fields(reader.bytes(), messages, field_path + ".", depth + 1) + std::string(depth * 2, ' ') +
             "}\n";
    } else {
      out += "\"" + std::string(reader.bytes()) + "\"\n";
    }
  }
  return out;
}

const std::set<std::string> kEventMessages = {"1", "2", "3", "3.2", "8", "9"};

}  // namespace

TEST_CASE("EventProtobuf writes the same fields in protobuf, in an events.k8s.io/v1 envelope", "[event_object]") {
  Event event = SampleEvent();
  event.related = ObjectReference{"Pod", "ns1", "preemptor", "uid-2", "v1", ""};
  event.series = EventSeries{3, kNow + 2s};
  event.note.clear();
  const std::string body = ksched::scheduler::EventProtobuf(event);
  const auto unwrapped = ksched::api::protobuf::Unwrap(body);
  REQUIRE(unwrapped.ok());
  CHECK(unwrapped->api_version == "events.k8s.io/v1");
  CHECK(unwrapped->kind == "Event");
  // metadata{name, namespace}; eventTime{seconds, nanos truncated to microseconds}; series{count,
  // lastObservedTime}; reportingController .. reason; regarding; related (no resourceVersion);
  // no note (empty); type.
  CHECK(Fields(unwrapped->raw, kEventMessages) ==
        "1={\n  1=\"p1.18ecd0dd41c04d15\"\n  3=\"ns1\"\n}\n"
        "2={\n  1=1796040000\n  2=123456000\n}\n"
        "3={\n  1=3\n  2={\n    1=1796040002\n    2=123456000\n  }\n}\n"
        "4=\"default-scheduler\"\n5=\"default-scheduler-host1\"\n6=\"Scheduling\"\n7=\"FailedScheduling\"\n"
        "8={\n  1=\"Pod\"\n  2=\"ns1\"\n  3=\"p1\"\n  4=\"uid-1\"\n  5=\"v1\"\n  6=\"42\"\n}\n"
        "9={\n  1=\"Pod\"\n  2=\"ns1\"\n  3=\"preemptor\"\n  4=\"uid-2\"\n  5=\"v1\"\n}\n"
        "11=\"Warning\"\n");
}

TEST_CASE("EventProtobuf: a time before the epoch floors its seconds, whole seconds have no nanos", "[event_object]") {
  Event event = SampleEvent();
  event.event_time = Time(-1s) + 500ms + 999ns;  // 1969-12-31T23:59:59.500000999Z
  // The unwrapped view points into the body: keep the body alive.
  const std::string before_epoch = ksched::scheduler::EventProtobuf(event);
  auto unwrapped = ksched::api::protobuf::Unwrap(before_epoch);
  REQUIRE(unwrapped.ok());
  const std::string negative = Fields(unwrapped->raw, kEventMessages);
  CHECK(negative.find("2={\n  1=18446744073709551615\n  2=500000000\n}\n") != std::string::npos);  // seconds -1
  event.event_time = Time(std::chrono::seconds(1796040000));
  const std::string body = ksched::scheduler::EventProtobuf(event);
  unwrapped = ksched::api::protobuf::Unwrap(body);
  REQUIRE(unwrapped.ok());
  CHECK(Fields(unwrapped->raw, kEventMessages).find("2={\n  1=1796040000\n}\n") != std::string::npos);
}

TEST_CASE("the series patch is what CreateTwoWayMergePatch makes for a series", "[event_object]") {
  // Golden from strategicpatch.CreateTwoWayMergePatch (apimachinery v0.34.4) on an eventsv1.Event.
  CHECK(ksched::scheduler::EventSeriesPatchJson(EventSeries{2, Time(std::chrono::seconds(1796040005)) + 123456789ns}) ==
        R"({"series":{"count":2,"lastObservedTime":"2026-11-30T12:00:05.123456Z"}})");
}

TEST_CASE("event paths", "[event_object]") {
  CHECK(ksched::scheduler::EventsPath("ns1") == "/apis/events.k8s.io/v1/namespaces/ns1/events");
  CHECK(ksched::scheduler::EventPath("ns1", "p1.abc") == "/apis/events.k8s.io/v1/namespaces/ns1/events/p1.abc");
}

TEST_CASE("TruncateNote keeps 1024 bytes: 1020 of the note and \" ...\"", "[event_object]") {
  const std::string exact(1024, 'a');
  CHECK(ksched::scheduler::TruncateNote(exact) == exact);
  CHECK(ksched::scheduler::TruncateNote("short") == "short");

  const std::string long_note = std::string(1020, 'x') + std::string(980, 'y');
  const std::string cut = ksched::scheduler::TruncateNote(long_note);
  CHECK(cut.size() == 1024);
  CHECK(cut == std::string(1020, 'x') + " ...");

  const std::string one_over = std::string(1025, 'z');
  CHECK(ksched::scheduler::TruncateNote(one_over) == std::string(1020, 'z') + " ...");

  SECTION("a multi-byte character across the cut is dropped whole") {
    // 1019 ASCII bytes, then "é" (2 bytes) at 1019..1020, then more: byte 1020 continues "é".
    const std::string note = std::string(1019, 'a') + "\xC3\xA9" + std::string(100, 'b');
    CHECK(ksched::scheduler::TruncateNote(note) == std::string(1019, 'a') + " ...");
    // "é" ending exactly at the cut stays.
    const std::string fits = std::string(1018, 'a') + "\xC3\xA9" + std::string(100, 'b');
    CHECK(ksched::scheduler::TruncateNote(fits) == std::string(1018, 'a') + "\xC3\xA9 ...");
  }
}

TEST_CASE("event names: <pod>.<hex UnixNano>, a UUID when not a DNS subdomain", "[event_object]") {
  CHECK(ksched::scheduler::EventName("p1", kNow) == "p1.18ecd0dd41c04d15");
  const std::string long_name(240, 'a');  // + "." + 16 hex digits = 257 > 253
  const std::string uuid = ksched::scheduler::EventName(long_name, kNow);
  REQUIRE(uuid.size() == 36);
  CHECK(uuid[8] == '-');
  CHECK(uuid[13] == '-');
  CHECK(uuid[14] == '4');
  CHECK(uuid[18] == '-');
  CHECK(uuid[23] == '-');
  CHECK(ksched::scheduler::EventName(long_name, kNow) != uuid);

  struct Case {
    std::string name;
    bool valid;
  };
  const std::vector<Case> cases = {
      {"a", true},          {"web-0.18ecd0dd41c04d15", true}, {"a.b.c", true},     {std::string(253, 'a'), true},
      {std::string(254, 'a'), false}, {"", false},           {"-a", false},       {"a-", false},
      {"a..b", false},      {"A", false},                     {"a_b", false},      {".a", false},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    CHECK(ksched::scheduler::IsDnsSubdomain(c.name) == c.valid);
  }
}

TEST_CASE("the series key ignores the note and treats no related as an empty one", "[event_object]") {
  const Event a = SampleEvent();
  Event b = SampleEvent();
  b.note = "another note";
  b.name = "p1.other";
  b.event_time = kNow + 1s;
  CHECK(ksched::scheduler::KeyOf(a) == ksched::scheduler::KeyOf(b));
  b.related = ObjectReference{};
  CHECK(ksched::scheduler::KeyOf(a) == ksched::scheduler::KeyOf(b));

  struct Change {
    const char* what;
    void (*apply)(Event&);
  };
  const std::vector<Change> changes = {
      {"type", [](Event& e) { e.type = "Normal"; }},
      {"action", [](Event& e) { e.action = "Binding"; }},
      {"reason", [](Event& e) { e.reason = "Scheduled"; }},
      {"reporting controller", [](Event& e) { e.reporting_controller = "other-scheduler"; }},
      {"reporting instance", [](Event& e) { e.reporting_instance = "default-scheduler-host2"; }},
      {"regarding resourceVersion", [](Event& e) { e.regarding.resource_version = "43"; }},
      {"regarding uid", [](Event& e) { e.regarding.uid = "uid-9"; }},
      {"related", [](Event& e) { e.related = ObjectReference{"Pod", "ns1", "x", "u", "v1", ""}; }},
  };
  for (const Change& change : changes) {
    INFO(change.what);
    Event changed = SampleEvent();
    change.apply(changed);
    CHECK(ksched::scheduler::KeyOf(a) != ksched::scheduler::KeyOf(changed));
  }
}
