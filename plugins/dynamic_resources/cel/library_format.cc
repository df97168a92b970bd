// The Kubernetes format library: the format table, the OpenAPI string checks it uses
// (k8s.io/kube-openapi strfmt's uuid, byte, date and datetime validators) and the CEL functions.
#include "plugins/dynamic_resources/cel/library_format.h"

#include <array>
#include <utility>

#include "plugins/dynamic_resources/cel/functions.h"
#include "api/name_validation.h"
#include "plugins/dynamic_resources/cel/source.h"
#include "plugins/dynamic_resources/cel/url.h"

namespace ksched::plugins::dynamic_resources::cel {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsHexDigit(char c) { return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// strfmt's UUIDPattern: (?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$
bool IsUuid(std::string_view s) {
  static constexpr std::size_t kGroups[] = {8, 4, 4, 4, 12};
  std::size_t pos = 0;
  for (std::size_t group = 0; group < 5; ++group) {
    if (group > 0 && pos < s.size() && s[pos] == '-') ++pos;
    for (std::size_t i = 0; i < kGroups[group]; ++i, ++pos) {
      if (pos >= s.size() || !IsHexDigit(s[pos])) return false;
    }
  }
  return pos == s.size();
}

// govalidator's Base64 pattern: groups of four of [A-Za-z0-9+/], the last possibly ending in "="
// or "==".
bool IsBase64(std::string_view s) {
  auto base64_char = [](char c) {
    return IsDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '+' || c == '/';
  };
  if (s.empty() || s.size() % 4 != 0) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (base64_char(s[i])) continue;
    const std::size_t from_end = s.size() - i;
    // '=' only as the last character, or the last two.
    if (s[i] == '=' && (from_end == 1 || (from_end == 2 && s.back() == '='))) continue;
    return false;
  }
  return true;
}

int DaysIn(int month, int year) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
  return month == 2 && leap ? 29 : kDays[month - 1];
}

// time.Parse("2006-01-02", s): four-digit year, two-digit month and day, a day of that month.
bool IsDate(std::string_view s) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
    if (!IsDigit(s[i])) return false;
  }
  const int year = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
  const int month = (s[5] - '0') * 10 + (s[6] - '0');
  const int day = (s[8] - '0') * 10 + (s[9] - '0');
  return month >= 1 && month <= 12 && day >= 1 && day <= DaysIn(month, year);
}

// The length of the rune Go's regexp reads at s[0] (an invalid byte is a rune of its own).
std::size_t RuneLength(std::string_view s) {
  std::size_t pos = 0;
  DecodeUtf8(s, pos);
  return pos;
}

// strfmt.IsDateTime: the lower-cased string split at each 't'; the first part a date, the second
// ^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$ with hours <= 23 and
// minutes, seconds <= 59 (any further parts are ignored, as upstream ignores them).
bool IsDateTime(std::string_view str) {
  if (str.size() < 4) return false;
  std::string lower(str);
  for (char& c : lower) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  const std::size_t first_t = lower.find('t');
  if (first_t == std::string::npos) return false;
  if (!IsDate(std::string_view(lower).substr(0, first_t))) return false;
  const std::size_t second_t = lower.find('t', first_t + 1);
  const std::size_t time_length = second_t == std::string::npos ? std::string::npos : second_t - first_t - 1;
  const std::string_view time = std::string_view(lower).substr(first_t + 1, time_length);
  if (time.size() < 8 || time[2] != ':' || time[5] != ':') return false;
  for (std::size_t i : {0, 1, 3, 4, 6, 7}) {
    if (!IsDigit(time[i])) return false;
  }
  auto zone_at = [&](std::size_t pos) {
    const std::string_view zone = time.substr(pos);
    if (zone == "z") return true;
    return zone.size() == 6 && (zone[0] == '+' || zone[0] == '-') && IsDigit(zone[1]) && IsDigit(zone[2]) &&
           zone[3] == ':' && IsDigit(zone[4]) && IsDigit(zone[5]);
  };
  bool matched = zone_at(8);
  if (!matched && time.size() > 8 && time[8] != '\n') {
    std::size_t pos = 8 + RuneLength(time.substr(8));
    const std::size_t digits_start = pos;
    while (pos < time.size() && IsDigit(time[pos])) ++pos;
    matched = pos > digits_start && zone_at(pos);
  }
  return matched && time.substr(0, 2) <= "23" && time.substr(3, 2) <= "59" && time.substr(6, 2) <= "59";
}

