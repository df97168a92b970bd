// The cgroup memory limit the daemon sizes its secure port by (scheduler/memory_limit.h): cgroup v2
// and v1 layouts written into a temporary directory, as the kubelet's container runtime lays them out.
#include "scheduler/memory_limit.h"

#include <catch2/catch.hpp>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace ksched::scheduler {
namespace {

namespace fs = std::filesystem;

class FakeCgroups {
 public:
  FakeCgroups() : root_(fs::temp_directory_path() / ("ksched-cgroup-" + std::to_string(::getpid()))) {
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  ~FakeCgroups() { fs::remove_all(root_); }
  void Write(const std::string& relative, const std::string& text) const {
    const fs::path path = root_ / relative;
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
  }
  std::string proc() const { return (root_ / "proc-self-cgroup").string(); }
  std::string sys() const { return (root_ / "sys").string(); }

 private:
  fs::path root_;
};

TEST_CASE("cgroup v2: the container's memory.max, the smallest on the way up") {
  FakeCgroups cg;
  cg.Write("proc-self-cgroup", "0::/kubepods/burstable/pod1/ctr\n");
  cg.Write("sys/memory.max", "max\n");
  cg.Write("sys/kubepods/memory.max", "8589934592\n");
  cg.Write("sys/kubepods/burstable/pod1/memory.max", "1073741824\n");
  cg.Write("sys/kubepods/burstable/pod1/ctr/memory.max", "max\n");
  REQUIRE(CgroupMemoryLimitBytes(cg.proc(), cg.sys()) == std::optional<std::uint64_t>(1073741824));
}

TEST_CASE("cgroup v2 inside a cgroup namespace: the path is / and the limit at the root") {
  FakeCgroups cg;
  cg.Write("proc-self-cgroup", "0::/\n");
  cg.Write("sys/memory.max", "536870912\n");
  REQUIRE(CgroupMemoryLimitBytes(cg.proc(), cg.sys()) == std::optional<std::uint64_t>(536870912));
}

TEST_CASE("no limit: max everywhere, v1's 2^63 rounded to pages, missing or garbled files") {
  FakeCgroups cg;
  SECTION("v2 max") {
    cg.Write("proc-self-cgroup", "0::/user.slice\n");
    cg.Write("sys/memory.max", "max\n");
    cg.Write("sys/user.slice/memory.max", "max\n");
  }
  SECTION("v1 unlimited") {
    cg.Write("proc-self-cgroup", "12:cpu,cpuacct:/x\n4:memory:/docker/abc\n");
    cg.Write("sys/memory/docker/abc/memory.limit_in_bytes", "9223372036854771712\n");
  }
  SECTION("no such files") { cg.Write("proc-self-cgroup", "0::/nowhere\n"); }
  SECTION("garbled") {
    cg.Write("proc-self-cgroup", "garbage without colons\n0::/a\n");
    cg.Write("sys/a/memory.max", "-12\n");
  }
  REQUIRE(CgroupMemoryLimitBytes(cg.proc(), cg.sys()) == std::nullopt);
  REQUIRE(CgroupMemoryLimitBytes(cg.proc() + ".missing", cg.sys()) == std::nullopt);
}

TEST_CASE("cgroup v1: the memory controller's limit_in_bytes") {
  FakeCgroups cg;
  cg.Write("proc-self-cgroup", "12:cpu,cpuacct:/x\n4:memory:/kubepods/pod2\n");
  cg.Write("sys/memory/kubepods/pod2/memory.limit_in_bytes", "268435456\n");
  REQUIRE(CgroupMemoryLimitBytes(cg.proc(), cg.sys()) == std::optional<std::uint64_t>(268435456));
}

TEST_CASE("secure port connections: half the limit at 96 KiB each, at least 64, none without a limit") {
  REQUIRE(MaxConnectionsForMemoryLimit(std::nullopt) == 0);
  REQUIRE(MaxConnectionsForMemoryLimit(std::uint64_t{1} << 30) == 5461);  // 1 GiB
  REQUIRE(MaxConnectionsForMemoryLimit(std::uint64_t{256} << 20) == 1365);
  REQUIRE(MaxConnectionsForMemoryLimit(std::uint64_t{4} << 20) == 64);
}

}  // namespace
}  // namespace ksched::scheduler
