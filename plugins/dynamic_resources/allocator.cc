#include "plugins/dynamic_resources/allocator.h"

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>
#include <utility>

#include "absl/status/status.h"

namespace ksched::plugins::dynamic_resources {

std::string DeviceKey(std::string_view driver, std::string_view pool, std::string_view device) {
  std::string key;
  key.reserve(driver.size() + pool.size() + device.size() + 2);
  key.append(driver).push_back('\0');
  key.append(pool).push_back('\0');
  key.append(device);
  return key;
}

std::string ObjectName(const api::ObjectMeta& meta) {
  return meta.namespace_.empty() ? meta.name : std::string(meta.namespace_.view()) + "/" + meta.name;
}

namespace {

absl::Status Error(std::string message) { return absl::InvalidArgumentError(std::move(message)); }

struct PoolDevice {
  const api::Device* device;
  const api::ResourceSlice* slice;
  std::string key;  // DeviceKey
};

struct Pool {
  std::string_view driver;
  std::string_view name;
  std::vector<const api::ResourceSlice*> slices;
  std::vector<PoolDevice> devices;  // slices' devices in order
  bool incomplete = false;
  bool invalid = false;
  std::string invalid_reason;
};

// A request or a subrequest, the fields the search reads (upstream requestAccessor).
struct RequestView {
  std::string_view name;
  std::string_view class_name;
  const std::vector<api::DeviceSelector>* selectors = nullptr;
  std::string_view allocation_mode;
  std::int64_t count = 0;
  bool admin_access = false;
  bool has_admin_access = false;
};

RequestView ViewOf(const api::DeviceRequest& request) {
  RequestView view;
  view.name = request.name;
  if (request.exactly.has_value()) {
    const api::ExactDeviceRequest& exactly = *request.exactly;
    view.class_name = exactly.device_class_name;
    view.selectors = &exactly.selectors;
    view.allocation_mode = exactly.allocation_mode;
    view.count = exactly.count;
    view.admin_access = exactly.admin_access.value_or(false);
    view.has_admin_access = exactly.admin_access.has_value();
  }
  return view;
}

RequestView ViewOf(const api::DeviceSubRequest& sub) {
  RequestView view;
  view.name = sub.name;
  view.class_name = sub.device_class_name;
  view.selectors = &sub.selectors;
  view.allocation_mode = sub.allocation_mode;
  view.count = sub.count;
  return view;
}

struct RequestData {
  RequestView request;
  int claim = 0, request_index = 0, sub_request = 0;  // where it is (the match cache's key)
  const api::DeviceRequest* parent = nullptr;  // set for a subrequest
  std::shared_ptr<const api::DeviceClass> device_class;
  int num_devices = 0;
  int selected_sub_request = 0;  // kept on subrequest 0's entry
  std::vector<const PoolDevice*> all_devices;  // AllocationMode All

  std::string FullName() const {
    if (parent == nullptr) return std::string(request.name);
    return parent->name + "/" + std::string(request.name);
  }
};

struct DeviceResult {
  std::string request;         // request or subrequest name
  std::string parent_request;  // "" unless a subrequest
  const PoolDevice* device;
  bool admin_access;

  std::string RequestName() const { return parent_request.empty() ? request : parent_request + "/" + request; }
};

// upstream lookupAttribute: the fully qualified name, or its id when the domain is the driver's.
const api::DeviceAttribute* LookupAttribute(const api::Device& device, std::string_view driver,
                                            std::string_view qualified) {
  auto find = [&device](std::string_view name) -> const api::DeviceAttribute* {
    auto it = std::lower_bound(device.attributes.begin(), device.attributes.end(), name,
                               [](const auto& entry, std::string_view key) { return entry.first < key; });
    if (it != device.attributes.end() && it->first == name) return &it->second;
    return nullptr;
  };
  if (const api::DeviceAttribute* attribute = find(qualified)) return attribute;
  const std::size_t slash = qualified.find('/');
  if (slash == std::string_view::npos || qualified.substr(0, slash) != driver) return nullptr;
  return find(qualified.substr(slash + 1));
}

// upstream matchAttributeConstraint: monotonic, so the search can stop at the first mismatch.
class MatchAttributeConstraint {
 public:
  MatchAttributeConstraint(const std::vector<std::string>& requests, std::string attribute)
      : requests_(requests), attribute_name_(std::move(attribute)) {}

