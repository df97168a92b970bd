// Event: an events.k8s.io/v1 Event about a pod as the scheduler writes it (client-go
// tools/events makeEvent, v1.34), its wire format, and the pieces the recorder keys on.
//
// Wire format (RapidJSON Writer, fields in this order, empty optional strings omitted as Go's
// omitempty does):
//   {"apiVersion":"events.k8s.io/v1","kind":"Event",
//    "metadata":{"name":"<pod>.<hex UnixNano>","namespace":<pod namespace or "default">},
//    "eventTime":"2026-11-30T12:00:00.123456Z",               (metav1.MicroTime)
//    "series":{"count":N,"lastObservedTime":<MicroTime>},    (only when set)
//    "reportingController":..,"reportingInstance":..,"action":..,"reason":..,
//    "regarding":{"kind":"Pod","namespace":..,"name":..,"uid":..,"apiVersion":"v1","resourceVersion":..},
//    "related":{same shape},                                  (only when set)
//    "note":..,"type":"Normal"|"Warning"}
// A series update is the strategic-merge patch CreateTwoWayMergePatch makes from the event
// without its series to the event with it: {"series":{"count":N,"lastObservedTime":..}}.
//
// Thread-safety: value types and pure functions (EventName draws randomness only in its UUID
// fallback, from a thread-local generator).
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "api/interned_string.h"
#include "api/pod.h"
#include "api/time.h"

namespace ksched::scheduler {

// core/v1 ObjectReference, without fieldPath (never set for pods). The fields with a bounded set
// of values are interned: the recorder's cache keeps two references per scheduled pod for six
// minutes (EventKey).
struct ObjectReference {
  api::InternedString kind;
  api::InternedString namespace_;
  std::string name;
  std::string uid;
  api::InternedString api_version;
  std::string resource_version;

  friend auto operator<=>(const ObjectReference&, const ObjectReference&) = default;
};

// The reference client-go's reference.GetReference makes for a pod.
ObjectReference PodReference(const api::Pod& pod);

struct EventSeries {
  std::int32_t count = 0;  // >= 2
  api::Time last_observed_time;
};

struct Event {
  std::string name;
  std::string namespace_;
  api::Time event_time;
  std::optional<EventSeries> series;
  std::string reporting_controller;
  std::string reporting_instance;
  std::string action;
  std::string reason;
  ObjectReference regarding;
  std::optional<ObjectReference> related;
  std::string note;
  std::string type;  // "Normal" | "Warning"
};

// The isomorphic key of client-go's event cache: two events with equal keys form a series. The
// note is deliberately not part of it; an absent `related` equals an all-empty one (as in Go).
// The strings other than the references' names, UIDs and versions take a few values per process:
// interned (8 bytes each, and no heap block for "default-scheduler-<host>"), since the cache
// holds one key per scheduled pod for six minutes.
struct EventKey {
  api::InternedString type;
  api::InternedString action;
  api::InternedString reason;
  api::InternedString reporting_controller;
  api::InternedString reporting_instance;
  ObjectReference regarding;
  ObjectReference related;

  friend auto operator<=>(const EventKey&, const EventKey&) = default;
};

EventKey KeyOf(const Event& event);

// validation.NoteLengthLimit: the API server rejects longer notes.
inline constexpr std::size_t kNoteLengthLimit = 1024;

// The scheduler's truncateMessage: a note longer than 1024 bytes becomes its first 1020 bytes
// followed by " ..." (1024 bytes in all). Unlike upstream, the cut backs off to a UTF-8 character
// boundary (so the result may be shorter): Go would send the split character's bytes, which its
// JSON encoder turns into U+FFFD, growing the note past the limit.
std::string TruncateNote(std::string note);

// client-go's GenerateEventName: "<regarding name>.<UnixNano in lower-case hex>", or a random
// UUID when that is not a valid DNS subdomain (over 253 characters, for a long pod name).
std::string EventName(std::string_view regarding_name, api::Time time);

// Whether `name` is a DNS-1123 subdomain (lower-case alphanumeric labels with inner '-', joined
// by '.', at most 253 characters), as apimachinery's NameIsDNSSubdomain checks.
bool IsDnsSubdomain(std::string_view name);

// The POST body for the events collection.
std::string EventJson(const Event& event);
// The same in Kubernetes protobuf (api/protobuf_wire.h; events.k8s.io/v1 generated.proto field
// numbers: metadata 1, eventTime 2, series 3, reportingController 4, reportingInstance 5, action 6,
// reason 7, regarding 8, related 9, note 10, type 11), what a client whose content type is protobuf
// sends, as the upstream scheduler does by default. Empty optional strings are left out.
std::string EventProtobuf(const Event& event);
// The strategic-merge patch body writing `series`.
std::string EventSeriesPatchJson(const EventSeries& series);

// "/apis/events.k8s.io/v1/namespaces/{ns}/events" and ".../events/{name}".
std::string EventsPath(std::string_view namespace_name);
std::string EventPath(std::string_view namespace_name, std::string_view name);

}  // namespace ksched::scheduler
