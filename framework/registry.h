// Registry: plugin factories by name (upstream runtime.Registry), and the typed-args base class.
//
// Each plugin's args type derives from PluginArgs and is defined beside the plugin
// (plugins/<name>/); the config layer decodes pluginConfig into it and applies defaults, and the
// factory receives it (nullptr when the plugin takes no args; a factory given args of another
// type must return an error).
//
// Thread-safety: build the registry once at start-up; const use from any thread.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "framework/handle.h"
#include "framework/interface.h"

namespace ksched::framework {

class PluginArgs {
 public:
  virtual ~PluginArgs() = default;
};

using PluginFactory = std::function<absl::StatusOr<std::unique_ptr<Plugin>>(
    const PluginArgs* args, Handle& handle)>;

class Registry {
 public:
  // Error (AlreadyExists) when the name is taken.
  absl::Status Register(std::string name, PluginFactory factory);
  // nullptr when unknown.
  const PluginFactory* Find(std::string_view name) const;
  std::vector<std::string> Names() const;

 private:
  std::map<std::string, PluginFactory, std::less<>> factories_;
};

// Typed access for factories: the args as T, or an InvalidArgument naming the plugin when they
// are of another type. nullptr args give nullptr (the factory applies its defaults).
template <typename T>
absl::StatusOr<const T*> ArgsAs(const PluginArgs* args, std::string_view plugin) {
  if (args == nullptr) return static_cast<const T*>(nullptr);
  const T* typed = dynamic_cast<const T*>(args);
  if (typed == nullptr) {
    return absl::InvalidArgumentError(std::string("want args of the right type for plugin ") +
                                      std::string(plugin));
  }
  return typed;
}

}  // namespace ksched::framework
