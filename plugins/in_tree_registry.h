// The registry of every compiled-in plugin (upstream plugins.NewInTreeRegistry plus this project's
// own): name -> factory. Profiles name plugins from here; a name not in it is a configuration
// error.
//
// Thread-safety: returns a fresh Registry value.
#pragma once

#include "framework/registry.h"

namespace ksched::plugins {

framework::Registry NewInTreeRegistry();

}  // namespace ksched::plugins