  bool Add(std::string_view request, std::string_view sub_request, const PoolDevice& device) {
    if (!requests_.empty() && !Applies(request, sub_request)) return true;
    const api::DeviceAttribute* attribute = LookupAttribute(*device.device, device.slice->driver, attribute_name_);
    if (attribute == nullptr) return false;
    if (num_devices_ == 0) {
      attribute_ = attribute;
      num_devices_ = 1;
      return true;
    }
    using Kind = api::DeviceAttribute::Kind;
    switch (attribute->kind) {
      case Kind::kString:
      case Kind::kVersion:
        if (attribute_->kind != attribute->kind || attribute_->string_value != attribute->string_value) return false;
        break;
      case Kind::kInt:
        if (attribute_->kind != Kind::kInt || attribute_->int_value != attribute->int_value) return false;
        break;
      case Kind::kBool:
        if (attribute_->kind != Kind::kBool || attribute_->bool_value != attribute->bool_value) return false;
        break;
      case Kind::kNone:
        return false;
    }
    ++num_devices_;
    return true;
  }

  void Remove(std::string_view request, std::string_view sub_request) {
    if (!requests_.empty() && !Applies(request, sub_request)) return;
    --num_devices_;
  }

 private:
  bool Applies(std::string_view request, std::string_view sub_request) const {
    auto named = [this](std::string_view name) {
      return std::find(requests_.begin(), requests_.end(), name) != requests_.end();
    };
    if (sub_request.empty()) return named(request);
    return named(request) || named(std::string(request) + "/" + std::string(sub_request));
  }

  const std::vector<std::string>& requests_;
  std::string attribute_name_;
  const api::DeviceAttribute* attribute_ = nullptr;
  int num_devices_ = 0;
};

// Indices of one device to find: claim, request, subrequest (0 without subrequests), device.
struct DeviceIndices {
  int claim = 0;
  int request = 0;
  int sub_request = 0;
  int device = 0;
};

// The sentinel errors of upstream's allocateOne.
enum class SearchOutcome { kFound, kNotFound, kMaxSizeExceeded };

}  // namespace

// One Allocate call (upstream's allocator struct): single-threaded.
class AllocationSearch {
 public:
  AllocationSearch(const Allocator& allocator, const api::Node& node,
                   std::span<const api::ResourceClaim* const> claims,
                   std::optional<std::chrono::steady_clock::time_point> deadline)
      : allocator_(allocator), node_(node), claims_(claims), deadline_(deadline) {}

