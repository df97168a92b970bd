// NodeChangeFinder: after one recorded update it reports exactly the moved NodeInfos that update
// assigned (in node order, once each); when the reader missed an update it compares every node.
// FindUnrecordedChange: the changes that record hides from such a reader.
#include "framework/node_change_finder.h"

#include <catch2/catch.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/node.h"
#include "framework/node_info.h"
#include "framework/snapshot.h"

namespace {

namespace api = ksched::api;
namespace framework = ksched::framework;

std::vector<std::int64_t> Generations(const framework::Snapshot& snapshot) {
  std::vector<std::int64_t> out;
  for (const framework::NodeInfo* node : snapshot.nodes()) out.push_back(node->generation());
  return out;
}

// Creates or changes node `name` in place (a new node object bumps its generation), as the
// cache's update does, noting it in the update's record when `record`.
void Touch(framework::Snapshot& snapshot, const std::string& name, bool record) {
  auto node = std::make_shared<api::Node>();
  node->metadata.name = name;
  framework::NodeInfo* info = snapshot.GetOrCreate(name);
  info->SetNode(std::move(node));
  if (record) snapshot.NoteUpdated(info);
}

// node-0 ... node-5, listed in that order, at snapshot generation 1.
void FillSixNodes(framework::Snapshot& snapshot) {
  std::vector<std::string> names;
  for (int i = 0; i < 6; ++i) {
    names.push_back("node-" + std::to_string(i));
    Touch(snapshot, names.back(), false);
  }
  snapshot.RebuildLists(names);
  snapshot.set_generation(1);
}

}  // namespace

TEST_CASE("NodeChangeFinder finds the NodeInfos whose generation moved", "[node_change_finder]") {
  framework::Snapshot snapshot;
  FillSixNodes(snapshot);
  std::vector<std::int64_t> seen = Generations(snapshot);
  framework::NodeChangeFinder finder;
  std::vector<std::size_t> changed{99};

  // Nothing moved.
  finder.Find(snapshot, 1, seen, changed);
  CHECK(changed.empty());

  // One update that assigned node-4, node-1 (twice) and node-2, of which node-2 did not move (the
  // record lists it, its generation is the one seen): node order, once each.
  snapshot.BeginUpdate();
  Touch(snapshot, "node-4", true);
  Touch(snapshot, "node-1", true);
  snapshot.NoteUpdated(snapshot.GetMutable("node-1"));
  snapshot.NoteUpdated(snapshot.GetMutable("node-2"));
  snapshot.set_generation(2);
  // A change the record does not list is not looked for: the record is trusted.
  Touch(snapshot, "node-5", false);
  finder.Find(snapshot, 1, seen, changed);
  CHECK(changed == std::vector<std::size_t>{1, 4});

  // A reader that last looked before the update the record starts from compares every node.
  finder.Find(snapshot, 0, seen, changed);
  CHECK(changed == std::vector<std::size_t>{1, 4, 5});

  // After Reset the index is built again for the list as it is now.
  seen = Generations(snapshot);
  snapshot.BeginUpdate();
  Touch(snapshot, "node-0", true);
  snapshot.set_generation(3);
  finder.Reset();
  finder.Find(snapshot, 2, seen, changed);
  CHECK(changed == std::vector<std::size_t>{0});
}

TEST_CASE("FindUnrecordedChange finds a NodeInfo changed outside the snapshot's update",
          "[node_change_finder]") {
  framework::Snapshot snapshot;
  FillSixNodes(snapshot);
  const std::vector<std::int64_t> seen = Generations(snapshot);
  CHECK_FALSE(framework::FindUnrecordedChange(snapshot, 1, seen).has_value());

  SECTION("no update since the reader looked: any change is unrecorded") {
    // As a benchmark adding a pod straight into the snapshot's NodeInfo (Snapshot::GetMutable):
    // the snapshot's generation stays, so a reader trusting it would not look.
    Touch(snapshot, "node-3", false);
    CHECK(framework::FindUnrecordedChange(snapshot, 1, seen) == std::optional<std::size_t>(3));
  }
  SECTION("one update since: a change its record lacks") {
    snapshot.BeginUpdate();
    Touch(snapshot, "node-4", true);
    snapshot.set_generation(2);
    CHECK_FALSE(framework::FindUnrecordedChange(snapshot, 1, seen).has_value());
    Touch(snapshot, "node-2", false);
    CHECK(framework::FindUnrecordedChange(snapshot, 1, seen) == std::optional<std::size_t>(2));
    // A reader that missed an update compares every node anyway: nothing is hidden from it.
    CHECK_FALSE(framework::FindUnrecordedChange(snapshot, 0, seen).has_value());
  }
}
