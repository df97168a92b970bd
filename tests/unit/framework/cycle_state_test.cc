// CycleState (framework/cycle_state.h), as upstream's CycleState Read/Write/Delete/Clone
// (pkg/scheduler/framework/cycle_state_test.go).
#include <catch2/catch.hpp>

#include <memory>
#include <string>

#include "framework/cycle_state.h"

namespace {

using ksched::framework::CycleState;
using ksched::framework::StateData;

struct FakeData : StateData {
  explicit FakeData(std::string v) : value(std::move(v)) {}
  std::unique_ptr<StateData> Clone() const override { return std::make_unique<FakeData>(value); }
  std::string value;
};

struct OtherData : StateData {
  std::unique_ptr<StateData> Clone() const override { return std::make_unique<OtherData>(); }
};

TEST_CASE("Write, Read, overwrite and Delete", "[framework][cycle_state]") {
  CycleState state;
  CHECK(state.Read("PreFilterA") == nullptr);

  state.Write("PreFilterA", std::make_unique<FakeData>("a1"));
  state.Write("PreFilterB", std::make_unique<FakeData>("b"));
  REQUIRE(state.ReadAs<FakeData>("PreFilterA") != nullptr);
  CHECK(state.ReadAs<FakeData>("PreFilterA")->value == "a1");
  CHECK(state.ReadAs<OtherData>("PreFilterA") == nullptr);  // another type

  state.Write("PreFilterA", std::make_unique<FakeData>("a2"));
  CHECK(state.ReadAs<FakeData>("PreFilterA")->value == "a2");
  CHECK(state.ReadAs<FakeData>("PreFilterB")->value == "b");

  state.Delete("PreFilterA");
  CHECK(state.Read("PreFilterA") == nullptr);
  CHECK(state.ReadAs<FakeData>("PreFilterB")->value == "b");
  state.Delete("absent");  // a no-op
  CHECK(state.Read("PreFilterB") != nullptr);
}

TEST_CASE("Clone copies every entry deeply and the skip sets", "[framework][cycle_state]") {
  CycleState state;
  state.Write("k1", std::make_unique<FakeData>("v1"));
  state.Write("k2", std::make_unique<OtherData>());
  state.skip_filter_plugins().insert("NodePorts");
  state.skip_score_plugins().insert("ImageLocality");
  state.set_record_plugin_metrics(true);

  std::unique_ptr<CycleState> clone = state.Clone();
  REQUIRE(clone->ReadAs<FakeData>("k1") != nullptr);
  CHECK(clone->ReadAs<FakeData>("k1") != state.ReadAs<FakeData>("k1"));  // a copy, not a share
  CHECK(clone->ReadAs<FakeData>("k1")->value == "v1");
  CHECK(clone->ReadAs<OtherData>("k2") != nullptr);
  CHECK(clone->skip_filter_plugins().count("NodePorts") == 1);
  CHECK(clone->skip_score_plugins().count("ImageLocality") == 1);
  CHECK(clone->record_plugin_metrics());

  clone->ReadAs<FakeData>("k1")->value = "changed";
  clone->Write("k3", std::make_unique<FakeData>("v3"));
  clone->skip_filter_plugins().insert("Other");
  CHECK(state.ReadAs<FakeData>("k1")->value == "v1");
  CHECK(state.Read("k3") == nullptr);
  CHECK(state.skip_filter_plugins().size() == 1);
}

}  // namespace