  absl::StatusOr<std::optional<std::vector<api::AllocationResult>>> Run() {
    if (absl::Status gathered = GatherPools(); !gathered.ok()) {
      return Error("gather pool information: " + std::string(gathered.message()));
    }
    request_data_.resize(claims_.size());
    constraints_.resize(claims_.size());
    results_.resize(claims_.size());
    for (std::size_t claim_index = 0; claim_index < claims_.size(); ++claim_index) {
      const api::ResourceClaim& claim = *claims_[claim_index];
      std::int64_t min_devices_per_claim = 0;
      request_data_[claim_index].resize(claim.spec.requests.size());
      for (std::size_t request_index = 0; request_index < claim.spec.requests.size(); ++request_index) {
        const api::DeviceRequest& request = claim.spec.requests[request_index];
        std::vector<RequestData>& entries = request_data_[claim_index][request_index];
        const bool has_sub_requests = !request.first_available.empty();
        if (!allocator_.features_.prioritized_list && has_sub_requests) {
          return Error("claim " + ObjectName(claim.metadata) + ", request " + request.name +
                       ": has subrequests, but the DRAPrioritizedList feature is disabled");
        }
        std::int64_t min_devices_per_request = 0;
        if (has_sub_requests) {
          // Only a lower bound: which subrequest is chosen decides (AllocateOne checks again).
          min_devices_per_request = std::numeric_limits<std::int64_t>::max();
          for (const api::DeviceSubRequest& sub : request.first_available) {
            const int sub_index = static_cast<int>(entries.size());
            absl::StatusOr<RequestData> data = ValidateRequest(
                claim, ViewOf(sub), &request, {static_cast<int>(claim_index), static_cast<int>(request_index), sub_index});
            if (!data.ok()) return data.status();
            min_devices_per_request = std::min<std::int64_t>(min_devices_per_request, data->num_devices);
            entries.push_back(*std::move(data));
          }
        } else {
          absl::StatusOr<RequestData> data = ValidateRequest(
              claim, ViewOf(request), nullptr, {static_cast<int>(claim_index), static_cast<int>(request_index), 0});
          if (!data.ok()) return data.status();
          min_devices_per_request = data->num_devices;
          entries.push_back(*std::move(data));
        }
        // Per request, compared before adding (v1.37, #141922): a large count cannot overflow
        // the total, and the message names the request.
        if (min_devices_per_request > api::kAllocationResultsMaxSize - min_devices_per_claim) {
          return Error("claim " + ObjectName(claim.metadata) + ", request " + request.name + ": adding " +
                       std::to_string(min_devices_per_request) + " devices exceeds the claim limit of " +
                       std::to_string(api::kAllocationResultsMaxSize) + ", with " +
                       std::to_string(min_devices_per_claim) + " already accounted for");
        }
        min_devices_per_claim += min_devices_per_request;
      }
      results_[claim_index].reserve(static_cast<std::size_t>(min_devices_per_claim));
      for (std::size_t i = 0; i < claim.spec.constraints.size(); ++i) {
        const api::DeviceConstraint& constraint = claim.spec.constraints[i];
        if (!constraint.match_attribute.has_value()) {
          return Error("claim " + ObjectName(claim.metadata) + ", constraint #" + std::to_string(i) +
                       ": empty constraint (unsupported constraint type?)");
        }
        constraints_[claim_index].emplace_back(constraint.requests, *constraint.match_attribute);
      }
    }

    absl::StatusOr<SearchOutcome> outcome = AllocateOne(DeviceIndices{}, false);
    if (!outcome.ok()) return outcome.status();
    if (*outcome == SearchOutcome::kMaxSizeExceeded) return Error("allocation max size exceeded");
    if (*outcome != SearchOutcome::kFound) {
      // Invalid pools were skipped by the search; only when nothing else could satisfy the claims
      // do they matter, and then for this node only (upstream's ErrFailedAllocationOnNode).
      for (const Pool& pool : pools_) {
        if (pool.invalid) return absl::FailedPreconditionError("invalid resource pools were encountered");
      }
      return std::optional<std::vector<api::AllocationResult>>();
    }

    std::vector<api::AllocationResult> results(claims_.size());
    for (std::size_t claim_index = 0; claim_index < claims_.size(); ++claim_index) {
      absl::StatusOr<api::AllocationResult> result = BuildResult(claim_index);
      if (!result.ok()) return result.status();
      results[claim_index] = *std::move(result);
    }
    return std::optional<std::vector<api::AllocationResult>>(std::move(results));
  }

 private:
  absl::Status GatherPools() {
    std::map<std::pair<std::string_view, std::string_view>, Pool> pools;
    auto add_slice = [&pools](const api::ResourceSlice* slice) {
      Pool& pool = pools[{slice->driver, slice->pool.name}];
      if (pool.slices.empty()) {
        pool.driver = slice->driver;
        pool.name = slice->pool.name;
        pool.slices.push_back(slice);
        return;
      }
      const std::int64_t generation = pool.slices.front()->pool.generation;
      if (slice->pool.generation < generation) return;  // outdated
      if (slice->pool.generation > generation) pool.slices.clear();
      pool.slices.push_back(slice);
    };
    if (auto it = allocator_.by_node_name_.find(node_.metadata.name); it != allocator_.by_node_name_.end()) {
      for (const api::ResourceSlice* slice : it->second) add_slice(slice);
    }
    for (const Allocator::Slice& entry : allocator_.cluster_slices_) {
      if (entry.slice->all_nodes) {
        add_slice(entry.slice);
        continue;
      }
      const absl::StatusOr<api::CompiledNodeSelector>& selector = *entry.node_selector;
      if (!selector.ok()) {
        return Error("failed to perform node selection for slice " + entry.slice->metadata.name +
                     ": failed to parse node selector: " + std::string(selector.status().message()));
      }
      if (selector->Matches(node_.metadata.labels, node_.metadata.name)) add_slice(entry.slice);
    }
    pools_.reserve(pools.size());
    for (auto& [id, pool] : pools) {
      std::sort(pool.slices.begin(), pool.slices.end(),
                [](const api::ResourceSlice* a, const api::ResourceSlice* b) { return a->metadata.name < b->metadata.name; });
      pool.incomplete = static_cast<std::int64_t>(pool.slices.size()) != pool.slices.front()->pool.resource_slice_count;
      absl::flat_hash_set<std::string_view> names;
      for (const api::ResourceSlice* slice : pool.slices) {
        for (const api::Device& device : slice->devices) {
          if (!pool.invalid && !names.insert(device.name).second) {
            pool.invalid = true;
            pool.invalid_reason = "duplicate device name " + device.name;
          }
          pool.devices.push_back(PoolDevice{&device, slice, DeviceKey(slice->driver, slice->pool.name, device.name)});
        }
      }
      pools_.push_back(std::move(pool));
    }
    return absl::OkStatus();
  }

