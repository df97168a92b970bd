// The /debug/flags endpoints kube-scheduler installs when profiling is on (the default;
// apiserver routes.DebugFlags with the "v" flag and component-base logs.GlogSetter):
//   PUT /debug/flags/v with body N   sets the log verbosity to N: 200 "successfully set
//                                     klog.logging.verbosity to N\n"; a body that is not a
//                                     uint32 (ParseUint(body, 10, 32), the body as sent, no
//                                     trimming) or above klog's int32 levels: 400 with Go's words;
//                                     any other method: 406 "unsupported http method\n";
//   /debug/flags, /debug/flags/...   the HTML index listing the flag "v".
// The go-side /debug/pprof endpoints have no C++ counterpart and are not served.
//
// Thread-safety: the handlers may run concurrently; the verbosity setter must be thread-safe.
#pragma once

#include <cstdint>
#include <functional>

#include "serving/http_exchange.h"

namespace ksched::scheduler {

using VerbositySetter = std::function<void(std::uint32_t)>;

serving::ServingResponse ServeVerbosityFlag(const serving::ServingRequest& request, const VerbositySetter& set);
serving::ServingResponse ServeDebugFlagsIndex(const serving::ServingRequest& request);

}  // namespace ksched::scheduler
