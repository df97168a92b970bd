// Writing a configuration back (--write-config-to YAML, /configz JSON), compared byte for byte
// with what upstream v1.37.2 writes for the same input (upstream_goldens.h; /configz is the v1
// form with kind and apiVersion since v1.37).
#include <catch2/catch.hpp>
#include <string>

#include "config/load.h"
#include "config/write.h"
#include "upstream_goldens.h"

namespace {

namespace golden = ksched::config::testing;
using ksched::config::ConfigzJson;
using ksched::config::DecodeConfig;
using ksched::config::KubeSchedulerConfiguration;
using ksched::config::WriteConfigYaml;

KubeSchedulerConfiguration Decode(std::string_view yaml) {
  auto config = DecodeConfig(yaml);
  REQUIRE(config.ok());
  return *config;
}

TEST_CASE("write: defaults of an empty v1 file as upstream writes them", "[config][write]") {
  const KubeSchedulerConfiguration config = Decode(golden::kEmptyInput);
  CHECK(WriteConfigYaml(config) == golden::kEmptyYaml);
  CHECK(ConfigzJson(config) == golden::kEmptyConfigz);
}

TEST_CASE("write: out-of-tree args, merged plugins, extenders and durations", "[config][write]") {
  const KubeSchedulerConfiguration config = Decode(golden::kOutOfTreeInput);
  CHECK(WriteConfigYaml(config) == golden::kOutOfTreeYaml);
  CHECK(ConfigzJson(config) == golden::kOutOfTreeConfigz);
}

TEST_CASE("write: YAML scalar styles, numbers and key order as go-yaml", "[config][write]") {
  const KubeSchedulerConfiguration config = Decode(golden::kQuotingInput);
  CHECK(WriteConfigYaml(config) == golden::kQuotingYaml);
  CHECK(ConfigzJson(config) == golden::kQuotingConfigz);
}

TEST_CASE("write: typed plugin args in v1 and internal form", "[config][write]") {
  const KubeSchedulerConfiguration config = Decode(golden::kTypedArgsInput);
  CHECK(WriteConfigYaml(config) == golden::kTypedArgsYaml);
  CHECK(ConfigzJson(config) == golden::kTypedArgsConfigz);
}

TEST_CASE("write: the pod-group extension points, shape and bindingTimeout (v1.37)",
          "[config][write]") {
  const KubeSchedulerConfiguration config = Decode(golden::kPodGroupArgsInput);
  CHECK(WriteConfigYaml(config) == golden::kPodGroupArgsYaml);
  CHECK(ConfigzJson(config) == golden::kPodGroupArgsConfigz);
}

TEST_CASE("write: the default configuration reads back to itself", "[config][write]") {
  const KubeSchedulerConfiguration config = ksched::config::DefaultConfig();
  const std::string yaml = WriteConfigYaml(config);
  const KubeSchedulerConfiguration again = Decode(yaml);
  CHECK(WriteConfigYaml(again) == yaml);
  CHECK(ConfigzJson(again) == ConfigzJson(config));
}

}  // namespace
