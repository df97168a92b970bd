#include "api/interned_string.h"

#include <array>
#include <cstdlib>
#include <memory>
#include <ostream>
#include <unordered_set>
#include <vector>

#include "base/mutex.h"

namespace ksched::api {
namespace {

// One shard of the pool: the distinct values whose hash selects it, their characters in chunks
// that are never freed (entries must outlive every InternedString, see the header).
class PoolShard {
 public:
  const char* Intern(std::string_view value, std::size_t hash) {
    base::MutexLock lock(&mutex_);
    auto it = entries_.find(Key{value, hash});
    if (it != entries_.end()) return it->value.data();
    const char* data = Store(value);
    entries_.insert(Key{std::string_view(data, value.size()), hash});
    return data;
  }

  std::size_t Size() {
    base::MutexLock lock(&mutex_);
    return entries_.size();
  }

 private:
  struct Key {
    std::string_view value;
    std::size_t hash;
    bool operator==(const Key& other) const noexcept { return value == other.value; }
  };
  struct KeyHash {
    std::size_t operator()(const Key& key) const noexcept { return key.hash; }
  };

  static constexpr std::size_t kChunkSize = 16 * 1024;

  // Copies `value` as [uint32 length][characters]['\0'], 4-aligned; returns the characters.
  const char* Store(std::string_view value) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    if (value.size() > UINT32_MAX - 8) std::abort();  // no API string comes near 4 GiB
    const std::size_t need = (sizeof(std::uint32_t) + value.size() + 1 + 3) & ~std::size_t{3};
    if (need > kChunkSize / 4) {  // a long value gets a block of its own
      chunks_.push_back(std::make_unique<char[]>(need));
      return Fill(chunks_.back().get(), value);
    }
    if (chunks_.empty() || used_ + need > kChunkSize) {
      chunks_.push_back(std::make_unique<char[]>(kChunkSize));
      current_ = chunks_.back().get();
      used_ = 0;
    }
    char* entry = current_ + used_;
    used_ += need;
    return Fill(entry, value);
  }

  static const char* Fill(char* entry, std::string_view value) {
    const auto size = static_cast<std::uint32_t>(value.size());
    std::memcpy(entry, &size, sizeof size);
    char* data = entry + sizeof size;
    std::memcpy(data, value.data(), value.size());
    data[value.size()] = '\0';
    return data;
  }

  base::Mutex mutex_;
  std::unordered_set<Key, KeyHash> entries_ ABSL_GUARDED_BY(mutex_);
  std::vector<std::unique_ptr<char[]>> chunks_ ABSL_GUARDED_BY(mutex_);
  char* current_ ABSL_GUARDED_BY(mutex_) = nullptr;  // the chunk being filled
  std::size_t used_ ABSL_GUARDED_BY(mutex_) = 0;  // bytes used in current_
};

// Sharded so that decoders on several threads rarely wait on each other.
constexpr std::size_t kShards = 16;

std::array<PoolShard, kShards>& Pool() {
  // Leaked on purpose: entries must stay valid during static destruction too.
  static auto* pool = new std::array<PoolShard, kShards>();
  return *pool;
}

}  // namespace

const char* InternedString::Intern(std::string_view value) {
  if (value.empty()) return nullptr;
  const std::size_t hash = std::hash<std::string_view>{}(value);
  return Pool()[hash % kShards].Intern(value, hash);
}

std::size_t InternedString::PoolSize() {
  std::size_t total = 0;
  for (PoolShard& shard : Pool()) total += shard.Size();
  return total;
}

std::ostream& operator<<(std::ostream& out, InternedString s) { return out << s.view(); }

}  // namespace ksched::api
