#include "plugins/dynamic_resources/cel/semver.h"

#include "absl/status/status.h"
#include "api/field_errors.h"
#include "api/go_strconv.h"

namespace ksched::plugins::dynamic_resources::cel {
namespace {

bool IsNumeric(char c) { return c >= '0' && c <= '9'; }
bool IsAlphanumeric(char c) {
  return IsNumeric(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-';
}

bool ContainsOnlyNumbers(std::string_view s) {
  for (char c : s) {
    if (!IsNumeric(c)) return false;
  }
  return true;
}
bool ContainsOnlyAlphanumerics(std::string_view s) {
  for (char c : s) {
    if (!IsAlphanumeric(c)) return false;
  }
  return true;
}
bool HasLeadingZeroes(std::string_view s) { return s.size() > 1 && s[0] == '0'; }

std::vector<std::string_view> Split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = s.find(sep, start);
    if (end == std::string_view::npos) {
      parts.push_back(s.substr(start));
      return parts;
    }
    parts.push_back(s.substr(start, end - start));
    start = end + 1;
  }
}

}  // namespace

std::string Semver::ToString() const {
  std::string out = std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
  for (std::size_t i = 0; i < pre.size(); ++i) {
    out += i == 0 ? "-" : ".";
    out += pre[i].is_number ? std::to_string(pre[i].number) : pre[i].text;
  }
  for (std::size_t i = 0; i < build.size(); ++i) {
    out += i == 0 ? "+" : ".";
    out += build[i];
  }
  return out;
}

absl::StatusOr<Semver> ParseSemver(std::string_view s) {
  if (s.empty()) return absl::InvalidArgumentError("Version string empty");
  // strings.SplitN(s, ".", 3)
  const std::size_t first = s.find('.');
  const std::size_t second = first == std::string_view::npos ? first : s.find('.', first + 1);
  if (second == std::string_view::npos) return absl::InvalidArgumentError("No Major.Minor.Patch elements found");
  const std::string_view major = s.substr(0, first);
  const std::string_view minor = s.substr(first + 1, second - first - 1);
  std::string_view patch = s.substr(second + 1);

  Semver v;
  if (!ContainsOnlyNumbers(major)) {
    return absl::InvalidArgumentError("Invalid character(s) found in major number " + api::GoQuote(major));
  }
  if (HasLeadingZeroes(major)) {
    return absl::InvalidArgumentError("Major number must not contain leading zeroes " + api::GoQuote(major));
  }
  absl::StatusOr<std::uint64_t> number = api::GoParseUint(major, 10, 64);
  if (!number.ok()) return number.status();
  v.major = *number;
  if (!ContainsOnlyNumbers(minor)) {
    return absl::InvalidArgumentError("Invalid character(s) found in minor number " + api::GoQuote(minor));
  }
  if (HasLeadingZeroes(minor)) {
    return absl::InvalidArgumentError("Minor number must not contain leading zeroes " + api::GoQuote(minor));
  }
  number = api::GoParseUint(minor, 10, 64);
  if (!number.ok()) return number.status();
  v.minor = *number;

  std::vector<std::string_view> build;
  std::vector<std::string_view> prerelease;
  bool has_build = false;
  bool has_pre = false;
  if (const std::size_t plus = patch.find('+'); plus != std::string_view::npos) {
    build = Split(patch.substr(plus + 1), '.');
    has_build = true;
    patch = patch.substr(0, plus);
  }
  if (const std::size_t dash = patch.find('-'); dash != std::string_view::npos) {
    prerelease = Split(patch.substr(dash + 1), '.');
    has_pre = true;
    patch = patch.substr(0, dash);
  }
  if (!ContainsOnlyNumbers(patch)) {
    return absl::InvalidArgumentError("Invalid character(s) found in patch number " + api::GoQuote(patch));
  }
  if (HasLeadingZeroes(patch)) {
    return absl::InvalidArgumentError("Patch number must not contain leading zeroes " + api::GoQuote(patch));
  }
  number = api::GoParseUint(patch, 10, 64);
  if (!number.ok()) return number.status();
  v.patch = *number;

  if (has_pre) {
    for (std::string_view part : prerelease) {
      if (part.empty()) return absl::InvalidArgumentError("Prerelease is empty");
      Semver::PreRelease pr;
      if (ContainsOnlyNumbers(part)) {
        if (HasLeadingZeroes(part)) {
          return absl::InvalidArgumentError("Numeric PreRelease version must not contain leading zeroes " +
                                            api::GoQuote(part));
        }
        number = api::GoParseUint(part, 10, 64);
        if (!number.ok()) return number.status();
        pr.number = *number;
        pr.is_number = true;
      } else if (ContainsOnlyAlphanumerics(part)) {
        pr.text = std::string(part);
      } else {
        return absl::InvalidArgumentError("Invalid character(s) found in prerelease " + api::GoQuote(part));
      }
      v.pre.push_back(std::move(pr));
    }
  }
  if (has_build) {
    for (std::string_view part : build) {
      if (part.empty()) return absl::InvalidArgumentError("Build meta data is empty");
      if (!ContainsOnlyAlphanumerics(part)) {
        return absl::InvalidArgumentError("Invalid character(s) found in build meta data " + api::GoQuote(part));
      }
      v.build.emplace_back(part);
    }
  }
  return v;
}

