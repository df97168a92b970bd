// Labels: an object's labels (or any string -> string set, such as a field set), as upstream's
// k8s.io/apimachinery/pkg/labels.Set.
//
// Representation: a flat CompactVector (api/compact_vector.h: one pointer, nothing allocated when
// empty) of (key, value) pairs kept sorted by key with unique keys; iterators are plain pointers.
// Objects carry a handful of labels, so a sorted vector beats a hash map for lookups and copies,
// and it iterates in a deterministic order. Lookups (Get, Has) never allocate.
//
// Keys are InternedStrings (api/interned_string.h): label and annotation keys come from a bounded
// vocabulary ("kubernetes.io/hostname", "app", ...) repeated on every object, so each is stored
// once per process and an entry is 8 + 32 bytes instead of 32 + 32 (+ a heap block for keys longer
// than 15 characters). A lookup by an InternedString key (a plugin's topology key, say) compares
// pointers and reads no key characters; a lookup by string_view compares the characters of the
// shared, cache-hot pool entry. Values stay per-object std::strings (hostnames, hashes).
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
#include "api/interned_string.h"

namespace ksched::api {

class Labels {
 public:
  using value_type = std::pair<InternedString, std::string>;
  using const_iterator = CompactVector<value_type>::const_iterator;

  Labels() = default;
  // Builds from pairs in any order. A key given more than once keeps its last value.
  Labels(std::initializer_list<value_type> pairs);
  explicit Labels(std::vector<value_type> pairs);

  // The value of `key`, or nullopt when the key is absent (an empty value is present). The
  // InternedString overloads compare keys by pointer; the others by characters. (The const char*
  // and std::string overloads only pick the character comparison without ambiguity.)
  std::optional<std::string_view> Get(std::string_view key) const noexcept;
  std::optional<std::string_view> Get(InternedString key) const noexcept;
  std::optional<std::string_view> Get(const char* key) const noexcept {
    return Get(std::string_view(key));
  }
  std::optional<std::string_view> Get(const std::string& key) const noexcept {
    return Get(std::string_view(key));
  }
  bool Has(std::string_view key) const noexcept;
  bool Has(InternedString key) const noexcept;
  bool Has(const char* key) const noexcept { return Has(std::string_view(key)); }
  bool Has(const std::string& key) const noexcept { return Has(std::string_view(key)); }

  // Inserts or overwrites (interning `key`).
  void Set(InternedString key, std::string value);
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
  const_iterator Find(InternedString key) const noexcept;
  static constexpr std::size_t kLinearScanMax = 8;  // Find scans up to this many entries

  CompactVector<value_type> entries_;  // sorted by key, keys unique; 8 bytes when empty
};

}  // namespace ksched::api
