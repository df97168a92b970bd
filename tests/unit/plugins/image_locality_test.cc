// ImageLocality: ported from upstream imagelocality/image_locality_test.go (v1.37.2). Image
// spread (how many nodes have each image) comes from the snapshot, as upstream's cache.NewSnapshot.
#include "plugins/image_locality/image_locality.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fake_handle.h"
#include "test_objects.h"

namespace {

using ksched::api::Container;
using ksched::api::ContainerImage;
using ksched::api::Node;
using ksched::api::Pod;
using ksched::framework::CycleState;
using ksched::framework::ScorePlugin;
namespace image_locality = ksched::plugins::image_locality;
using ksched::plugins::testing::Build;
using ksched::plugins::testing::FakeHandle;
using ksched::plugins::testing::MakeNode;
using ksched::plugins::testing::MakePod;

constexpr std::int64_t kMB = image_locality::kMB;

std::shared_ptr<const Node> ImageNode(std::string name, std::vector<ContainerImage> images) {
  auto node = MakeNode(std::move(name));
  node->status.images = std::move(images);
  return node;
}

Pod PodWithImages(std::vector<std::string> images, std::vector<std::string> init_images = {}) {
  Pod pod = MakePod("p");
  for (std::string& image : images) {
    Container container;
    container.image = std::move(image);
    pod.spec.containers.push_back(std::move(container));
  }
  for (std::string& image : init_images) {
    Container container;
    container.image = std::move(image);
    pod.spec.init_containers.push_back(std::move(container));
  }
  return pod;
}

const std::vector<ContainerImage> kNode403002000 = {
    {{"gcr.io/40:latest", "gcr.io/40:v1", "gcr.io/40:v1"}, 40 * kMB},
    {{"gcr.io/300:latest", "gcr.io/300:v1"}, 300 * kMB},
    {{"gcr.io/2000:latest"}, 2000 * kMB},
};
const std::vector<ContainerImage> kNode25010 = {
    {{"gcr.io/250:latest"}, 250 * kMB},
    {{"gcr.io/10:latest", "gcr.io/10:v1"}, 10 * kMB},
};
const std::vector<ContainerImage> kNode60040900 = {
    {{"gcr.io/600:latest"}, 600 * kMB},
    {{"gcr.io/40:latest"}, 40 * kMB},
    {{"gcr.io/900:latest"}, 900 * kMB},
};
const std::vector<ContainerImage> kNode300600900 = {
    {{"gcr.io/300:latest"}, 300 * kMB},
    {{"gcr.io/600:latest"}, 600 * kMB},
    {{"gcr.io/900:latest"}, 900 * kMB},
};
const std::vector<ContainerImage> kNode400030 = {
    {{"gcr.io/4000:latest"}, 4000 * kMB},
    {{"gcr.io/30:latest"}, 30 * kMB},
};
const std::vector<ContainerImage> kNode203040 = {
    {{"gcr.io/20:latest"}, 20 * kMB},
    {{"gcr.io/30:latest"}, 30 * kMB},
    {{"gcr.io/40:latest"}, 40 * kMB},
};

std::vector<std::int64_t> Scores(const Pod& pod,
                                 const std::vector<std::shared_ptr<const Node>>& nodes) {
  FakeHandle handle(nodes);
  auto plugin = Build<ScorePlugin>(image_locality::New, nullptr, handle);
  CycleState state;
  std::vector<std::int64_t> out;
  for (const auto& node : nodes) {
    const auto* info = handle.snapshot().Get(node->metadata.name);
    REQUIRE(info != nullptr);
    auto [score, status] = plugin->Score(state, pod, *info);
    REQUIRE(status.IsSuccess());
    out.push_back(score);
  }
  return out;
}

TEST_CASE("ImageLocality favours nodes holding the pod's larger, less spread images",
          "[plugins][image_locality]") {
  using V = std::vector<std::int64_t>;
  // Score: 100 * (sum of size * spread, clamped to [23M, 1000M * containers] - 23M) /
  // (1000M * containers - 23M).
  SECTION("two images spread on two nodes, prefer the larger image one") {
    CHECK(Scores(PodWithImages({"gcr.io/40", "gcr.io/250"}),
                 {ImageNode("node1", kNode403002000), ImageNode("node2", kNode25010)}) == V{0, 5});
  }
  SECTION("two images on one node, prefer this node") {
    CHECK(Scores(PodWithImages({"gcr.io/40", "gcr.io/300"}),
                 {ImageNode("node1", kNode403002000), ImageNode("node2", kNode25010)}) == V{7, 0});
  }
  SECTION("if exceed limit, use limit") {
    CHECK(Scores(PodWithImages({"gcr.io/10", "gcr.io/4000"}),
                 {ImageNode("node1", kNode400030), ImageNode("node2", kNode25010)}) == V{100, 0});
  }
  SECTION("if exceed limit, use limit (with node which has no images present)") {
    CHECK(Scores(PodWithImages({"gcr.io/10", "gcr.io/4000"}),
                 {ImageNode("node1", kNode400030), ImageNode("node2", kNode25010),
                  ImageNode("node3", {})}) == V{66, 0, 0});
  }
  SECTION("pod with multiple large images, node2 is preferred") {
    CHECK(Scores(PodWithImages({"gcr.io/300", "gcr.io/600", "gcr.io/900"}),
                 {ImageNode("node1", kNode60040900), ImageNode("node2", kNode300600900),
                  ImageNode("node3", {})}) == V{32, 36, 0});
  }
  SECTION("pod with multiple small images") {
    CHECK(Scores(PodWithImages({"gcr.io/30", "gcr.io/40"}),
                 {ImageNode("node1", kNode203040), ImageNode("node2", kNode400030)}) == V{1, 0});
  }
  SECTION("include InitContainers: two images spread on two nodes, prefer the larger image one") {
    CHECK(Scores(PodWithImages({"gcr.io/30"}, {"gcr.io/300"}),
                 {ImageNode("node1", kNode403002000), ImageNode("node2", kNode203040)}) == V{6, 0});
  }
  // v1.37.2 (kubernetes#130231): an image volume counts as one more image.
  // node1: 100 * (300M * 1/2 - 23M) / (1000M * 2 - 23M) = 6; node2: 30M * 1/2 < 23M.
  SECTION("pod with ImageVolume") {
    Pod pod = PodWithImages({"gcr.io/30"});
    ksched::api::Volume volume;
    volume.name = "imageVolume";
    volume.image = true;
    volume.image_reference = "gcr.io/300";
    pod.spec.volumes.push_back(volume);
    CHECK(Scores(pod, {ImageNode("node1", kNode300600900), ImageNode("node2", kNode400030)}) ==
          V{6, 0});
  }
  SECTION("same images as ImageVolume pod but as regular container images") {
    CHECK(Scores(PodWithImages({"gcr.io/30", "gcr.io/300"}),
                 {ImageNode("node1", kNode300600900), ImageNode("node2", kNode400030)}) == V{6, 0});
  }
  SECTION("an image volume the node lacks still counts in the threshold") {
    // 300M * 1/1 over 3 images: 100 * (300M - 23M) / (3000M - 23M) = 9.
    Pod pod = PodWithImages({"gcr.io/300"});
    for (const char* reference : {"gcr.io/missing", ""}) {
      ksched::api::Volume volume;
      volume.image = true;
      volume.image_reference = reference;
      pod.spec.volumes.push_back(volume);
    }
    ksched::api::Volume not_image;
    not_image.name = "scratch";
    pod.spec.volumes.push_back(not_image);
    CHECK(Scores(pod, {ImageNode("node1", kNode300600900)}) == V{9});
  }
  SECTION("an explicit tag is looked up as written") {
    CHECK(Scores(PodWithImages({"gcr.io/300:v1"}),
                 {ImageNode("node1", kNode403002000), ImageNode("node2", kNode25010)}) == V{12, 0});
  }
}

TEST_CASE("NormalizedImageName appends :latest only without a tag or digest",
          "[plugins][image_locality]") {
  struct Row {
    const char* input;
    const char* output;
  };
  const Row rows[] = {
      {"root", "root:latest"},
      {"gcr.io:5000/root", "gcr.io:5000/root:latest"},
      {"root:tag", "root:tag"},
      {"root@sha256:4813494d137e1631bba301d5acab6e7bb7aa74ce1185d456565ef51d737677b2",
       "root@sha256:4813494d137e1631bba301d5acab6e7bb7aa74ce1185d456565ef51d737677b2"},
      {"gcr.io:5000/root:tag", "gcr.io:5000/root:tag"},
      {"", ":latest"},
  };
  for (const Row& row : rows) {
    CAPTURE(row.input);
    CHECK(image_locality::NormalizedImageName(row.input) == row.output);
  }
}

TEST_CASE("CalculatePriority clamps to the thresholds", "[plugins][image_locality]") {
  CHECK(image_locality::CalculatePriority(0, 1) == 0);
  CHECK(image_locality::CalculatePriority(23 * kMB, 1) == 0);
  CHECK(image_locality::CalculatePriority(1000 * kMB, 1) == 100);
  CHECK(image_locality::CalculatePriority(5000 * kMB, 2) == 100);
  CHECK(image_locality::CalculatePriority(0, 0) == 0);
}

}  // namespace
