// WatchEvent<T>: one event of a watch stream (metav1.WatchEvent):
//   ADDED, MODIFIED, DELETED  `object` holds the decoded object (for DELETED, its last state)
//   BOOKMARK                  only `resource_version` (the object's metadata.resourceVersion) and
//                             `initial_events_end` (its annotation k8s.io/initial-events-end is
//                             "true": the end of a watch-list's initial events) are set
//   ERROR                     `error` holds the metav1.Status object (e.g. code 410, reason
//                             "Expired": the resource version is too old, relist)
// Fields that do not apply to the event's type are left default.
//
// Thread-safety: plain value types.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "api/api_status.h"

namespace ksched::api {

enum class WatchEventType : std::uint8_t { kAdded, kModified, kDeleted, kBookmark, kError };

// "ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR".
constexpr std::string_view WatchEventTypeName(WatchEventType type) noexcept {
  switch (type) {
    case WatchEventType::kAdded:
      return "ADDED";
    case WatchEventType::kModified:
      return "MODIFIED";
    case WatchEventType::kDeleted:
      return "DELETED";
    case WatchEventType::kBookmark:
      return "BOOKMARK";
    case WatchEventType::kError:
      return "ERROR";
  }
  return "";
}

// The annotation a BOOKMARK carries at the end of a watch-list's initial events.
inline constexpr std::string_view kInitialEventsEndAnnotation = "k8s.io/initial-events-end";

template <typename T>
struct WatchEvent {
  WatchEventType type = WatchEventType::kAdded;
  T object;                      // ADDED, MODIFIED, DELETED
  std::string resource_version;  // BOOKMARK
  bool initial_events_end = false;  // BOOKMARK
  ApiStatus error;               // ERROR

  friend bool operator==(const WatchEvent&, const WatchEvent&) = default;
};

}  // namespace ksched::api
