// SingleFlight: one call per key at a time; callers asking for a key whose call is under way wait
// for that call and share its result (Go's golang.org/x/sync/singleflight, which upstream's cached
// token authenticator puts in front of its TokenReviews so that a burst of requests carrying one
// new token makes one review).
//
// Ownership: the result is copied to every caller. Errors are values of Value (e.g. a StatusOr);
// `fn` must not throw.
// Thread-safety: Do may be called concurrently; `fn` runs on the calling thread of the first caller,
// without the group's lock held.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "base/mutex.h"

namespace ksched::serving {

template <typename Value>
class SingleFlight {
 public:
  // The result of `fn` for `key`: from this caller's own call, or from the call another caller had
  // already started for the same key (then `*shared`, when given, is set to true).
  template <typename Fn>
  Value Do(const std::string& key, Fn&& fn, bool* shared = nullptr) {
    base::MutexLock lock(&mu_);
    if (auto it = calls_.find(key); it != calls_.end()) {
      const std::shared_ptr<Call> call = it->second;  // kept alive after the leader erased it
      ++call->waiting;
      call->done.Wait(&mu_, [&] { return call->result.has_value(); });
      if (shared != nullptr) *shared = true;
      return *call->result;
    }
    auto call = std::make_shared<Call>();
    calls_.emplace(key, call);
    lock.Unlock();
    Value result = std::forward<Fn>(fn)();
    lock.Lock();
    call->result = result;
    calls_.erase(key);
    lock.Unlock();
    call->done.NotifyAll();
    if (shared != nullptr) *shared = false;
    return result;
  }

  // How many callers wait for the call under way for `key` (0 when none is).
  std::size_t Waiting(const std::string& key) const {
    base::MutexLock lock(&mu_);
    auto it = calls_.find(key);
    return it == calls_.end() ? 0 : it->second->waiting;
  }

 private:
  // Its fields are guarded by the SingleFlight's mu_ (which the analysis cannot name from here).
  struct Call {
    base::CondVar done;
    std::optional<Value> result;  // set once
    std::size_t waiting = 0;
  };

  mutable base::Mutex mu_;
  std::map<std::string, std::shared_ptr<Call>> calls_ ABSL_GUARDED_BY(mu_);  // calls under way
};

}  // namespace ksched::serving
