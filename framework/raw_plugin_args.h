// RawPluginArgs: the pluginConfig args of a plugin the config layer has no typed decoder for (an
// out-of-tree style plugin such as a metrics scorer), as the JSON text the configuration held
// (upstream hands such plugins a runtime.Unknown with content type application/json, keys
// sorted). The plugin's factory parses `json` itself; a plugin that takes no args ignores it.
//
// Thread-safety: a value type.
#pragma once

#include <string>

#include "framework/registry.h"

namespace ksched::framework {

struct RawPluginArgs final : PluginArgs {
  std::string json;
};

}  // namespace ksched::framework
