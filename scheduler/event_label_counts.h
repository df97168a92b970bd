// EventLabelCounts: a running count per event label, for upstream's scheduler_inflight_events
// gauge (one series per label that was ever counted, kept at 0 once its events are gone, as a
// client_golang gauge child stays).
//
// Labels are few (the cluster event labels plus "PodPopped"), so they live in a vector searched
// linearly: a count change allocates only the first time its label is seen.
//
// Thread-safety: none; the owner (InFlightEvents, under the scheduling queue's lock) guards it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ksched::scheduler {

class EventLabelCounts {
 public:
  using Entry = std::pair<std::string, std::int64_t>;

  void Add(std::string_view label, std::int64_t delta) {
    for (Entry& entry : counts_) {
      if (entry.first == label) {
        entry.second += delta;
        return;
      }
    }
    counts_.emplace_back(std::string(label), delta);
  }
  // Every label keeps its series; only the counts go to 0.
  void ZeroAll() {
    for (Entry& entry : counts_) entry.second = 0;
  }
  // Every label counted so far, in first-seen order.
  const std::vector<Entry>& counts() const { return counts_; }

 private:
  std::vector<Entry> counts_;
};

}  // namespace ksched::scheduler
