// Fakes for the scheduling-loop tests (schedule_algorithm_test, scheduler_test): plugins whose
// answers are functions given by the test, a ProfileBuilder that registers them in a Registry and
// builds a real framework::Framework (with the real PrioritySort and DefaultBinder), and recording
// ClusterApi / EventRecorder fakes.
//
// Thread-safety: the fakes' functions run where the framework calls them (Filter and Score on the
// parallelizer's workers, Bind on binding threads); tests keep their counters atomic. The recorders
// lock.
#pragma once

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "api/node.h"
#include "api/pod.h"
#include "framework/framework.h"
#include "framework/handle.h"
#include "framework/interface.h"
#include "framework/profile_config.h"
#include "framework/registry.h"
#include "plugins/default_binder/default_binder.h"
#include "plugins/queue_sort/priority_sort.h"

namespace ksched::scheduler::testing {

class FakePreFilter final : public framework::PreFilterPlugin {
 public:
  using Fn = std::function<std::pair<framework::PreFilterResult, framework::Status>(const api::Pod&)>;
  FakePreFilter(std::string name, Fn fn) : name_(std::move(name)), fn_(std::move(fn)) {}
  std::string_view Name() const override { return name_; }
  std::pair<framework::PreFilterResult, framework::Status> PreFilter(
      framework::CycleState& /*state*/, const api::Pod& pod,
      const std::vector<framework::NodeInfo*>& /*nodes*/) override {
    return fn_(pod);
  }

 private:
  std::string name_;
  Fn fn_;
};

// Registers `events` (the wildcard when none, which is what a plugin without EnqueueExtensions
// gets).
class FakeFilter final : public framework::FilterPlugin, public framework::EnqueueExtensions {
 public:
  using Fn = std::function<framework::Status(const api::Pod&, const framework::NodeInfo&)>;
  FakeFilter(std::string name, Fn fn, std::vector<framework::ClusterEventWithHint> events)
      : name_(std::move(name)), fn_(std::move(fn)), events_(std::move(events)) {}
  std::string_view Name() const override { return name_; }
  framework::Status Filter(const framework::CycleState& /*state*/, const api::Pod& pod,
                           const framework::NodeInfo& node) override {
    return fn_(pod, node);
  }
  std::vector<framework::ClusterEventWithHint> EventsToRegister() const override {
    if (!events_.empty()) return events_;
    return {framework::ClusterEventWithHint{
        framework::ClusterEvent{framework::EventResource::kWildCard, framework::action::kAll,
                                "WildCard"},
        nullptr}};
  }

 private:
  std::string name_;
  Fn fn_;
  std::vector<framework::ClusterEventWithHint> events_;
};

class FakePostFilter final : public framework::PostFilterPlugin {
 public:
  using Fn = std::function<std::pair<framework::PostFilterResult, framework::Status>(
      const api::Pod&, const framework::NodeToStatus&)>;
  FakePostFilter(std::string name, Fn fn) : name_(std::move(name)), fn_(std::move(fn)) {}
  std::string_view Name() const override { return name_; }
  std::pair<framework::PostFilterResult, framework::Status> PostFilter(
      framework::CycleState& /*state*/, const api::Pod& pod,
      const framework::NodeToStatus& statuses) override {
    return fn_(pod, statuses);
  }

 private:
  std::string name_;
  Fn fn_;
};

class FakePreScore final : public framework::PreScorePlugin {
 public:
  using Fn = std::function<framework::Status(const api::Pod&)>;
  FakePreScore(std::string name, Fn fn) : name_(std::move(name)), fn_(std::move(fn)) {}
  std::string_view Name() const override { return name_; }
  framework::Status PreScore(framework::CycleState& /*state*/, const api::Pod& pod,
                             const std::vector<const framework::NodeInfo*>& /*nodes*/) override {
    return fn_(pod);
  }

 private:
  std::string name_;
  Fn fn_;
};

// Raw scores must already be in [0, 100] (no NormalizeScore).
class FakeScore final : public framework::ScorePlugin {
 public:
  using Fn = std::function<std::int64_t(const api::Pod&, const framework::NodeInfo&)>;
  FakeScore(std::string name, Fn fn) : name_(std::move(name)), fn_(std::move(fn)) {}
  std::string_view Name() const override { return name_; }
  std::pair<std::int64_t, framework::Status> Score(const framework::CycleState& /*state*/,
                                                   const api::Pod& pod,
                                                   const framework::NodeInfo& node) override {
    return {fn_(pod, node), framework::Status()};
  }

 private:
  std::string name_;
  Fn fn_;
};

class FakeReserve final : public framework::ReservePlugin {
 public:
  using ReserveFn = std::function<framework::Status(const api::Pod&, const std::string&)>;
  using UnreserveFn = std::function<void(const api::Pod&, const std::string&)>;
  FakeReserve(std::string name, ReserveFn reserve, UnreserveFn unreserve)
      : name_(std::move(name)), reserve_(std::move(reserve)), unreserve_(std::move(unreserve)) {}
  std::string_view Name() const override { return name_; }
  framework::Status Reserve(framework::CycleState& /*state*/, const api::Pod& pod,
                            const std::string& node_name) override {
    return reserve_(pod, node_name);
  }
  void Unreserve(framework::CycleState& /*state*/, const api::Pod& pod,
                 const std::string& node_name) override {
    unreserve_(pod, node_name);
  }

