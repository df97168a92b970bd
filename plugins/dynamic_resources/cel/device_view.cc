#include "plugins/dynamic_resources/cel/device_view.h"

#include <algorithm>
#include <span>
#include <string>

#include "plugins/dynamic_resources/cel/device_selector.h"

namespace ksched::plugins::dynamic_resources::cel {
namespace {

// Three-way comparison of `name` with the string domain + "/" + id, without building it.
int CompareJoined(std::string_view name, std::string_view domain, std::string_view id) {
  const std::size_t total = domain.size() + 1 + id.size();
  const std::size_t n = std::min(name.size(), total);
  for (std::size_t i = 0; i < n; ++i) {
    const char other = i < domain.size() ? domain[i] : (i == domain.size() ? '/' : id[i - domain.size() - 1]);
    if (name[i] != other) {
      return static_cast<unsigned char>(name[i]) < static_cast<unsigned char>(other) ? -1 : 1;
    }
  }
  if (name.size() == total) return 0;
  return name.size() < total ? -1 : 1;
}

template <typename T>
const T* FindJoined(std::span<const std::pair<std::string, T>> entries, std::string_view domain,
                    std::string_view id) {
  auto it = std::lower_bound(entries.begin(), entries.end(), 0, [&](const auto& entry, int) {
    return CompareJoined(entry.first, domain, id) < 0;
  });
  if (it != entries.end() && CompareJoined(it->first, domain, id) == 0) return &it->second;
  return nullptr;
}

template <typename T>
const T* FindExact(std::span<const std::pair<std::string, T>> entries, std::string_view name) {
  auto it = std::lower_bound(entries.begin(), entries.end(), name,
                             [](const auto& entry, std::string_view key) { return entry.first < key; });
  if (it != entries.end() && it->first == name) return &it->second;
  return nullptr;
}

// The entry (domain, id): "id" itself when domain is the driver's, else "domain/id".
template <typename T>
const T* Find(std::span<const std::pair<std::string, T>> entries, std::string_view driver, std::string_view domain,
              std::string_view id) {
  if (domain == driver && id.find('/') == std::string_view::npos) {
    if (const T* found = FindExact(entries, id); found != nullptr) return found;
  }
  return FindJoined(entries, domain, id);
}

template <typename Fn>
void ForEachName(const CelDevice& device, bool capacity, Fn&& fn) {
  if (capacity) {
    for (const auto& entry : device.capacity) fn(entry.first);
  } else {
    for (const auto& entry : device.attributes) fn(entry.first);
  }
}

Value AttributeValue(const api::DeviceAttribute& attribute) {
  switch (attribute.kind) {
    case api::DeviceAttribute::Kind::kInt:
      return Value::Int(attribute.int_value);
    case api::DeviceAttribute::Kind::kBool:
      return Value::Bool(attribute.bool_value);
    case api::DeviceAttribute::Kind::kString:
      return Value::BorrowedString(attribute.string_value);
    case api::DeviceAttribute::Kind::kVersion: {
      absl::StatusOr<Semver> version = ParseSemver(attribute.string_value);
      if (!version.ok()) return Value::Error(std::string(version.status().message()));  // checked before
      return Value::Semver(*std::move(version));
    }
    case api::DeviceAttribute::Kind::kNone:
      break;
  }
  return Value::Error("unsupported attribute value");
}

}  // namespace

std::pair<std::string_view, std::string_view> SplitQualifiedName(std::string_view name, std::string_view driver) {
  const std::size_t slash = name.find('/');
  if (slash == std::string_view::npos) return {driver, name};
  return {name.substr(0, slash), name.substr(slash + 1)};
}

std::optional<Value> DeviceField(const CelDevice& device, std::string_view field) {
  if (field == "driver") return Value::BorrowedString(device.driver);
  if (field == "attributes") return Value::DeviceMap(MapRep::kDeviceAttributes, &device);
  if (field == "capacity") return Value::DeviceMap(MapRep::kDeviceCapacity, &device);
  return std::nullopt;
}

std::vector<std::string_view> Domains(const CelDevice& device, bool capacity) {
  std::vector<std::string_view> domains;
  ForEachName(device, capacity, [&](std::string_view name) {
    const std::string_view domain = SplitQualifiedName(name, device.driver).first;
    if (std::find(domains.begin(), domains.end(), domain) == domains.end()) domains.push_back(domain);
  });
  return domains;
}

std::size_t DomainCount(const CelDevice& device, bool capacity) { return Domains(device, capacity).size(); }

bool HasDomain(const CelDevice& device, bool capacity, std::string_view domain) {
  bool found = false;
  ForEachName(device, capacity, [&](std::string_view name) {
    found = found || SplitQualifiedName(name, device.driver).first == domain;
  });
  return found;
}

std::optional<Value> DomainEntry(const CelDevice& device, bool capacity, std::string_view domain,
                                 std::string_view id) {
  if (capacity) {
    const api::Quantity* quantity = Find(device.capacity, device.driver, domain, id);
    if (quantity == nullptr) return std::nullopt;
    return Value::BorrowedQuantity(quantity);
  }
  const api::DeviceAttribute* attribute = Find(device.attributes, device.driver, domain, id);
  if (attribute == nullptr) return std::nullopt;
  return AttributeValue(*attribute);
}

std::vector<std::string_view> DomainIds(const CelDevice& device, bool capacity, std::string_view domain) {
  std::vector<std::string_view> ids;
  ForEachName(device, capacity, [&](std::string_view name) {
    auto [entry_domain, id] = SplitQualifiedName(name, device.driver);
    if (entry_domain == domain && std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
  });
  return ids;
}

std::size_t DomainEntryCount(const CelDevice& device, bool capacity, std::string_view domain) {
  return DomainIds(device, capacity, domain).size();
}

absl::Status CheckAttributes(const CelDevice& device) {
  for (const auto& [name, attribute] : device.attributes) {
    if (attribute.kind == api::DeviceAttribute::Kind::kNone) {
      return absl::InvalidArgumentError("attribute " + name + ": unsupported attribute value");
    }
    if (attribute.kind == api::DeviceAttribute::Kind::kVersion) {
      absl::StatusOr<Semver> version = ParseSemver(attribute.string_value);
      if (!version.ok()) {
        return absl::InvalidArgumentError("attribute " + name +
                                          ": parse semantic version: " + std::string(version.status().message()));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace ksched::plugins::dynamic_resources::cel
