#include "framework/registry.h"

namespace ksched::framework {

absl::Status Registry::Register(std::string name, PluginFactory factory) {
  if (factories_.contains(name)) {
    return absl::AlreadyExistsError("a plugin named \"" + name + "\" already exists");
  }
  factories_.emplace(std::move(name), std::move(factory));
  return absl::OkStatus();
}

const PluginFactory* Registry::Find(std::string_view name) const {
  auto it = factories_.find(name);
  return it == factories_.end() ? nullptr : &it->second;
}

std::vector<std::string> Registry::Names() const {
  std::vector<std::string> names;
  names.reserve(factories_.size());
  for (const auto& [name, factory] : factories_) names.push_back(name);
  return names;
}

}  // namespace ksched::framework