  absl::StatusOr<RequestData> ValidateRequest(const api::ResourceClaim& claim, const RequestView& request,
                                              const api::DeviceRequest* parent, DeviceIndices at) {
    RequestData data;
    data.request = request;
    data.parent = parent;
    data.claim = at.claim;
    data.request_index = at.request;
    data.sub_request = at.sub_request;
    const std::string prefix = "claim " + ObjectName(claim.metadata) + ", request " + std::string(request.name);
    if (request.selectors != nullptr) {
      for (std::size_t i = 0; i < request.selectors->size(); ++i) {
        if (!(*request.selectors)[i].cel_expression.has_value()) {
          return Error(prefix + ", selector #" + std::to_string(i) +
                       ": CEL expression empty (unsupported selector type?)");
        }
      }
    }
    if (!allocator_.features_.admin_access && request.has_admin_access) {
      return Error(prefix + ": admin access is requested, but the feature is disabled");
    }
    if (request.class_name.empty()) {
      return Error(prefix + ": missing device class name (unsupported request type?)");
    }
    data.device_class = allocator_.classes_(request.class_name);
    if (data.device_class == nullptr) {
      return Error(prefix + ": could not retrieve device class " + std::string(request.class_name) +
                   ": deviceclass.resource.k8s.io \"" + std::string(request.class_name) + "\" not found");
    }
    if (request.allocation_mode == api::kDeviceAllocationModeExactCount) {
      if (request.count > std::numeric_limits<int>::max()) {
        return Error(prefix + ": exact count " + std::to_string(request.count) + " is too large");
      }
      data.num_devices = static_cast<int>(request.count);
      return data;
    }
    if (request.allocation_mode == api::kDeviceAllocationModeAll) {
      for (const Pool& pool : pools_) {
        const std::string pool_id = std::string(pool.driver) + "/" + std::string(pool.name);
        if (pool.incomplete) {
          return Error(prefix + ": asks for all devices, but resource pool " + pool_id + " is currently being updated");
        }
        if (pool.invalid) {
          return Error(prefix + ": asks for all devices, but resource pool " + pool_id + " is currently invalid");
        }
        for (const PoolDevice& device : pool.devices) {
          absl::StatusOr<bool> selectable = IsSelectable(claim, data, device);
          if (!selectable.ok()) return selectable.status();
          if (*selectable) data.all_devices.push_back(&device);
        }
      }
      data.num_devices = static_cast<int>(data.all_devices.size());
      return data;
    }
    return Error(prefix + ": unsupported count mode " + std::string(request.allocation_mode));
  }

