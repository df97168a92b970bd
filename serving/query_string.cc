#include "serving/query_string.h"

#include <utility>

namespace ksched::serving {
namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Calls `visit(key, value)` for each well-formed key=value pair of `query`.
template <typename Visit>
void ForEachPair(std::string_view query, Visit visit) {
  while (!query.empty()) {
    const std::size_t amp = query.find('&');
    std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    // Go rejects pairs holding ';' (since 1.17) and skips empty ones.
    if (pair.empty() || pair.find(';') != std::string_view::npos) continue;
    const std::size_t eq = pair.find('=');
    std::optional<std::string> key = PercentDecode(pair.substr(0, eq), true);
    std::optional<std::string> value =
        eq == std::string_view::npos ? std::string() : PercentDecode(pair.substr(eq + 1), true);
    if (!key || !value) continue;
    visit(*key, *value);
  }
}

}  // namespace

std::optional<std::string> PercentDecode(std::string_view text, bool plus_is_space) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '%') {
      if (i + 2 >= text.size()) return std::nullopt;
      const int hi = HexValue(text[i + 1]);
      const int lo = HexValue(text[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    } else if (c == '+' && plus_is_space) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

std::vector<std::string> QueryValues(std::string_view query, std::string_view key) {
  std::vector<std::string> values;
  ForEachPair(query, [&](const std::string& k, std::string& v) {
    if (k == key) values.push_back(std::move(v));
  });
  return values;
}

bool HasQueryKey(std::string_view query, std::string_view key) {
  bool found = false;
  ForEachPair(query, [&](const std::string& k, const std::string&) { found = found || k == key; });
  return found;
}

}  // namespace ksched::serving