absl::StatusOr<Semver> ParseSemverNormalized(std::string_view s) {
  if (!s.empty() && s[0] == 'v') s.remove_prefix(1);
  // strings.SplitN(s, ".", 3)
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (parts.size() < 2) {
    const std::size_t dot = s.find('.', start);
    if (dot == std::string_view::npos) break;
    parts.emplace_back(s.substr(start, dot - start));
    start = dot + 1;
  }
  parts.emplace_back(s.substr(start));
  for (std::string& p : parts) {
    if (p.size() > 1) {
      const std::size_t nonzero = p.find_first_not_of('0');
      p = nonzero == std::string::npos ? std::string() : p.substr(nonzero);
      if (p.empty() || !IsNumeric(p[0])) p = "0" + p;
    }
  }
  if (parts.size() < 3) {
    if (parts.back().find_first_of("+-") != std::string::npos) {
      return absl::InvalidArgumentError("short version cannot contain PreRelease/Build meta data");
    }
    while (parts.size() < 3) parts.emplace_back("0");
  }
  return ParseSemver(parts[0] + "." + parts[1] + "." + parts[2]);
}

int CompareSemver(const Semver& a, const Semver& b) {
  auto cmp = [](std::uint64_t x, std::uint64_t y) { return x == y ? 0 : (x > y ? 1 : -1); };
  if (int c = cmp(a.major, b.major); c != 0) return c;
  if (int c = cmp(a.minor, b.minor); c != 0) return c;
  if (int c = cmp(a.patch, b.patch); c != 0) return c;
  if (a.pre.empty() && b.pre.empty()) return 0;
  if (a.pre.empty()) return 1;
  if (b.pre.empty()) return -1;
  std::size_t i = 0;
  for (; i < a.pre.size() && i < b.pre.size(); ++i) {
    const Semver::PreRelease& x = a.pre[i];
    const Semver::PreRelease& y = b.pre[i];
    int c = 0;
    if (x.is_number && !y.is_number) {
      c = -1;
    } else if (!x.is_number && y.is_number) {
      c = 1;
    } else if (x.is_number) {
      c = cmp(x.number, y.number);
    } else {
      c = x.text == y.text ? 0 : (x.text > y.text ? 1 : -1);
    }
    if (c != 0) return c;
  }
  if (i == a.pre.size() && i == b.pre.size()) return 0;
  return i == a.pre.size() ? -1 : 1;
}

}  // namespace ksched::plugins::dynamic_resources::cel
