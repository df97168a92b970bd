// Reflector<T>: a typed list+watch loop keeping a local store of one resource (Pods, Nodes,
// PodDisruptionBudgets, the workloads of api/workloads.h, Namespaces, the storage objects of
// api/storage.h: every kind api/json_decode.h decodes) in step with the API server, the core of
// client-go's cache.Reflector plus the informer's store and handler dispatch.
//
// Protocol (as client-go's reflector):
//   1. LIST `path` with the options' label/field selectors, `limit` page_size (500), following
//      `continue` tokens; a 410 on a continue page (expired token) restarts the list from the first
//      page. The list replaces the store: objects not seen before are added, objects whose
//      resourceVersion changed are updated, objects gone get a delete with the last known object as
//      the tombstone. After the first complete list HasSynced() is true.
//   2. WATCH from the list's resourceVersion with allowWatchBookmarks=true and a random
//      timeoutSeconds in [min_watch_timeout, 2 * min_watch_timeout] (300..600 s by default). Every
//      event and BOOKMARK advances the last resourceVersion.
//        - clean end of the stream (server timeout): rewatch from the last resourceVersion;
//        - ERROR event with code 410, or a watch answered with HTTP 410: relist (step 1);
//        - another ERROR event other than 429: back off, then relist, as client-go does (the server
//          may answer every rewatch from this resourceVersion the same way: a watch starting
//          exactly at an etcd compaction gets 500 "etcd event received with PrevKv=nil" each time);
//          the list that follows does not reset the backoff;
//        - an ERROR event 429, a transport failure, or a failed watch request: back off
//          (backoff_initial doubling to backoff_cap, 800 ms -> 30 s) and rewatch;
//        - a failed list: back off and list again.
//      Lines that are not valid watch events (bad JSON, decode errors) and oversized lines are
//      skipped and counted in ReflectorStats; the watch goes on.
//   ADDED of a key already stored is delivered as an update, MODIFIED of an unknown key as an add
//   (as client-go's informer does); DELETED is delivered with the event's object.
//
// Handlers: called on the reflector thread only, one at a time, in event order, after the store
// was updated (a handler may read the store through Get/List). They must not call Stop().
// The store holds each object once, immutable, behind a shared_ptr, and hands the handler that
// same pointer (ReflectorHandler's *Shared calls): a handler that keeps objects (the scheduler's
// cache) shares them instead of holding a second copy of every pod and node.
//
// Ownership: the Reflector shares the RestClient and the handler. Thread-safety: Start/Stop from
// one owning thread; HasSynced, WaitForSync, Get, List, stats and last_resource_version are safe
// from any thread. Stop() cancels the open watch stream, wakes a backoff sleep and joins the
// thread; a LIST in flight is not cancelled and is waited for (it is bounded by the client's
// request timeout). The destructor calls Stop().
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "base/mutex.h"
#include "api/json_decode.h"
#include "api/namespace.h"
#include "api/node.h"
#include "api/pod.h"
#include "api/pod_disruption_budget.h"
#include "api/resource.h"
#include "api/workloads.h"
#include "client/backoff.h"
#include "client/informer_observer.h"
#include "client/rest_client.h"
#include "client/transport.h"

namespace ksched::client {

struct ReflectorOptions {
  // The collection, e.g. "/api/v1/nodes", "/api/v1/pods" or "/apis/policy/v1/poddisruptionbudgets"
  // (every namespace). Lists and watches are read as JSON.
  std::string path;
  std::string label_selector;
  std::string field_selector;  // e.g. "status.phase!=Succeeded,status.phase!=Failed" for pods
  std::int64_t page_size = 500;
  std::chrono::seconds min_watch_timeout{300};
  std::chrono::milliseconds backoff_initial{800};
  std::chrono::milliseconds backoff_cap{30'000};
  std::optional<std::uint64_t> seed;  // of the watch timeouts and backoff jitter; none: random
  // Told of each delivery and of the store's resourceVersion (client/informer_observer.h); null:
  // nothing is recorded.
  std::shared_ptr<InformerObserver> observer;
};

// Counters, monotonically increasing over the reflector's life.
struct ReflectorStats {
  std::uint64_t events = 0;         // watch events decoded (bookmarks and errors included)
  std::uint64_t decode_errors = 0;  // watch lines skipped: malformed JSON or not a valid event
  std::uint64_t oversized = 0;      // watch lines skipped by the transport as too long
  std::uint64_t relists = 0;        // list attempts after the first successful list
  std::uint64_t rewatches = 0;      // watches opened again without a relist
  std::uint64_t gone = 0;           // watches ended by 410 Gone (an ERROR 410 event or an HTTP 410)
};

// The receiver of a reflector's deltas. Default implementations ignore the call.
// The reflector calls the *Shared variants with the objects as stored (never null, never modified
// afterwards); by default they forward to the reference variants. Override the *Shared ones to keep
// an object without copying it.
template <typename T>
class ReflectorHandler {
 public:
  virtual ~ReflectorHandler() = default;
  virtual void OnAdd(const T& /*object*/) {}
  virtual void OnUpdate(const T& /*old*/, const T& /*now*/) {}
  virtual void OnDelete(const T& /*last_known*/) {}
  virtual void OnAddShared(const std::shared_ptr<const T>& object) { OnAdd(*object); }
  virtual void OnUpdateShared(const std::shared_ptr<const T>& old, const std::shared_ptr<const T>& now) {
    OnUpdate(*old, *now);
  }
  virtual void OnDeleteShared(const std::shared_ptr<const T>& last_known) { OnDelete(*last_known); }
};

// "namespace/name", or "name" for cluster-scoped objects (client-go's MetaNamespaceKeyFunc).
template <typename T>
std::string ObjectKey(const T& object) {
  if (object.metadata.namespace_.empty()) return object.metadata.name;
  return object.metadata.namespace_ + "/" + object.metadata.name;
}

template <api::DecodableObject T>
class Reflector {
 public:
  Reflector(std::shared_ptr<RestClient> client, ReflectorOptions options,
            std::shared_ptr<ReflectorHandler<T>> handler);
  ~Reflector();
  Reflector(const Reflector&) = delete;
  Reflector& operator=(const Reflector&) = delete;

