#include "base/mutex.h"

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

namespace ksched::base {
namespace {

using std::chrono::milliseconds;

// A counter the analysis checks, as the layers write them.
class Counter {
 public:
  void Add() {
    MutexLock lock(&mu_);
    ++value_;
    changed_.NotifyAll();
  }
  int value() {
    MutexLock lock(&mu_);
    return value_;
  }
  // Waits until the value reaches `target`; false when `timeout` passes first.
  bool WaitFor(int target, milliseconds timeout) {
    MutexLock lock(&mu_);
    return changed_.WaitFor(&mu_, timeout, [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return value_ >= target; });
  }
  Mutex& mu() { return mu_; }

 private:
  Mutex mu_;
  CondVar changed_;
  int value_ ABSL_GUARDED_BY(mu_) = 0;
};

TEST_CASE("MutexLock excludes the other threads") {
  Counter counter;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 10000; ++i) counter.Add();
    });
  }
  for (std::thread& thread : threads) thread.join();
  CHECK(counter.value() == 40000);
}

TEST_CASE("TryLock fails while another thread holds the mutex, and an adopted lock releases it") {
  Mutex mu;
  std::atomic<bool> tried{false};
  {
    MutexLock lock(&mu);
    std::thread other([&] {
      CHECK_FALSE(mu.TryLock());
      tried = true;
    });
    other.join();
  }
  CHECK(tried);
  bool took = false;
  if (mu.TryLock()) {
    MutexLock adopted(&mu, std::adopt_lock);
    took = true;
  }
  REQUIRE(took);
  took = false;
  if (mu.TryLock()) {  // released by `adopted`
    took = true;
    mu.Unlock();
  }
  CHECK(took);
}

TEST_CASE("MutexLock can release early and take the mutex again") {
  Mutex mu;
  MutexLock lock(&mu);
  lock.Unlock();
  bool took = false;
  std::thread other([&] {
    if (mu.TryLock()) {
      took = true;
      mu.Unlock();
    }
  });
  other.join();
  CHECK(took);
  lock.Lock();
  std::thread again([&] { CHECK_FALSE(mu.TryLock()); });
  again.join();
}

TEST_CASE("CondVar waits release the mutex and return with it held") {
  Counter counter;
  std::thread adder([&] {
    for (int i = 0; i < 3; ++i) counter.Add();  // needs the mutex the waiter waits with
  });
  CHECK(counter.WaitFor(3, std::chrono::seconds(30)));
  adder.join();
  CHECK_FALSE(counter.WaitFor(4, milliseconds(20)));  // times out, predicate still false

  Mutex& mu = counter.mu();
  CondVar cv;
  MutexLock lock(&mu);
  CHECK(cv.WaitFor(&mu, milliseconds(10)) == std::cv_status::timeout);
  CHECK(cv.WaitUntil(&mu, std::chrono::steady_clock::now() - milliseconds(1), [] { return true; }));
  std::thread other([&] { CHECK_FALSE(mu.TryLock()); });  // still held after the waits
  other.join();
}

TEST_CASE("SharedMutex admits readers together and a writer alone") {
  SharedMutex mu;
  SharedCondVar cv;
  bool ready = false;
  {
    ReaderMutexLock reader(&mu);
    bool second_reader = false;
    std::thread other([&] {
      if (mu.ReaderTryLock()) {
        second_reader = true;
        mu.ReaderUnlock();
      }
      CHECK_FALSE(mu.TryLock());  // no writer while a reader holds it
    });
    other.join();
    CHECK(second_reader);
  }
  std::thread writer([&] {
    WriterMutexLock lock(&mu);
    ready = true;
    cv.NotifyAll();
  });
  {
    WriterMutexLock lock(&mu);
    cv.Wait(&mu, [&] { return ready; });
    CHECK(ready);
  }
  writer.join();
}

}  // namespace
}  // namespace ksched::base