  // upstream allocateOne: depth first, one device at a time.
  absl::StatusOr<SearchOutcome> AllocateOne(DeviceIndices r, bool allocate_sub_request) {
    allocator_.allocate_one_calls_.fetch_add(1, std::memory_order_relaxed);
    if (deadline_.has_value() && std::chrono::steady_clock::now() >= *deadline_) {
      return absl::DeadlineExceededError("filter operation aborted: context deadline exceeded");
    }
    if (r.claim >= static_cast<int>(claims_.size())) return SearchOutcome::kFound;
    const api::ResourceClaim& claim = *claims_[static_cast<std::size_t>(r.claim)];
    if (r.request >= static_cast<int>(claim.spec.requests.size())) {
      absl::StatusOr<SearchOutcome> next = AllocateOne(DeviceIndices{r.claim + 1, 0, 0, 0}, false);
      if (next.ok() && *next == SearchOutcome::kMaxSizeExceeded) return SearchOutcome::kNotFound;
      return next;
    }
    std::vector<RequestData>& entries = request_data_[static_cast<std::size_t>(r.claim)][static_cast<std::size_t>(r.request)];
    if (!allocate_sub_request && entries.front().parent != nullptr) {
      // Try the subrequests in order; the first that leads to a full solution wins.
      bool all_exceeded = true;
      for (int sub = 0; sub < static_cast<int>(entries.size()); ++sub) {
        r.sub_request = sub;
        absl::StatusOr<SearchOutcome> outcome = AllocateOne(r, true);
        if (outcome.ok() && *outcome == SearchOutcome::kMaxSizeExceeded) continue;
        all_exceeded = false;
        if (!outcome.ok()) return outcome.status();
        if (*outcome == SearchOutcome::kFound) {
          entries.front().selected_sub_request = sub;
          return SearchOutcome::kFound;
        }
      }
      return all_exceeded ? SearchOutcome::kMaxSizeExceeded : SearchOutcome::kNotFound;
    }
    RequestData& data = entries[static_cast<std::size_t>(r.sub_request)];
    const bool all_devices = data.request.allocation_mode == api::kDeviceAllocationModeAll;
    if (all_devices && data.all_devices.empty()) return SearchOutcome::kNotFound;
    if (r.device >= data.num_devices) {
      return AllocateOne(DeviceIndices{r.claim, r.request + 1, 0, 0}, false);
    }
    std::vector<DeviceResult>& claim_results = results_[static_cast<std::size_t>(r.claim)];
    if (static_cast<int>(claim_results.size()) + data.num_devices - r.device > api::kAllocationResultsMaxSize) {
      return SearchOutcome::kMaxSizeExceeded;
    }
    DeviceIndices next{r.claim, r.request, r.sub_request, r.device + 1};
    if (all_devices) {
      const PoolDevice& device = *data.all_devices[static_cast<std::size_t>(r.device)];
      absl::StatusOr<bool> allocated = AllocateDevice(r, device, /*must=*/true);
      if (!allocated.ok()) return allocated.status();
      if (!*allocated) return SearchOutcome::kNotFound;
      absl::StatusOr<SearchOutcome> done = AllocateOne(next, allocate_sub_request);
      if (!done.ok() || *done != SearchOutcome::kFound) Deallocate(r, device);
      return done;
    }
    for (const Pool& pool : pools_) {
      // No device from a pool being updated (not all its slices seen) or invalid; other pools may
      // still satisfy the request (v1.37; v1.34 failed on an invalid pool and used incomplete ones).
      if (pool.incomplete || pool.invalid) continue;
      for (const PoolDevice& device : pool.devices) {
        if (data.request.admin_access ? AllocatingForClaim(device.key, r.claim) : InUse(device.key)) continue;
        absl::StatusOr<bool> selectable = IsSelectable(claim, data, device);
        if (!selectable.ok()) return selectable.status();
        if (!*selectable) continue;
        absl::StatusOr<bool> allocated = AllocateDevice(r, device, /*must=*/false);
        if (!allocated.ok()) return allocated.status();
        if (!*allocated) continue;
        absl::StatusOr<SearchOutcome> done = AllocateOne(next, allocate_sub_request);
        if (done.ok() && *done == SearchOutcome::kFound) return SearchOutcome::kFound;
        Deallocate(r, device);
        // An error, and upstream's errAllocationResultMaxSizeExceeded, go up to the subrequest
        // loop or the next claim, which try something else.
        if (!done.ok() || *done == SearchOutcome::kMaxSizeExceeded) return done;
      }
    }
    return SearchOutcome::kNotFound;
  }

  bool InUse(const std::string& key) const {
    if (allocator_.allocated_.contains(key)) return true;
    auto it = allocating_.find(key);
    return it != allocating_.end() && !it->second.empty();
  }
  bool AllocatingForClaim(const std::string& key, int claim) const {
    auto it = allocating_.find(key);
    return it != allocating_.end() && std::find(it->second.begin(), it->second.end(), claim) != it->second.end();
  }

  // upstream isSelectable, its answers cached per device and (sub)request.
  absl::StatusOr<bool> IsSelectable(const api::ResourceClaim& claim, const RequestData& data, const PoolDevice& device) {
    if (device.device->has_binding_conditions) return false;  // DRADeviceBindingConditions off
    const MatchKey cache_key{device.device, data.claim, data.request_index, data.sub_request};
    if (auto it = matches_.find(cache_key); it != matches_.end()) return it->second;
    if (data.device_class != nullptr) {
      absl::StatusOr<bool> match = SelectorsMatch(claim, data.device_class.get(), data.device_class->selectors, device);
      if (!match.ok()) return match.status();
      if (!*match) {
        matches_[cache_key] = false;
        return false;
      }
    }
    static const std::vector<api::DeviceSelector> kNone;
    absl::StatusOr<bool> match =
        SelectorsMatch(claim, nullptr, data.request.selectors != nullptr ? *data.request.selectors : kNone, device);
    if (!match.ok()) return match.status();
    matches_[cache_key] = *match;
    return *match;
  }

