// ObjectList<T>: a list response (PodList, NodeList): metav1.ListMeta and the items.
//
// Thread-safety: plain value types.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ksched::api {

// metav1.ListMeta without selfLink.
struct ListMeta {
  std::string resource_version;
  std::string continue_token;  // `continue`; "" on the last page
  std::optional<std::int64_t> remaining_item_count;

  friend bool operator==(const ListMeta&, const ListMeta&) = default;
};

template <typename T>
struct ObjectList {
  ListMeta metadata;
  std::vector<T> items;

  friend bool operator==(const ObjectList&, const ObjectList&) = default;
};

}  // namespace ksched::api
