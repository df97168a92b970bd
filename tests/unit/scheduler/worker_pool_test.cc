// WorkerPool: FIFO order, concurrency up to its thread count, Stop draining what was submitted,
// Submit after Stop running inline, and the in-flight count.
#include "scheduler/worker_pool.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

namespace ksched::scheduler {
namespace {

using namespace std::chrono_literals;

// Polls `condition` for up to 5 s.
template <typename Condition>
bool Eventually(Condition condition) {
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(1ms);
  }
  return true;
}

TEST_CASE("WorkerPool: one thread runs tasks in submission order", "[worker_pool]") {
  std::mutex mu;
  std::vector<int> order;
  WorkerPool pool(1);
  for (int i = 0; i < 100; ++i) {
    pool.Submit([&, i] {
      std::lock_guard lock(mu);
      order.push_back(i);
    });
  }
  pool.Stop();
  std::vector<int> want(100);
  for (int i = 0; i < 100; ++i) want[static_cast<std::size_t>(i)] = i;
  CHECK(order == want);
}

TEST_CASE("WorkerPool: up to `threads` tasks run at once", "[worker_pool]") {
  constexpr int kThreads = 4;
  WorkerPool pool(kThreads);
  std::atomic<int> running{0};
  std::atomic<int> max_running{0};
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  for (int i = 0; i < 2 * kThreads; ++i) {
    pool.Submit([&, released] {
      const int now = running.fetch_add(1) + 1;
      int seen = max_running.load();
      while (now > seen && !max_running.compare_exchange_weak(seen, now)) {
      }
      released.wait();
      running.fetch_sub(1);
    });
  }
  // Every thread picks a task and blocks: exactly `threads` run, the rest wait in the queue.
  REQUIRE(Eventually([&] { return running.load() == kThreads; }));
  CHECK(pool.in_flight() == 2 * kThreads);
  release.set_value();
  pool.Stop();
  CHECK(max_running.load() == kThreads);
  CHECK(pool.in_flight() == 0);
}

TEST_CASE("WorkerPool: threads start only when no idle one can take a task", "[worker_pool]") {
  WorkerPool pool(8);
  CHECK(pool.threads_started() == 0);
  // Tasks one after another: the one thread is idle again each time.
  for (int i = 0; i < 20; ++i) {
    std::promise<void> done;
    pool.Submit([&done] { done.set_value(); });
    done.get_future().wait();
    REQUIRE(Eventually([&] { return pool.in_flight() == 0; }));
  }
  CHECK(pool.threads_started() == 1);
  // Three blocked tasks at once need three threads.
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<int> running{0};
  for (int i = 0; i < 3; ++i) {
    pool.Submit([&running, released] {
      running.fetch_add(1);
      released.wait();
    });
  }
  REQUIRE(Eventually([&] { return running.load() == 3; }));
  CHECK(pool.threads_started() == 3);
  release.set_value();
  pool.Stop();
}

TEST_CASE("WorkerPool: in_flight counts queued and running tasks", "[worker_pool]") {
  WorkerPool pool(2);
  CHECK(pool.in_flight() == 0);
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<int> started{0};
  for (int i = 0; i < 3; ++i) {
    pool.Submit([&started, released] {
      started.fetch_add(1);
      released.wait();
    });
  }
  REQUIRE(Eventually([&] { return started.load() == 2; }));
  CHECK(pool.in_flight() == 3);  // two running, one queued
  release.set_value();
  CHECK(Eventually([&] { return pool.in_flight() == 0; }));
  CHECK(started.load() == 3);
}

TEST_CASE("WorkerPool: Stop runs the tasks still queued, then joins", "[worker_pool]") {
  std::atomic<int> ran{0};
  WorkerPool pool(1);
  pool.Submit([&] {
    std::this_thread::sleep_for(20ms);  // the others are still queued when Stop starts
    ran.fetch_add(1);
  });
  for (int i = 0; i < 10; ++i) pool.Submit([&] { ran.fetch_add(1); });
  pool.Stop();
  CHECK(ran.load() == 11);
  CHECK(pool.in_flight() == 0);
  pool.Stop();  // idempotent
}

TEST_CASE("WorkerPool: the destructor finishes what was submitted", "[worker_pool]") {
  std::atomic<int> ran{0};
  {
    WorkerPool pool(2);
    for (int i = 0; i < 20; ++i) pool.Submit([&] {
      std::this_thread::sleep_for(1ms);
      ran.fetch_add(1);
    });
  }
  CHECK(ran.load() == 20);
}

TEST_CASE("WorkerPool: Submit after Stop runs the task inline", "[worker_pool]") {
  WorkerPool pool(2);
  pool.Stop();
  std::thread::id ran_on;
  bool ran = false;
  pool.Submit([&] {
    ran_on = std::this_thread::get_id();
    ran = true;
  });
  CHECK(ran);  // before Submit returned
  CHECK(ran_on == std::this_thread::get_id());
  CHECK(pool.in_flight() == 0);
}

}  // namespace
}  // namespace ksched::scheduler
