// CoreEvent: a core/v1 Event as client-go's legacy recorder (tools/record, v1.34) writes it, for the
// leader-election event that kube-scheduler records through EventBroadcaster's
// DeprecatedNewLegacyRecorder: POST /api/v1/namespaces/{ns}/events with
//   {"apiVersion":"v1","kind":"Event",
//    "metadata":{"name":"<involved name>.<unix nanos in hex>","namespace":"<involved namespace>"},
//    "involvedObject":{"kind":..,"namespace":..,"name":..,"uid":..,"apiVersion":..,"resourceVersion":..},
//    "reason":..,"message":..,"source":{"component":..},"firstTimestamp":t,"lastTimestamp":t,
//    "count":1,"type":"Normal","eventTime":null,"reportingComponent":<component>,"reportingInstance":""}
// (record.makeEvent + generateEvent; the namespace is "default" when the object has none; a name
// that is not a DNS subdomain, over 253 characters, becomes a random UUID as GenerateEventName does).
// Series, aggregation and spam filtering of the recorder's correlator are left out: one event is
// one POST.
//
// Thread-safety: value type; pure functions (CoreEventName draws a UUID only for over-long names).
#pragma once

#include <string>
#include <string_view>

#include "api/time.h"

namespace ksched::client {

struct CoreEventObjectReference {
  std::string kind;
  std::string namespace_;
  std::string name;
  std::string uid;
  std::string api_version;
  std::string resource_version;
};

struct CoreEvent {
  CoreEventObjectReference involved_object;
  std::string type;  // "Normal" or "Warning"
  std::string reason;
  std::string message;
  std::string source_component;  // source.component and reportingComponent
  api::Time time{};               // firstTimestamp = lastTimestamp (whole seconds on the wire)
};

// "<name>.<nanoseconds since the epoch in lower-case hex>".
std::string CoreEventName(std::string_view object_name, api::Time time);
// The namespace the event is written to.
std::string CoreEventNamespace(const CoreEvent& event);
// The JSON body for the POST.
std::string CoreEventJson(const CoreEvent& event);
// "/api/v1/namespaces/{ns}/events".
std::string CoreEventsPath(std::string_view namespace_name);

}  // namespace ksched::client
