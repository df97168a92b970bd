// LoadConfigFile: reading the file, Go's wording for a missing one, warnings prefixed with the
// path.
#include <catch2/catch.hpp>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "config/load.h"

namespace {

std::filesystem::path TempPath(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         ("ksched-config-test-" + std::to_string(::getpid()) + "-" + name);
}

TEST_CASE("load file: a missing file reads as Go's open error", "[config][load]") {
  const std::string path = TempPath("missing.yaml").string();
  auto config = ksched::config::LoadConfigFile(path);
  REQUIRE_FALSE(config.ok());
  CHECK(std::string(config.status().message()) == "open " + path + ": no such file or directory");
}

TEST_CASE("load file: contents are decoded, defaulted and validated", "[config][load]") {
  const std::filesystem::path path = TempPath("config.yaml");
  {
    std::ofstream out(path);
    out << "apiVersion: kubescheduler.config.k8s.io/v1beta3\n"
           "kind: KubeSchedulerConfiguration\n"
           "parallelism: 4\n";
  }
  std::vector<std::string> warnings;
  auto config = ksched::config::LoadConfigFile(path.string(), &warnings);
  REQUIRE(config.ok());
  CHECK(config->parallelism == 4);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].rfind(path.string() + ": kubescheduler.config.k8s.io/v1beta3", 0) == 0);

  {
    std::ofstream out(path);
    out << "apiVersion: kubescheduler.config.k8s.io/v1\n"
           "kind: KubeSchedulerConfiguration\n"
           "parallelism: 0\n";
  }
  auto invalid = ksched::config::LoadConfigFile(path.string());
  REQUIRE_FALSE(invalid.ok());
  CHECK(std::string(invalid.status().message()) ==
        "parallelism: Invalid value: 0: should be an integer value greater than zero");
  std::filesystem::remove(path);
}

}  // namespace