 private:
  std::string name_;
  ReserveFn reserve_;
  UnreserveFn unreserve_;
};

class FakePermit final : public framework::PermitPlugin {
 public:
  using Fn = std::function<std::pair<framework::Status, std::chrono::milliseconds>(
      const api::Pod&, const std::string&)>;
  FakePermit(std::string name, Fn fn) : name_(std::move(name)), fn_(std::move(fn)) {}
  std::string_view Name() const override { return name_; }
  std::pair<framework::Status, std::chrono::milliseconds> Permit(
      framework::CycleState& /*state*/, const api::Pod& pod, const std::string& node_name) override {
    return fn_(pod, node_name);
  }

 private:
  std::string name_;
  Fn fn_;
};

// PreBind with a PreFlight (upstream tf.NewFakePreBindPlugin): `pre_flight` answers the PreFlight,
// `pre_bind` PreBind (both Success when empty); PreBind calls are counted.
class FakePreBind final : public framework::PreBindPlugin {
 public:
  using Fn = std::function<framework::Status(const api::Pod&, const std::string&)>;
  FakePreBind(std::string name, Fn pre_flight, Fn pre_bind, std::shared_ptr<std::atomic<int>> calls)
      : name_(std::move(name)), pre_flight_(std::move(pre_flight)), pre_bind_(std::move(pre_bind)),
        calls_(std::move(calls)) {}
  std::string_view Name() const override { return name_; }
  bool HasPreBindPreFlight() const override { return true; }
  framework::Status PreBindPreFlight(framework::CycleState& /*state*/, const api::Pod& pod,
                                     const std::string& node_name) override {
    return pre_flight_ ? pre_flight_(pod, node_name) : framework::Status();
  }
  framework::Status PreBind(framework::CycleState& /*state*/, const api::Pod& pod,
                            const std::string& node_name) override {
    if (calls_ != nullptr) calls_->fetch_add(1);
    return pre_bind_ ? pre_bind_(pod, node_name) : framework::Status();
  }

 private:
  std::string name_;
  Fn pre_flight_;
  Fn pre_bind_;
  std::shared_ptr<std::atomic<int>> calls_;
};

// A profile of fake plugins; every profile gets PrioritySort and DefaultBinder.
class ProfileBuilder {
 public:
  explicit ProfileBuilder(std::string scheduler_name = std::string(api::kDefaultSchedulerName)) {
    profile_.scheduler_name = std::move(scheduler_name);
    Register(std::string(plugins::queue_sort::kName), plugins::queue_sort::New,
             profile_.plugins.queue_sort);
    Register(std::string(plugins::default_binder::kName), plugins::default_binder::New,
             profile_.plugins.bind);
  }

  ProfileBuilder& PreFilter(const std::string& name, FakePreFilter::Fn fn) {
    return Add<FakePreFilter>(name, profile_.plugins.pre_filter, std::move(fn));
  }
  ProfileBuilder& Filter(const std::string& name, FakeFilter::Fn fn,
                         std::vector<framework::ClusterEventWithHint> events = {}) {
    return Add<FakeFilter>(name, profile_.plugins.filter, std::move(fn), std::move(events));
  }
  ProfileBuilder& PostFilter(const std::string& name, FakePostFilter::Fn fn) {
    return Add<FakePostFilter>(name, profile_.plugins.post_filter, std::move(fn));
  }
  ProfileBuilder& PreScore(const std::string& name, FakePreScore::Fn fn) {
    return Add<FakePreScore>(name, profile_.plugins.pre_score, std::move(fn));
  }
  ProfileBuilder& Score(const std::string& name, FakeScore::Fn fn) {
    return Add<FakeScore>(name, profile_.plugins.score, std::move(fn));
  }
  ProfileBuilder& Reserve(const std::string& name, FakeReserve::ReserveFn reserve,
                          FakeReserve::UnreserveFn unreserve) {
    return Add<FakeReserve>(name, profile_.plugins.reserve, std::move(reserve),
                            std::move(unreserve));
  }
  ProfileBuilder& Permit(const std::string& name, FakePermit::Fn fn) {
    return Add<FakePermit>(name, profile_.plugins.permit, std::move(fn));
  }
  ProfileBuilder& PreBind(const std::string& name, FakePreBind::Fn pre_flight, FakePreBind::Fn pre_bind,
                          std::shared_ptr<std::atomic<int>> calls = nullptr) {
    return Add<FakePreBind>(name, profile_.plugins.pre_bind, std::move(pre_flight), std::move(pre_bind),
                            std::move(calls));
  }
  ProfileBuilder& PercentageOfNodesToScore(std::int32_t percentage) {
    profile_.percentage_of_nodes_to_score = percentage;
    return *this;
  }

