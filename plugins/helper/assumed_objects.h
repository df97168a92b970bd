// AssumedObjects<T>: the assume cache of VolumeBinding and DynamicResources (upstream
// util/assumecache) as an overlay on the informer's objects. Reserve or PreBind "assumes" the
// object it is about to write or has written (a volume pre-bound to a claim, a claim with the
// selected-node annotation, a ResourceClaim with its allocation) so that the next pods' scheduling cycles see
// it before the API server confirms; the informer's object wins again as soon as its
// resourceVersion is newer than the assumed one's (the write arrived, or someone else changed the
// object), when it is deleted, or when the assumption is Restored (Unreserve, a failed write).
//
// Resolution is lazy: the informer's stores (framework::StorageLister) do not call this class;
// every read passes the informer's object through Resolve, which drops an outdated assumption.
// resourceVersions compare as unsigned integers (as upstream's storage.APIObjectVersioner); one
// that does not parse counts as 0.
//
// Two flavours, by their errors: upstream util/assumecache (DynamicResources: "could not find
// <type> "key"", "<type> "key" is out of sync (stored: 7, assume: 5)" when the assumed object is
// older than the latest) and VolumeBinding's passiveAssumeCache of v1.37 (apierrors NotFound
// `persistentvolumes "key" not found`, and `"key" is out of sync (stored: 7, assume: 5)` whenever
// the resourceVersion differs from the informer's). Resolution is the same for both: an object
// is only ever assumed at the informer's resourceVersion, so "the informer's is newer" and "the
// informer's differs" coincide.
//
// Ownership: holds the assumed objects (immutable, shared). Thread-safety: every method is safe
// from any thread (one mutex; Filter workers read concurrently with Reserve's writes).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "absl/status/status.h"
#include "base/mutex.h"

namespace ksched::plugins::helper {

// A resourceVersion as a number; 0 when it is not one.
std::uint64_t ResourceVersionNumber(std::string_view resource_version);

template <typename T>
class AssumedObjects {
 public:
  using Ptr = std::shared_ptr<const T>;

  // util/assumecache's flavour; `type_name` names the kind in errors ("v1.PersistentVolume").
  explicit AssumedObjects(std::string type_name) : type_name_(std::move(type_name)) {}
  // The passive flavour; `resource` is the API resource its NotFound errors name
  // ("persistentvolumes").
  struct Passive {
    std::string resource;
  };
  explicit AssumedObjects(Passive passive) : resource_(std::move(passive.resource)), passive_(true) {}

  // The NotFound error of a lookup of `key` the informer does not have: passive
  // `persistentvolumeclaims "ns/name" not found`, else `could not find v1.PersistentVolumeClaim "ns/name"`.
  std::string NotFoundMessage(std::string_view key) const {
    if (passive_) return resource_ + " \"" + std::string(key) + "\" not found";
    return "could not find " + type_name_ + " \"" + std::string(key) + "\"";
  }

  // The latest object under `key`: the assumed one while the informer's `api` is not newer,
  // else `api` (nullptr when the informer has none).
  Ptr Resolve(std::string_view key, Ptr api) const {
    base::MutexLock lock(&mu_);
    return ResolveLocked(key, std::move(api));
  }

  // Makes `object` the latest under `key`. Fails when the informer has no such object
  // (NotFoundMessage) or, util/assumecache, `object` is older than the latest one
  // ("v1.PersistentVolume "pv-1" is out of sync (stored: 7, assume: 5)"), or, passive, its
  // resourceVersion is not the informer's (""pv-1" is out of sync (stored: 7, assume: 5)").
  absl::Status Assume(const std::string& key, Ptr object, Ptr api) {
    base::MutexLock lock(&mu_);
    if (api == nullptr) return absl::NotFoundError(NotFoundMessage(key));
    if (passive_) {
      const std::string& stored = api->metadata.resource_version;
      const std::string& assumed = object->metadata.resource_version;
      if (stored != assumed) {
        return absl::FailedPreconditionError("\"" + key + "\" is out of sync (stored: " + stored +
                                             ", assume: " + assumed + ")");
      }
      assumed_.insert_or_assign(key, std::move(object));
      return absl::OkStatus();
    }
    Ptr latest = ResolveLocked(key, std::move(api));
    const std::uint64_t stored = ResourceVersionNumber(latest->metadata.resource_version);
    const std::uint64_t assumed = ResourceVersionNumber(object->metadata.resource_version);
    if (assumed < stored) {
      return absl::FailedPreconditionError(type_name_ + " \"" + key + "\" is out of sync (stored: " +
                                           std::to_string(stored) + ", assume: " + std::to_string(assumed) + ")");
    }
    assumed_.insert_or_assign(key, std::move(object));
    return absl::OkStatus();
  }

  // Drops the assumption under `key` (the informer's object is the latest again).
  void Restore(std::string_view key) {
    base::MutexLock lock(&mu_);
    if (auto it = assumed_.find(key); it != assumed_.end()) assumed_.erase(it);
  }

  std::size_t size() const {
    base::MutexLock lock(&mu_);
    return assumed_.size();
  }

 private:
  Ptr ResolveLocked(std::string_view key, Ptr api) const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    auto it = assumed_.find(key);
    if (it == assumed_.end()) return api;
    if (api == nullptr || ResourceVersionNumber(api->metadata.resource_version) >
                              ResourceVersionNumber(it->second->metadata.resource_version)) {
      assumed_.erase(it);  // deleted, or the informer moved past the assumption
      return api;
    }
    return it->second;
  }

  const std::string type_name_;
  const std::string resource_;  // passive only
  const bool passive_ = false;
  mutable base::Mutex mu_;
  mutable std::map<std::string, Ptr, std::less<>> assumed_ ABSL_GUARDED_BY(mu_);
};

}  // namespace ksched::plugins::helper
