// ResourceList: core/v1 ResourceList (map[ResourceName]resource.Quantity) as the object model keeps
// it: a flat CompactVector (api/compact_vector.h: 8 bytes, no allocation when empty) of (resource
// name, Quantity) pairs sorted by name, names unique and interned (api/interned_string.h: resource
// names are a cluster-wide set). Pods and nodes
// carry a handful of resources, so a sorted vector is smaller and faster than a map; the framework
// layer converts it to its own interned arrays.
//
// Equality (operator==) is semantic, as upstream's equality.Semantic.DeepEqual: the same names, and
// quantities that compare equal with Quantity::Cmp ("1" == "1000m"), whatever their format.
//
// Ownership: a value type owning its quantities; names point into the intern pool, which outlives
// every list. Iterators are plain pointers; they and the pointers returned by Get() stay valid
// until the list is modified or destroyed.
//
// Thread-safety: like a standard container; concurrent const use is safe.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/compact_vector.h"
#include "api/interned_string.h"
#include "api/quantity.h"

namespace ksched::api {

// core/v1 resource names the scheduler treats specially.
inline constexpr std::string_view kResourceCPU = "cpu";
inline constexpr std::string_view kResourceMemory = "memory";
inline constexpr std::string_view kResourceEphemeralStorage = "ephemeral-storage";
inline constexpr std::string_view kResourcePods = "pods";
inline constexpr std::string_view kResourceStorage = "storage";

class ResourceList {
 public:
  // Resource names are interned (api/interned_string.h): the set of resources is cluster-wide.
  using value_type = std::pair<InternedString, Quantity>;
  using const_iterator = CompactVector<value_type>::const_iterator;

  ResourceList() = default;
  // From pairs in any order; a name given more than once keeps its last quantity.
  ResourceList(std::initializer_list<value_type> entries);
  explicit ResourceList(std::vector<value_type> entries);
  explicit ResourceList(std::vector<std::pair<std::string, Quantity>> entries);

  // The quantity of `name`, or nullptr when absent. Never allocates.
  const Quantity* Get(std::string_view name) const noexcept;
  bool Has(std::string_view name) const noexcept { return Get(name) != nullptr; }

  // Inserts or overwrites.
  void Set(std::string name, Quantity quantity);
  // Removes `name`; returns whether it was present.
  bool Erase(std::string_view name);

  std::size_t size() const noexcept { return entries_.size(); }
  bool empty() const noexcept { return entries_.empty(); }
  const_iterator begin() const noexcept { return entries_.begin(); }
  const_iterator end() const noexcept { return entries_.end(); }

  // Semantic equality (see above).
  friend bool operator==(const ResourceList& a, const ResourceList& b);

 private:
  CompactVector<value_type> entries_;  // sorted by name, names unique; 8 bytes when empty
};

// core/v1 ResourceRequirements, without `claims` (dynamic resource allocation is not modeled).
struct ResourceRequirements {
  ResourceList limits;
  ResourceList requests;

  friend bool operator==(const ResourceRequirements&, const ResourceRequirements&) = default;
};

}  // namespace ksched::api