  absl::StatusOr<bool> SelectorsMatch(const api::ResourceClaim& claim, const api::DeviceClass* device_class,
                                      const std::vector<api::DeviceSelector>& selectors, const PoolDevice& device) {
    auto where = [&](std::size_t i) {
      return (device_class != nullptr ? "class " + device_class->metadata.name : "claim " + ObjectName(claim.metadata)) +
             ": selector #" + std::to_string(i);
    };
    for (std::size_t i = 0; i < selectors.size(); ++i) {
      if (!selectors[i].cel_expression.has_value()) continue;  // validated before (request) or ignored (class)
      absl::StatusOr<std::shared_ptr<const CompiledSelector>> compiled =
          allocator_.cel_cache_.GetOrCompile(*selectors[i].cel_expression);
      if (!compiled.ok()) return Error(where(i) + ": CEL compile error: " + std::string(compiled.status().message()));
      CelDevice input{device.slice->driver, device.device->attributes, device.device->capacity};
      absl::StatusOr<bool> matches = (*compiled)->Matches(input);
      if (!matches.ok()) {
        // v1.37: the device named (driver/pool/device), and a hint after a missing key (upstream
        // cel.EnhanceRuntimeError).
        std::string message(matches.status().message());
        if (message.find("no such key:") != std::string::npos) {
          message += ". consider using CEL optional chaining (.? followed by orValue()) or guarding the check with "
                     "has() for optional fields";
        }
        return Error(where(i) + " on device " + std::string(device.slice->driver) + "/" +
                     std::string(device.slice->pool.name) + "/" + device.device->name + ": CEL runtime error: " + message);
      }
      if (!*matches) return false;
    }
    return true;
  }

  std::pair<std::string_view, std::string_view> RequestNames(const RequestData& data) const {
    if (data.parent == nullptr) return {data.request.name, {}};
    return {data.parent->name, data.request.name};
  }

  // upstream allocateDevice: false when the device cannot take this request now.
  absl::StatusOr<bool> AllocateDevice(const DeviceIndices& r, const PoolDevice& device, bool must) {
    const api::ResourceClaim& claim = *claims_[static_cast<std::size_t>(r.claim)];
    const RequestData& data =
        request_data_[static_cast<std::size_t>(r.claim)][static_cast<std::size_t>(r.request)][static_cast<std::size_t>(r.sub_request)];
    if (data.request.admin_access ? AllocatingForClaim(device.key, r.claim) : InUse(device.key)) return false;
    if (device.device->consumes_counters) return false;  // DRAPartitionableDevices off
    auto [base_name, sub_name] = RequestNames(data);
    std::vector<MatchAttributeConstraint>& constraints = constraints_[static_cast<std::size_t>(r.claim)];
    for (std::size_t i = 0; i < constraints.size(); ++i) {
      if (constraints[i].Add(base_name, sub_name, device)) continue;
      if (must) {
        return Error("claim " + ObjectName(claim.metadata) + ", request " + std::string(data.request.name) +
                     ": cannot add device " + std::string(device.slice->driver) + "/" + device.slice->pool.name + "/" +
                     device.device->name + " because a claim constraint would not be satisfied");
      }
      for (std::size_t e = 0; e < i; ++e) constraints[e].Remove(base_name, sub_name);
      return false;
    }
    allocating_[device.key].push_back(r.claim);
    results_[static_cast<std::size_t>(r.claim)].push_back(
        DeviceResult{std::string(data.request.name), data.parent != nullptr ? data.parent->name : std::string(), &device,
                     data.request.admin_access});
    return true;
  }

  void Deallocate(const DeviceIndices& r, const PoolDevice& device) {
    const RequestData& data =
        request_data_[static_cast<std::size_t>(r.claim)][static_cast<std::size_t>(r.request)][static_cast<std::size_t>(r.sub_request)];
    auto [base_name, sub_name] = RequestNames(data);
    for (MatchAttributeConstraint& constraint : constraints_[static_cast<std::size_t>(r.claim)]) {
      constraint.Remove(base_name, sub_name);
    }
    std::vector<int>& claims = allocating_[device.key];
    if (auto it = std::find(claims.begin(), claims.end(), r.claim); it != claims.end()) claims.erase(it);
    results_[static_cast<std::size_t>(r.claim)].pop_back();
  }

