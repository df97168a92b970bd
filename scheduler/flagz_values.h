// FlagzValues: every kube-scheduler flag (upstream v1.37.2's named flag sets: misc, secure
// serving, authentication, authorization, deprecated, leader election, feature gate, metrics, logs,
// global) with its value as pflag's Value.String() prints it, for /flagz
// (k8s.io/apiserver/pkg/server/flagz NamedFlagSetsReader):
//   strings as given, booleans "true"/"false", durations as Go's Duration.String() ("10s",
//   "5m0s"), string lists "[a,b]" ("[]" when empty), float32 as strconv 'g' ("50"), the feature
//   gates as component-base's ColonSeparatedMultimapStringString (":Name=false" items as given,
//   sorted by component).
// The values come from CommandFlags. Flags accepted here without effect keep no value in
// CommandFlags: they show upstream's default, also when given (a known difference).
//
// Thread-safety: a pure function.
#pragma once

#include <map>
#include <string>

#include "scheduler/command_flags.h"

namespace ksched::scheduler {

std::map<std::string, std::string> FlagzValues(const CommandFlags& flags);

}  // namespace ksched::scheduler
