// The per-node part of upstream's FitError.Error(): "0/<N> nodes are available: <count> <reason>,
// ... ." - a histogram of every node's reasons (nodes without an explicit status counted under the
// absent status), entries sorted bytewise as strings, ending with a period; without reasons it is
// "0/<N> nodes are available:". Shared by the scheduler's FitError (scheduler/fit_error.h) and
// preemption, whose "no candidate" message is a FitError over its dry run's statuses.
//
// Thread-safety: a pure function.
#pragma once

#include <string>

#include "framework/interface.h"

namespace ksched::framework {

std::string NodesAvailableMessage(int num_all_nodes, const NodeToStatus& statuses);

}  // namespace ksched::framework
