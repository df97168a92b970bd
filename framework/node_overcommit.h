// NodeOvercommit: whether the pods a NodeInfo holds ask for more of a resource than its node's
// allocatable offers, which the NodeResourcesFit filter never lets a placement do. Benchmarks and
// simulations check their placements with it (a placement above allocatable is a scheduler bug,
// not a packing result).
//
// Every resource counts: cpu (millicores), memory and ephemeral-storage (bytes), the number of
// pods against the node's "pods", and each scalar resource the pods request (an extended resource
// the node does not offer has allocatable 0), including those a NodeResourcesFit configuration
// ignores.
//
// Thread-safety: a pure function of its argument.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "framework/node_info.h"

namespace ksched::framework {

struct NodeOvercommit {
  std::string resource;  // "cpu", "memory", "ephemeral-storage", "pods" or a scalar's name
  std::int64_t requested = 0;  // cpu in millicores
  std::int64_t allocatable = 0;

  // "nvidia.com/gpu requested 10, allocatable 8" (cpu as "cpu requested 97000m, ...").
  std::string ToString() const;
};

// The first resource requested beyond allocatable, in the order cpu, memory, ephemeral-storage,
// pods, then scalars by name; nullopt when everything fits or the NodeInfo has no node.
std::optional<NodeOvercommit> FindNodeOvercommit(const NodeInfo& info);

}  // namespace ksched::framework
