#include "scheduler/scheduler_app.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <functional>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include "base/mutex.h"
#include "client/new_rest_client.h"
#include "config/default_plugins.h"
#include "scheduler/cluster_api.h"
#include "scheduler/event_handlers.h"
#include "scheduler/event_recorder.h"
#include "scheduler/extender_objects.h"
#include "scheduler/http_extender.h"
#include "scheduler/namespaced_object_store.h"
#include "scheduler/pod_disruption_budget_store.h"
#include "scheduler/prometheus_collector.h"
#include "scheduler/resource_object_stores.h"
#include "scheduler/rest_pod_status_writer.h"
#include "scheduler/storage_object_stores.h"
#include "scheduler/workload_selector_lister.h"

namespace ksched::scheduler {
namespace {

// Pods in a terminal phase never need scheduling and never hold resources.
constexpr std::string_view kNonTerminalPods = "status.phase!=Succeeded,status.phase!=Failed";

// Every PodDisruptionBudget of the cluster (upstream's informer lists policy/v1 in all namespaces).
constexpr std::string_view kPodDisruptionBudgets = "/apis/policy/v1/poddisruptionbudgets";

// One reflector of the app, its type erased, so that starting, syncing, stopping and the metrics
// treat every kind alike. The reflector is owned by the app (Impl's pod_reflector, node_reflector
// and other_reflectors).
struct Informer {
  std::string resource;  // the collection's plural name, as in logs and metrics
  std::function<void()> start;
  std::function<void()> stop;
  std::function<bool()> has_synced;
  std::function<bool(std::chrono::milliseconds)> wait_for_sync;
  std::function<std::size_t()> size;
  std::function<client::ReflectorStats()> stats;
  std::function<absl::Status()> last_list_error;
};

template <typename T>
Informer MakeInformer(std::string resource, client::Reflector<T>* reflector) {
  return Informer{std::move(resource),
                  [reflector] { reflector->Start(); },
                  [reflector] { reflector->Stop(); },
                  [reflector] { return reflector->HasSynced(); },
                  [reflector](std::chrono::milliseconds timeout) { return reflector->WaitForSync(timeout); },
                  [reflector] { return reflector->size(); },
                  [reflector] { return reflector->stats(); },
                  [reflector] { return reflector->last_list_error(); }};
}

// The frameworks' Activate (framework::Handle::Activate): forwards to the queue until Detach.
// Preemption calls it from threads of its own, which a framework joins when it is destroyed, and
// the queue is destroyed before the frameworks: the app detaches the queue first, and a late call
// then does nothing. Thread-safety: Activate from any thread (concurrently); Detach waits for the
// calls in progress.
class QueueActivator {
 public:
  explicit QueueActivator(SchedulingQueue* queue) : queue_(queue) {}
  void Activate(const api::Pod& pod) {
    base::ReaderMutexLock lock(&mu_);
    if (queue_ != nullptr) queue_->Activate(pod);
  }
  void Detach() {
    base::WriterMutexLock lock(&mu_);
    queue_ = nullptr;
  }

 private:
  base::SharedMutex mu_;
  SchedulingQueue* queue_ ABSL_GUARDED_BY(mu_);  // nullptr once detached
};

// The default profile: upstream's v1 default plugins, less those not compiled in yet (named in a
// warning, so that nobody mistakes this for full parity).
framework::ProfileConfig DefaultProfile(const framework::Registry& registry) {
  std::vector<std::string> left_out;
  framework::ProfileConfig profile =
      config::DefaultProfile(std::string(api::kDefaultSchedulerName), registry, {}, &left_out);
  if (!left_out.empty()) {
    std::string names;
    for (const std::string& name : left_out) names += names.empty() ? name : ", " + name;
    SPDLOG_WARN("default profile: upstream default plugins not compiled in yet, left out: {}", names);
  }
  return profile;
}

}  // namespace

class SchedulerApp::Impl {
 public:
  ~Impl() {
    if (queue_activator != nullptr) queue_activator->Detach();
  }

