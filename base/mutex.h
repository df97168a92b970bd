// Mutexes the compiler checks: thin wrappers over std::mutex, std::shared_mutex and
// std::condition_variable(_any) that carry clang's thread-safety annotations
// (absl/base/thread_annotations.h), so `ABSL_GUARDED_BY(mu_)` on a member is a checked contract:
// `make thread-safety` (scripts/thread_safety_check.sh) compiles every translation unit with clang
// -Wthread-safety -Werror=thread-safety, and a read or write of a guarded member without its mutex,
// a call to an ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) helper without mu_, or a lock not released on
// every path fails it. libstdc++'s std::mutex is no clang "capability": annotations naming one
// check nothing, hence these types.
//
// Not absl::Mutex on purpose: Debian's libabsl is not built with ThreadSanitizer, which would not
// see its synchronization and would report false races. These wrappers hold the standard types and
// every lock, unlock and wait goes through them (pthread underneath), so TSan sees all of it. GCC
// ignores the annotations; the types cost nothing over the standard ones.
//
// Contract, the project's rule (the check enforces the first three):
//   - a member written by more than one thread is ABSL_GUARDED_BY(the mutex) (ABSL_PT_GUARDED_BY
//     for what a pointer member points to), or is atomic or set before the threads start (const);
//   - a private helper that expects the lock held says ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) (or
//     ABSL_SHARED_LOCKS_REQUIRED for a reader); a public method that takes the lock may say
//     ABSL_LOCKS_EXCLUDED(mu_);
//   - locks are taken by the scoped MutexLock / ReaderMutexLock / WriterMutexLock, or by
//     Lock()/Unlock() pairs the analysis can follow;
//   - ABSL_NO_THREAD_SAFETY_ANALYSIS only with a one-line comment saying why the code is safe.
//
// Usage:
//   base::Mutex mu_;
//   int count_ ABSL_GUARDED_BY(mu_) = 0;
//   base::CondVar changed_;
//   void Add() { base::MutexLock lock(&mu_); ++count_; changed_.NotifyAll(); }
//   void WaitPositive() {
//     base::MutexLock lock(&mu_);
//     changed_.Wait(&mu_, [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return count_ > 0; });
//   }
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <shared_mutex>
#include <type_traits>
#include <utility>

#include "absl/base/thread_annotations.h"

namespace ksched::base {

// An exclusive mutex (std::mutex). Not recursive.
class ABSL_LOCKABLE Mutex {
 public:
  Mutex() = default;
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  void Lock() ABSL_EXCLUSIVE_LOCK_FUNCTION() { mu_.lock(); }
  void Unlock() ABSL_UNLOCK_FUNCTION() { mu_.unlock(); }
  bool TryLock() ABSL_EXCLUSIVE_TRYLOCK_FUNCTION(true) { return mu_.try_lock(); }
  // Tells the analysis the calling thread holds the mutex (checks nothing at run time): for code
  // reached only with the lock held through a path the analysis cannot follow.
  void AssertHeld() const ABSL_ASSERT_EXCLUSIVE_LOCK() {}

  // The wrapped mutex, for CondVar; locking it directly bypasses the analysis.
  std::mutex& native() { return mu_; }

 private:
  std::mutex mu_;
};

// A reader-writer mutex (std::shared_mutex): Lock for writers, ReaderLock for readers.
class ABSL_LOCKABLE SharedMutex {
 public:
  SharedMutex() = default;
  SharedMutex(const SharedMutex&) = delete;
  SharedMutex& operator=(const SharedMutex&) = delete;

  void Lock() ABSL_EXCLUSIVE_LOCK_FUNCTION() { mu_.lock(); }
  void Unlock() ABSL_UNLOCK_FUNCTION() { mu_.unlock(); }
  bool TryLock() ABSL_EXCLUSIVE_TRYLOCK_FUNCTION(true) { return mu_.try_lock(); }
  void ReaderLock() ABSL_SHARED_LOCK_FUNCTION() { mu_.lock_shared(); }
  void ReaderUnlock() ABSL_UNLOCK_FUNCTION() { mu_.unlock_shared(); }
  bool ReaderTryLock() ABSL_SHARED_TRYLOCK_FUNCTION(true) { return mu_.try_lock_shared(); }
  void AssertHeld() const ABSL_ASSERT_EXCLUSIVE_LOCK() {}
  void AssertReaderHeld() const ABSL_ASSERT_SHARED_LOCK() {}

  std::shared_mutex& native() { return mu_; }

 private:
  std::shared_mutex mu_;
};

namespace internal {

// Holds `M` exclusively for its scope: MutexLock and WriterMutexLock below.
template <typename M>
class ABSL_SCOPED_LOCKABLE ExclusiveLock {
 public:
  explicit ExclusiveLock(M* mu) ABSL_EXCLUSIVE_LOCK_FUNCTION(mu) : mu_(mu) { mu_->Lock(); }
  ExclusiveLock(M* mu, std::adopt_lock_t) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) : mu_(mu) {}
  ExclusiveLock(const ExclusiveLock&) = delete;
  ExclusiveLock& operator=(const ExclusiveLock&) = delete;
  ~ExclusiveLock() ABSL_UNLOCK_FUNCTION() {
    if (held_) mu_->Unlock();
  }

