// DefaultBinder: ported from upstream defaultbinder/default_binder_test.go (v1.34.4), with the
// API client replaced by the fake ClusterApi of the Handle.
#include "plugins/default_binder/default_binder.h"

#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

#include "fake_handle.h"
#include "test_objects.h"

namespace {

using ksched::framework::BindPlugin;
using ksched::framework::Code;
using ksched::framework::CycleState;
using ksched::framework::Status;
namespace default_binder = ksched::plugins::default_binder;
using ksched::plugins::testing::Build;
using ksched::plugins::testing::FakeHandle;
using ksched::plugins::testing::MakePod;

using Bindings = std::vector<std::pair<std::string, std::string>>;

TEST_CASE("DefaultBinder binds through the cluster API and reports its failure",
          "[plugins][default_binder]") {
  FakeHandle handle;
  auto plugin = Build<BindPlugin>(default_binder::New, nullptr, handle);
  CHECK(plugin->Name() == "DefaultBinder");
  CycleState state;
  auto pod = MakePod("foo");
  pod.metadata.namespace_ = "ns";
  const std::string node = "foohost.kubernetes.mydomain.com";

  SECTION("successful") {
    CHECK(plugin->Bind(state, pod, node).IsSuccess());
    CHECK(handle.fake_cluster_api().bindings() == Bindings{{"ns/foo", node}});
  }
  SECTION("binding error") {
    handle.fake_cluster_api().set_bind_result(Status::FromError("binding error"));
    const Status status = plugin->Bind(state, pod, node);
    CHECK(status.code() == Code::kError);
    CHECK(status.Message() == "binding error");
    CHECK(handle.fake_cluster_api().bindings() == Bindings{{"ns/foo", node}});
  }
}

}  // namespace
