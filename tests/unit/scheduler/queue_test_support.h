// Helpers for the scheduling-queue tests: a pod builder, queueing hints with fixed answers, the
// default QueueSort and PreEnqueue plugins wired as the queue's callbacks, and a Pop that cannot
// hang a test.
#pragma once

#include <catch2/catch.hpp>

#include <chrono>
#include <future>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "fmt/core.h"
#include "api/pod.h"
#include "api/quantity.h"
#include "framework/cluster_event.h"
#include "framework/pod_info.h"
#include "framework/status.h"
#include "plugins/queue_sort/priority_sort.h"
#include "plugins/scheduling_gates/scheduling_gates.h"
#include "scheduler/clock.h"
#include "scheduler/scheduling_queue.h"

namespace ksched::scheduler::testing {

class PodBuilder {
 public:
  explicit PodBuilder(std::string name, std::string ns = "ns1") {
    pod_.metadata.uid = fmt::format("{}-{}-uid", ns, name);
    pod_.metadata.name = std::move(name);
    pod_.metadata.namespace_ = std::move(ns);
    pod_.spec.scheduler_name = std::string(api::kDefaultSchedulerName);
  }
  PodBuilder& Uid(std::string uid) {
    pod_.metadata.uid = std::move(uid);
    return *this;
  }
  PodBuilder& Priority(std::int32_t priority) {
    pod_.spec.priority = priority;
    return *this;
  }
  PodBuilder& Label(std::string key, std::string value) {
    pod_.metadata.labels.Set(std::move(key), std::move(value));
    return *this;
  }
  PodBuilder& Annotation(std::string key, std::string value) {
    pod_.metadata.annotations.Set(std::move(key), std::move(value));
    return *this;
  }
  PodBuilder& NominatedNode(std::string node) {
    pod_.status.nominated_node_name = std::move(node);
    return *this;
  }
  PodBuilder& Node(std::string node) {
    pod_.spec.node_name = std::move(node);
    return *this;
  }
  PodBuilder& SchedulerName(std::string name) {
    pod_.spec.scheduler_name = std::move(name);
    return *this;
  }
  PodBuilder& Gates(std::vector<std::string> gates) {
    pod_.spec.scheduling_gates = std::move(gates);
    return *this;
  }
  PodBuilder& Toleration(std::string key) {
    api::Toleration toleration;
    toleration.key = std::move(key);
    toleration.op = std::string(api::kTolerationOpExists);
    pod_.spec.tolerations.push_back(std::move(toleration));
    return *this;
  }
  // One container per call, requesting `resource` = `quantity`.
  PodBuilder& Container(std::string_view resource, std::string_view quantity) {
    api::Container container;
    container.name = fmt::format("c{}", pod_.spec.containers.size());
    if (!resource.empty()) container.resources.requests.Set(std::string(resource), Q(quantity));
    pod_.spec.containers.push_back(std::move(container));
    return *this;
  }
  // A required pod-affinity term selecting pods labelled key=value in the pod's namespace.
  PodBuilder& RequiredAffinity(std::string key, std::string value) {
    api::PodAffinityTerm term;
    term.label_selector = api::LabelSelector{};
    term.label_selector->match_labels.Set(std::move(key), std::move(value));
    term.topology_key = "kubernetes.io/hostname";
    pod_.spec.affinity.pod_affinity.required.push_back(std::move(term));
    return *this;
  }

  api::Pod Obj() const { return pod_; }
  framework::PodInfoPtr Info() const {
    return framework::PodInfo::CreateOrDie(std::make_shared<const api::Pod>(pod_));
  }

 private:
  static api::Quantity Q(std::string_view text) {
    absl::StatusOr<api::Quantity> q = api::Quantity::Parse(text);
    REQUIRE(q.ok());
    return *q;
  }

