// ClaimTracker: DynamicResources' view of the ResourceClaims (upstream DefaultDRAManager's
// claimTracker): the informer's claims overlaid with the ones this scheduler wrote (assumed until
// the informer catches up: helper::AssumedObjects), plus the allocations in flight (made in
// Reserve, written in PreBind). Another pod's scheduling cycle must treat a claim in flight as
// taken ("resource claim default/c is in the process of being allocated") and its devices as
// allocated, or two pods could get the same device.
//
// Ownership: shares the claims (immutable). Thread-safety: every method is safe from any thread
// (the scheduling thread, binding threads, queueing hints).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "absl/container/flat_hash_map.h"
#include "base/mutex.h"
#include "api/resource.h"
#include "framework/resource_lister.h"
#include "plugins/dynamic_resources/allocator.h"
#include "plugins/helper/assumed_objects.h"

namespace ksched::plugins::dynamic_resources {

class ClaimTracker {
 public:
  using ClaimPtr = std::shared_ptr<const api::ResourceClaim>;

  // `lister` may be nullptr (no claims known) and must outlive the tracker.
  explicit ClaimTracker(const framework::ResourceLister* lister) : lister_(lister) {}

  // The claim as the scheduler knows it (the assumed one while the informer lags), or nullptr.
  ClaimPtr Get(std::string_view ns, std::string_view name) const;

  bool HasPendingAllocation(std::string_view uid) const;
  // Reserve: `claim` is the claim with the allocation it is about to write.
  void SignalPendingAllocation(const std::string& uid, ClaimPtr claim);
  // true when there was one.
  bool RemovePendingAllocation(std::string_view uid);

  // PreBind wrote `claim` (as the API server returned it): the next cycles see it at once.
  void AssumeAfterApiCall(ClaimPtr claim);
  // Drops what was assumed for the claim.
  void Restore(std::string_view ns, std::string_view name);

  // Every device some claim has allocated or is being allocated, admin-access results aside
  // (upstream ListAllAllocatedDevices).
  AllocatedDevices ListAllAllocatedDevices() const;

  std::size_t pending_allocations() const;

 private:
  static std::string Key(std::string_view ns, std::string_view name);

  const framework::ResourceLister* lister_;
  helper::AssumedObjects<api::ResourceClaim> assumed_{"resource.k8s.io/v1.ResourceClaim"};
  mutable base::Mutex mu_;
  absl::flat_hash_map<std::string, ClaimPtr> in_flight_ ABSL_GUARDED_BY(mu_);  // claim UID → claim
};

// Adds the devices of `claim`'s allocation (admin-access results aside) to `out`.
void AddAllocatedDevices(const api::ResourceClaim& claim, AllocatedDevices& out);

}  // namespace ksched::plugins::dynamic_resources
