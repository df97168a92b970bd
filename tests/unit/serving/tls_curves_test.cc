// --tls-curve-preferences as component-base's cliflag.TLSCurvePreferences checks it (its table
// test, with Go 1.26's curves), and the OpenSSL group names the numbers stand for.
#include "serving/tls_curves.h"

#include <catch2/catch.hpp>

namespace ksched::serving {
namespace {

std::string ErrorOf(const std::vector<std::int32_t>& ids) {
  absl::StatusOr<std::vector<std::string>> groups = TlsCurveGroups(ids);
  return groups.ok() ? "ok" : std::string(groups.status().message());
}

TEST_CASE("tls curve preferences: Go's CurveIDs to OpenSSL groups, upstream's errors") {
  CHECK(*TlsCurveGroups({23, 24, 29}) == std::vector<std::string>{"P-256", "P-384", "X25519"});
  CHECK(*TlsCurveGroups({29}) == std::vector<std::string>{"X25519"});
  CHECK(*TlsCurveGroups({23, 24, 25, 29, 4588}) ==
        std::vector<std::string>{"P-256", "P-384", "P-521", "X25519", "X25519MLKEM768"});
  CHECK(*TlsCurveGroups({4587, 4589}) == std::vector<std::string>{"SecP256r1MLKEM768", "SecP384r1MLKEM1024"});
  CHECK(TlsCurveGroups({})->empty());
  CHECK(ErrorOf({23, 23}) == "duplicate curve preference 23");
  CHECK(ErrorOf({0}) == "curve preference 0 is out of range (must be 1-65535)");
  CHECK(ErrorOf({-1}) == "curve preference -1 is out of range (must be 1-65535)");
  CHECK(ErrorOf({65536}) == "curve preference 65536 is out of range (must be 1-65535)");
  CHECK(ErrorOf({9999}) == "curve preference 9999 is not supported by the current Go version");
  CHECK(ErrorOf({23, 0, 23}) == "curve preference 0 is out of range (must be 1-65535)");  // the first bad one
}

}  // namespace
}  // namespace ksched::serving
