// The memory limit this process runs under (its cgroup's), and what the secure port derives from it.
//
// A kubelet-managed container with `resources.limits.memory` runs in a cgroup whose memory.max
// (cgroup v2) or memory.limit_in_bytes (v1) is that limit; past it the kernel's OOM killer ends the
// process. The daemon reads it once at start and keeps the one thing outside clients can grow
// without bound, the secure port's open connections, within half of it.
// Thread-safe (no state); errors reading the files mean "no limit known" (nullopt), never a failure.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace ksched::scheduler {

// The smallest memory limit on the path from this process's cgroup up to the root, or nullopt when
// none is set ("max", v1's page-rounded 2^63 - 4096) or the files cannot be read. `proc_self_cgroup`
// and `cgroup_root` are parameters for tests (/proc/self/cgroup, /sys/fs/cgroup).
[[nodiscard]] std::optional<std::uint64_t> CgroupMemoryLimitBytes(
    const std::string& proc_self_cgroup = "/proc/self/cgroup", const std::string& cgroup_root = "/sys/fs/cgroup");

// Open connections allowed on the secure port under `limit` (0: no cap, without a limit): half of
// the limit at kBytesPerConnection each, and never fewer than kMinConnections. 96 KiB: a busy TLS
// connection's state, record buffers, parser and response, measured at ~92 KB each (2,064 flooding
// connections took the daemon from ~20 to 209 MB, docs/memory.md); idle ones release their buffers.
inline constexpr std::uint64_t kBytesPerConnection = 96 * 1024;
inline constexpr int kMinConnections = 64;
[[nodiscard]] int MaxConnectionsForMemoryLimit(std::optional<std::uint64_t> limit);

}  // namespace ksched::scheduler