  api::Pod pod_;
};

// "p7" (fmt rather than "p" + std::to_string: GCC 12's -Wrestrict misfires on the latter).
inline std::string Numbered(std::string_view prefix, int i) {
  return fmt::format("{}{}", prefix, i);
}

inline framework::PodInfoPtr Info(const api::Pod& pod) {
  return framework::PodInfo::CreateOrDie(std::make_shared<const api::Pod>(pod));
}

// Hints with a fixed answer; each counts its calls when given a counter.
inline framework::QueueingHintFn QueueHint(int* calls = nullptr) {
  return [calls](const api::Pod&, const framework::EventObjects&)
             -> absl::StatusOr<framework::QueueingHint> {
    if (calls != nullptr) ++*calls;
    return framework::QueueingHint::kQueue;
  };
}
inline framework::QueueingHintFn SkipHint(int* calls = nullptr) {
  return [calls](const api::Pod&, const framework::EventObjects&)
             -> absl::StatusOr<framework::QueueingHint> {
    if (calls != nullptr) ++*calls;
    return framework::QueueingHint::kQueueSkip;
  };
}
inline framework::QueueingHintFn ErrorHint() {
  return [](const api::Pod&, const framework::EventObjects&)
             -> absl::StatusOr<framework::QueueingHint> {
    return absl::InternalError("hint failed");
  };
}

inline framework::ClusterEvent Event(framework::EventResource resource,
                                     framework::ActionType action) {
  return framework::ClusterEvent{resource, action, ""};
}
inline framework::ClusterEvent NodeAdd() {
  return framework::ClusterEvent{framework::EventResource::kNode, framework::action::kAdd,
                                 "NodeAdd"};
}
inline framework::ClusterEvent PvAdd() {
  return framework::ClusterEvent{framework::EventResource::kPersistentVolume,
                                 framework::action::kAdd, "PersistentVolumeAdd"};
}

// PrioritySort's Less, as the runtime hands it to the queue.
inline SchedulingQueue::LessFn PrioritySortLess() {
  static const plugins::queue_sort::PrioritySort sort;
  return [](const framework::QueuedPodInfo& a, const framework::QueuedPodInfo& b) {
    return sort.Less(a, b);
  };
}

// SchedulingGates' PreEnqueue with the plugin name stamped, as the runtime does.
inline SchedulingQueue::PreEnqueueFn SchedulingGatesPreEnqueue() {
  return [](const api::Pod& pod) {
    plugins::scheduling_gates::SchedulingGates gates;
    framework::Status status = gates.PreEnqueue(pod);
    if (!status.IsSuccess()) status.WithPlugin(std::string(plugins::scheduling_gates::kName));
    return status;
  };
}

// The SchedulingGates registrations for the default profile, plus `extra`.
inline QueueingHintRegistrations Registrations(
    std::vector<std::pair<std::string, framework::ClusterEventWithHint>> extra = {}) {
  QueueingHintRegistrations hints;
  auto& profile = hints[std::string(api::kDefaultSchedulerName)];
  plugins::scheduling_gates::SchedulingGates gates;
  for (framework::ClusterEventWithHint& registration : gates.EventsToRegister()) {
    profile.emplace_back(std::string(plugins::scheduling_gates::kName), std::move(registration));
  }
  for (auto& entry : extra) profile.push_back(std::move(entry));
  return hints;
}

inline std::unique_ptr<SchedulingQueue> NewQueue(Clock& clock, QueueingHintRegistrations hints,
                                                 SchedulingQueueOptions options = {}) {
  return std::make_unique<SchedulingQueue>(std::move(options), clock, PrioritySortLess(),
                                           SchedulingGatesPreEnqueue(), std::move(hints));
}

// Pop, failing the test (and closing the queue to free the popping thread) instead of hanging
// when nothing can be popped within a few seconds.
inline framework::QueuedPodInfoPtr PopOrFail(SchedulingQueue& queue) {
  std::future<framework::QueuedPodInfoPtr> popped =
      std::async(std::launch::async, [&queue] { return queue.Pop(); });
  if (popped.wait_for(std::chrono::seconds(5)) != std::future_status::ready) {
    queue.Close();
    FAIL("Pop found nothing to pop");
  }
  framework::QueuedPodInfoPtr pod = popped.get();
  REQUIRE(pod != nullptr);
  return pod;
}

// Pops the next pod, checks its name and makes it look rejected by `plugins` (and Pending from
// `pending`), ready for AddUnschedulableIfNotPresent.
inline framework::QueuedPodInfoPtr PopAndReject(SchedulingQueue& queue, std::string_view name,
                                                std::initializer_list<std::string> plugins,
                                                std::initializer_list<std::string> pending = {}) {
  framework::QueuedPodInfoPtr pod = PopOrFail(queue);
  REQUIRE(pod->pod().metadata.name == name);
  for (const std::string& plugin : plugins) pod->unschedulable_plugins.insert(plugin);
  for (const std::string& plugin : pending) pod->pending_plugins.insert(plugin);
  return pod;
}

inline void Requeue(SchedulingQueue& queue, framework::QueuedPodInfoPtr pod) {
  REQUIRE(queue.AddUnschedulableIfNotPresent(std::move(pod), queue.SchedulingCycle()).ok());
}

}  // namespace ksched::scheduler::testing
