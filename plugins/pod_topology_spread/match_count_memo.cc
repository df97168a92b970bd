#include "plugins/pod_topology_spread/match_count_memo.h"

#include <algorithm>

#include "plugins/pod_topology_spread/constraints.h"

namespace ksched::plugins::pod_topology_spread {

int MatchCountMemo::Channel::Count(std::size_t i, const framework::NodeInfo& node) noexcept {
  Slot& slot = slots_[i];
  if (slot.generation == node.generation()) return slot.count;
  slot.count = CountPodsMatchSelector(node.pods(), selector_, namespace_);
  walks_->fetch_add(1, std::memory_order_relaxed);
  slot.generation = node.generation();
  return slot.count;
}

bool MatchCountMemo::Channel::Is(std::string_view ns,
                                 const api::CompiledLabelSelector& selector) const noexcept {
  // Requirements are kept sorted by key, so equal selectors compare equal element by element;
  // equivalent selectors written differently only miss.
  return namespace_ == ns && selector_.MatchesNothing() == selector.MatchesNothing() &&
         std::ranges::equal(selector_.requirements(), selector.requirements());
}

MatchCountMemo::Pass::Pass(MatchCountMemo& memo, std::size_t num_nodes)
    : lock_(memo.mu_.native()), memo_(&memo), num_nodes_(num_nodes) {
  memo.mu_.AssertHeld();  // by lock_
  ++memo.passes_;
}

MatchCountMemo::Channel* MatchCountMemo::Pass::Find(std::string_view ns,
                                                    const api::CompiledLabelSelector& selector) {
  memo_->mu_.AssertHeld();  // by lock_, for this Pass's life
  const std::uint64_t pass = memo_->passes_;
  Channel* found = nullptr;
  std::unique_ptr<Channel>* victim = nullptr;
  for (std::unique_ptr<Channel>& channel : memo_->channels_) {
    if (channel != nullptr && channel->Is(ns, selector)) {
      found = channel.get();
      break;
    }
    // An empty place first, then the least recently used channel no one in this pass holds.
    if (channel == nullptr) {
      if (victim == nullptr || *victim != nullptr) victim = &channel;
    } else if (channel->last_pass_ != pass &&
               (victim == nullptr ||
                (*victim != nullptr && channel->last_pass_ < (*victim)->last_pass_))) {
      victim = &channel;
    }
  }
  if (found == nullptr) {
    if (victim == nullptr) return nullptr;
    *victim = std::unique_ptr<Channel>(new Channel(ns, selector, memo_->walks_));
    found = victim->get();
  }
  found->last_pass_ = pass;
  // Growing keeps what the first indices remembered; a shorter list leaves the tail unused.
  if (found->slots_.size() < num_nodes_) found->slots_.resize(num_nodes_);
  return found;
}

}  // namespace ksched::plugins::pod_topology_spread
