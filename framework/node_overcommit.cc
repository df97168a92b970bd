#include "framework/node_overcommit.h"

namespace ksched::framework {

std::string NodeOvercommit::ToString() const {
  const char* unit = resource == "cpu" ? "m" : "";
  std::string out = resource;
  out.append(" requested ").append(std::to_string(requested)).append(unit);
  out.append(", allocatable ").append(std::to_string(allocatable)).append(unit);
  return out;
}

std::optional<NodeOvercommit> FindNodeOvercommit(const NodeInfo& info) {
  if (info.node() == nullptr) return std::nullopt;
  const Resource& requested = info.requested();
  const Resource& allocatable = info.allocatable();
  const auto above = [](const char* name, std::int64_t want,
                        std::int64_t have) -> std::optional<NodeOvercommit> {
    if (want <= have) return std::nullopt;
    return NodeOvercommit{name, want, have};
  };
  if (auto found = above("cpu", requested.milli_cpu, allocatable.milli_cpu)) return found;
  if (auto found = above("memory", requested.memory, allocatable.memory)) return found;
  if (auto found = above("ephemeral-storage", requested.ephemeral_storage,
                         allocatable.ephemeral_storage)) {
    return found;
  }
  if (auto found = above("pods", static_cast<std::int64_t>(info.pods().size()),
                         allocatable.allowed_pod_number)) {
    return found;
  }
  for (const auto& [name, value] : requested.scalars) {
    const std::int64_t have = allocatable.Scalar(name);
    if (value > have) return NodeOvercommit{name, value, have};
  }
  return std::nullopt;
}

}  // namespace ksched::framework
