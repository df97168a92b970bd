#include "serving/single_flight.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

namespace ksched::serving {
namespace {

TEST_CASE("SingleFlight: callers of a key under way share its one call", "[serving]") {
  SingleFlight<std::string> group;
  std::mutex mu;
  std::condition_variable changed;
  bool released = false;
  std::atomic<int> calls{0};
  auto slow = [&] {
    ++calls;
    std::unique_lock lock(mu);
    changed.wait(lock, [&] { return released; });
    return std::string("answer");
  };

  std::vector<std::string> results(3);
  bool shared[3] = {true, false, false};
  std::vector<std::thread> callers;
  callers.emplace_back([&] { results[0] = group.Do("k", slow, &shared[0]); });
  while (calls == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  for (int i = 1; i < 3; ++i) {
    callers.emplace_back([&, i] { results[i] = group.Do("k", [] { return std::string("not called"); }, &shared[i]); });
  }
  while (group.Waiting("k") < 2) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  CHECK(group.Waiting("other") == 0);
  {
    std::lock_guard lock(mu);
    released = true;
  }
  changed.notify_all();
  for (std::thread& caller : callers) caller.join();

  CHECK(calls == 1);
  CHECK(results == std::vector<std::string>{"answer", "answer", "answer"});
  CHECK_FALSE(shared[0]);
  CHECK(shared[1]);
  CHECK(shared[2]);
  CHECK(group.Waiting("k") == 0);
}

TEST_CASE("SingleFlight: a key is called again once its call is over, other keys do not wait", "[serving]") {
  SingleFlight<int> group;
  int calls = 0;
  bool shared = true;
  CHECK(group.Do("a", [&] { return ++calls; }, &shared) == 1);
  CHECK_FALSE(shared);
  CHECK(group.Do("a", [&] { return ++calls; }) == 2);
  CHECK(group.Do("b", [&] { return ++calls; }) == 3);
}

}  // namespace
}  // namespace ksched::serving
