// NodeName: ported from upstream nodename/node_name_test.go (v1.34.4).
#include "plugins/node_name/node_name.h"

#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "fake_handle.h"
#include "test_objects.h"

namespace {

using ksched::framework::Code;
using ksched::framework::CycleState;
using ksched::framework::EnqueueExtensions;
using ksched::framework::EventResource;
using ksched::framework::FilterPlugin;
using ksched::framework::NodeInfo;
using ksched::framework::Status;
namespace action = ksched::framework::action;
namespace node_name = ksched::plugins::node_name;
using ksched::plugins::testing::Build;
using ksched::plugins::testing::FakeHandle;
using ksched::plugins::testing::MakeNode;
using ksched::plugins::testing::MakeNodeInfo;
using ksched::plugins::testing::MakePod;

TEST_CASE("NodeName passes only the node named by spec.nodeName", "[plugins][node_name]") {
  FakeHandle handle;
  auto plugin = Build<FilterPlugin>(node_name::New, nullptr, handle);
  CHECK(plugin->Name() == "NodeName");
  CycleState state;

  struct Row {
    const char* name;
    const char* pod_node;
    const char* node;
    bool fits;
  };
  const Row rows[] = {
      {"no host specified", "", "", true},
      {"no host specified, named node", "", "foo", true},
      {"host matches", "foo", "foo", true},
      {"host doesn't match", "bar", "foo", false},
  };
  for (const Row& row : rows) {
    CAPTURE(row.name);
    auto pod = MakePod("p");
    pod.spec.node_name = row.pod_node;
    const Status status = plugin->Filter(state, pod, MakeNodeInfo(MakeNode(row.node)));
    if (row.fits) {
      CHECK(status.IsSuccess());
    } else {
      CHECK(status == Status(Code::kUnschedulableAndUnresolvable,
                             {"node(s) didn't match the requested node name"}));
    }
  }
  CHECK(plugin->Filter(state, MakePod("p"), NodeInfo()).code() == Code::kError);
}

TEST_CASE("NodeName registers node adds only, without a hint", "[plugins][node_name]") {
  FakeHandle handle;
  auto plugin = Build<EnqueueExtensions>(node_name::New, nullptr, handle);
  const auto events = plugin->EventsToRegister();
  REQUIRE(events.size() == 1);
  CHECK(events[0].event.resource == EventResource::kNode);
  CHECK(events[0].event.action == action::kAdd);
  CHECK(events[0].hint == nullptr);
}

TEST_CASE("NodeName PreFilter narrows to spec.nodeName (TestNodeName_PreFilter, v1.37.2)",
          "[plugins][node_name]") {
  FakeHandle handle;
  auto plugin = Build<ksched::framework::PreFilterPlugin>(node_name::New, nullptr, handle);
  ksched::framework::CycleState state;
  auto assigned = MakePod("p");
  assigned.spec.node_name = "foo";
  const auto [narrowed, narrowed_status] = plugin->PreFilter(state, assigned, {});
  CHECK(narrowed_status.IsSuccess());
  REQUIRE(narrowed.node_names.has_value());
  CHECK(*narrowed.node_names == std::set<std::string, std::less<>>{"foo"});
  const auto [all, all_status] = plugin->PreFilter(state, MakePod("p"), {});
  CHECK(all_status.IsSuccess());
  CHECK(all.AllNodes());
}

}  // namespace
