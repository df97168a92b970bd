// A Scheduler with its collaborators for the loop and event-handler tests (scheduler_test,
// event_handlers_test): a real Cache and SchedulingQueue (FakeClock, so no backoff ever completes
// by itself), framework runtimes built from ProfileBuilders (each with its own recording event
// recorder), the fake ClusterApi, a recording PodStatusWriter, and the informer's pods as a map.
//
// Thread-safety: drive it from the test thread; the status writer and the informer map lock, as
// binding threads reach them.
#pragma once

#include <catch2/catch.hpp>

#include <chrono>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "framework/parallelizer.h"
#include "scheduler/cache.h"
#include "scheduler/clock.h"
#include "scheduler/scheduler.h"
#include "scheduler/scheduling_queue.h"
#include "scheduling_loop_fakes.h"

namespace ksched::scheduler::testing {

struct WrittenCondition {
  std::string pod;  // "ns/name"
  api::PodCondition condition;
  std::optional<framework::NominatingInfo> nominating;
  // status.nominatedNodeName of the pod written (what a patch is computed against).
  std::string pod_nominated_node_name = {};
};

class FakeStatusWriter final : public PodStatusWriter {
 public:
  void UpdatePodScheduledCondition(std::shared_ptr<const api::Pod> pod, api::PodCondition condition,
                                   std::optional<framework::NominatingInfo> nominating) override {
    std::lock_guard lock(mu_);
    written_.push_back(WrittenCondition{pod->metadata.namespace_ + "/" + pod->metadata.name,
                                        std::move(condition), std::move(nominating),
                                        pod->status.nominated_node_name.str()});
  }
  absl::Status SetNominatedNodeName(const api::Pod& pod, const std::string& node_name) override {
    std::lock_guard lock(mu_);
    nominations_.push_back(pod.metadata.namespace_ + "/" + pod.metadata.name + " -> " + node_name);
    if (on_nominate_) on_nominate_(pod, node_name);
    return nominate_answer_;
  }
  std::vector<WrittenCondition> written() const {
    std::lock_guard lock(mu_);
    return written_;
  }
  // "ns/name -> node" per SetNominatedNodeName call.
  std::vector<std::string> nominations() const {
    std::lock_guard lock(mu_);
    return nominations_;
  }
  // What SetNominatedNodeName answers, and a hook it calls (under the writer's lock).
  void SetNominateAnswer(absl::Status answer) {
    std::lock_guard lock(mu_);
    nominate_answer_ = std::move(answer);
  }
  void OnNominate(std::function<void(const api::Pod&, const std::string&)> hook) {
    std::lock_guard lock(mu_);
    on_nominate_ = std::move(hook);
  }

 private:
  mutable std::mutex mu_;
  std::vector<WrittenCondition> written_;
  std::vector<std::string> nominations_;
  absl::Status nominate_answer_;
  std::function<void(const api::Pod&, const std::string&)> on_nominate_;
};

// The loop with its collaborators. Members are destroyed in reverse: the scheduler (joining its
// binding threads) first, the runtimes and their services last.
class Harness {
 public:
  explicit Harness(std::vector<ProfileBuilder> builders, FakeClusterApi::BindFn bind = {},
                   BindMode bind_mode = BindMode::kAsync, bool nominated_node_name_for_expectation = true)
      : cluster_api_(std::move(bind), bind_mode) {
    QueueingHintRegistrations hints;
    std::map<std::string, framework::Framework*, std::less<>> profiles;
    for (const ProfileBuilder& builder : builders) {
      auto recorder = std::make_unique<FakeEventRecorder>();
      framework::FrameworkServices services;
      services.parallelizer = &parallelizer_;
      services.cluster_api = &cluster_api_;
      services.event_recorder = recorder.get();
      std::unique_ptr<framework::Framework> framework = builder.Build(services);
      const std::string name = framework->profile_name();
      hints[name] = framework->registered_events();
      profiles[name] = framework.get();
      recorders_[name] = std::move(recorder);
      frameworks_[name] = std::move(framework);
    }
    const framework::QueueSortPlugin& sort = frameworks_.begin()->second->queue_sort();
    queue_ = std::make_unique<SchedulingQueue>(
        SchedulingQueueOptions{}, clock_,
        [&sort](const framework::QueuedPodInfo& a, const framework::QueuedPodInfo& b) {
          return sort.Less(a, b);
        },
        [this](const api::Pod& pod) {
          auto it = frameworks_.find(pod.spec.scheduler_name);
          return it == frameworks_.end() ? framework::Status()
                                         : it->second->RunPreEnqueuePlugins(pod);
        },
        std::move(hints));
    for (auto& [name, framework] : frameworks_) framework->SetNominator(queue_.get());
    SchedulerOptions options;
    options.binding_threads = 2;
    options.seed = 1;
    options.nominated_node_name_for_expectation = nominated_node_name_for_expectation;
    scheduler_ = std::make_unique<Scheduler>(
        options, cache_, *queue_, std::move(profiles),
        [this](std::string_view ns, std::string_view name) -> std::shared_ptr<const api::Pod> {
          std::lock_guard lock(informer_mu_);
          auto it = informer_.find(std::string(ns) + "/" + std::string(name));
          return it == informer_.end() ? nullptr : it->second;
        },
        writer_);
  }
  ~Harness() { queue_->Close(); }

