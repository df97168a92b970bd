// Parallelizer (framework/parallelizer.h): every index runs exactly once, work really spreads over
// threads, cancellation stops early, and the pool survives many runs and its own destruction.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <algorithm>
#include <memory>
#include <condition_variable>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "framework/parallelizer.h"

namespace {

using ksched::framework::Parallelizer;
// Any operation: these tests run without a goroutine counter.
constexpr auto kOperation = ksched::framework::GoroutineOperation::kFilter;

// Runs Until(n) and checks that each index ran exactly once.
void ExpectEachIndexOnce(Parallelizer& parallelizer, std::size_t n) {
  std::vector<std::atomic<int>> calls(n);
  parallelizer.Until(n, [&](std::size_t i, Parallelizer::Run&) {
    calls[i].fetch_add(1, std::memory_order_relaxed);
  }, kOperation);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (calls[i].load() != 1) ++wrong;
  }
  CAPTURE(n, parallelizer.parallelism());
  CHECK(wrong == 0);
}

TEST_CASE("every index runs exactly once", "[framework][parallelizer]") {
  for (int parallelism : {1, 2, 4, 16}) {
    Parallelizer parallelizer(parallelism, parallelism);
    CHECK(parallelizer.parallelism() == parallelism);
    for (std::size_t n : {0u, 1u, 2u, 3u, 15u, 16u, 17u, 100u, 1000u, 5000u}) {
      ExpectEachIndexOnce(parallelizer, n);
    }
  }
}

TEST_CASE("n = 0 never calls, n = 1 runs on the calling thread", "[framework][parallelizer]") {
  Parallelizer parallelizer(4, 4);
  int calls = 0;
  parallelizer.Until(0, [&](std::size_t, Parallelizer::Run&) { ++calls; }, kOperation);
  CHECK(calls == 0);
  std::thread::id ran_on;
  parallelizer.Until(1, [&](std::size_t i, Parallelizer::Run&) {
    CHECK(i == 0);
    ++calls;
    ran_on = std::this_thread::get_id();
  }, kOperation);
  CHECK(calls == 1);
  CHECK(ran_on == std::this_thread::get_id());
}

TEST_CASE("parallelism 1 runs everything on the calling thread", "[framework][parallelizer]") {
  Parallelizer parallelizer(1, 1);
  std::set<std::thread::id> threads;
  parallelizer.Until(500, [&](std::size_t, Parallelizer::Run&) {
    threads.insert(std::this_thread::get_id());  // single-threaded: no lock needed
  }, kOperation);
  CHECK(threads == std::set<std::thread::id>{std::this_thread::get_id()});
}

TEST_CASE("work runs on several threads at once, the caller included", "[framework][parallelizer]") {
  Parallelizer parallelizer(4, 4);
  // Every index waits until both the caller and some pool thread have run an index. Each thread
  // blocks in its first index, so this finishes only if the pool works concurrently with the
  // caller (the deadline turns a failure into a test failure instead of a hang).
  std::atomic<bool> caller_ran{false};
  std::atomic<bool> other_ran{false};
  std::atomic<bool> timed_out{false};
  const std::thread::id caller = std::this_thread::get_id();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  parallelizer.Until(400, [&](std::size_t, Parallelizer::Run&) {
    (std::this_thread::get_id() == caller ? caller_ran : other_ran).store(true);
    while (!(caller_ran.load() && other_ran.load())) {
      if (std::chrono::steady_clock::now() > deadline) {
        timed_out.store(true);
        return;
      }
      std::this_thread::yield();
    }
  }, kOperation);
  CHECK_FALSE(timed_out.load());
  CHECK(caller_ran.load());
  CHECK(other_ran.load());
}

TEST_CASE("cancellation skips the indexes not yet started", "[framework][parallelizer]") {
  Parallelizer parallelizer(4, 4);
  std::atomic<int> calls{0};
  parallelizer.Until(100000, [&](std::size_t, Parallelizer::Run& run) {
    calls.fetch_add(1);
    run.Cancel();
  }, kOperation);
  // Each of the 4 threads may have started one index before seeing the flag.
  CHECK(calls.load() >= 1);
  CHECK(calls.load() <= 4);

  // The next run starts uncancelled.
  ExpectEachIndexOnce(parallelizer, 1000);
}

TEST_CASE("cancellation from a late index stops the rest", "[framework][parallelizer]") {
  Parallelizer parallelizer(2, 2);
  std::atomic<int> calls{0};
  parallelizer.Until(100000, [&](std::size_t i, Parallelizer::Run& run) {
    calls.fetch_add(1);
    if (i == 5000) run.Cancel();
  }, kOperation);
  CHECK(calls.load() < 100000);
}

TEST_CASE("many consecutive runs neither deadlock nor lose work", "[framework][parallelizer]") {
  Parallelizer parallelizer(4, 4);
  std::atomic<std::size_t> total{0};
  std::size_t expected = 0;
  for (std::size_t run = 0; run < 3000; ++run) {
    const std::size_t n = run % 37;
    expected += n;
    parallelizer.Until(n, [&](std::size_t, Parallelizer::Run&) { total.fetch_add(1); }, kOperation);
  }
  CHECK(total.load() == expected);
}