  std::unique_ptr<framework::Framework> Build(framework::FrameworkServices services) const {
    absl::StatusOr<std::unique_ptr<framework::Framework>> framework =
        framework::Framework::Create(registry_, profile_, std::move(services));
    INFO(framework.status().ToString());
    REQUIRE(framework.ok());
    return *std::move(framework);
  }

 private:
  void Register(const std::string& name, framework::PluginFactory factory,
                framework::PluginSet& point) {
    REQUIRE(registry_.Register(name, std::move(factory)).ok());
    point.enabled.push_back(framework::PluginRef{name, 0});
  }
  template <typename Fake, typename... Args>
  ProfileBuilder& Add(const std::string& name, framework::PluginSet& point, Args... args) {
    Register(
        name,
        [name, args...](const framework::PluginArgs*, framework::Handle&)
            -> absl::StatusOr<std::unique_ptr<framework::Plugin>> {
          return std::make_unique<Fake>(name, args...);
        },
        point);
    return *this;
  }

  framework::Registry registry_;
  framework::ProfileConfig profile_;
};

// Binds through `bind` (success when empty) and records every call.
// How FakeClusterApi binds: blocking the caller (the binding pool's way), or asynchronously, each
// BindPodAsync answered from a thread of its own (as RestClusterApi answers from the transport's).
enum class BindMode { kBlocking, kAsync };

class FakeClusterApi final : public framework::ClusterApi {
 public:
  using BindFn = std::function<framework::Status(const api::Pod&, const std::string&)>;
  explicit FakeClusterApi(BindFn bind = {}, BindMode mode = BindMode::kBlocking)
      : bind_(std::move(bind)), mode_(mode) {}
  ~FakeClusterApi() override {
    std::vector<std::thread> threads;
    {
      std::lock_guard lock(mu_);
      threads.swap(answer_threads_);
    }
    for (std::thread& thread : threads) thread.join();
  }
  FakeClusterApi(const FakeClusterApi&) = delete;
  FakeClusterApi& operator=(const FakeClusterApi&) = delete;

  bool BindsAsynchronously() const override { return mode_ == BindMode::kAsync; }
  void BindPodAsync(const api::Pod& pod, const std::string& node_name, BindCallback done) override {
    if (mode_ == BindMode::kBlocking) {
      done(BindPod(pod, node_name));
      return;
    }
    std::lock_guard lock(mu_);
    answer_threads_.emplace_back([this, pod, node_name, done = std::move(done)] {
      done(BindPod(pod, node_name));
    });
  }

  framework::Status BindPod(const api::Pod& pod, const std::string& node_name) override {
    {
      std::lock_guard lock(mu_);
      binds_.push_back(pod.metadata.namespace_ + "/" + pod.metadata.name + " -> " + node_name);
    }
    return bind_ ? bind_(pod, node_name) : framework::Status();
  }
  framework::Status EvictVictim(const api::Pod& /*victim*/, const std::string& /*message*/) override {
    return framework::Status::FromError("not faked");
  }
  framework::Status ClearNominatedNodeName(const api::Pod& /*pod*/) override {
    return framework::Status();
  }

  // "ns/name -> node" per call.
  std::vector<std::string> binds() const {
    std::lock_guard lock(mu_);
    return binds_;
  }

 private:
  BindFn bind_;
  const BindMode mode_;
  mutable std::mutex mu_;
  std::vector<std::string> binds_;            // guarded by mu_
  std::vector<std::thread> answer_threads_;   // guarded by mu_
};

struct RecordedEvent {
  std::string regarding;  // "ns/name"
  std::string type;
  std::string reason;
  std::string action;
  std::string note;

  friend bool operator==(const RecordedEvent&, const RecordedEvent&) = default;
};

inline std::ostream& operator<<(std::ostream& os, const RecordedEvent& event) {
  return os << "{" << event.regarding << " " << event.type << " " << event.reason << " "
            << event.action << " \"" << event.note << "\"}";
}

class FakeEventRecorder final : public framework::EventRecorder {
 public:
  void Eventf(const api::Pod& regarding, const api::Pod* /*related*/, std::string_view type,
              std::string_view reason, std::string_view action, std::string note) override {
    std::lock_guard lock(mu_);
    events_.push_back(RecordedEvent{regarding.metadata.namespace_ + "/" + regarding.metadata.name,
                                    std::string(type), std::string(reason), std::string(action),
                                    std::move(note)});
  }
  std::vector<RecordedEvent> events() const {
    std::lock_guard lock(mu_);
    return events_;
  }

 private:
  mutable std::mutex mu_;
  std::vector<RecordedEvent> events_;
};

inline std::shared_ptr<const api::Node> MakeNode(std::string name) {
  auto node = std::make_shared<api::Node>();
  node->metadata.name = std::move(name);
  node->metadata.uid = node->metadata.name + "-uid";
  return node;
}

}  // namespace ksched::scheduler::testing
