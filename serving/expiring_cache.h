// ExpiringCache: string key -> value with a per-entry time to live, bounded in size; what the
// delegated authenticator and authorizer keep their review results in (upstream: LRU caches with
// TTLs). When full, expired entries are dropped first, then the entry closest to expiry.
//
// Thread-safety: all methods are safe to call concurrently (one mutex).
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "base/mutex.h"

namespace ksched::serving {

using SteadyNow = std::function<std::chrono::steady_clock::time_point()>;

template <typename Value>
class ExpiringCache {
 public:
  // `now`: empty means std::chrono::steady_clock::now (tests inject a fake clock).
  explicit ExpiringCache(std::size_t capacity, SteadyNow now = {})
      : capacity_(capacity == 0 ? 1 : capacity), now_(std::move(now)) {
    if (!now_) now_ = [] { return std::chrono::steady_clock::now(); };
  }

  std::optional<Value> Get(const std::string& key) const {
    base::MutexLock lock(&mu_);
    auto it = entries_.find(key);
    if (it == entries_.end() || it->second.expires <= now_()) return std::nullopt;
    return it->second.value;
  }

  void Put(const std::string& key, Value value, std::chrono::steady_clock::duration ttl) {
    if (ttl <= std::chrono::steady_clock::duration::zero()) return;
    base::MutexLock lock(&mu_);
    const auto now = now_();
    if (entries_.size() >= capacity_ && entries_.find(key) == entries_.end()) Evict(now);
    entries_[key] = Entry{std::move(value), now + ttl};
  }

  std::size_t size() const {
    base::MutexLock lock(&mu_);
    return entries_.size();
  }

 private:
  struct Entry {
    Value value;
    std::chrono::steady_clock::time_point expires;
  };

  void Evict(std::chrono::steady_clock::time_point now) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    for (auto it = entries_.begin(); it != entries_.end();) {
      it = it->second.expires <= now ? entries_.erase(it) : std::next(it);
    }
    if (entries_.size() < capacity_) return;
    auto soonest = entries_.begin();
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (it->second.expires < soonest->second.expires) soonest = it;
    }
    entries_.erase(soonest);
  }

  const std::size_t capacity_;
  SteadyNow now_;
  mutable base::Mutex mu_;
  std::map<std::string, Entry> entries_ ABSL_GUARDED_BY(mu_);
};

}  // namespace ksched::serving
