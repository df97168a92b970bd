// MemoryReleaser (scheduler/memory_releaser.h): freed heap pages go back to the system once the
// newly freed bytes pass the threshold, not before and not again for the same ones; the thread
// stops at once.
#include "scheduler/memory_releaser.h"

#include <catch2/catch.hpp>

#include "sanitizers/sanitizer_build.h"
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <memory>
#include <vector>

namespace ksched::scheduler {
namespace {

// Under AddressSanitizer malloc is ASan's, which glibc's mallinfo2 and malloc_trim know nothing of.
#if !defined(KSCHED_UNDER_ASAN) && !defined(KSCHED_UNDER_TSAN)
std::size_t ResidentBytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident * static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
}

TEST_CASE("MemoryReleaser returns freed heap pages above the threshold, not below") {
  // 32 MiB of 1 KiB blocks, touched; one block in 64 kept, so that the heap cannot shrink from its
  // top and only a trim inside it (what glibc does not do by itself) gives the pages back.
  constexpr std::size_t kBlock = 1024, kBlocks = 32 * 1024;
  std::vector<std::unique_ptr<char[]>> blocks(kBlocks);
  for (auto& block : blocks) {
    block.reset(new char[kBlock]);
    std::memset(block.get(), 1, kBlock);
  }
  for (std::size_t i = 0; i < kBlocks; ++i) {
    if (i % 64 != 0) blocks[i].reset();
  }
  REQUIRE(MemoryReleaser::HeapFreeBytes() > (std::size_t{24} << 20));

  MemoryReleaser too_high(MemoryReleaserOptions{std::chrono::hours(1), std::size_t{1} << 40});
  CHECK_FALSE(too_high.CheckOnce());  // below its threshold: nothing
  MemoryReleaser releaser(MemoryReleaserOptions{std::chrono::hours(1), std::size_t{8} << 20});
  const std::size_t before = ResidentBytes();
  CHECK(releaser.CheckOnce());
  const std::size_t after = ResidentBytes();
  INFO("resident before " << (before >> 20) << " MiB, after " << (after >> 20) << " MiB");
  CHECK(before - std::min(before, after) > (std::size_t{16} << 20));
  // Nothing freed since: the same free bytes do not make it trim again.
  CHECK_FALSE(releaser.CheckOnce());
}
#endif

TEST_CASE("MemoryReleaser's thread stops at once, not after its interval") {
  MemoryReleaser releaser(MemoryReleaserOptions{std::chrono::hours(1), std::size_t{8} << 20});
  releaser.Start();
  const auto start = std::chrono::steady_clock::now();
  releaser.Stop();
  releaser.Stop();  // idempotent
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
}

}  // namespace
}  // namespace ksched::scheduler
