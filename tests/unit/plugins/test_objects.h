// Small builders for the objects plugin tests need (the counterpart of upstream's st.MakePod /
// st.MakeNode), and a helper that runs a plugin's factory and casts to the interface under test.
#pragma once

#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "api/labels.h"
#include "api/node.h"
#include "api/pod.h"
#include "framework/interface.h"
#include "framework/node_info.h"
#include "framework/pod_info.h"

namespace ksched::plugins::testing {

inline api::Pod MakePod(std::string name, std::string uid = "") {
  api::Pod pod;
  pod.metadata.name = std::move(name);
  pod.metadata.namespace_ = "default";
  pod.metadata.uid = uid.empty() ? pod.metadata.name + "-uid" : std::move(uid);
  pod.spec.scheduler_name = std::string(api::kDefaultSchedulerName);
  return pod;
}

inline std::shared_ptr<api::Node> MakeNode(std::string name, api::Labels labels = {}) {
  auto node = std::make_shared<api::Node>();
  node->metadata.name = std::move(name);
  node->metadata.labels = std::move(labels);
  return node;
}

// A NodeInfo holding `node` and `pods` (each assigned to it).
inline framework::NodeInfo MakeNodeInfo(std::shared_ptr<const api::Node> node,
                                        const std::vector<api::Pod>& pods = {}) {
  framework::NodeInfo info;
  info.SetNode(std::move(node));
  for (const api::Pod& pod : pods) {
    info.AddPod(framework::PodInfo::CreateOrDie(std::make_shared<const api::Pod>(pod)));
  }
  return info;
}

// The plugin the factory built, owned, with a typed view of it.
template <typename T>
struct BuiltPlugin {
  std::unique_ptr<framework::Plugin> owner;
  T* plugin = nullptr;
  T* operator->() const { return plugin; }
};

// Runs `factory` and requires that it succeeds and that the plugin implements T.
template <typename T, typename Factory, typename... Args>
BuiltPlugin<T> Build(Factory factory, Args&&... args) {
  absl::StatusOr<std::unique_ptr<framework::Plugin>> built =
      factory(std::forward<Args>(args)...);
  REQUIRE(built.ok());
  BuiltPlugin<T> result;
  result.owner = *std::move(built);
  result.plugin = dynamic_cast<T*>(result.owner.get());
  REQUIRE(result.plugin != nullptr);
  return result;
}

}  // namespace ksched::plugins::testing