  absl::StatusOr<api::AllocationResult> BuildResult(std::size_t claim_index) const {
    const api::ResourceClaim& claim = *claims_[claim_index];
    api::AllocationResult result;
    for (const DeviceResult& device : results_[claim_index]) {
      api::DeviceRequestAllocationResult& out = result.results.emplace_back();
      out.request = device.RequestName();
      out.driver = device.device->slice->driver;
      out.pool = device.device->slice->pool.name;
      out.device = device.device->device->name;
      if (device.admin_access) out.admin_access = true;
    }
    // The classes' configs, each class once (later requests of a class are added to its entries).
    std::map<std::string, std::pair<std::size_t, std::size_t>, std::less<>> class_ranges;
    const auto& requests = request_data_[claim_index];
    for (const std::vector<RequestData>& entries : requests) {
      const RequestData& data = entries[static_cast<std::size_t>(entries.front().selected_sub_request)];
      if (data.device_class == nullptr) continue;
      const std::string name = data.FullName();
      if (auto it = class_ranges.find(data.device_class->metadata.name); it != class_ranges.end()) {
        for (std::size_t i = it->second.first; i < it->second.second; ++i) result.config[i].requests.push_back(name);
        continue;
      }
      const std::size_t start = result.config.size();
      for (const api::DeviceConfiguration& config : data.device_class->config) {
        result.config.push_back(api::DeviceAllocationConfiguration{std::string(api::kAllocationConfigSourceClass), {name}, config});
      }
      class_ranges.emplace(data.device_class->metadata.name, std::make_pair(start, result.config.size()));
    }
    // The claim's configs: those for every request, and those naming a request (or the chosen
    // subrequest) - once, at the first request they name (v1.37; v1.34 appended one per request).
    auto chosen_sub_request = [&](std::size_t i) -> std::string {
      const RequestData& first = requests[i].front();
      if (first.parent == nullptr) return {};
      const api::DeviceRequest& request = claim.spec.requests[i];
      return request.name + "/" +
             request.first_available[static_cast<std::size_t>(first.selected_sub_request)].name;
    };
    for (const api::DeviceClaimConfiguration& config : claim.spec.config) {
      auto from_claim = [&config] {
        return api::DeviceAllocationConfiguration{std::string(api::kAllocationConfigSourceClaim), config.requests,
                                                  config.configuration};
      };
      if (config.requests.empty()) {
        result.config.push_back(from_claim());
        continue;
      }
      auto names = [&config](std::string_view name) {
        return std::find(config.requests.begin(), config.requests.end(), name) != config.requests.end();
      };
      for (std::size_t i = 0; i < claim.spec.requests.size(); ++i) {
        const std::string sub = chosen_sub_request(i);
        if (names(claim.spec.requests[i].name) || (!sub.empty() && names(sub))) {
          result.config.push_back(from_claim());
          break;
        }
      }
    }
    // A config that applies to every request says so with no `requests` (v1.37).
    for (api::DeviceAllocationConfiguration& config : result.config) {
      if (config.requests.empty()) continue;
      auto names = [&config](std::string_view name) {
        return std::find(config.requests.begin(), config.requests.end(), name) != config.requests.end();
      };
      bool all = true;
      for (std::size_t i = 0; i < claim.spec.requests.size() && all; ++i) {
        const std::string sub = chosen_sub_request(i);
        all = names(claim.spec.requests[i].name) || (!sub.empty() && names(sub));
      }
      if (all) config.requests.clear();
    }
    absl::StatusOr<std::optional<api::NodeSelector>> selector = NodeSelectorFor(claim_index);
    if (!selector.ok()) {
      return Error("create NodeSelector for claim " + claim.metadata.name + ": " + std::string(selector.status().message()));
    }
    result.node_selector = *std::move(selector);
    return result;
  }