TEST_CASE("concurrent Until calls from two threads are serialized", "[framework][parallelizer]") {
  Parallelizer parallelizer(3, 3);
  std::atomic<int> a{0};
  std::atomic<int> b{0};
  std::thread other([&] {
    for (int i = 0; i < 200; ++i) {
      parallelizer.Until(50, [&](std::size_t, Parallelizer::Run&) { a.fetch_add(1); }, kOperation);
    }
  });
  for (int i = 0; i < 200; ++i) {
    parallelizer.Until(50, [&](std::size_t, Parallelizer::Run&) { b.fetch_add(1); }, kOperation);
  }
  other.join();
  CHECK(a.load() == 200 * 50);
  CHECK(b.load() == 200 * 50);
}

TEST_CASE("the destructor joins idle and used pools", "[framework][parallelizer]") {
  for (int i = 0; i < 50; ++i) {
    auto idle = std::make_unique<Parallelizer>(8);
    idle.reset();
    auto used = std::make_unique<Parallelizer>(4);
    std::atomic<int> calls{0};
    used->Until(64, [&](std::size_t, Parallelizer::Run&) { calls.fetch_add(1); }, kOperation);
    used.reset();
    CHECK(calls.load() == 64);
  }
}

}  // namespace

TEST_CASE("ForEachSlice covers every index once, each slice once", "[framework][parallelizer]") {
  for (int parallelism : {1, 2, 16}) {
    Parallelizer parallelizer(parallelism, parallelism);
    for (std::size_t n : {0, 1, 5, 63, 64, 65, 1000}) {
      const std::size_t slices = parallelizer.SliceCount(n);
      CAPTURE(parallelism, n, slices);
      CHECK(slices <= n);
      CHECK(slices <= static_cast<std::size_t>(parallelism) * 4);
      if (n > 0) CHECK(slices >= 1);
      std::vector<std::atomic<int>> seen(n);
      std::vector<std::atomic<int>> slice_used(slices);
      // Counted, not asserted, on the workers: Catch2's assertions are not thread-safe.
      std::atomic<int> out_of_range{0};
      parallelizer.ForEachSlice(n, [&](std::size_t begin, std::size_t end, std::size_t slice) {
        if (slice >= slices) {
          out_of_range.fetch_add(1);
          return;
        }
        slice_used[slice].fetch_add(1);
        for (std::size_t i = begin; i < end; ++i) seen[i].fetch_add(1);
      }, kOperation);
      CHECK(out_of_range.load() == 0);
      for (std::size_t i = 0; i < n; ++i) CHECK(seen[i].load() == 1);
      for (const std::atomic<int>& used : slice_used) CHECK(used.load() == 1);
    }
  }
}

TEST_CASE("max_threads caps the OS threads, parallelism still sets the chunks", "[framework][parallelizer]") {
  Parallelizer parallelizer(16, 2);
  CHECK(parallelizer.parallelism() == 16);
  CHECK(parallelizer.threads() == 2);
  std::mutex mu;
  std::set<std::thread::id> threads;
  std::vector<std::atomic<int>> runs(1000);
  for (int round = 0; round < 20; ++round) {
    parallelizer.Until(runs.size(), [&](std::size_t i, Parallelizer::Run&) {
      runs[i].fetch_add(1);
      std::lock_guard<std::mutex> lock(mu);
      threads.insert(std::this_thread::get_id());
    }, kOperation);
  }
  for (const auto& count : runs) CHECK(count.load() == 20);
  CHECK(threads.size() <= 2);
  // The caller is one of the two: an item that waits until a second thread has arrived keeps one
  // thread busy, so the other item must be taken by the other thread, whichever the caller is.
  std::set<std::thread::id> pair;
  std::condition_variable arrived;
  parallelizer.Until(2, [&](std::size_t, Parallelizer::Run&) {
    std::unique_lock<std::mutex> lock(mu);
    pair.insert(std::this_thread::get_id());
    arrived.notify_all();
    arrived.wait_for(lock, std::chrono::seconds(10), [&] { return pair.size() == 2; });
  }, kOperation);
  CHECK(pair.size() == 2);
  CHECK(pair.contains(std::this_thread::get_id()));
  // 16 workers' slices, whatever the thread count.
  CHECK(parallelizer.SliceCount(10000) == 64);

  CHECK(Parallelizer(4, 8).threads() == 4);  // never more threads than parallelism
  CHECK(Parallelizer(4, 0).threads() == 1);  // a nonsense cap means the caller alone
}

TEST_CASE("the default cap is the CPUs this process may run on", "[framework][parallelizer]") {
  const int cpus = Parallelizer::AvailableCpus();
  CHECK(cpus >= 1);
  if (std::thread::hardware_concurrency() > 0) {
    CHECK(cpus <= static_cast<int>(std::thread::hardware_concurrency()));
  }
  CHECK(Parallelizer(64).threads() == std::min(64, cpus));
}
