#include "scheduler/metrics/informer_metrics.h"

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace ksched::scheduler::metrics {
namespace {

// fifoProcessingLatency's buckets.
const std::vector<double>& ProcessingLatencyBuckets() {
  static const std::vector<double> kBuckets = {0.001, 0.005, 0.01, 0.025, 0.05, 0.1,
                                               0.25,  0.5,   1,    2.5,   5,    10};
  return kBuckets;
}

class PrometheusInformerObserver final : public client::InformerObserver {
 public:
  PrometheusInformerObserver(prometheus::Gauge& queued, prometheus::Histogram& latency,
                             prometheus::Gauge& resource_version)
      : queued_(queued), latency_(latency), resource_version_(resource_version) {}

  void SetQueuedItems(std::size_t items) override { queued_.Set(static_cast<double>(items)); }
  void ObserveProcessing(std::chrono::steady_clock::duration elapsed) override {
    latency_.Observe(std::chrono::duration<double>(elapsed).count());
  }
  void SetStoreResourceVersion(std::string_view resource_version) override {
    if (const std::optional<std::int64_t> value = client::ResourceVersionForMetrics(resource_version)) {
      resource_version_.Set(static_cast<double>(*value));
    }
  }

 private:
  prometheus::Gauge& queued_;
  prometheus::Histogram& latency_;
  prometheus::Gauge& resource_version_;
};

}  // namespace

InformerMetrics::InformerMetrics(prometheus::Registry& registry, RegisteredFamilies& families)
    : queued_items_(prometheus::BuildGauge()
                        .Name("informer_queued_items")
                        .Help(families.Help("informer_queued_items", Stability::kAlpha,
                                            "Number of items currently queued in the FIFO."))
                        .Register(registry)),
      processing_latency_(prometheus::BuildHistogram()
                              .Name("informer_processing_latency_seconds")
                              .Help(families.Help("informer_processing_latency_seconds", Stability::kAlpha,
                                                  "Time taken to process events after popping from the queue."))
                              .Register(registry)),
      store_resource_version_(prometheus::BuildGauge()
                                  .Name("informer_store_resource_version")
                                  .Help(families.Help("informer_store_resource_version", Stability::kAlpha,
                                                      "The 15 least significant digits of the resource version of "
                                                      "the store."))
                                  .Register(registry)) {}

std::shared_ptr<client::InformerObserver> InformerMetrics::ForInformer(std::string_view group,
                                                                       std::string_view version,
                                                                       std::string_view resource) {
  const std::map<std::string, std::string> labels = {{"name", "kube-scheduler"},
                                                     {"group", std::string(group)},
                                                     {"version", std::string(version)},
                                                     {"resource", std::string(resource)}};
  base::MutexLock lock(&mu_);
  return std::make_shared<PrometheusInformerObserver>(queued_items_.Add(labels),
                                                      processing_latency_.Add(labels, ProcessingLatencyBuckets()),
                                                      store_resource_version_.Add(labels));
}

GroupVersionResource GroupVersionResourceOfPath(std::string_view path) {
  std::vector<std::string_view> parts;
  while (!path.empty()) {
    if (path.front() == '/') {
      path.remove_prefix(1);
      continue;
    }
    const std::size_t slash = path.find('/');
    parts.push_back(path.substr(0, slash));
    if (slash == std::string_view::npos) break;
    path.remove_prefix(slash);
  }
  // api/<version>/<resource> or apis/<group>/<version>/<resource>.
  if (parts.size() == 3 && parts[0] == "api") return {"", std::string(parts[1]), std::string(parts[2])};
  if (parts.size() == 4 && parts[0] == "apis") {
    return {std::string(parts[1]), std::string(parts[2]), std::string(parts[3])};
  }
  return {"", "", parts.empty() ? std::string() : std::string(parts.back())};
}

}  // namespace ksched::scheduler::metrics
