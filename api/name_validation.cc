#include "api/name_validation.h"

#include <initializer_list>

namespace ksched::api {
namespace {

constexpr std::size_t kLabelMaxLength = 63;
constexpr std::size_t kSubdomainMaxLength = 253;

constexpr std::string_view kDns1123LabelFormat = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
constexpr std::string_view kDns1123LabelMessage =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end "
    "with an alphanumeric character";
constexpr std::string_view kDns1123SubdomainFormat =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
constexpr std::string_view kDns1123SubdomainMessage =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start "
    "and end with an alphanumeric character";
constexpr std::string_view kDns1035LabelFormat = "[a-z]([-a-z0-9]*[a-z0-9])?";
constexpr std::string_view kDns1035LabelMessage =
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic "
    "character, and end with an alphanumeric character";
constexpr std::string_view kQualifiedNameFormat = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
constexpr std::string_view kQualifiedNameMessage =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
    "character";
constexpr std::string_view kLabelValueFormat = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
constexpr std::string_view kLabelValueMessage =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start "
    "and end with an alphanumeric character";

// validation.RegexError: the message, its examples and the pattern.
std::string RegexError(std::string_view message, std::string_view format,
                       std::initializer_list<std::string_view> examples) {
  std::string out(message);
  out += " (e.g. ";
  bool first = true;
  for (std::string_view example : examples) {
    if (!first) out += " or ";
    first = false;
    out += '\'';
    out += example;
    out += "', ";
  }
  out += "regex used for validation is '";
  out += format;
  out += "')";
  return out;
}

std::string MaxLengthError(std::size_t length) {
  return "must be no more than " + std::to_string(length) + " characters";
}

bool IsLowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
bool IsAlnum(char c) { return IsLowerAlnum(c) || (c >= 'A' && c <= 'Z'); }

// ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$ (with `first_letter`: ^[a-z]...).
bool MatchesLabel(std::string_view s, bool first_letter) {
  if (s.empty() || !IsLowerAlnum(s.front()) || !IsLowerAlnum(s.back())) return false;
  if (first_letter && !(s.front() >= 'a' && s.front() <= 'z')) return false;
  for (char c : s) {
    if (!IsLowerAlnum(c) && c != '-') return false;
  }
  return true;
}

bool MatchesSubdomain(std::string_view s) {
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = s.find('.', start);
    if (!MatchesLabel(s.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start), false)) {
      return false;
    }
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

// ^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$
bool MatchesQualifiedName(std::string_view s) {
  if (s.empty() || !IsAlnum(s.front()) || !IsAlnum(s.back())) return false;
  for (char c : s) {
    if (!IsAlnum(c) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

}  // namespace

std::vector<std::string> IsDNS1123Label(std::string_view value) {
  std::vector<std::string> errors;
  if (value.size() > kLabelMaxLength) errors.push_back(MaxLengthError(kLabelMaxLength));
  if (!MatchesLabel(value, false)) {
    // A valid subdomain that is not a valid label has dots (the length was checked above).
    if (MatchesSubdomain(value)) {
      errors.emplace_back("must not contain dots");
    } else {
      errors.push_back(RegexError(kDns1123LabelMessage, kDns1123LabelFormat, {"my-name", "123-abc"}));
    }
  }
  return errors;
}

std::vector<std::string> IsDNS1123Subdomain(std::string_view value) {
  std::vector<std::string> errors;
  if (value.size() > kSubdomainMaxLength) errors.push_back(MaxLengthError(kSubdomainMaxLength));
  if (!MatchesSubdomain(value)) {
    errors.push_back(RegexError(kDns1123SubdomainMessage, kDns1123SubdomainFormat, {"example.com"}));
  }
  return errors;
}

std::vector<std::string> IsDNS1035Label(std::string_view value) {
  std::vector<std::string> errors;
  if (value.size() > kLabelMaxLength) errors.push_back(MaxLengthError(kLabelMaxLength));
  if (!MatchesLabel(value, true)) {
    errors.push_back(RegexError(kDns1035LabelMessage, kDns1035LabelFormat, {"my-name", "abc-123"}));
  }
  return errors;
}

std::vector<std::string> IsQualifiedName(std::string_view value) {
  std::vector<std::string> errors;
  std::string_view name = value;
  const std::size_t slash = value.find('/');
  if (slash != std::string_view::npos) {
    if (value.find('/', slash + 1) != std::string_view::npos) {
      errors.push_back("a qualified name " +
                       RegexError(kQualifiedNameMessage, kQualifiedNameFormat, {"MyName", "my.name", "123-abc"}) +
                       " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
      return errors;
    }
    const std::string_view prefix = value.substr(0, slash);
    name = value.substr(slash + 1);
    if (prefix.empty()) {
      errors.emplace_back("prefix part must be non-empty");
    } else {
      for (const std::string& message : IsDNS1123Subdomain(prefix)) errors.push_back("prefix part " + message);
    }
  }
  if (name.empty()) {
    errors.emplace_back("name part must be non-empty");
  } else if (name.size() > kLabelMaxLength) {
    errors.push_back("name part " + MaxLengthError(kLabelMaxLength));
  }
  if (!MatchesQualifiedName(name)) {
    errors.push_back("name part " +
                     RegexError(kQualifiedNameMessage, kQualifiedNameFormat, {"MyName", "my.name", "123-abc"}));
  }
  return errors;
}

std::vector<std::string> IsValidLabelValue(std::string_view value) {
  std::vector<std::string> errors;
  if (value.size() > kLabelMaxLength) errors.push_back(MaxLengthError(kLabelMaxLength));
  if (!value.empty() && !MatchesQualifiedName(value)) {
    errors.push_back(RegexError(kLabelValueMessage, kLabelValueFormat, {"MyValue", "my_value", "12345"}));
  }
  return errors;
}

std::string MaskTrailingDash(std::string_view name) {
  if (name.size() > 1 && name.back() == '-') {
    std::string masked(name.substr(0, name.size() - 2));
    masked += 'a';
    return masked;
  }
  return std::string(name);
}

}  // namespace ksched::api
