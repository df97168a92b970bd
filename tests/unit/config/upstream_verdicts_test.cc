// Every input of upstream_errors.h loads (LoadConfig: decode, defaults, validation) to exactly
// the error upstream v1.37.2 gives for it, or loads cleanly when upstream's does.
#include <catch2/catch.hpp>
#include <string>

#include "config/load.h"
#include "upstream_errors.h"

namespace {

TEST_CASE("load: the same verdict as upstream, word for word", "[config][load][upstream]") {
  for (const auto& verdict : ksched::config::testing::kUpstreamVerdicts) {
    DYNAMIC_SECTION(verdict.name) {
      const auto config = ksched::config::LoadConfig(verdict.input, "test.yaml");
      const std::string got = config.ok() ? "" : std::string(config.status().message());
      CHECK(got == std::string(verdict.error));
    }
  }
}

}  // namespace