  // upstream createNodeSelector.
  absl::StatusOr<std::optional<api::NodeSelector>> NodeSelectorFor(std::size_t claim_index) const {
    api::NodeSelectorTerm term;
    auto add_new = [](const std::vector<api::NodeSelectorRequirement>& from, std::vector<api::NodeSelectorRequirement>& to) {
      for (const api::NodeSelectorRequirement& requirement : from) {
        auto same = [&requirement](const api::NodeSelectorRequirement& existing) {
          if (existing.key != requirement.key || existing.op != requirement.op) return false;
          std::vector<std::string> a = existing.values, b = requirement.values;
          std::sort(a.begin(), a.end());
          a.erase(std::unique(a.begin(), a.end()), a.end());
          std::sort(b.begin(), b.end());
          b.erase(std::unique(b.begin(), b.end()), b.end());
          return a == b;
        };
        if (std::none_of(to.begin(), to.end(), same)) to.push_back(requirement);
      }
    };
    for (const DeviceResult& device : results_[claim_index]) {
      const api::ResourceSlice& slice = *device.device->slice;
      if (!slice.node_name.empty()) {
        api::NodeSelector selector;
        api::NodeSelectorTerm by_name;
        by_name.match_fields.push_back(api::NodeSelectorRequirement{"metadata.name", "In", {slice.node_name}});
        selector.node_selector_terms.push_back(std::move(by_name));
        return std::optional<api::NodeSelector>(std::move(selector));
      }
      if (!slice.node_selector.has_value()) continue;
      const auto& terms = slice.node_selector->node_selector_terms;
      if (terms.size() == 0) continue;
      if (terms.size() > 1) {
        return Error("unsupported ResourceSlice.NodeSelector with " + std::to_string(terms.size()) + " terms");
      }
      add_new(terms[0].match_fields, term.match_fields);
      add_new(terms[0].match_expressions, term.match_expressions);
    }
    if (term.match_fields.empty() && term.match_expressions.empty()) return std::optional<api::NodeSelector>();
    api::NodeSelector selector;
    selector.node_selector_terms.push_back(std::move(term));
    return std::optional<api::NodeSelector>(std::move(selector));
  }

  const Allocator& allocator_;
  const api::Node& node_;
  std::span<const api::ResourceClaim* const> claims_;
  std::optional<std::chrono::steady_clock::time_point> deadline_;
  std::vector<Pool> pools_;
  // [claim][request][subrequest] (one entry for a request without subrequests).
  std::vector<std::vector<std::vector<RequestData>>> request_data_;
  std::vector<std::vector<MatchAttributeConstraint>> constraints_;
  std::vector<std::vector<DeviceResult>> results_;
  // Devices taken in this search: DeviceKey → the claims (indices) taking it.
  absl::flat_hash_map<std::string, std::vector<int>> allocating_;
  // (device, request data) → whether the device matches the request's class and selectors.
  using MatchKey = std::tuple<const api::Device*, int, int, int>;
  absl::flat_hash_map<MatchKey, bool> matches_;
};

Allocator::Allocator(AllocatorFeatures features, AllocatedDevices allocated, DeviceClassGetter classes,
                     std::vector<std::shared_ptr<const api::ResourceSlice>> slices, SelectorCache& cel_cache)
    : features_(features),
      allocated_(std::move(allocated)),
      classes_(std::move(classes)),
      slices_(std::move(slices)),
      cel_cache_(cel_cache) {
  std::sort(slices_.begin(), slices_.end(),
            [](const auto& a, const auto& b) { return a->metadata.name < b->metadata.name; });
  for (const auto& slice : slices_) {
    // DRAPartitionableDevices off: a slice that sets perDeviceNodeSelection (even false) is skipped.
    if (slice->per_device_node_selection.has_value()) continue;
    if (!slice->node_name.empty()) {
      by_node_name_[slice->node_name].push_back(slice.get());
    } else if (slice->all_nodes) {
      cluster_slices_.push_back(Slice{slice.get(), std::nullopt});
    } else if (slice->node_selector.has_value()) {
      cluster_slices_.push_back(Slice{slice.get(), api::CompiledNodeSelector::Compile(*slice->node_selector)});
    }
  }
}

absl::StatusOr<std::optional<std::vector<api::AllocationResult>>> Allocator::Allocate(
    const api::Node& node, std::span<const api::ResourceClaim* const> claims,
    std::optional<std::chrono::steady_clock::time_point> deadline) const {
  AllocationSearch search(*this, node, claims, deadline);
  return search.Run();
}

std::int64_t Allocator::allocate_one_calls() const { return allocate_one_calls_.load(std::memory_order_relaxed); }

}  // namespace ksched::plugins::dynamic_resources
