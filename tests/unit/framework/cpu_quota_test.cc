// cpu_quota: cpu.max parsing, the cgroup v2 path of /proc/self/cgroup, and Go's GOMAXPROCS rule
// (ceil of the limit, at least 2, at most the CPUs).
#include "framework/cpu_quota.h"

#include <catch2/catch.hpp>
#include <optional>

#include "framework/parallelizer.h"

using ksched::framework::CapByCpuLimit;
using ksched::framework::CgroupCpuLimit;
using ksched::framework::CgroupV2Path;
using ksched::framework::ParseCpuMax;

TEST_CASE("ParseCpuMax reads quota over period", "[cpu_quota]") {
  CHECK(ParseCpuMax("150000 100000\n") == std::optional<double>(1.5));
  CHECK(ParseCpuMax("200000 100000") == std::optional<double>(2.0));
  CHECK(ParseCpuMax("50000 100000\n") == std::optional<double>(0.5));
  // No limit.
  CHECK(ParseCpuMax("max 100000\n") == std::nullopt);
  // Malformed: nothing is assumed.
  CHECK(ParseCpuMax("") == std::nullopt);
  CHECK(ParseCpuMax("150000") == std::nullopt);
  CHECK(ParseCpuMax("0 100000") == std::nullopt);
  CHECK(ParseCpuMax("150000 0") == std::nullopt);
  CHECK(ParseCpuMax("-5 100000") == std::nullopt);
  CHECK(ParseCpuMax("15x 100000") == std::nullopt);
}

TEST_CASE("CgroupV2Path finds the unified hierarchy line", "[cpu_quota]") {
  CHECK(CgroupV2Path("0::/kubepods.slice/pod1/c1\n") == std::optional<std::string>(
                                                           "/kubepods.slice/pod1/c1"));
  CHECK(CgroupV2Path("0::/\n") == std::optional<std::string>("/"));
  // A hybrid host: v1 controllers first, the v2 line last.
  CHECK(CgroupV2Path("4:memory:/x\n1:cpu:/\n0::/user.slice") ==
        std::optional<std::string>("/user.slice"));
  // cgroup v1 only.
  CHECK(CgroupV2Path("4:memory:/x\n1:cpu,cpuacct:/y\n") == std::nullopt);
  CHECK(CgroupV2Path("") == std::nullopt);
}

TEST_CASE("CapByCpuLimit follows Go's GOMAXPROCS rule", "[cpu_quota]") {
  CHECK(CapByCpuLimit(8, std::nullopt) == 8);
  CHECK(CapByCpuLimit(8, 1.5) == 2);
  CHECK(CapByCpuLimit(8, 2.1) == 3);
  CHECK(CapByCpuLimit(8, 0.25) == 2);  // at least 2
  CHECK(CapByCpuLimit(1, 0.25) == 1);  // never more than the CPUs
  CHECK(CapByCpuLimit(2, 16.0) == 2);
}

TEST_CASE("AvailableCpus is the affinity count lowered to this host's cgroup limit",
          "[cpu_quota]") {
  const int cpus = ksched::framework::Parallelizer::AvailableCpus();
  CHECK(cpus >= 1);
  const std::optional<double> limit = CgroupCpuLimit();
  if (limit.has_value()) CHECK(cpus <= CapByCpuLimit(1 << 20, limit));
}