  // Starts the reflector thread; a second call does nothing. Not restartable after Stop().
  void Start();
  // Stops and joins the thread (see above); idempotent.
  void Stop();

  // True once the first complete list was delivered to the handler.
  bool HasSynced() const;
  // Waits until HasSynced() or `timeout` passed; returns HasSynced().
  bool WaitForSync(std::chrono::milliseconds timeout) const;

  // The stored object with this key (ObjectKey), if any.
  std::optional<T> Get(const std::string& key) const;
  // A copy of every stored object, in key order.
  std::vector<T> List() const;
  // Every stored object, shared rather than copied (immutable; the store may replace them
  // afterwards), in key order. Holds the store's lock only while copying the pointers.
  std::vector<std::shared_ptr<const T>> SharedList() const;
  std::size_t size() const;
  ReflectorStats stats() const;
  // The resourceVersion the next watch would start from ("" before the first list).
  std::string last_resource_version() const;
  // Why the last LIST failed, if it did: OK once a list succeeded after it (or before any failed).
  // For the caller's "did not sync" error (e.g. HTTP 403 Forbidden: RBAC lacks `list`).
  absl::Status last_list_error() const;

 private:
  // kError: an ERROR event other than 410 and 429 (back off, relist).
  enum class WatchEnd { kClean, kGone, kFailed, kError, kStopped };

  void Run();
  // One full paginated list, replacing the store. kCancelled when stopped.
  absl::Status ListAndReplace();
  // One watch from the last resourceVersion, until its stream ends.
  WatchEnd WatchOnce();
  // Applies one decoded watch event; returns the end of the watch it causes, if any.
  std::optional<WatchEnd> Apply(api::WatchEvent<T>& event);
  // Sleeps unless stopped first; false when stopped.
  bool SleepFor(std::chrono::milliseconds delay);
  bool stopping() const;
  void SetResourceVersion(std::string rv);
  // Calls `deliver` (the handler call for one delta), timed for the observer.
  template <typename Deliver>
  void Delivered(Deliver&& deliver);
  // The store's resourceVersion for the observer (bookmarks, lists and events).
  void ObserveStoreVersion(std::string_view resource_version);
  void Count(std::uint64_t ReflectorStats::*counter);

  std::shared_ptr<RestClient> client_;
  ReflectorOptions options_;
  std::shared_ptr<ReflectorHandler<T>> handler_;
  Backoff backoff_;
  std::mt19937_64 rng_;  // reflector thread only

  mutable base::Mutex mu_;
  mutable base::CondVar cv_;
  bool started_ ABSL_GUARDED_BY(mu_) = false;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  bool synced_ ABSL_GUARDED_BY(mu_) = false;
  LineStream* stream_ ABSL_GUARDED_BY(mu_) = nullptr;  // the open watch stream, for Stop() to cancel
  std::map<std::string, std::shared_ptr<const T>> store_ ABSL_GUARDED_BY(mu_);  // values never null
  std::string resource_version_ ABSL_GUARDED_BY(mu_);
  absl::Status last_list_error_ ABSL_GUARDED_BY(mu_);
  ReflectorStats stats_ ABSL_GUARDED_BY(mu_);
  std::thread thread_;  // assigned under mu_ by Start; Start and Stop come from the owner's thread
};

extern template class Reflector<api::Pod>;
extern template class Reflector<api::Node>;
extern template class Reflector<api::PodDisruptionBudget>;
extern template class Reflector<api::Service>;
extern template class Reflector<api::ReplicationController>;
extern template class Reflector<api::ReplicaSet>;
extern template class Reflector<api::StatefulSet>;
extern template class Reflector<api::Namespace>;
extern template class Reflector<api::PersistentVolumeClaim>;
extern template class Reflector<api::PersistentVolume>;
extern template class Reflector<api::StorageClass>;
extern template class Reflector<api::CSINode>;
extern template class Reflector<api::VolumeAttachment>;
extern template class Reflector<api::CSIDriver>;
extern template class Reflector<api::CSIStorageCapacity>;
extern template class Reflector<api::ResourceClaim>;
extern template class Reflector<api::ResourceSlice>;
extern template class Reflector<api::DeviceClass>;

}  // namespace ksched::client
