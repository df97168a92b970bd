// MatchCountMemo: counts equal CountPodsMatchSelector's, are read back only while a node's
// generation stays, and channels are found by (namespace, selector) and give way least recently
// used first, never within the pass that holds them.
#include "plugins/pod_topology_spread/match_count_memo.h"

#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "api/label_selector.h"
#include "framework/node_info.h"
#include "framework/pod_info.h"
#include "plugins/pod_topology_spread/constraints.h"

namespace {

namespace api = ksched::api;
namespace framework = ksched::framework;
using ksched::plugins::pod_topology_spread::CountPodsMatchSelector;
using ksched::plugins::pod_topology_spread::MatchCountMemo;

framework::PodInfoPtr PodOf(const std::string& name, const std::string& ns, api::Labels labels) {
  auto pod = std::make_shared<api::Pod>();
  pod->metadata.name = name;
  pod->metadata.uid = name;
  pod->metadata.namespace_ = ns;
  pod->metadata.labels = std::move(labels);
  return framework::PodInfo::CreateOrDie(std::move(pod));
}

api::CompiledLabelSelector Selects(std::string key, std::string value) {
  return api::CompiledLabelSelector::FromSet(api::Labels{{std::move(key), std::move(value)}});
}

}  // namespace

TEST_CASE("MatchCountMemo reads a count back while the node's generation stays",
          "[pod_topology_spread][match_count_memo]") {
  framework::NodeInfo node;
  node.AddPod(PodOf("a", "default", {{"app", "web"}}));
  node.AddPod(PodOf("b", "default", {{"app", "db"}}));
  node.AddPod(PodOf("c", "other", {{"app", "web"}}));
  const api::CompiledLabelSelector web = Selects("app", "web");
  MatchCountMemo memo;
  {
    MatchCountMemo::Pass pass = memo.Begin(1);
    MatchCountMemo::Channel* channel = pass.Find("default", web);
    REQUIRE(channel != nullptr);
    CHECK(channel->Count(0, node) == 1);
    CHECK(memo.walks() == 1);
    CHECK(channel->Count(0, node) == 1);
    CHECK(memo.walks() == 1);
  }
  // A snapshot copy keeps the generation: still read back.
  const framework::NodeInfo copy = node.Clone();
  {
    MatchCountMemo::Pass pass = memo.Begin(1);
    CHECK(pass.Find("default", web)->Count(0, copy) == 1);
    CHECK(memo.walks() == 1);
  }
  // Any change to the node's pods moves the generation: counted again.
  node.AddPod(PodOf("d", "default", {{"app", "web"}}));
  {
    MatchCountMemo::Pass pass = memo.Begin(1);
    MatchCountMemo::Channel* channel = pass.Find("default", web);
    CHECK(channel->Count(0, node) == 2);
    CHECK(memo.walks() == 2);
    // The copy taken before the change is another generation again.
    CHECK(channel->Count(0, copy) == 1);
    CHECK(memo.walks() == 3);
  }
  REQUIRE(node.RemovePod("a"));
  {
    MatchCountMemo::Pass pass = memo.Begin(1);
    CHECK(pass.Find("default", web)->Count(0, node) ==
          CountPodsMatchSelector(node.pods(), web, "default"));
    CHECK(memo.walks() == 4);
  }
}

TEST_CASE("MatchCountMemo keeps one channel per namespace and selector",
          "[pod_topology_spread][match_count_memo]") {
  framework::NodeInfo node;
  node.AddPod(PodOf("a", "default", {{"app", "web"}, {"tier", "front"}}));
  node.AddPod(PodOf("b", "other", {{"app", "web"}}));
  MatchCountMemo memo;
  MatchCountMemo::Pass pass = memo.Begin(2);
  MatchCountMemo::Channel* web = pass.Find("default", Selects("app", "web"));
  MatchCountMemo::Channel* web_again = pass.Find("default", Selects("app", "web"));
  MatchCountMemo::Channel* other = pass.Find("other", Selects("app", "web"));
  MatchCountMemo::Channel* front = pass.Find("default", Selects("tier", "front"));
  MatchCountMemo::Channel* nothing = pass.Find("default", api::CompiledLabelSelector::Nothing());
  CHECK(web == web_again);
  CHECK(web != other);
  CHECK(web != front);
  // A fifth selector while the other four are held by this pass: no channel, count directly.
  CHECK(pass.Find("default", Selects("tier", "back")) == nullptr);
  REQUIRE(nothing != nullptr);
  CHECK(web->Count(1, node) == 1);
  CHECK(other->Count(1, node) == 1);
  CHECK(front->Count(1, node) == 1);
  CHECK(nothing->Count(1, node) == 0);
}

TEST_CASE("MatchCountMemo gives way least recently used first",
          "[pod_topology_spread][match_count_memo]") {
  framework::NodeInfo node;
  node.AddPod(PodOf("a", "default", {{"k", "1"}}));
  MatchCountMemo memo;
  // Pass 1 uses selectors 1-4, pass 2 uses 1-3 again and a fifth (evicting 4, the least recent).
  {
    MatchCountMemo::Pass pass = memo.Begin(1);
    for (const char* v : {"1", "2", "3", "4"}) pass.Find("default", Selects("k", v))->Count(0, node);
  }
  CHECK(memo.walks() == 4);
  {
    MatchCountMemo::Pass pass = memo.Begin(1);
    for (const char* v : {"1", "2", "3"}) pass.Find("default", Selects("k", v))->Count(0, node);
    CHECK(memo.walks() == 4);
    MatchCountMemo::Channel* fifth = pass.Find("default", Selects("k", "5"));
    REQUIRE(fifth != nullptr);
    CHECK(fifth->Count(0, node) == 0);
    CHECK(memo.walks() == 5);
  }
  {
    MatchCountMemo::Pass pass = memo.Begin(1);
    // 1 is still remembered; 4 gave way and is counted again.
    CHECK(pass.Find("default", Selects("k", "1"))->Count(0, node) == 1);
    CHECK(memo.walks() == 5);
    CHECK(pass.Find("default", Selects("k", "4"))->Count(0, node) == 0);
    CHECK(memo.walks() == 6);
  }
}

TEST_CASE("MatchCountMemo grows with the node list and keeps what it knew",
          "[pod_topology_spread][match_count_memo]") {
  framework::NodeInfo first;
  first.AddPod(PodOf("a", "default", {{"k", "1"}}));
  framework::NodeInfo second;
  second.AddPod(PodOf("b", "default", {{"k", "1"}}));
  second.AddPod(PodOf("c", "default", {{"k", "1"}}));
  MatchCountMemo memo;
  {
    MatchCountMemo::Pass pass = memo.Begin(1);
    CHECK(pass.Find("default", Selects("k", "1"))->Count(0, first) == 1);
  }
  {
    MatchCountMemo::Pass pass = memo.Begin(2);
    MatchCountMemo::Channel* channel = pass.Find("default", Selects("k", "1"));
    CHECK(channel->Count(0, first) == 1);
    CHECK(channel->Count(1, second) == 2);
    CHECK(memo.walks() == 2);
    // Another node at a remembered index (the list changed order) is counted, not read back.
    CHECK(channel->Count(0, second) == 2);
    CHECK(memo.walks() == 3);
  }
}
