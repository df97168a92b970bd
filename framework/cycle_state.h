// CycleState: the per-attempt scratch space plugins share between their extension points (upstream
// framework.CycleState): PreFilter stores what Filter reads, PreScore what Score reads, and so on.
// Entries are keyed by a string (by convention "PreFilter" + plugin name) and hold StateData, which
// must be cloneable: preemption and nominated-pod filtering run Filter on a clone after adding or
// removing pods through the PreFilter extensions.
//
// Keys: plugins declare theirs as `constexpr StateKey`, whose hash is computed at compile time, so
// the per-node Read in Filter/Score compares one integer per entry before any string (the string
// overloads hash at run time and suit cold paths and tests). ReadAs<T> on a `final` T checks the
// dynamic type with typeid instead of a dynamic_cast.
//
// Also carries the sets of plugins to skip at Filter and Score (those that returned Skip from
// PreFilter/PreScore), and the framework's per-cycle list of the Filter plugins that run, derived
// from the skip set; any non-const access to the skip set drops that list, so the two cannot
// disagree.
//
// Scheduling-cycle-only data: while the framework runs a PreFilter or PreScore plugin that has no
// binding-cycle extension point (Reserve/Unreserve, Permit, PreBind, Bind, PostBind), it marks
// that plugin's writes; DropSchedulingCycleOnlyData() frees them, and the skip sets and filter
// plan, which only Filter and Score read. The scheduler calls it when the pod, assumed, leaves for
// its binding cycle: binding cycles wait on the API server, or for a slot in the scheduler's
// binding window, so hundreds are pending while the API server is the bottleneck, and each holds
// its state to the end; data that only Filter and Score read (per-cycle topology maps, match
// counts, skip sets) would otherwise live on for the whole bind. A binding-cycle plugin must
// therefore read only state written by plugins that have binding-cycle points (its own), and not
// the skip sets.
//
// Thread-safety: Write and Delete only from the scheduling thread outside the parallel phases
// (PreFilter, PreScore, Reserve, Permit, and on clones); Read may then be called concurrently from
// the Filter/Score workers. This matches what upstream plugins do with their sync.Map.
#pragma once

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "api/interned_string.h"

namespace ksched::framework {

class StateData {
 public:
  virtual ~StateData() = default;
  virtual std::unique_ptr<StateData> Clone() const = 0;
};

// A CycleState key: the name and its FNV-1a hash. Cheap to copy; the name's storage must outlive
// the key (string literals for the constants).
class StateKey {
 public:
  constexpr explicit StateKey(std::string_view name) noexcept : name_(name), hash_(HashOf(name)) {}

  constexpr std::string_view name() const noexcept { return name_; }
  constexpr std::uint64_t hash() const noexcept { return hash_; }
  explicit operator std::string() const { return std::string(name_); }

  static constexpr std::uint64_t HashOf(std::string_view text) noexcept {
    std::uint64_t hash = 14695981039346656037ULL;
    for (const char c : text) {
      hash ^= static_cast<unsigned char>(c);
      hash *= 1099511628211ULL;
    }
    return hash;
  }

 private:
  std::string_view name_;
  std::uint64_t hash_;
};

class CycleState {
 public:
  CycleState() = default;
  CycleState(const CycleState&) = delete;
  CycleState& operator=(const CycleState&) = delete;

  // The data under `key`, nullptr when absent. The pointer stays valid until the key is written
  // or deleted or the state is destroyed.
  StateData* Read(const StateKey& key) const noexcept;
  StateData* Read(std::string_view key) const noexcept { return Read(StateKey(key)); }
  // Typed read: nullptr when absent or of another type.
  template <typename T>
  T* ReadAs(const StateKey& key) const noexcept {
    StateData* data = Read(key);
    if constexpr (std::is_final_v<T>) {
      return data != nullptr && typeid(*data) == typeid(T) ? static_cast<T*>(data) : nullptr;
    } else {
      return dynamic_cast<T*>(data);
    }
  }
  template <typename T>
  T* ReadAs(std::string_view key) const noexcept {
    return ReadAs<T>(StateKey(key));
  }
  void Write(const StateKey& key, std::unique_ptr<StateData> data);
  void Write(std::string_view key, std::unique_ptr<StateData> data) {
    Write(StateKey(key), std::move(data));
  }
  void Delete(std::string_view key);

  // A deep copy (every StateData cloned, with its scheduling-cycle-only mark; skip sets copied).
  std::unique_ptr<CycleState> Clone() const;

  // Framework-private: whether Write marks its entry scheduling-cycle-only (see the file comment).
  void set_scheduling_cycle_only_writes(bool on) { scheduling_cycle_only_writes_ = on; }
  // Frees the entries written while the mark was on (the others stay), the skip sets and the
  // filter plan.
  void DropSchedulingCycleOnlyData();

  std::set<std::string, std::less<>>& skip_filter_plugins() {
    filter_plan_owner_ = nullptr;
    return skip_filter_;
  }
  const std::set<std::string, std::less<>>& skip_filter_plugins() const { return skip_filter_; }
  std::set<std::string, std::less<>>& skip_score_plugins() { return skip_score_; }
  const std::set<std::string, std::less<>>& skip_score_plugins() const { return skip_score_; }

  // Whether plugin execution times are recorded in this cycle (sampled, as upstream's 10%).
  bool record_plugin_metrics() const { return record_plugin_metrics_; }
  void set_record_plugin_metrics(bool on) { record_plugin_metrics_ = on; }

  // Framework-private: the indexes (into `owner`'s Filter plugin list) of the Filter plugins that
  // run this cycle, as `owner` derived them from skip_filter_plugins(); nullptr when `owner` did
  // not set them or the skip set may have changed since.
  const std::vector<std::uint16_t>* filter_plan(const void* owner) const noexcept {
    return owner != nullptr && owner == filter_plan_owner_ ? &filter_plan_ : nullptr;
  }
  void set_filter_plan(const void* owner, std::vector<std::uint16_t> plan) {
    filter_plan_ = std::move(plan);
    filter_plan_owner_ = owner;
  }

 private:
  struct Entry {
    std::uint64_t hash;
    // Interned: keys are a bounded set (one or two per plugin), written ~10 times per cycle.
    api::InternedString name;
    std::unique_ptr<StateData> data;
    bool scheduling_cycle_only = false;
  };
  std::vector<Entry> entries_;
  bool scheduling_cycle_only_writes_ = false;
  std::set<std::string, std::less<>> skip_filter_;
  std::vector<std::uint16_t> filter_plan_;
  const void* filter_plan_owner_ = nullptr;
  std::set<std::string, std::less<>> skip_score_;
  bool record_plugin_metrics_ = false;
};

}  // namespace ksched::framework
