// Semantic versions as github.com/blang/semver/v4 (v4.0.0) parses and orders them: the strict
// Parse that DRA uses for version attributes and that CEL's semver() uses, and the normalizing
// parse of semver(s, true) / isSemver(s, true) (k8s.io/apiserver/pkg/cel/library/semverlib.go).
//
// Errors carry blang's messages verbatim ("No Major.Minor.Patch elements found",
// "Major number must not contain leading zeroes \"01\"", Go's strconv messages for overflow).
//
// Thread-safety: a value type; free functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace ksched::plugins::dynamic_resources::cel {

struct Semver {
  struct PreRelease {
    std::string text;  // alphanumeric identifiers
    std::uint64_t number = 0;
    bool is_number = false;
  };
  std::uint64_t major = 0;
  std::uint64_t minor = 0;
  std::uint64_t patch = 0;
  std::vector<PreRelease> pre;
  std::vector<std::string> build;

  // blang's Version.String().
  std::string ToString() const;
};

// semver.Parse. Errors are InvalidArgument with blang's message.
absl::StatusOr<Semver> ParseSemver(std::string_view text);
// semverlib's normalizeAndParse: a "v" prefix and leading zeros dropped, missing minor/patch added.
absl::StatusOr<Semver> ParseSemverNormalized(std::string_view text);
// Version.Compare: -1, 0, 1 (build metadata ignored).
int CompareSemver(const Semver& a, const Semver& b);

}  // namespace ksched::plugins::dynamic_resources::cel
