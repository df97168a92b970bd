// NodeDeclaredFeatures: ported from upstream nodedeclaredfeatures/nodedeclaredfeatures_test.go
// (v1.37.2) and, for the inference and the mapping of a node's declared features, from
// k8s.io/component-helpers v0.37.2 nodedeclaredfeatures (features/*_test.go, featureset_test.go).
// Upstream's tests plug mock features into the framework; here the real registry is used, with
// pods that need its features (the plugin has no injectable registry).
#include "plugins/node_declared_features/node_declared_features.h"

#include <catch2/catch.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "plugins/node_declared_features/feature_inference.h"
#include "fake_handle.h"
#include "test_objects.h"

namespace {

using ksched::api::Node;
using ksched::api::Pod;
using ksched::framework::Code;
using ksched::framework::CycleState;
using ksched::framework::EventObjects;
using ksched::framework::EventResource;
using ksched::framework::QueueingHint;
using ksched::framework::Status;
namespace action = ksched::framework::action;
namespace ndf = ksched::plugins::node_declared_features;
using ksched::plugins::testing::Build;
using ksched::plugins::testing::FakeHandle;
using ksched::plugins::testing::MakeNode;
using ksched::plugins::testing::MakeNodeInfo;
using ksched::plugins::testing::MakePod;

constexpr const char* kRestartAll = "RestartAllContainersOnContainerExits";
constexpr const char* kHostNetworkUserNs = "UserNamespacesHostNetworkSupport";
constexpr const char* kBindMountOptions = "VolumeBindMountOptions";

Pod PodNeedingRestartAll() {
  Pod pod = MakePod("test-pod", "123");
  pod.spec.has_restart_all_containers_rule = true;
  return pod;
}

Pod PodNeedingHostNetworkUserNs() {
  Pod pod = MakePod("test-pod", "123");
  pod.spec.host_network = true;
  pod.spec.host_users = false;
  return pod;
}

Pod PodNeedingAll() {
  Pod pod = PodNeedingHostNetworkUserNs();
  pod.spec.has_restart_all_containers_rule = true;
  pod.spec.has_bind_mount_options = true;
  return pod;
}

std::shared_ptr<Node> NodeDeclaring(std::vector<std::string> features) {
  auto node = MakeNode("node-1");
  node->status.declared_features = std::move(features);
  return node;
}

TEST_CASE("NodeDeclaredFeatures infers the features a pod needs (component-helpers features)",
          "[plugins][node_declared_features]") {
  SECTION("restartallcontainers: a RestartAllContainers rule (container or init container)") {
    CHECK(ndf::InferForPodScheduling(PodNeedingRestartAll()) == ndf::FeatureBit(kRestartAll));
    CHECK(ndf::InferForPodScheduling(MakePod("no-rules")) == 0);
  }
  SECTION("usernamespaceshostnetwork: hostNetwork with hostUsers false") {
    struct Row {
      bool host_network;
      std::optional<bool> host_users;
      bool expected;
    };
    for (const Row& row : {Row{true, false, true}, Row{true, std::nullopt, false},
                           Row{true, true, false}, Row{false, false, false}}) {
      Pod pod = MakePod("p");
      pod.spec.host_network = row.host_network;
      pod.spec.host_users = row.host_users;
      CHECK((ndf::InferForPodScheduling(pod) == ndf::FeatureBit(kHostNetworkUserNs)) ==
            row.expected);
    }
  }
  SECTION("volumebindmountoptions: a volume mount with bindMountOptions") {
    Pod pod = MakePod("p");
    pod.spec.has_bind_mount_options = true;
    CHECK(ndf::InferForPodScheduling(pod) == ndf::FeatureBit(kBindMountOptions));
  }
  SECTION("several at once") {
    CHECK(ndf::InferForPodScheduling(PodNeedingAll()) ==
          (ndf::FeatureBit(kRestartAll) | ndf::FeatureBit(kHostNetworkUserNs) |
           ndf::FeatureBit(kBindMountOptions)));
  }
}

TEST_CASE("NodeDeclaredFeatures maps a node's declared features as TryMap",
          "[plugins][node_declared_features]") {
  using V = std::vector<std::string>;
  CHECK(ndf::MapDeclaredFeatures(V{}) == 0);
  CHECK(ndf::MapDeclaredFeatures(V{kRestartAll}) == ndf::FeatureBit(kRestartAll));
  // Unknown names are ignored, wherever they sort.
  CHECK(ndf::MapDeclaredFeatures(V{"AAA", kRestartAll, "Unknown", kBindMountOptions, "ZZZ"}) ==
        (ndf::FeatureBit(kRestartAll) | ndf::FeatureBit(kBindMountOptions)));
  // Every registered feature.
  const V all(ndf::kRegisteredFeatures.begin(), ndf::kRegisteredFeatures.end());
  CHECK(ndf::MapDeclaredFeatures(all) == (ndf::FeatureSet{1} << all.size()) - 1);
  // One merge pass over a list expected sorted: an out-of-order name after a later one is missed,
  // as upstream's.
  CHECK(ndf::MapDeclaredFeatures(V{kBindMountOptions, kRestartAll}) ==
        ndf::FeatureBit(kBindMountOptions));
}

TEST_CASE("NodeDeclaredFeatures PreFilter (TestPreFilter)", "[plugins][node_declared_features]") {
  FakeHandle handle;
  auto plugin = Build<ndf::NodeDeclaredFeatures>(ndf::New, nullptr, handle);
  CHECK(plugin->Name() == "NodeDeclaredFeatures");
  SECTION("Pod with no requirements: Skip, no state") {
    CycleState state;
    const auto [result, status] = plugin->PreFilter(state, MakePod("test-pod"), {});
    CHECK(result.AllNodes());
    CHECK(status.code() == Code::kSkip);
    CHECK(plugin->Filter(state, MakePod("test-pod"), MakeNodeInfo(MakeNode("n"))).code() ==
          Code::kError);
  }
  SECTION("Pod with feature requirements: Success, the state holds them") {
    CycleState state;
    const auto [result, status] = plugin->PreFilter(state, PodNeedingRestartAll(), {});
    CHECK(result.AllNodes());
    CHECK(status.IsSuccess());
    CHECK(plugin->Filter(state, PodNeedingRestartAll(), MakeNodeInfo(NodeDeclaring({kRestartAll})))
              .IsSuccess());
    CHECK(plugin->Filter(state, PodNeedingRestartAll(), MakeNodeInfo(NodeDeclaring({}))).code() ==
          Code::kUnschedulableAndUnresolvable);
  }
}

TEST_CASE("NodeDeclaredFeatures is inert with its gate off (--emulated-version 1.35)",
          "[plugins][node_declared_features]") {
  ndf::NodeDeclaredFeatures plugin(/*enabled=*/false);
  CycleState state;
  CHECK(plugin.PreFilter(state, PodNeedingRestartAll(), {}).second.code() == Code::kSkip);
  CHECK(plugin.EventsToRegister().empty());
}

TEST_CASE("NodeDeclaredFeatures Filter (TestFilter)", "[plugins][node_declared_features]") {
  FakeHandle handle;
  auto plugin = Build<ndf::NodeDeclaredFeatures>(ndf::New, nullptr, handle);
  const Status unsatisfied(Code::kUnschedulableAndUnresolvable,
                           {"node(s) didn't match Pod's required features"});
  struct Row {
    const char* name;
    Pod pod;
    std::vector<std::string> declared;
    bool fits;
  };
  const std::vector<Row> rows = {
      {"Node matches requirements", PodNeedingRestartAll(), {kRestartAll, kBindMountOptions}, true},
      {"Node does not match requirements", PodNeedingRestartAll(), {kBindMountOptions}, false},
      {"Node with multiple features, pod requires subset", PodNeedingHostNetworkUserNs(),
       {kRestartAll, kHostNetworkUserNs, kBindMountOptions}, true},
      {"Node has no declared features", PodNeedingRestartAll(), {}, false},
      {"Node with some but not all required features", PodNeedingAll(),
       {kRestartAll, kBindMountOptions}, false},
      {"Node with all required features and unknown ones", PodNeedingAll(),
       {"AFeature", kRestartAll, kHostNetworkUserNs, kBindMountOptions, "ZFeature"}, true},
  };
  for (const Row& row : rows) {
    INFO(row.name);
    CycleState state;
    REQUIRE(plugin->PreFilter(state, row.pod, {}).second.IsSuccess());
    const Status status = plugin->Filter(state, row.pod, MakeNodeInfo(NodeDeclaring(row.declared)));
    if (row.fits) {
      CHECK(status.IsSuccess());
    } else {
      CHECK(status == unsatisfied);
    }
  }
  SECTION("Error getting pre-filter state") {
    CycleState state;
    const Status status = plugin->Filter(state, MakePod("test-pod"), MakeNodeInfo(MakeNode("n")));
    CHECK(status.code() == Code::kError);
    CHECK(status.Message() ==
          "error reading \"PreFilterNodeDeclaredFeatures\" from cycle-state: not found");
  }
}

TEST_CASE("NodeDeclaredFeatures node hint (TestEnqueueExtensionsNodeUpdate)",
          "[plugins][node_declared_features]") {
  const Pod pod = MakePod("test-pod");
  const auto with_feature = NodeDeclaring({"FeatureA"});
  const auto with_feature_too = NodeDeclaring({"FeatureA"});
  const auto without = NodeDeclaring({});
  EventObjects add;
  add.new_node = with_feature.get();
  CHECK(*ndf::IsSchedulableAfterNodeChange(pod, add) == QueueingHint::kQueue);
  EventObjects added;
  added.old_node = without.get();
  added.new_node = with_feature.get();
  CHECK(*ndf::IsSchedulableAfterNodeChange(pod, added) == QueueingHint::kQueue);
  EventObjects unchanged;
  unchanged.old_node = with_feature.get();
  unchanged.new_node = with_feature_too.get();
  CHECK(*ndf::IsSchedulableAfterNodeChange(pod, unchanged) == QueueingHint::kQueueSkip);
}

TEST_CASE("NodeDeclaredFeatures pod hint (TestIsSchedulableAfterTargetPodUpdate)",
          "[plugins][node_declared_features]") {
  const Pod plain = MakePod("test-pod", "123");
  const Pod needing = PodNeedingRestartAll();
  const auto hint = [](const Pod& old_pod, const Pod& new_pod) {
    EventObjects objects;
    objects.old_pod = &old_pod;
    objects.new_pod = &new_pod;
    return *ndf::IsSchedulableAfterTargetPodUpdate(old_pod, objects);
  };
  CHECK(hint(plain, needing) == QueueingHint::kQueue);          // adds a requirement
  CHECK(hint(needing, plain) == QueueingHint::kQueue);          // removes a requirement
  Pod labelled = plain;
  labelled.metadata.labels = {{"foo", "bar"}};
  CHECK(hint(plain, labelled) == QueueingHint::kQueueSkip);     // no change in requirements
}

TEST_CASE("NodeDeclaredFeatures EventsToRegister (TestEventsToRegister)",
          "[plugins][node_declared_features]") {
  FakeHandle handle;
  auto plugin = Build<ndf::NodeDeclaredFeatures>(ndf::New, nullptr, handle);
  const auto events = plugin->EventsToRegister();
  REQUIRE(events.size() == 2);
  CHECK(events[0].event.resource == EventResource::kNode);
  CHECK(events[0].event.action == (action::kAdd | action::kUpdateNodeDeclaredFeature));
  CHECK(events[1].event.resource == EventResource::kTargetPod);
  CHECK(events[1].event.action == action::kUpdate);
}

}  // namespace
