// BindingWindow: at most `limit` bindings started and not finished, queued starts in FIFO order,
// slots handed on by Finished, synchronous finishes without nesting, the in-flight count and
// WaitIdle, and no lost or doubled start under concurrent Finished calls.
#include "scheduler/binding_window.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

namespace ksched::scheduler {
namespace {

TEST_CASE("BindingWindow: starts at once up to the limit, queues the rest in order", "[binding_window]") {
  BindingWindow window(2);
  std::vector<int> started;
  for (int i = 0; i < 5; ++i) window.Run([&started, i] { started.push_back(i); });
  CHECK(started == std::vector<int>{0, 1});
  CHECK(window.in_flight() == 5);

  window.Finished();  // 0 done: 2 takes its slot
  CHECK(started == std::vector<int>{0, 1, 2});
  CHECK(window.in_flight() == 4);
  window.Finished();
  window.Finished();
  CHECK(started == std::vector<int>{0, 1, 2, 3, 4});
  CHECK(window.in_flight() == 2);
  window.Finished();
  window.Finished();
  CHECK(window.in_flight() == 0);
  window.WaitIdle();  // returns at once

  // A slot freed with nothing queued is there for the next Run.
  window.Run([&started] { started.push_back(5); });
  CHECK(started.back() == 5);
  window.Finished();
  CHECK(window.in_flight() == 0);
}

TEST_CASE("BindingWindow: a limit below 1 is 1", "[binding_window]") {
  BindingWindow window(0);
  int started = 0;
  window.Run([&started] { ++started; });
  window.Run([&started] { ++started; });
  CHECK(started == 1);
  window.Finished();
  CHECK(started == 2);
  window.Finished();
  CHECK(window.in_flight() == 0);
}

TEST_CASE("BindingWindow: bindings that finish inside their start do not nest", "[binding_window]") {
  BindingWindow window(1);
  int depth = 0;
  int max_depth = 0;
  int started = 0;
  // The first start blocks the window while 10,000 starts queue up behind it; each of those
  // finishes synchronously. Run by recursion, they would nest 10,000 deep.
  std::function<void()> finish_at_once = [&] {
    ++depth;
    max_depth = std::max(max_depth, depth);
    ++started;
    window.Finished();
    --depth;
  };
  window.Run([&started] { ++started; });
  for (int i = 0; i < 10'000; ++i) window.Run(finish_at_once);
  CHECK(started == 1);
  window.Finished();
  CHECK(started == 10'001);
  CHECK(max_depth == 1);
  CHECK(window.in_flight() == 0);
}

TEST_CASE("BindingWindow: concurrent finishes start every queued binding once, within the limit",
          "[binding_window]") {
  constexpr int kLimit = 4;
  constexpr int kBindings = 2'000;
  BindingWindow window(kLimit);
  std::mutex mu;
  std::vector<std::function<void()>> to_finish;  // guarded by mu: started, not yet finished
  std::atomic<int> running{0};
  std::atomic<int> max_running{0};
  std::atomic<int> started{0};
  auto start = [&] {
    const int now = running.fetch_add(1) + 1;
    int seen = max_running.load();
    while (now > seen && !max_running.compare_exchange_weak(seen, now)) {
    }
    started.fetch_add(1);
    std::lock_guard lock(mu);
    to_finish.emplace_back([&] {
      running.fetch_sub(1);
      window.Finished();
    });
  };
  // Two threads finish whatever has started while the test thread keeps queueing.
  std::atomic<bool> done_queueing{false};
  auto finisher = [&] {
    while (true) {
      std::function<void()> finish;
      {
        std::lock_guard lock(mu);
        if (!to_finish.empty()) {
          finish = std::move(to_finish.back());
          to_finish.pop_back();
        }
      }
      if (finish) {
        finish();
      } else if (done_queueing.load() && window.in_flight() == 0) {
        return;
      } else {
        std::this_thread::yield();
      }
    }
  };
  std::thread a(finisher);
  std::thread b(finisher);
  for (int i = 0; i < kBindings; ++i) window.Run(start);
  done_queueing.store(true);
  window.WaitIdle();
  a.join();
  b.join();
  CHECK(started.load() == kBindings);
  CHECK(max_running.load() <= kLimit);
  CHECK(max_running.load() >= 1);
  CHECK(window.in_flight() == 0);
}

TEST_CASE("BindingWindow: WaitIdle returns once the last binding finished", "[binding_window]") {
  BindingWindow window(2);
  window.Run([] {});
  window.Run([] {});
  window.Run([] {});
  std::future<void> waited = std::async(std::launch::async, [&window] { window.WaitIdle(); });
  CHECK(waited.wait_for(std::chrono::milliseconds(50)) == std::future_status::timeout);
  window.Finished();
  window.Finished();
  CHECK(waited.wait_for(std::chrono::milliseconds(50)) == std::future_status::timeout);
  window.Finished();
  CHECK(waited.wait_for(std::chrono::seconds(5)) == std::future_status::ready);
}

}  // namespace
}  // namespace ksched::scheduler
