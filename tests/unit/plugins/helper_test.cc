// plugins/helper: toleration matching (ported from k8s.io/api core/v1 toleration_test.go and
// component-helpers helpers_test.go, v0.34.4).
#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "api/taint.h"
#include "api/toleration.h"
#include "framework/interface.h"
#include "plugins/helper/taint.h"

namespace {

using ksched::api::Taint;
using ksched::api::Toleration;
namespace helper = ksched::plugins::helper;

TEST_CASE("ToleratesTaint follows core/v1 Toleration.ToleratesTaint", "[plugins][helper][taint]") {
  struct Row {
    const char* name;
    Toleration toleration;
    Taint taint;
    bool tolerated;
  };
  const Row rows[] = {
      {"same key, value and effect with Equal", {"foo", "Equal", "bar", "NoSchedule", {}},
       {"foo", "bar", "NoSchedule", {}}, true},
      {"empty operator means Equal", {"foo", "", "bar", "NoSchedule", {}},
       {"foo", "bar", "NoSchedule", {}}, true},
      {"Equal with a different value", {"foo", "Equal", "baz", "NoSchedule", {}},
       {"foo", "bar", "NoSchedule", {}}, false},
      {"Exists ignores the value", {"foo", "Exists", "", "NoSchedule", {}},
       {"foo", "bar", "NoSchedule", {}}, true},
      {"different effect", {"foo", "Exists", "", "NoExecute", {}},
       {"foo", "bar", "NoSchedule", {}}, false},
      {"empty effect matches every effect", {"foo", "Exists", "", "", {}},
       {"foo", "bar", "PreferNoSchedule", {}}, true},
      {"different key", {"other", "Exists", "", "", {}}, {"foo", "bar", "NoSchedule", {}}, false},
      {"empty key with Exists matches every taint", {"", "Exists", "", "", {}},
       {"foo", "bar", "NoExecute", {}}, true},
      // An empty key skips the key check, so Equal compares values only.
      {"empty key with Equal and the same value", {"", "Equal", "bar", "", {}},
       {"foo", "bar", "NoSchedule", {}}, true},
      {"empty key with Equal and another value", {"", "Equal", "baz", "", {}},
       {"foo", "bar", "NoSchedule", {}}, false},
      {"unknown operator tolerates nothing", {"foo", "Gt", "bar", "", {}},
       {"foo", "bar", "NoSchedule", {}}, false},
  };
  for (const Row& row : rows) {
    CAPTURE(row.name);
    CHECK(helper::ToleratesTaint(row.toleration, row.taint) == row.tolerated);
  }
}

TEST_CASE("TolerationsTolerateTaint is true when any toleration matches",
          "[plugins][helper][taint]") {
  const Taint taint{"dedicated", "gpu", "NoSchedule", {}};
  CHECK_FALSE(helper::TolerationsTolerateTaint({}, taint));
  const std::vector<Toleration> tolerations = {{"other", "Exists", "", "", {}},
                                               {"dedicated", "Equal", "gpu", "", {}}};
  CHECK(helper::TolerationsTolerateTaint(tolerations, taint));
  CHECK_FALSE(helper::TolerationsTolerateTaint(
      std::vector<Toleration>{{"other", "Exists", "", "", {}}}, taint));
}

TEST_CASE("FindMatchingUntoleratedTaint returns the first included untolerated taint",
          "[plugins][helper][taint]") {
  const std::vector<Taint> taints = {{"soft", "x", "PreferNoSchedule", {}},
                                     {"a", "1", "NoSchedule", {}},
                                     {"b", "2", "NoExecute", {}}};
  auto do_not_schedule = [](const Taint& taint) { return helper::IsDoNotScheduleTaint(taint); };

  const Taint* found = helper::FindMatchingUntoleratedTaint(taints, {}, do_not_schedule);
  REQUIRE(found != nullptr);
  CHECK(found->key == "a");

  const std::vector<Toleration> tolerate_a = {{"a", "Exists", "", "", {}}};
  found = helper::FindMatchingUntoleratedTaint(taints, tolerate_a, do_not_schedule);
  REQUIRE(found != nullptr);
  CHECK(found->key == "b");

  const std::vector<Toleration> tolerate_all = {{"", "Exists", "", "", {}}};
  CHECK(helper::FindMatchingUntoleratedTaint(taints, tolerate_all, do_not_schedule) == nullptr);

  // PreferNoSchedule taints are not DoNotSchedule taints.
  const std::vector<Taint> soft_only = {{"soft", "x", "PreferNoSchedule", {}}};
  CHECK(helper::FindMatchingUntoleratedTaint(soft_only, {}, do_not_schedule) == nullptr);
}

}  // namespace
