#include "client/reflector.h"

#include <algorithm>
#include <utility>

#include "client/api_error.h"
#include "client/concat.h"
#include "client/request_options.h"
#include "spdlog/spdlog.h"

namespace ksched::client {

namespace {

std::uint64_t SeedOf(const ReflectorOptions& options) {
  return options.seed.has_value() ? *options.seed : std::random_device{}();
}

bool IsGone(const absl::Status& status) {
  const std::optional<int> http = HttpStatusOf(status);
  return http.has_value() && *http == 410;
}

// client-go's isWatchErrorRetriable: a watch that could not be opened is tried again from the same
// resourceVersion only when the connection failed or the server said 429; any other answer (a 500
// for a resourceVersion it cannot serve, a 400, a 403) would come again, so the reflector relists.
bool WatchRetriable(const absl::Status& status) {
  const std::optional<int> http = HttpStatusOf(status);
  return !http.has_value() || *http == 429;
}

}  // namespace

template <api::DecodableObject T>
Reflector<T>::Reflector(std::shared_ptr<RestClient> client, ReflectorOptions options,
                        std::shared_ptr<ReflectorHandler<T>> handler)
    : client_(std::move(client)),
      options_(std::move(options)),
      handler_(handler ? std::move(handler) : std::make_shared<ReflectorHandler<T>>()),
      backoff_(options_.backoff_initial, options_.backoff_cap, 2.0, 1.0, SeedOf(options_)),
      rng_(SeedOf(options_)) {}

template <api::DecodableObject T>
Reflector<T>::~Reflector() {
  Stop();
}

template <api::DecodableObject T>
void Reflector<T>::Start() {
  base::MutexLock lock(&mu_);
  if (started_ || stopping_) return;
  started_ = true;
  thread_ = std::thread([this] { Run(); });
}

template <api::DecodableObject T>
void Reflector<T>::Stop() {
  {
    base::MutexLock lock(&mu_);
    stopping_ = true;
    if (stream_ != nullptr) stream_->Cancel();
  }
  cv_.NotifyAll();
  if (thread_.joinable()) thread_.join();
}

template <api::DecodableObject T>
bool Reflector<T>::HasSynced() const {
  base::MutexLock lock(&mu_);
  return synced_;
}

template <api::DecodableObject T>
bool Reflector<T>::WaitForSync(std::chrono::milliseconds timeout) const {
  base::MutexLock lock(&mu_);
  return cv_.WaitFor(&mu_, timeout, [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return synced_; });
}

template <api::DecodableObject T>
std::optional<T> Reflector<T>::Get(const std::string& key) const {
  base::MutexLock lock(&mu_);
  auto it = store_.find(key);
  if (it == store_.end()) return std::nullopt;
  return *it->second;
}

template <api::DecodableObject T>
std::vector<T> Reflector<T>::List() const {
  base::MutexLock lock(&mu_);
  std::vector<T> out;
  out.reserve(store_.size());
  for (const auto& [key, object] : store_) out.push_back(*object);
  return out;
}

template <api::DecodableObject T>
std::vector<std::shared_ptr<const T>> Reflector<T>::SharedList() const {
  base::MutexLock lock(&mu_);
  std::vector<std::shared_ptr<const T>> out;
  out.reserve(store_.size());
  for (const auto& [key, object] : store_) out.push_back(object);
  return out;
}

template <api::DecodableObject T>
std::size_t Reflector<T>::size() const {
  base::MutexLock lock(&mu_);
  return store_.size();
}

template <api::DecodableObject T>
ReflectorStats Reflector<T>::stats() const {
  base::MutexLock lock(&mu_);
  return stats_;
}

template <api::DecodableObject T>
std::string Reflector<T>::last_resource_version() const {
  base::MutexLock lock(&mu_);
  return resource_version_;
}

template <api::DecodableObject T>
absl::Status Reflector<T>::last_list_error() const {
  base::MutexLock lock(&mu_);
  return last_list_error_;
}

template <api::DecodableObject T>
bool Reflector<T>::stopping() const {
  base::MutexLock lock(&mu_);
  return stopping_;
}

template <api::DecodableObject T>
void Reflector<T>::SetResourceVersion(std::string rv) {
  if (rv.empty()) return;
  base::MutexLock lock(&mu_);
  resource_version_ = std::move(rv);
}

template <api::DecodableObject T>
template <typename Deliver>
void Reflector<T>::Delivered(Deliver&& deliver) {
  if (options_.observer == nullptr) {
    deliver();
    return;
  }
  const auto start = std::chrono::steady_clock::now();
  deliver();
  options_.observer->ObserveProcessing(std::chrono::steady_clock::now() - start);
  options_.observer->SetQueuedItems(0);
}

template <api::DecodableObject T>
void Reflector<T>::ObserveStoreVersion(std::string_view resource_version) {
  if (options_.observer != nullptr && !resource_version.empty()) {
    options_.observer->SetStoreResourceVersion(resource_version);
  }
}

template <api::DecodableObject T>
void Reflector<T>::Count(std::uint64_t ReflectorStats::*counter) {
  base::MutexLock lock(&mu_);
  ++(stats_.*counter);
}

template <api::DecodableObject T>
bool Reflector<T>::SleepFor(std::chrono::milliseconds delay) {
  base::MutexLock lock(&mu_);
  return !cv_.WaitFor(&mu_, delay, [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return stopping_; });
}

template <api::DecodableObject T>
void Reflector<T>::Run() {
  bool need_list = true;
  bool listed_once = false;
  // The list follows a watch ERROR event: a successful list does not reset the backoff, so that a
  // server answering every watch with an error is relisted at growing intervals, not in a loop.
  bool keep_backoff = false;
  while (!stopping()) {
    if (need_list) {
      if (listed_once) Count(&ReflectorStats::relists);
      const absl::Status listed = ListAndReplace();
      if (!listed.ok()) {
        if (stopping()) return;
        spdlog::warn("failed to list {}: {}", options_.path, std::string(listed.message()));
        {
          base::MutexLock lock(&mu_);
          last_list_error_ = listed;
        }
        if (!SleepFor(backoff_.Next())) return;
        continue;
      }
      if (!keep_backoff) backoff_.Reset();
      keep_backoff = false;
      need_list = false;
      listed_once = true;
      continue;
    }
    switch (WatchOnce()) {
      case WatchEnd::kStopped:
        return;
      case WatchEnd::kGone:
        Count(&ReflectorStats::gone);
        need_list = true;
        break;
      case WatchEnd::kClean:
        Count(&ReflectorStats::rewatches);
        break;
      case WatchEnd::kFailed:
        if (!SleepFor(backoff_.Next())) return;
        Count(&ReflectorStats::rewatches);
        break;
      case WatchEnd::kError:
        // The server may answer every rewatch from this resourceVersion the same way (500 "etcd
        // event received with PrevKv=nil" when the watch starts exactly at an etcd compaction), so
        // back off and relist, as client-go's reflector does after a watch ERROR event.
        if (!SleepFor(backoff_.Next())) return;
        need_list = true;
        keep_backoff = true;
        break;
    }
  }
}

template <api::DecodableObject T>
absl::Status Reflector<T>::ListAndReplace() {
  ListOptions list_options;
  list_options.label_selector = options_.label_selector;
  list_options.field_selector = options_.field_selector;
  list_options.limit = options_.page_size;
  std::vector<T> items;
  std::string resource_version;
  for (;;) {
    if (stopping()) return absl::CancelledError("reflector stopped");
    absl::StatusOr<std::string> body = client_->List(options_.path, list_options);
    if (!body.ok()) {
      if (IsGone(body.status()) && !list_options.continue_token.empty()) {
        // The continue token expired: start over from the first page.
        list_options.continue_token.clear();
        items.clear();
        continue;
      }
      return body.status();
    }
    absl::StatusOr<api::ObjectList<T>> page = api::DecodeListInSitu<T>(*body);
    if (!page.ok()) return page.status();
    for (T& item : page->items) items.push_back(std::move(item));
    resource_version = page->metadata.resource_version;
    if (page->metadata.continue_token.empty()) break;
    list_options.continue_token = page->metadata.continue_token;
  }

  // Replace the store, then deliver what changed: adds and updates in key order, deletes last.
  using Shared = std::shared_ptr<const T>;
  std::vector<std::pair<Shared, Shared>> changes;  // (old or null, now)
  std::vector<Shared> deleted;
  {
    std::map<std::string, Shared> fresh;
    for (T& item : items) {
      std::string key = ObjectKey(item);
      fresh.insert_or_assign(std::move(key), std::make_shared<const T>(std::move(item)));
    }
    items.clear();
    items.shrink_to_fit();
    base::MutexLock lock(&mu_);
    for (const auto& [key, object] : fresh) {
      auto it = store_.find(key);
      if (it == store_.end()) {
        changes.emplace_back(nullptr, object);
      } else if (it->second->metadata.resource_version != object->metadata.resource_version) {
        changes.emplace_back(it->second, object);
      }
    }
    for (auto& [key, object] : store_) {
      if (!fresh.contains(key)) deleted.push_back(std::move(object));
    }
    store_.swap(fresh);
    if (!resource_version.empty()) resource_version_ = resource_version;
    last_list_error_ = absl::OkStatus();  // before HasSynced() can turn true
  }
  ObserveStoreVersion(resource_version);
  for (const auto& [old, now] : changes) {
    Delivered([&] {
      if (old != nullptr) {
        handler_->OnUpdateShared(old, now);
      } else {
        handler_->OnAddShared(now);
      }
    });
  }
  changes.clear();
  for (const Shared& gone : deleted) Delivered([&] { handler_->OnDeleteShared(gone); });
  {
    base::MutexLock lock(&mu_);
    synced_ = true;
  }
  cv_.NotifyAll();
  return absl::OkStatus();
}

template <api::DecodableObject T>
typename Reflector<T>::WatchEnd Reflector<T>::WatchOnce() {
  ListOptions watch_options;
  watch_options.label_selector = options_.label_selector;
  watch_options.field_selector = options_.field_selector;
  watch_options.resource_version = last_resource_version();
  const std::int64_t min_timeout = std::max<std::int64_t>(1, options_.min_watch_timeout.count());
  watch_options.timeout_seconds = std::uniform_int_distribution<std::int64_t>(min_timeout, 2 * min_timeout)(rng_);

  absl::StatusOr<std::unique_ptr<LineStream>> stream = client_->Watch(options_.path, watch_options);
  if (!stream.ok()) {
    if (stopping()) return WatchEnd::kStopped;
    if (IsGone(stream.status())) return WatchEnd::kGone;
    if (WatchRetriable(stream.status())) return WatchEnd::kFailed;
    // client-go: "failed to watch <type>: <error>", then a relist after the backoff.
    spdlog::warn("failed to watch {} from resourceVersion {}: {}; relisting", options_.path,
                 watch_options.resource_version, std::string(stream.status().message()));
    return WatchEnd::kError;
  }
  {
    base::MutexLock lock(&mu_);
    if (stopping_) return WatchEnd::kStopped;
    stream_ = stream->get();
  }
  WatchEnd end = WatchEnd::kFailed;
  for (;;) {
    absl::StatusOr<std::optional<StreamItem>> item = (*stream)->Next();
    if (!item.ok()) {
      end = WatchEnd::kFailed;
      if (!stopping()) {  // client-go: "watch of <type> ended with: <error>" (a warning)
        spdlog::warn("watch of {} ended with: {}", options_.path, std::string(item.status().message()));
      }
      break;
    }
    if (!item->has_value()) {
      end = WatchEnd::kClean;
      break;
    }
    StreamItem& line = **item;
    if (line.oversized_bytes > 0) {
      Count(&ReflectorStats::oversized);
      continue;
    }
    absl::StatusOr<api::WatchEvent<T>> event = api::DecodeWatchEventInSitu<T>(line.line);
    if (!event.ok()) {
      Count(&ReflectorStats::decode_errors);
      continue;
    }
    Count(&ReflectorStats::events);
    if (std::optional<WatchEnd> ends = Apply(*event); ends.has_value()) {
      end = *ends;
      break;
    }
  }
  {
    base::MutexLock lock(&mu_);
    stream_ = nullptr;
    if (stopping_) end = WatchEnd::kStopped;
  }
  if (end == WatchEnd::kClean || end == WatchEnd::kGone) backoff_.Reset();
  return end;
}

template <api::DecodableObject T>
std::optional<typename Reflector<T>::WatchEnd> Reflector<T>::Apply(api::WatchEvent<T>& event) {
  switch (event.type) {
    case api::WatchEventType::kBookmark:
      ObserveStoreVersion(event.resource_version);
      SetResourceVersion(std::move(event.resource_version));
      return std::nullopt;
    case api::WatchEventType::kError:
      if (event.error.code == 410) return WatchEnd::kGone;
      return event.error.code == 429 ? WatchEnd::kFailed : WatchEnd::kError;
    case api::WatchEventType::kAdded:
    case api::WatchEventType::kModified: {
      std::string key = ObjectKey(event.object);
      auto object = std::make_shared<const T>(std::move(event.object));
      std::shared_ptr<const T> old;
      {
        base::MutexLock lock(&mu_);
        if (!object->metadata.resource_version.empty()) {
          resource_version_ = object->metadata.resource_version;
        }
        auto it = store_.find(key);
        if (it != store_.end()) {
          old = std::exchange(it->second, object);
        } else {
          store_.emplace(std::move(key), object);
        }
      }
      ObserveStoreVersion(object->metadata.resource_version);
      Delivered([&] {
        if (old != nullptr) {
          handler_->OnUpdateShared(old, object);
        } else {
          handler_->OnAddShared(object);
        }
      });
      return std::nullopt;
    }
    case api::WatchEventType::kDeleted: {
      {
        base::MutexLock lock(&mu_);
        if (!event.object.metadata.resource_version.empty()) {
          resource_version_ = event.object.metadata.resource_version;
        }
        store_.erase(ObjectKey(event.object));
      }
      ObserveStoreVersion(event.object.metadata.resource_version);
      auto last_known = std::make_shared<const T>(std::move(event.object));
      Delivered([&] { handler_->OnDeleteShared(last_known); });
      return std::nullopt;
    }
  }
  return std::nullopt;
}

template class Reflector<api::Pod>;
template class Reflector<api::Node>;
template class Reflector<api::PodDisruptionBudget>;
template class Reflector<api::Service>;
template class Reflector<api::ReplicationController>;
template class Reflector<api::ReplicaSet>;
template class Reflector<api::StatefulSet>;
template class Reflector<api::Namespace>;
template class Reflector<api::PersistentVolumeClaim>;
template class Reflector<api::PersistentVolume>;
template class Reflector<api::StorageClass>;
template class Reflector<api::CSINode>;
template class Reflector<api::VolumeAttachment>;
template class Reflector<api::CSIDriver>;
template class Reflector<api::CSIStorageCapacity>;
template class Reflector<api::ResourceClaim>;
template class Reflector<api::ResourceSlice>;
template class Reflector<api::DeviceClass>;

}  // namespace ksched::client
