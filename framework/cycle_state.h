// CycleState: the per-attempt scratch space plugins share between their extension points (upstream
// framework.CycleState): PreFilter stores what Filter reads, PreScore what Score reads, and so on.
// Entries are keyed by a string (by convention "PreFilter" + plugin name) and hold StateData, which
// must be cloneable: preemption and nominated-pod filtering run Filter on a clone after adding or
// removing pods through the PreFilter extensions.
//
// Also carries the sets of plugins to skip at Filter and Score (those that returned Skip from
// PreFilter/PreScore).
//
// Thread-safety: Write and Delete only from the scheduling thread outside the parallel phases
// (PreFilter, PreScore, Reserve, Permit, and on clones); Read may then be called concurrently from
// the Filter/Score workers. This matches what upstream plugins do with their sync.Map.
#pragma once

#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ksched::framework {

class StateData {
 public:
  virtual ~StateData() = default;
  virtual std::unique_ptr<StateData> Clone() const = 0;
};

class CycleState {
 public:
  CycleState() = default;
  CycleState(const CycleState&) = delete;
  CycleState& operator=(const CycleState&) = delete;

  // The data under `key`, nullptr when absent. The pointer stays valid until the key is written
  // or deleted or the state is destroyed.
  StateData* Read(std::string_view key) const;
  // Typed read: nullptr when absent or of another type.
  template <typename T>
  T* ReadAs(std::string_view key) const {
    return dynamic_cast<T*>(Read(key));
  }
  void Write(std::string key, std::unique_ptr<StateData> data);
  void Delete(std::string_view key);

  // A deep copy (every StateData cloned; skip sets copied).
  std::unique_ptr<CycleState> Clone() const;

  std::set<std::string, std::less<>>& skip_filter_plugins() { return skip_filter_; }
  const std::set<std::string, std::less<>>& skip_filter_plugins() const { return skip_filter_; }
  std::set<std::string, std::less<>>& skip_score_plugins() { return skip_score_; }
  const std::set<std::string, std::less<>>& skip_score_plugins() const { return skip_score_; }

  // Whether plugin execution times are recorded in this cycle (sampled, as upstream's 10%).
  bool record_plugin_metrics() const { return record_plugin_metrics_; }
  void set_record_plugin_metrics(bool on) { record_plugin_metrics_ = on; }

 private:
  std::vector<std::pair<std::string, std::unique_ptr<StateData>>> entries_;
  std::set<std::string, std::less<>> skip_filter_;
  std::set<std::string, std::less<>> skip_score_;
  bool record_plugin_metrics_ = false;
};

}  // namespace ksched::framework