  void AddNode(const std::string& name) { cache_.AddNode(MakeNode(name)); }
  // An unscheduled pod arrives: the informer has it, the queue gets it.
  void AddPod(const api::Pod& pod) {
    SetInformerPod(pod);
    queue_->Add(framework::PodInfo::CreateOrDie(std::make_shared<const api::Pod>(pod)));
  }
  void SetInformerPod(const api::Pod& pod) {
    std::lock_guard lock(informer_mu_);
    informer_[pod.metadata.namespace_ + "/" + pod.metadata.name] =
        std::make_shared<const api::Pod>(pod);
  }
  void RemoveInformerPod(const api::Pod& pod) {
    std::lock_guard lock(informer_mu_);
    informer_.erase(pod.metadata.namespace_ + "/" + pod.metadata.name);
  }

  // One scheduling cycle; fails the test instead of blocking when nothing is queued.
  void ScheduleOne() {
    std::future<bool> ran =
        std::async(std::launch::async, [this] { return scheduler_->ScheduleOne(); });
    if (ran.wait_for(std::chrono::seconds(5)) != std::future_status::ready) {
      queue_->Close();
      FAIL("ScheduleOne found nothing to schedule");
    }
    REQUIRE(ran.get());
  }
  void DrainBindings() { scheduler_->DrainBindings(); }

  QueuedIn Where(const api::Pod& pod) const {
    return queue_->Where(pod.metadata.namespace_, pod.metadata.name);
  }
  // The events of a profile's recorder.
  std::vector<RecordedEvent> Events(std::string_view profile = api::kDefaultSchedulerName) const {
    return recorders_.find(profile)->second->events();
  }
  framework::Framework& Profile(std::string_view name = api::kDefaultSchedulerName) {
    return *frameworks_.find(name)->second;
  }

  Cache& cache() { return cache_; }
  SchedulingQueue& queue() { return *queue_; }
  Scheduler& scheduler() { return *scheduler_; }
  const FakeStatusWriter& writer() const { return writer_; }
  FakeStatusWriter& writer() { return writer_; }
  const FakeClusterApi& cluster_api() const { return cluster_api_; }

 private:
  FakeClock clock_;
  framework::Parallelizer parallelizer_{2};
  FakeClusterApi cluster_api_;
  std::map<std::string, std::unique_ptr<FakeEventRecorder>, std::less<>> recorders_;
  std::map<std::string, std::unique_ptr<framework::Framework>, std::less<>> frameworks_;
  Cache cache_;
  FakeStatusWriter writer_;
  std::mutex informer_mu_;
  std::map<std::string, std::shared_ptr<const api::Pod>> informer_;  // guarded by informer_mu_
  std::unique_ptr<SchedulingQueue> queue_;
  std::unique_ptr<Scheduler> scheduler_;
};

}  // namespace ksched::scheduler::testing
