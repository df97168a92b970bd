// Layering probe (see CMakeLists.txt): compiles only where framework headers are in reach.
#include "framework/status.h"

namespace ksched::layering_probe {
bool ProbeFrameworkIsReachable() { return ksched::framework::Status().IsSuccess(); }
}  // namespace ksched::layering_probe
