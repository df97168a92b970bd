// Labels: an object's labels (or any string -> string set, such as a field set), as upstream's
// k8s.io/apimachinery/pkg/labels.Set.
//
// Representation: a flat CompactVector (api/compact_vector.h: one pointer, nothing allocated when
// empty) of (key, value) pairs kept sorted by key with unique keys; iterators are plain pointers.
// Objects carry a handful of labels, so a sorted vector beats a hash map for lookups and copies,
// and it iterates in a deterministic order. Lookups (Get, Has) take a string_view and never allocate.
//
// Ownership: a plain value type; it owns its strings. Views returned by Get() and iteration stay
// valid until the Labels is modified or destroyed.
//
// Thread-safety: like a standard container. Concurrent const calls are safe; a Labels that is being
// modified must not be read at the same time.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/compact_vector.h"

namespace ksched::api {

class Labels {
 public:
  using value_type = std::pair<std::string, std::string>;
  using const_iterator = CompactVector<value_type>::const_iterator;

  Labels() = default;
  // Builds from pairs in any order. A key given more than once keeps its last value.
  Labels(std::initializer_list<value_type> pairs);
  explicit Labels(std::vector<value_type> pairs);

  // The value of `key`, or nullopt when the key is absent (an empty value is present).
  std::optional<std::string_view> Get(std::string_view key) const noexcept;
  bool Has(std::string_view key) const noexcept;

  // Inserts or overwrites.
  void Set(std::string key, std::string value);
  // Removes `key`; returns whether it was present.
  bool Erase(std::string_view key);

  std::size_t size() const noexcept { return entries_.size(); }
  bool empty() const noexcept { return entries_.empty(); }
  const_iterator begin() const noexcept { return entries_.begin(); }
  const_iterator end() const noexcept { return entries_.end(); }

  // "k1=v1,k2=v2" in key order, as upstream's labels.Set.String(); "" when empty.
  std::string ToString() const;

  friend bool operator==(const Labels&, const Labels&) = default;

 private:
  const_iterator Find(std::string_view key) const noexcept;
  static constexpr std::size_t kLinearScanMax = 8;  // Find scans up to this many entries

  CompactVector<value_type> entries_;  // sorted by key, keys unique; 8 bytes when empty
};

}  // namespace ksched::api