  SchedulerAppOptions options;
  std::shared_ptr<client::RestClient> client;
  // Events go through their own client (own rate limiter, as upstream's eventClient), so that a
  // burst of events never delays a bind.
  std::shared_ptr<client::RestClient> event_client;
  // KubeSchedulerConfiguration.extenders and what they are sent; the scheduler borrows them
  // (declared before it, so destroyed after it).
  std::unique_ptr<RestExtenderObjects> extender_objects;
  std::vector<std::unique_ptr<HttpExtender>> extenders;
  std::unique_ptr<framework::Parallelizer> parallelizer;
  std::unique_ptr<RestClusterApi> cluster_api;
  std::map<std::string, std::unique_ptr<RestEventRecorder>, std::less<>> recorders;
  // Node metrics of the Prometheus-metrics plugins: always there (plugins may keep its pointer),
  // its thread runs only when a profile registered a query. Outlives the frameworks.
  std::unique_ptr<PrometheusCollector> node_metrics;
  // The PDB reflector's handler; the frameworks' pod_disruption_budgets lists it (and shares it, so
  // it outlives them whatever the order of destruction).
  std::shared_ptr<PodDisruptionBudgetStore> pdb_store;
  // The Services, ReplicationControllers, ReplicaSets and StatefulSets behind PodTopologySpread's
  // default constraints (the frameworks' spread_selector_lister); outlives the frameworks.
  std::unique_ptr<WorkloadSelectorLister> workload_selectors;
  // The Namespaces (cluster-scoped: under ""), whose labels InterPodAffinity's namespaceSelector
  // terms match (the frameworks' namespace_labels shares it).
  std::shared_ptr<NamespacedObjectStore<api::Namespace>> namespaces;
  // The claims, volumes and classes the volume plugins read (the frameworks' storage_lister).
  std::unique_ptr<StorageObjectStores> storage;
  // The claims, slices and classes DynamicResources reads (the frameworks' resource_lister).
  std::unique_ptr<ResourceObjectStores> resources;
  std::map<std::string, std::unique_ptr<framework::Framework>, std::less<>> frameworks;
  std::unique_ptr<RealClock> clock;
  std::unique_ptr<Cache> cache;
  std::unique_ptr<SchedulingQueue> queue;
  std::shared_ptr<QueueActivator> queue_activator;  // shared by every framework's Activate
  std::unique_ptr<RestPodStatusWriter> status_writer;
  std::unique_ptr<Scheduler> scheduler;
  std::shared_ptr<PodEventHandler> pod_handler;
  std::shared_ptr<NodeEventHandler> node_handler;
  std::unique_ptr<client::Reflector<api::Pod>> pod_reflector;
  std::unique_ptr<client::Reflector<api::Node>> node_reflector;
  // The other reflectors (PodDisruptionBudgets, the workloads, Namespaces, the storage and the
  // dynamic resource kinds), owned here.
  std::vector<std::shared_ptr<void>> other_reflectors;
  // Every reflector, nodes first, then pods, then the others: the order they start in.
  std::vector<Informer> informers;
  // Start/Stop may come from different threads (a leader-election callback starts scheduling; the
  // main thread stops): lifecycle_mu orders them, so nothing starts after Stop.
  base::Mutex lifecycle_mu;
  std::thread scheduling_thread ABSL_GUARDED_BY(lifecycle_mu);
  bool informers_started ABSL_GUARDED_BY(lifecycle_mu) = false;
  bool stopped ABSL_GUARDED_BY(lifecycle_mu) = false;
  std::atomic<bool> scheduling_started{false};
};

SchedulerApp::SchedulerApp(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {
  scheduler_ = impl_->scheduler.get();
  cache_ = impl_->cache.get();
}

SchedulerApp::~SchedulerApp() {
  Stop();
  if (impl_ != nullptr && impl_->options.metrics != nullptr) {
    impl_->options.metrics->SetCacheSizeSource(nullptr);
    impl_->options.metrics->SetInformerSkipsSource(nullptr);
    impl_->options.metrics->SetPluginEvaluationSource(nullptr);
  }
}

absl::StatusOr<std::unique_ptr<SchedulerApp>> SchedulerApp::Create(
    SchedulerAppOptions options, const framework::Registry& registry) {
  auto impl = std::make_unique<Impl>();
  if (options.profiles.empty()) options.profiles.push_back(DefaultProfile(registry));
  impl->options = std::move(options);
  const SchedulerAppOptions& opts = impl->options;

  client::RestClientOptions client_options;
  if (opts.metrics != nullptr) {
    client_options.observer = opts.metrics->rest_client_observer();
    client_options.exec_observer = opts.metrics->exec_plugin_observer();
  }
  absl::StatusOr<std::shared_ptr<client::RestClient>> client =
      client::NewRestClient(opts.rest_config, client_options);
  if (!client.ok()) return client.status();
  impl->client = *client;
  // Events travel over HTTP/2 (one multiplexed connection, as client-go's) while bindings keep
  // HTTP/1.1: nothing waits on an event, so HTTP/2's extra latency through the API server costs
  // nothing there, and the up to 64 keep-alive TLS connections the events client held were 2-3 MiB
  // of the daemon's peak RSS (docs/bench/20261202-tls-stream-ab). KSCHED_HTTP2=0 or DISABLE_HTTP2
  // turns it off, KSCHED_HTTP2=1 turns it on for every client.
  client::TransportOptions event_transport;
  event_transport.http2 = true;
  absl::StatusOr<std::shared_ptr<client::RestClient>> event_client =
      client::NewRestClient(opts.rest_config, client_options, event_transport);
  if (!event_client.ok()) return event_client.status();
  impl->event_client = *event_client;
  if (!opts.extenders.empty()) {
    impl->extender_objects = std::make_unique<RestExtenderObjects>(impl->client);
    for (const config::Extender& config : opts.extenders) {
      absl::StatusOr<std::unique_ptr<HttpExtender>> extender = HttpExtender::Create(config, *impl->extender_objects);
      if (!extender.ok()) {
        return absl::InvalidArgumentError("extender " + config.url_prefix + ": " +
                                          std::string(extender.status().message()));
      }
      impl->extenders.push_back(*std::move(extender));
    }
  }
  impl->parallelizer = std::make_unique<framework::Parallelizer>(opts.parallelism);
  if (opts.metrics != nullptr) impl->parallelizer->CountGoroutinesIn(&opts.metrics->goroutines());
  impl->cluster_api = std::make_unique<RestClusterApi>(impl->client);
  impl->clock = std::make_unique<RealClock>();
  impl->cache = std::make_unique<Cache>();
  PrometheusCollectorOptions collector_options;
  collector_options.metrics = opts.metrics;
  impl->node_metrics = std::make_unique<PrometheusCollector>(std::move(collector_options));
  impl->pdb_store = std::make_shared<PodDisruptionBudgetStore>();
  impl->workload_selectors = std::make_unique<WorkloadSelectorLister>();
  impl->namespaces = std::make_shared<NamespacedObjectStore<api::Namespace>>();
  impl->storage = std::make_unique<StorageObjectStores>();
  impl->resources = std::make_unique<ResourceObjectStores>();

  std::map<std::string, std::vector<std::pair<std::string, framework::ClusterEventWithHint>>> events;
  for (const framework::ProfileConfig& profile : opts.profiles) {
    if (impl->frameworks.contains(profile.scheduler_name)) {
      return absl::InvalidArgumentError("profiles: duplicate schedulerName \"" +
                                        profile.scheduler_name + "\"");
    }
    auto recorder =
        std::make_unique<RestEventRecorder>(impl->event_client, profile.scheduler_name, opts.hostname);
    framework::FrameworkServices services;
    services.parallelizer = impl->parallelizer.get();
    services.cluster_api = impl->cluster_api.get();
    services.event_recorder = recorder.get();
    services.metrics_recorder = opts.metrics;
    services.node_metrics = impl->node_metrics.get();
    services.pod_disruption_budgets = [store = impl->pdb_store] { return store->List(); };
    services.spread_selector_lister = impl->workload_selectors.get();
    services.storage_lister = impl->storage.get();
    services.resource_lister = impl->resources.get();
    for (const std::unique_ptr<HttpExtender>& extender : impl->extenders) {
      services.preemption_extenders.push_back(extender.get());
    }
    services.pod_exists = [raw = impl.get()](std::string_view ns, std::string_view name) {
      if (raw->pod_reflector == nullptr) return true;  // not watching yet: assume it is there
      return raw->pod_reflector->Get(std::string(ns) + "/" + std::string(name)).has_value();
    };
    services.namespace_labels = [store = impl->namespaces](std::string_view name) -> std::optional<api::Labels> {
      const std::shared_ptr<const api::Namespace> ns = store->Get("", name);
      if (ns == nullptr) return std::nullopt;
      return ns->metadata.labels;
    };
    absl::StatusOr<std::unique_ptr<framework::Framework>> framework =
        framework::Framework::Create(registry, profile, services);
    if (!framework.ok()) {
      return absl::InvalidArgumentError("creating profile for scheduler name " + profile.scheduler_name +
                                        ": " + std::string(framework.status().message()));
    }
    events[profile.scheduler_name] = (*framework)->registered_events();
    impl->recorders[profile.scheduler_name] = std::move(recorder);
    impl->frameworks[profile.scheduler_name] = *std::move(framework);
  }

  // Every profile must sort the queue the same way (validated by the config layer); the first
  // one's QueueSort orders the shared queue.
  const framework::QueueSortPlugin& sort = impl->frameworks.begin()->second->queue_sort();
  Impl* raw = impl.get();
  // The informer's pods, for the nominator's "still there and unbound?" check and for requeues.
  auto informer_pod = [raw](std::string_view ns, std::string_view name) -> std::shared_ptr<const api::Pod> {
    if (raw->pod_reflector == nullptr) return nullptr;
    std::optional<api::Pod> pod = raw->pod_reflector->Get(std::string(ns) + "/" + std::string(name));
    if (!pod.has_value()) return nullptr;
    return std::make_shared<const api::Pod>(*std::move(pod));
  };
  SchedulingQueueOptions queue_options = opts.queue;
  queue_options.pod_lister = informer_pod;
  queue_options.metrics = opts.metrics;
  impl->queue = std::make_unique<SchedulingQueue>(
      std::move(queue_options), *impl->clock,
      [&sort](const framework::QueuedPodInfo& a, const framework::QueuedPodInfo& b) {
        return sort.Less(a, b);
      },
      [raw](const api::Pod& pod) -> framework::Status {
        auto it = raw->frameworks.find(pod.spec.scheduler_name);
        if (it == raw->frameworks.end()) return framework::Status();
        return it->second->RunPreEnqueuePlugins(pod);
      },
      std::move(events));
  // Nominated pods are filtered with the queue's nominator; preemption activates pods through the
  // queue (from its own threads: the queue locks, the activator outlives the queue safely).
  impl->queue_activator = std::make_shared<QueueActivator>(impl->queue.get());
  for (auto& [name, framework] : impl->frameworks) {
    framework->SetNominator(impl->queue.get());
    framework->SetActivate(
        [activator = impl->queue_activator](const api::Pod& pod) { activator->Activate(pod); });
  }

  impl->status_writer = std::make_unique<RestPodStatusWriter>(impl->client, 4);
  std::map<std::string, framework::Framework*, std::less<>> profiles;
  for (auto& [name, framework] : impl->frameworks) profiles[name] = framework.get();
  SchedulerOptions scheduler_options;
  scheduler_options.percentage_of_nodes_to_score = opts.percentage_of_nodes_to_score;
  scheduler_options.binding_threads = opts.binding_threads;
  scheduler_options.seed = opts.seed;
  scheduler_options.metrics = opts.metrics;
  scheduler_options.clock = impl->clock.get();
  scheduler_options.nominated_node_name_for_expectation = opts.nominated_node_name_for_expectation;
  for (const std::unique_ptr<HttpExtender>& extender : impl->extenders) {
    scheduler_options.extenders.push_back(extender.get());
  }
  impl->scheduler = std::make_unique<Scheduler>(
      scheduler_options, *impl->cache, *impl->queue, std::move(profiles),
      informer_pod,
      *impl->status_writer);

  impl->pod_handler =
      std::make_shared<PodEventHandler>(*impl->cache, *impl->queue, *impl->scheduler, opts.metrics);
  impl->node_handler = std::make_shared<NodeEventHandler>(*impl->cache, *impl->queue, opts.metrics);
  // client-go's informer_* metrics of each informer, when there is a registry.
  auto informer_observer = [metrics = opts.metrics](const std::string& path) {
    return metrics != nullptr ? metrics->InformerObserverFor(path) : nullptr;
  };
  client::ReflectorOptions pod_options;
  pod_options.path = "/api/v1/pods";
  pod_options.field_selector = std::string(kNonTerminalPods);
  pod_options.observer = informer_observer(pod_options.path);
  impl->pod_reflector =
      std::make_unique<client::Reflector<api::Pod>>(impl->client, pod_options, impl->pod_handler);
  client::ReflectorOptions node_options;
  node_options.path = "/api/v1/nodes";
  node_options.observer = informer_observer(node_options.path);
  impl->node_reflector =
      std::make_unique<client::Reflector<api::Node>>(impl->client, node_options, impl->node_handler);
  impl->informers.push_back(MakeInformer("nodes", impl->node_reflector.get()));
  impl->informers.push_back(MakeInformer("pods", impl->pod_reflector.get()));
  // Every object of these kinds in every namespace, as upstream's shared informers list them.
  auto add_reflector = [&impl, &informer_observer](auto kind, std::string resource, std::string path, auto handler) {
    using T = typename decltype(kind)::type;
    client::ReflectorOptions reflector_options;
    reflector_options.path = std::move(path);
    reflector_options.observer = informer_observer(reflector_options.path);
    auto reflector = std::make_shared<client::Reflector<T>>(
        impl->client, reflector_options, std::shared_ptr<client::ReflectorHandler<T>>(std::move(handler)));
    impl->informers.push_back(MakeInformer(std::move(resource), reflector.get()));
    impl->other_reflectors.push_back(std::move(reflector));
  };
  const WorkloadSelectorLister& selectors = *impl->workload_selectors;
  add_reflector(std::type_identity<api::PodDisruptionBudget>{}, "poddisruptionbudgets",
                std::string(kPodDisruptionBudgets), impl->pdb_store);
  add_reflector(std::type_identity<api::Service>{}, "services", "/api/v1/services", selectors.services());
  add_reflector(std::type_identity<api::ReplicationController>{}, "replicationcontrollers",
                "/api/v1/replicationcontrollers", selectors.replication_controllers());
  add_reflector(std::type_identity<api::ReplicaSet>{}, "replicasets", "/apis/apps/v1/replicasets",
                selectors.replica_sets());
  add_reflector(std::type_identity<api::StatefulSet>{}, "statefulsets", "/apis/apps/v1/statefulsets",
                selectors.stateful_sets());
  add_reflector(std::type_identity<api::Namespace>{}, "namespaces", "/api/v1/namespaces", impl->namespaces);
  // The volume plugins' objects; their changes are cluster events for the queue.
  const StorageObjectStores& storage = *impl->storage;
  add_reflector(std::type_identity<api::PersistentVolumeClaim>{}, "persistentvolumeclaims",
                "/api/v1/persistentvolumeclaims",
                std::make_shared<ObjectEventHandler<api::PersistentVolumeClaim>>(storage.claims(), *impl->queue, opts.metrics));
  add_reflector(std::type_identity<api::PersistentVolume>{}, "persistentvolumes", "/api/v1/persistentvolumes",
                std::make_shared<ObjectEventHandler<api::PersistentVolume>>(storage.volumes(), *impl->queue, opts.metrics));
  add_reflector(std::type_identity<api::StorageClass>{}, "storageclasses", "/apis/storage.k8s.io/v1/storageclasses",
                std::make_shared<ObjectEventHandler<api::StorageClass>>(storage.classes(), *impl->queue, opts.metrics));
  add_reflector(std::type_identity<api::CSINode>{}, "csinodes", "/apis/storage.k8s.io/v1/csinodes",
                std::make_shared<ObjectEventHandler<api::CSINode>>(storage.csi_nodes(), *impl->queue, opts.metrics));
  add_reflector(std::type_identity<api::VolumeAttachment>{}, "volumeattachments",
                "/apis/storage.k8s.io/v1/volumeattachments",
                std::make_shared<ObjectEventHandler<api::VolumeAttachment>>(storage.attachments(), *impl->queue, opts.metrics));
  add_reflector(std::type_identity<api::CSIDriver>{}, "csidrivers", "/apis/storage.k8s.io/v1/csidrivers",
                std::make_shared<ObjectEventHandler<api::CSIDriver>>(storage.csi_drivers(), *impl->queue, opts.metrics));
  add_reflector(std::type_identity<api::CSIStorageCapacity>{}, "csistoragecapacities",
                "/apis/storage.k8s.io/v1/csistoragecapacities",
                std::make_shared<ObjectEventHandler<api::CSIStorageCapacity>>(storage.capacities(), *impl->queue, opts.metrics));
  // DynamicResources' objects (resource.k8s.io/v1, served by default since v1.34); their changes are
  // cluster events for the queue.
  const ResourceObjectStores& resources = *impl->resources;
  add_reflector(std::type_identity<api::ResourceClaim>{}, "resourceclaims", "/apis/resource.k8s.io/v1/resourceclaims",
                std::make_shared<ObjectEventHandler<api::ResourceClaim>>(resources.claims(), *impl->queue, opts.metrics));
  add_reflector(std::type_identity<api::ResourceSlice>{}, "resourceslices", "/apis/resource.k8s.io/v1/resourceslices",
                std::make_shared<ObjectEventHandler<api::ResourceSlice>>(resources.slices(), *impl->queue, opts.metrics));
  add_reflector(std::type_identity<api::DeviceClass>{}, "deviceclasses", "/apis/resource.k8s.io/v1/deviceclasses",
                std::make_shared<ObjectEventHandler<api::DeviceClass>>(resources.classes(), *impl->queue, opts.metrics));
  if (opts.metrics != nullptr) {
    opts.metrics->SetInformerSkipsSource([raw] {
      std::vector<metrics::InformerSkips> skips;
      skips.reserve(raw->informers.size());
      for (const Informer& informer : raw->informers) {
        const client::ReflectorStats stats = informer.stats();
        skips.push_back({informer.resource, stats.decode_errors, stats.oversized});
      }
      return skips;
    });
    opts.metrics->SetPluginEvaluationSource([raw] {
      std::vector<metrics::PluginEvaluationCount> counts;
      for (const auto& [profile, runtime] : raw->frameworks) {
        for (const framework::Framework::PluginEvaluations& evaluated : runtime->PluginEvaluationCounts()) {
          counts.push_back({evaluated.plugin, framework::ExtensionPointName(evaluated.point), profile, evaluated.count});
        }
      }
      return counts;
    });
    opts.metrics->SetCacheSizeSource([cache = impl->cache.get()] {
      return metrics::CacheSizeSnapshot{static_cast<double>(cache->NodeCount()),
                                        static_cast<double>(cache->PodCount()),
                                        static_cast<double>(cache->AssumedPodCount())};
    });
  }
  return std::unique_ptr<SchedulerApp>(new SchedulerApp(std::move(impl)));
}

std::vector<std::shared_ptr<const api::Pod>> SchedulerApp::InformerPods() const {
  return impl_->pod_reflector->SharedList();
}

void SchedulerApp::LogDebugDump() const {
  // upstream debugger CacheDumper.DumpAll: the cached NodeInfos, then the scheduling queue, one
  // line per pending pod as its printPod.
  SPDLOG_INFO("Dump of cached NodeInfo nodes=\"{}\"", impl_->cache->Dump());
  const SchedulingQueue::PendingPodList pending = impl_->queue->PendingPods();
  std::string pods;
  for (const std::shared_ptr<const api::Pod>& pod : pending.pods) {
    pods += fmt::format("name: {}, namespace: {}, uid: {}, phase: {}, nominated node: {}\n", pod->metadata.name,
                        pod->metadata.namespace_, pod->metadata.uid, pod->status.phase.view(),
                        pod->status.nominated_node_name);
  }
  SPDLOG_INFO("Dump of scheduling queue summary=\"{}\" pods=\"{}\"", pending.summary, pods);
}

bool SchedulerApp::synced() const {
  for (const Informer& informer : impl_->informers) {
    if (!informer.has_synced()) return false;
  }
  return true;
}

absl::Status SchedulerApp::Start(std::chrono::milliseconds sync_timeout) {
  if (absl::Status synced = StartInformers(sync_timeout); !synced.ok()) return synced;
  StartScheduling();
  return absl::OkStatus();
}

absl::Status SchedulerApp::StartInformers(std::chrono::milliseconds sync_timeout) {
  {
    base::MutexLock lock(&impl_->lifecycle_mu);
    if (impl_->stopped) return absl::CancelledError("the scheduler is stopped");
    if (!impl_->informers_started) {
      impl_->informers_started = true;
      // Nodes first, so that the first pods meet a populated cache (as upstream's informers,
      // which both start before WaitForCacheSync).
      for (const Informer& informer : impl_->informers) informer.start();
      // Node metrics warm up with the caches (a follower keeps them warm too).
      impl_->node_metrics->Start();
    }
  }
  const auto deadline = std::chrono::steady_clock::now() + sync_timeout;
  const auto left = [&] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
  };
  std::string counts;
  for (const Informer& informer : impl_->informers) {
    if (!informer.wait_for_sync(left())) {
      // Name the cause when there is one: most often RBAC lacking `list` on the resource (HTTP 403).
      const absl::Status list_error = informer.last_list_error();
      return absl::DeadlineExceededError(
          "the " + informer.resource + " informer did not sync within " + std::to_string(sync_timeout.count()) +
          " ms" + (list_error.ok() ? std::string() : "; its last list failed: " + std::string(list_error.message())));
    }
    if (!counts.empty()) counts += ", ";
    counts += std::to_string(informer.size()) + " " + informer.resource;
  }
  SPDLOG_INFO("informers synced: {}", counts);
  return absl::OkStatus();
}

void SchedulerApp::StartScheduling() {
  base::MutexLock lock(&impl_->lifecycle_mu);
  if (impl_->stopped || impl_->scheduling_started.exchange(true)) return;
  impl_->queue->Run();
  impl_->scheduling_thread = std::thread([this] { impl_->scheduler->Run(); });
}

bool SchedulerApp::scheduling() const { return impl_->scheduling_started.load(); }

void SchedulerApp::Stop() {
  if (impl_ == nullptr) return;
  base::MutexLock lock(&impl_->lifecycle_mu);
  if (impl_->stopped) return;
  impl_->stopped = true;
  impl_->queue->Close();
  if (impl_->scheduling_thread.joinable()) impl_->scheduling_thread.join();
  impl_->scheduler->DrainBindings();
  for (const Informer& informer : impl_->informers) informer.stop();
  impl_->node_metrics->Stop();
}

}  // namespace ksched::scheduler
