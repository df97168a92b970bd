#include "plugins/dynamic_resources/claim_tracker.h"

#include <utility>

namespace ksched::plugins::dynamic_resources {

std::string ClaimTracker::Key(std::string_view ns, std::string_view name) {
  return std::string(ns) + "/" + std::string(name);
}

ClaimTracker::ClaimPtr ClaimTracker::Get(std::string_view ns, std::string_view name) const {
  ClaimPtr api = lister_ == nullptr ? nullptr : lister_->GetResourceClaim(ns, name);
  return assumed_.Resolve(Key(ns, name), std::move(api));
}

bool ClaimTracker::HasPendingAllocation(std::string_view uid) const {
  base::MutexLock lock(&mu_);
  return in_flight_.contains(std::string(uid));
}

void ClaimTracker::SignalPendingAllocation(const std::string& uid, ClaimPtr claim) {
  base::MutexLock lock(&mu_);
  in_flight_.insert_or_assign(uid, std::move(claim));
}

bool ClaimTracker::RemovePendingAllocation(std::string_view uid) {
  base::MutexLock lock(&mu_);
  auto it = in_flight_.find(std::string(uid));
  if (it == in_flight_.end()) return false;
  in_flight_.erase(it);
  return true;
}

void ClaimTracker::AssumeAfterApiCall(ClaimPtr claim) {
  const std::string key = Key(claim->metadata.namespace_, claim->metadata.name);
  ClaimPtr api = lister_ == nullptr ? nullptr : lister_->GetResourceClaim(claim->metadata.namespace_, claim->metadata.name);
  // Fails only when the claim is gone or the informer is already past it: nothing to assume then.
  (void)assumed_.Assume(key, std::move(claim), std::move(api));
}

void ClaimTracker::Restore(std::string_view ns, std::string_view name) { assumed_.Restore(Key(ns, name)); }

void AddAllocatedDevices(const api::ResourceClaim& claim, AllocatedDevices& out) {
  if (!claim.status.allocation.has_value()) return;
  for (const api::DeviceRequestAllocationResult& result : claim.status.allocation->results) {
    if (result.admin_access.value_or(false)) continue;  // not considered allocated
    out.insert(DeviceKey(result.driver, result.pool, result.device));
  }
}

AllocatedDevices ClaimTracker::ListAllAllocatedDevices() const {
  // The allocations in flight first, then the claims: a binding thread assumes a claim's written
  // allocation (AssumeAfterApiCall) before it drops it from in flight, so a claim that leaves in
  // flight after this read is seen assumed below. The other order (upstream's torn read, fixed in
  // 1.35.1 with a revision check) misses a claim that moves between the two reads, and its
  // devices look free to this cycle.
  AllocatedDevices allocated;
  {
    base::MutexLock lock(&mu_);
    for (const auto& [uid, claim] : in_flight_) AddAllocatedDevices(*claim, allocated);
  }
  if (lister_ != nullptr) {
    lister_->ForEachResourceClaim([&](const ClaimPtr& informer_claim) {
      ClaimPtr claim = assumed_.Resolve(Key(informer_claim->metadata.namespace_, informer_claim->metadata.name),
                                        informer_claim);
      if (claim != nullptr) AddAllocatedDevices(*claim, allocated);
    });
  }
  return allocated;
}

std::size_t ClaimTracker::pending_allocations() const {
  base::MutexLock lock(&mu_);
  return in_flight_.size();
}

}  // namespace ksched::plugins::dynamic_resources
