#include "client/resource_path.h"

namespace ksched::client {

namespace {

constexpr char kHex[] = "0123456789ABCDEF";

bool IsUnreserved(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_' || c == '.' || c == '~';
}

void AppendEscaped(std::string& out, unsigned char c) {
  out += '%';
  out += kHex[c >> 4];
  out += kHex[c & 0xF];
}

}  // namespace

std::string PathEscape(std::string_view segment) {
  std::string out;
  out.reserve(segment.size());
  for (const char ch : segment) {
    const auto c = static_cast<unsigned char>(ch);
    if (IsUnreserved(c) || c == '$' || c == '&' || c == '+' || c == ',' || c == ':' || c == ';' ||
        c == '=' || c == '@') {
      out += ch;
    } else {
      AppendEscaped(out, c);
    }
  }
  return out;
}

std::string QueryEscape(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (const char ch : value) {
    const auto c = static_cast<unsigned char>(ch);
    if (IsUnreserved(c)) {
      out += ch;
    } else if (c == ' ') {
      out += '+';
    } else {
      AppendEscaped(out, c);
    }
  }
  return out;
}

std::string ResourcePath::String() const {
  std::string path;
  auto segment = [&path](std::string_view value) {
    path += '/';
    path += PathEscape(value);
  };
  if (group_.empty()) {
    path = "/api";
  } else {
    path = "/apis";
    segment(group_);
  }
  segment(version_);
  if (!namespace_.empty()) {
    segment("namespaces");
    segment(namespace_);
  }
  if (!resource_.empty()) segment(resource_);
  if (!name_.empty()) {
    segment(name_);
    if (!subresource_.empty()) segment(subresource_);
  }
  return path;
}

}  // namespace ksched::client