  void Unlock() ABSL_UNLOCK_FUNCTION() {
    mu_->Unlock();
    held_ = false;
  }
  void Lock() ABSL_EXCLUSIVE_LOCK_FUNCTION() {
    mu_->Lock();
    held_ = true;
  }

 private:
  M* const mu_;
  bool held_ = true;
};

}  // namespace internal

// Holds a Mutex for its scope. Unlock() releases it early and Lock() takes it again; the
// destructor releases it only when held. With std::adopt_lock it takes over a lock the caller
// holds, e.g. after `if (mu.TryLock())`.
using MutexLock = internal::ExclusiveLock<Mutex>;
// The same for a SharedMutex held exclusively (a writer).
using WriterMutexLock = internal::ExclusiveLock<SharedMutex>;

// Holds a SharedMutex shared (as a reader) for its scope.
class ABSL_SCOPED_LOCKABLE ReaderMutexLock {
 public:
  explicit ReaderMutexLock(SharedMutex* mu) ABSL_SHARED_LOCK_FUNCTION(mu) : mu_(mu) { mu_->ReaderLock(); }
  ReaderMutexLock(const ReaderMutexLock&) = delete;
  ReaderMutexLock& operator=(const ReaderMutexLock&) = delete;
  ~ReaderMutexLock() ABSL_UNLOCK_FUNCTION() { mu_->ReaderUnlock(); }

 private:
  SharedMutex* const mu_;
};

namespace internal {

// The waits of CondVar, over a standard condition variable `Cv` and the mutex `M` it waits with.
// The caller holds `mu` (the annotations say so); the wait adopts it into a std::unique_lock for
// the standard wait, which releases and retakes it (pthread_cond_*: TSan sees both), and releases
// the unique_lock without unlocking, so the caller still holds `mu` on return, as the analysis
// assumes. A predicate is called with `mu` held: annotate a lambda reading guarded members with
// ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_).
template <typename Cv, typename M>
class BasicCondVar {
 public:
  BasicCondVar() = default;
  BasicCondVar(const BasicCondVar&) = delete;
  BasicCondVar& operator=(const BasicCondVar&) = delete;

  void Wait(M* mu) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) {
    Adopted lock(mu);
    cv_.wait(lock.lock);
  }
  template <typename Predicate>
  void Wait(M* mu, Predicate pred) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) {
    Adopted lock(mu);
    cv_.wait(lock.lock, Unchecked<Predicate>{pred});
  }
  // std::cv_status::timeout when the time ran out. As the standard wait_for: until the steady
  // clock's now + timeout.
  template <typename Rep, typename Period>
  std::cv_status WaitFor(M* mu, const std::chrono::duration<Rep, Period>& timeout)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) {
    return WaitUntil(mu, Deadline(timeout));
  }
  // The predicate's last value (false: the time ran out first).
  template <typename Rep, typename Period, typename Predicate>
  bool WaitFor(M* mu, const std::chrono::duration<Rep, Period>& timeout, Predicate pred)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) {
    return WaitUntil(mu, Deadline(timeout), std::move(pred));
  }
  template <typename Clock, typename Duration>
  std::cv_status WaitUntil(M* mu, const std::chrono::time_point<Clock, Duration>& deadline)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) {
    Adopted lock(mu);
    return cv_.wait_until(lock.lock, deadline);
  }
  template <typename Clock, typename Duration, typename Predicate>
  bool WaitUntil(M* mu, const std::chrono::time_point<Clock, Duration>& deadline, Predicate pred)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) {
    Adopted lock(mu);
    return cv_.wait_until(lock.lock, deadline, Unchecked<Predicate>{pred});
  }

  void NotifyOne() noexcept { cv_.notify_one(); }
  void NotifyAll() noexcept { cv_.notify_all(); }

 private:
  using NativeMutex = std::remove_reference_t<decltype(std::declval<M&>().native())>;
  template <typename Rep, typename Period>
  static std::chrono::steady_clock::time_point Deadline(const std::chrono::duration<Rep, Period>& timeout) {
    return std::chrono::steady_clock::now() + std::chrono::ceil<std::chrono::steady_clock::duration>(timeout);
  }
  // The caller's lock as a std::unique_lock for the duration of one wait; gives it back held.
  struct Adopted {
    explicit Adopted(M* mu) : lock(mu->native(), std::adopt_lock) {}
    Adopted(const Adopted&) = delete;
    Adopted& operator=(const Adopted&) = delete;
    ~Adopted() { lock.release(); }
    std::unique_lock<NativeMutex> lock;
  };
  // The standard wait calls the predicate with the mutex held, which the analysis cannot see
  // through the standard library: the caller's predicate carries its own annotation.
  template <typename Predicate>
  struct Unchecked {
    bool operator()() ABSL_NO_THREAD_SAFETY_ANALYSIS { return static_cast<bool>(pred()); }
    Predicate& pred;
  };

  Cv cv_;
};

}  // namespace internal

// A condition variable for a Mutex: Wait(&mu_) with mu_ held, NotifyOne/NotifyAll with or without.
using CondVar = internal::BasicCondVar<std::condition_variable, Mutex>;
// A condition variable for a SharedMutex held exclusively (std::condition_variable_any).
using SharedCondVar = internal::BasicCondVar<std::condition_variable_any, SharedMutex>;

}  // namespace ksched::base
