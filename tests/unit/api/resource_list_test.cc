// ResourceList (api/resource_list.h): sorted unique names, lookups, semantic equality.
#include "api/resource_list.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace {

using ksched::api::Quantity;
using ksched::api::ResourceList;

Quantity Q(std::string_view text) { return Quantity::Parse(text).value(); }

std::vector<std::string> Names(const ResourceList& list) {
  std::vector<std::string> names;
  for (const auto& [name, quantity] : list) names.push_back(name);
  return names;
}

TEST_CASE("ResourceList: sorted by name, last duplicate wins", "[api][resources]") {
  ResourceList list{{"memory", Q("1Gi")}, {"cpu", Q("1")}, {"pods", Q("110")}, {"cpu", Q("2")}};
  CHECK(list.size() == 3);
  CHECK(Names(list) == std::vector<std::string>{"cpu", "memory", "pods"});
  REQUIRE(list.Get("cpu") != nullptr);
  CHECK(list.Get("cpu")->String() == "2");
  CHECK(list.Get("memory")->String() == "1Gi");
  CHECK(list.Get("gpu") == nullptr);
  CHECK(list.Has("pods"));
  CHECK_FALSE(list.Has("pod"));
}

TEST_CASE("ResourceList: Set and Erase keep the order", "[api][resources]") {
  ResourceList list;
  CHECK(list.empty());
  list.Set("memory", Q("1Gi"));
  list.Set("cpu", Q("500m"));
  list.Set("nvidia.com/gpu", Q("1"));
  list.Set("cpu", Q("250m"));
  CHECK(Names(list) == std::vector<std::string>{"cpu", "memory", "nvidia.com/gpu"});
  CHECK(list.Get("cpu")->MilliValue() == 250);
  CHECK(list.Erase("memory"));
  CHECK_FALSE(list.Erase("memory"));
  CHECK(Names(list) == std::vector<std::string>{"cpu", "nvidia.com/gpu"});
}

TEST_CASE("ResourceList: equality compares quantities by value", "[api][resources]") {
  CHECK(ResourceList{{"cpu", Q("1")}} == ResourceList{{"cpu", Q("1000m")}});
  CHECK(ResourceList{{"memory", Q("1Gi")}} == ResourceList{{"memory", Q("1073741824")}});
  CHECK_FALSE(ResourceList{{"cpu", Q("1")}} == ResourceList{{"cpu", Q("1001m")}});
  CHECK_FALSE(ResourceList{{"cpu", Q("1")}} == ResourceList{{"memory", Q("1")}});
  CHECK_FALSE(ResourceList{{"cpu", Q("1")}} == ResourceList{});
  CHECK(ResourceList{} == ResourceList{});
}

}  // namespace
