// The `device` variable as upstream's cel.Device.DeviceMatches builds it (compile.go), answered
// from a CelDevice's sorted spans instead of maps built per evaluation:
//   device.driver                 the driver name
//   device.attributes[domain][id] the attribute "domain/id" (or "id" when domain is the driver's)
//   device.capacity[domain][id]   the capacity's Quantity
// Looking up a domain that has no entry yields an empty map (upstream's mapper with a default);
// `in`, size() and iteration see only the domains that exist.
//
// Thread-safety: free functions over a CelDevice that is not modified meanwhile.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "plugins/dynamic_resources/cel/value.h"

namespace ksched::plugins::dynamic_resources::cel {

// parseQualifiedName: ("domain", "id") of "domain/id"; (driver, name) of a name without '/'.
std::pair<std::string_view, std::string_view> SplitQualifiedName(std::string_view name, std::string_view driver);

// device.<field> for "driver", "attributes", "capacity"; nullopt for any other name.
std::optional<Value> DeviceField(const CelDevice& device, std::string_view field);

// The outer maps (capacity: device.capacity, else device.attributes).
std::size_t DomainCount(const CelDevice& device, bool capacity);
bool HasDomain(const CelDevice& device, bool capacity, std::string_view domain);
std::vector<std::string_view> Domains(const CelDevice& device, bool capacity);

// The per-domain maps.
std::optional<Value> DomainEntry(const CelDevice& device, bool capacity, std::string_view domain, std::string_view id);
std::size_t DomainEntryCount(const CelDevice& device, bool capacity, std::string_view domain);
std::vector<std::string_view> DomainIds(const CelDevice& device, bool capacity, std::string_view domain);

// Upstream converts every attribute before evaluating anything, so one it cannot convert fails
// every selector on the device: "attribute <name>: parse semantic version: <blang error>" or
// "attribute <name>: unsupported attribute value". The first such attribute by name is reported.
absl::Status CheckAttributes(const CelDevice& device);

}  // namespace ksched::plugins::dynamic_resources::cel
