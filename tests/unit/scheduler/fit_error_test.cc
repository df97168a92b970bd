// FitError's message (upstream framework/types_test.go TestFitError_Error, v1.34, plus the
// histogram's details), Diagnosis::AddPluginStatus, and the event-note cut.
#include "scheduler/fit_error.h"

#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "fmt/core.h"

namespace ksched::scheduler {
namespace {

using framework::Code;
using framework::Status;

struct NodeStatus {
  std::string node;
  Status status;
};

FitError MakeFitError(int num_all_nodes, std::vector<NodeStatus> statuses,
                      Status absent = Status(Code::kUnschedulableAndUnresolvable),
                      std::string pre_filter_msg = "", std::string post_filter_msg = "") {
  FitError fit_error;
  fit_error.num_all_nodes = num_all_nodes;
  for (NodeStatus& entry : statuses) {
    fit_error.diagnosis.node_to_status.Set(std::move(entry.node), std::move(entry.status));
  }
  fit_error.diagnosis.node_to_status.set_absent_status(std::move(absent));
  fit_error.diagnosis.pre_filter_msg = std::move(pre_filter_msg);
  fit_error.diagnosis.post_filter_msg = std::move(post_filter_msg);
  return fit_error;
}

Status Unschedulable(std::string reason) { return Status(Code::kUnschedulable, {reason}); }

TEST_CASE("FitError message: upstream TestFitError_Error", "[fit_error]") {
  const std::string pre = "Node(s) failed PreFilter plugin FalsePreFilter";
  const std::string post = "Error running PostFilter plugin FailedPostFilter";
  const std::string f1 = "Node(s) failed Filter plugin FalseFilter-1";
  const std::string f2 = "Node(s) failed Filter plugin FalseFilter-2";
  // PreFilter rejections are copied to every node by the framework; the message names them once.
  const std::vector<NodeStatus> pre_filtered = {
      {"node1", Unschedulable(pre)}, {"node2", Unschedulable(pre)}, {"node3", Unschedulable(pre)}};
  const std::vector<NodeStatus> one_filter = {
      {"node1", Unschedulable(f1)}, {"node2", Unschedulable(f1)}, {"node3", Unschedulable(f1)}};
  const std::vector<NodeStatus> two_filters = {
      {"node1", Unschedulable(f1)}, {"node2", Unschedulable(f1)}, {"node3", Unschedulable(f2)}};
  const Status absent(Code::kUnschedulableAndUnresolvable);

  struct Case {
    const char* name;
    FitError fit_error;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"nodes failed Prefilter plugin", MakeFitError(3, pre_filtered, absent, pre),
       "0/3 nodes are available: Node(s) failed PreFilter plugin FalsePreFilter."},
      {"nodes failed Prefilter plugin and the preemption also failed",
       MakeFitError(3, pre_filtered, absent, pre, post),
       "0/3 nodes are available: Node(s) failed PreFilter plugin FalsePreFilter. Error running "
       "PostFilter plugin FailedPostFilter"},
      {"nodes failed one Filter plugin with an empty PostFilterMsg", MakeFitError(3, one_filter),
       "0/3 nodes are available: 3 Node(s) failed Filter plugin FalseFilter-1."},
      {"nodes failed one Filter plugin with a non-empty PostFilterMsg",
       MakeFitError(3, one_filter, absent, "", post),
       "0/3 nodes are available: 3 Node(s) failed Filter plugin FalseFilter-1. Error running "
       "PostFilter plugin FailedPostFilter"},
      {"nodes failed two Filter plugins with an empty PostFilterMsg", MakeFitError(3, two_filters),
       "0/3 nodes are available: 1 Node(s) failed Filter plugin FalseFilter-2, 2 Node(s) failed "
       "Filter plugin FalseFilter-1."},
      {"nodes failed two Filter plugins with a non-empty PostFilterMsg",
       MakeFitError(3, two_filters, absent, "", post),
       "0/3 nodes are available: 1 Node(s) failed Filter plugin FalseFilter-2, 2 Node(s) failed "
       "Filter plugin FalseFilter-1. Error running PostFilter plugin FailedPostFilter"},
      {"failed to Permit on node",
       MakeFitError(1, {{"node1", Unschedulable("Node failed Permit plugin Permit-1")}}),
       "0/1 nodes are available: 1 Node failed Permit plugin Permit-1."},
      {"failed to Reserve on node",
       MakeFitError(1, {{"node1", Unschedulable("Node failed Reserve plugin Reserve-1")}}),
       "0/1 nodes are available: 1 Node failed Reserve plugin Reserve-1."},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    CHECK(c.fit_error.Message() == c.want);
  }
}

TEST_CASE("FitError message: the histogram is sorted as \"<count> <reason>\" strings",
          "[fit_error]") {
  // Bytewise, "10 Z" < "2 A" < "3 B": neither by count nor by reason.
  std::vector<NodeStatus> statuses;
  for (int i = 0; i < 10; ++i) statuses.push_back({fmt::format("z{}", i), Unschedulable("Z")});
  for (int i = 0; i < 2; ++i) statuses.push_back({fmt::format("a{}", i), Unschedulable("A")});
  for (int i = 0; i < 3; ++i) statuses.push_back({fmt::format("b{}", i), Unschedulable("B")});
  CHECK(MakeFitError(15, statuses).Message() == "0/15 nodes are available: 10 Z, 2 A, 3 B.");
}

TEST_CASE("FitError message: nodes without a status count under the absent-nodes status",
          "[fit_error]") {
  const Status narrowed(Code::kUnschedulableAndUnresolvable,
                        {"node(s) didn't satisfy plugin(s) [FakePreFilter]"});

  SECTION("three absent nodes") {
    const FitError fit_error = MakeFitError(
        5, {{"node1", Unschedulable("Insufficient cpu")}, {"node2", Unschedulable("Insufficient cpu")}},
        narrowed);
    CHECK(fit_error.Message() ==
          "0/5 nodes are available: 2 Insufficient cpu, 3 node(s) didn't satisfy plugin(s) "
          "[FakePreFilter].");
  }
  SECTION("no explicit status at all") {
    CHECK(MakeFitError(2, {}, narrowed).Message() ==
          "0/2 nodes are available: 2 node(s) didn't satisfy plugin(s) [FakePreFilter].");
  }
  SECTION("an absent reason equal to an explicit one adds up") {
    const FitError fit_error =
        MakeFitError(4, {{"node1", Unschedulable("R")}}, Status(Code::kUnschedulable, {"R"}));
    CHECK(fit_error.Message() == "0/4 nodes are available: 4 R.");
  }
  SECTION("the default absent status has no reason and adds nothing") {
    CHECK(MakeFitError(3, {{"node1", Unschedulable("R")}}).Message() ==
          "0/3 nodes are available: 1 R.");
  }
  SECTION("every node explicit: the absent status is not counted") {
    CHECK(MakeFitError(1, {{"node1", Unschedulable("R")}}, narrowed).Message() ==
          "0/1 nodes are available: 1 R.");
  }
  SECTION("no reason anywhere: the bare prefix") {
    CHECK(MakeFitError(3, {}).Message() == "0/3 nodes are available:");
  }
}

TEST_CASE("FitError message: a node with several reasons counts each", "[fit_error]") {
  const FitError fit_error = MakeFitError(
      2, {{"node1", Status(Code::kUnschedulable, {"Insufficient cpu", "Insufficient memory"})},
          {"node2", Unschedulable("Insufficient cpu")}});
  CHECK(fit_error.Message() == "0/2 nodes are available: 1 Insufficient memory, 2 Insufficient cpu.");
}

TEST_CASE("FitError message: the PreFilter message replaces the histogram, PostFilter follows",
          "[fit_error]") {
  const FitError fit_error = MakeFitError(
      2, {{"node1", Unschedulable("ignored")}},
      Status(Code::kUnschedulable, {"pre"}), "node(s) didn't satisfy plugin FakePreFilter2",
      "preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.");
  CHECK(fit_error.Message() ==
        "0/2 nodes are available: node(s) didn't satisfy plugin FakePreFilter2. preemption: 0/2 "
        "nodes are available: 2 Preemption is not helpful for scheduling.");
}

TEST_CASE("Diagnosis::AddPluginStatus files the plugin by its code", "[fit_error]") {
  Diagnosis diagnosis;
  diagnosis.AddPluginStatus(Status(Code::kUnschedulable).WithPlugin("A"));
  diagnosis.AddPluginStatus(Status(Code::kUnschedulableAndUnresolvable).WithPlugin("B"));
  diagnosis.AddPluginStatus(Status(Code::kPending).WithPlugin("C"));
  diagnosis.AddPluginStatus(Status::FromError("boom").WithPlugin("D"));
  diagnosis.AddPluginStatus(Status(Code::kSuccess).WithPlugin("E"));
  diagnosis.AddPluginStatus(Status(Code::kUnschedulable));  // no plugin: nothing to file
  CHECK(diagnosis.unschedulable_plugins == std::set<std::string, std::less<>>{"A", "B"});
  CHECK(diagnosis.pending_plugins == std::set<std::string, std::less<>>{"C"});
}

TEST_CASE("TruncateEventNote keeps notes up to 1024 bytes and cuts longer ones to 1020 + \" ...\"",
          "[fit_error]") {
  CHECK(TruncateEventNote("0/3 nodes are available: 3 R.") == "0/3 nodes are available: 3 R.");
  const std::string exact(1024, 'x');
  CHECK(TruncateEventNote(exact) == exact);
  CHECK(TruncateEventNote(std::string(1025, 'y')) == std::string(1020, 'y') + " ...");
  const std::string cut = TruncateEventNote(std::string(5000, 'z'));
  CHECK(cut.size() == 1024);
  CHECK(cut == std::string(1020, 'z') + " ...");
  // Deviation shared with the event recorder: a character split by the cut is dropped whole
  // ("é" is 2 bytes at 1019..1020), so the note stays valid UTF-8.
  const std::string split = std::string(1019, 'a') + "\xC3\xA9" + std::string(10, 'b');
  CHECK(TruncateEventNote(split) == std::string(1019, 'a') + " ...");
}

}  // namespace
}  // namespace ksched::scheduler