std::vector<std::string> Failing(bool valid, std::string_view message) {
  if (valid) return {};
  return {std::string(message)};
}

constexpr std::array<NamedFormat, 13> kFormats = {{
    {"dns1123Label", "DNS1123Label", [](std::string_view s) { return api::IsDNS1123Label(s); }},
    {"dns1123Subdomain", "DNS1123Subdomain", [](std::string_view s) { return api::IsDNS1123Subdomain(s); }},
    {"dns1035Label", "DNS1035Label", [](std::string_view s) { return api::IsDNS1035Label(s); }},
    {"qualifiedName", "QualifiedName", [](std::string_view s) { return api::IsQualifiedName(s); }},
    {"dns1123LabelPrefix", "DNS1123LabelPrefix",
     [](std::string_view s) { return api::IsDNS1123Label(api::MaskTrailingDash(s)); }},
    {"dns1123SubdomainPrefix", "DNS1123SubdomainPrefix",
     [](std::string_view s) { return api::IsDNS1123Subdomain(api::MaskTrailingDash(s)); }},
    {"dns1035LabelPrefix", "DNS1035LabelPrefix",
     [](std::string_view s) { return api::IsDNS1035Label(api::MaskTrailingDash(s)); }},
    {"labelValue", "LabelValue", [](std::string_view s) { return api::IsValidLabelValue(s); }},
    {"uri", "URI",
     [](std::string_view s) {
       absl::StatusOr<Url> parsed = ParseRequestUri(s);
       if (parsed.ok()) return std::vector<std::string>{};
       return std::vector<std::string>{std::string(parsed.status().message())};
     }},
    {"uuid", "uuid", [](std::string_view s) { return Failing(IsUuid(s), "does not match the UUID format"); }},
    {"byte", "byte", [](std::string_view s) { return Failing(IsBase64(s), "invalid base64"); }},
    {"date", "date", [](std::string_view s) { return Failing(IsDate(s), "invalid date"); }},
    {"datetime", "datetime", [](std::string_view s) { return Failing(IsDateTime(s), "invalid datetime"); }},
}};

template <std::size_t kIndex>
Value FormatConstant(CallContext&, std::span<const Value>) {
  return Value::Format(&kFormats[kIndex]);
}

template <std::size_t... kIndexes>
void RegisterConstants(FunctionRegistry& r, std::index_sequence<kIndexes...>) {
  (r.Global("format." + std::string(kFormats[kIndexes].key), "format." + std::string(kFormats[kIndexes].key),
            " -> NamedFormat", FormatConstant<kIndexes>),
   ...);
}

Value Named(CallContext&, std::span<const Value> args) {
  for (const NamedFormat& format : kFormats) {
    if (format.key == args[0].text()) return Value::Optional(Value::Format(&format));
  }
  return Value::OptionalNone();
}

Value Validate(CallContext& ctx, std::span<const Value> args) {
  std::vector<std::string> problems = args[0].named_format().validate(args[1].text());
  if (problems.empty()) return Value::OptionalNone();
  std::vector<Value> messages;
  messages.reserve(problems.size());
  for (std::string& problem : problems) messages.push_back(Value::String(std::move(problem)));
  Value list = MakeList(ctx, std::move(messages));
  if (list.IsError()) return list;
  return Value::Optional(std::move(list));
}

}  // namespace

void RegisterFormatLibrary(FunctionRegistry& r) {
  RegisterConstants(r, std::make_index_sequence<kFormats.size()>());
  r.Global("format.named", "format-named", "string -> optional(NamedFormat)", Named);
  r.Member("validate", "format-validate", "NamedFormat, string -> optional(list(string))", Validate);
}

}  // namespace ksched::plugins::dynamic_resources::cel
