// The CPU bandwidth limit of the cgroup (v2) this process runs in, and the thread cap Go's runtime
// derives from it for GOMAXPROCS (Go >= 1.25: the leaf cgroup's cpu.max, rounded up, at least 2,
// at most the CPUs the process may run on). A static pod with `resources.limits.cpu` and no
// cpuset runs upstream's goroutines on that many threads; Parallelizer follows it.
//
// cgroup v1 (cpu.cfs_quota_us) is not read: such a process keeps its affinity-mask count.
//
// Thread-safety: pure functions, and one that reads two files; all safe from any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ksched::framework {

// cpu.max contents "<quota> <period>" as CPUs (quota / period); nullopt for "max <period>" (no
// limit) and for anything malformed (a non-positive or non-numeric field).
std::optional<double> ParseCpuMax(std::string_view contents);

// The cgroup v2 path in /proc/self/cgroup contents (the "0::<path>" line), or nullopt.
std::optional<std::string> CgroupV2Path(std::string_view proc_self_cgroup);

// The limit of this process's cgroup: /sys/fs/cgroup<path>/cpu.max; nullopt when there is no
// cgroup v2, no limit, or a file cannot be read.
std::optional<double> CgroupCpuLimit();

// Go's adjustCgroupGOMAXPROCS: `cpus` lowered to max(2, ceil(limit)) when there is a limit.
int CapByCpuLimit(int cpus, std::optional<double> limit);

}  // namespace ksched::framework
