// MatchCountMemo: per node, the number of its pods that match a (namespace, label selector), kept
// across scheduling cycles and reused while the node's NodeInfo generation has not moved.
//
// Why: PreFilter and PreScore count matching pods on every node of the cluster for every pod
// (upstream calPreFilterState / initPreScoreState walk every pod too). Pods of one workload carry
// the same selector cycle after cycle, and between two cycles only the node the last pod went to
// has changed, so all but a few counts can be read back instead of walking every pod again.
//
// Validity: NodeInfo generations are process-wide and move on every change to a node or its pods
// (framework/node_info.h); PodInfos are immutable. An equal generation therefore means the same
// pods, and a count remembered for it is the count CountPodsMatchSelector would return.
// Snapshot clones keep the generation of what they copy; changed clones (preemption, nominated
// pods) take a fresh one, so they never read a count of the node they were cloned from.
//
// Use: Begin() locks the memo for one pass over a node list (a PreFilter or a PreScore) and sizes
// it for that many indices; Pass::Channel() finds or makes the channel of one (namespace,
// selector); Channel::Count(i, node) may then run concurrently for distinct indices `i`. Indices
// are positions in the node list of the pass; a list in another order only misses.
//
// Thread-safety: one Pass at a time (Begin blocks while another Pass lives). Within a Pass,
// Channel() from the owning thread only, Count() from any thread for distinct indices.
// Memory: 16 bytes per node per channel, at most kMaxChannels channels.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "api/label_selector.h"
#include "base/mutex.h"
#include "framework/node_info.h"

namespace ksched::plugins::pod_topology_spread {

class MatchCountMemo {
 public:
  // Distinct (namespace, selector) pairs remembered; the least recently used one gives way.
  static constexpr std::size_t kMaxChannels = 4;

  class Channel {
   public:
    // CountPodsMatchSelector(node.pods(), selector, namespace), read back when index `i` last
    // counted a node of the same generation. Never allocates.
    int Count(std::size_t i, const framework::NodeInfo& node) noexcept;

   private:
    friend class MatchCountMemo;
    struct Slot {
      std::int64_t generation = -1;  // -1: nothing counted (generations are positive)
      int count = 0;
    };
    Channel(std::string_view ns, const api::CompiledLabelSelector& selector,
            std::atomic<std::uint64_t>& walks)
        : namespace_(ns), selector_(selector), walks_(&walks) {}
    bool Is(std::string_view ns, const api::CompiledLabelSelector& selector) const noexcept;

    std::string namespace_;
    api::CompiledLabelSelector selector_;
    std::vector<Slot> slots_;
    std::uint64_t last_pass_ = 0;  // the pass that last used it
    std::atomic<std::uint64_t>* walks_;  // the memo's
  };

  class Pass {
   public:
    Pass(Pass&&) = default;
    Pass& operator=(Pass&&) = delete;

    // The channel of (ns, selector), sized for this pass; nullptr when every channel is already
    // used by this pass for other selectors (count directly then). Owning thread only.
    Channel* Find(std::string_view ns, const api::CompiledLabelSelector& selector);

   private:
    friend class MatchCountMemo;
    Pass(MatchCountMemo& memo, std::size_t num_nodes);

    // memo_->mu_ for the Pass's life, moves with it. A std::unique_lock on the native mutex: the
    // analysis cannot follow a lock held by an object, so the Pass's methods AssertHeld() instead.
    std::unique_lock<std::mutex> lock_;  // unchecked lock: on memo_->mu_.native()
    MatchCountMemo* memo_;
    std::size_t num_nodes_;
  };

  // Locks the memo until the returned Pass is destroyed.
  Pass Begin(std::size_t num_nodes) { return Pass(*this, num_nodes); }

  // How many times Count() walked a node's pods rather than reading a count back (any thread).
  std::uint64_t walks() const noexcept { return walks_.load(std::memory_order_relaxed); }

 private:
  base::Mutex mu_;  // held by the living Pass
  std::array<std::unique_ptr<Channel>, kMaxChannels> channels_ ABSL_GUARDED_BY(mu_);
  std::uint64_t passes_ ABSL_GUARDED_BY(mu_) = 0;
  std::atomic<std::uint64_t> walks_{0};
};

}  // namespace ksched::plugins::pod_topology_spread
