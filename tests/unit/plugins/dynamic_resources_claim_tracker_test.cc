// ClaimTracker's view of allocated devices while a binding thread writes a claim: the devices of a
// claim moving from "in flight" to "assumed" are never missing from ListAllAllocatedDevices.
#include "plugins/dynamic_resources/claim_tracker.h"

#include <catch2/catch.hpp>
#include <functional>
#include <memory>
#include <string>

namespace ksched::plugins::dynamic_resources {
namespace {

using ClaimPtr = std::shared_ptr<const api::ResourceClaim>;

ClaimPtr Claim(const std::string& name, const std::string& device) {
  auto claim = std::make_shared<api::ResourceClaim>();
  claim->metadata.namespace_ = "default";
  claim->metadata.name = name;
  claim->metadata.uid = name;
  claim->metadata.uid += "-uid";  // not name + "-uid": GCC 12's false -Wrestrict on operator+
  claim->metadata.resource_version = std::string("1");  // moved in: GCC 12 -Wrestrict again
  if (!device.empty()) {
    api::AllocationResult allocation;
    allocation.results.push_back(api::DeviceRequestAllocationResult{"req", "gpu.example.com", "node-1", device, {}});
    claim->status.allocation = allocation;
  }
  return claim;
}

// One claim in the informer, unallocated. `during_iteration` runs while ForEachResourceClaim is
// between the claims it hands out: what a binding thread may do at that moment.
class OneClaimLister : public framework::ResourceLister {
 public:
  explicit OneClaimLister(ClaimPtr claim) : claim_(std::move(claim)) {}
  std::function<void()> during_iteration;

  ClaimPtr GetResourceClaim(std::string_view ns, std::string_view name) const override {
    return ns == claim_->metadata.namespace_ && name == claim_->metadata.name ? claim_ : nullptr;
  }
  void ForEachResourceClaim(const std::function<void(const ClaimPtr&)>& fn) const override {
    fn(claim_);
    if (during_iteration) during_iteration();
  }
  std::vector<std::shared_ptr<const api::ResourceSlice>> ListResourceSlices() const override { return {}; }
  std::shared_ptr<const api::DeviceClass> GetDeviceClass(std::string_view) const override { return nullptr; }

 private:
  ClaimPtr claim_;
};

TEST_CASE("ClaimTracker: devices in flight and assumed are allocated", "[plugins][dynamic_resources]") {
  OneClaimLister lister(Claim("c", ""));
  ClaimTracker tracker(&lister);
  CHECK(tracker.ListAllAllocatedDevices().empty());

  tracker.SignalPendingAllocation("c-uid", Claim("c", "gpu-0"));
  CHECK(tracker.ListAllAllocatedDevices().contains(DeviceKey("gpu.example.com", "node-1", "gpu-0")));

  auto written = std::make_shared<api::ResourceClaim>(*Claim("c", "gpu-0"));
  written->metadata.resource_version = std::string("2");
  tracker.AssumeAfterApiCall(written);
  CHECK(tracker.RemovePendingAllocation("c-uid"));
  CHECK(tracker.ListAllAllocatedDevices().contains(DeviceKey("gpu.example.com", "node-1", "gpu-0")));
}

TEST_CASE("ClaimTracker: a claim written while the devices are listed is not missed (upstream's 1.35.1 torn read)",
          "[plugins][dynamic_resources]") {
  // The informer still shows the claim unallocated; its allocation is in flight. While the listing
  // walks the informer's claims, the binding thread writes the claim: assumes the written
  // allocation, then drops it from in flight. Listing the claims before the allocations in flight
  // would see neither.
  OneClaimLister lister(Claim("c", ""));
  ClaimTracker tracker(&lister);
  tracker.SignalPendingAllocation("c-uid", Claim("c", "gpu-0"));
  lister.during_iteration = [&] {
    auto written = std::make_shared<api::ResourceClaim>(*Claim("c", "gpu-0"));
    written->metadata.resource_version = std::string("2");
    tracker.AssumeAfterApiCall(written);
    tracker.RemovePendingAllocation("c-uid");
    lister.during_iteration = nullptr;
  };
  CHECK(tracker.ListAllAllocatedDevices().contains(DeviceKey("gpu.example.com", "node-1", "gpu-0")));
}

}  // namespace
}  // namespace ksched::plugins::dynamic_resources
