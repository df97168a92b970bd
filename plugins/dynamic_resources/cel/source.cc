#include "plugins/dynamic_resources/cel/source.h"

#include <algorithm>

namespace ksched::plugins::dynamic_resources::cel {
namespace {

constexpr std::size_t kMaxErrorsToReport = 100;
constexpr std::size_t kMaxSnippetLength = 16384;

std::size_t Utf8Length(unsigned char lead) {
  if (lead < 0x80) return 1;
  if ((lead >> 5) == 0x6) return 2;
  if ((lead >> 4) == 0xE) return 3;
  if ((lead >> 3) == 0x1E) return 4;
  return 0;
}

}  // namespace

char32_t DecodeUtf8(std::string_view text, std::size_t& pos) {
  const auto lead = static_cast<unsigned char>(text[pos]);
  const std::size_t length = Utf8Length(lead);
  if (length == 1) {
    ++pos;
    return lead;
  }
  if (length == 0 || pos + length > text.size()) {
    ++pos;
    return 0xFFFD;
  }
  char32_t c = lead & (0x7F >> length);
  for (std::size_t i = 1; i < length; ++i) {
    const auto next = static_cast<unsigned char>(text[pos + i]);
    if ((next & 0xC0) != 0x80) {
      ++pos;
      return 0xFFFD;
    }
    c = (c << 6) | (next & 0x3F);
  }
  // Overlong encodings, surrogates and values past U+10FFFF are invalid (Go decodes them as one
  // RuneError byte).
  static constexpr char32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (c < kMin[length] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) {
    ++pos;
    return 0xFFFD;
  }
  pos += length;
  return c;
}

void AppendUtf8(std::string& out, char32_t c) {
  if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) c = 0xFFFD;
  if (c < 0x80) {
    out.push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (c >> 6)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (c >> 12)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (c >> 18)));
    out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}

std::size_t CodePointCount(std::string_view text) {
  std::size_t count = 0;
  for (std::size_t pos = 0; pos < text.size(); ++count) DecodeUtf8(text, pos);
  return count;
}

Source::Source(std::string_view text) : text_(text) {
  line_starts_.push_back(0);
  for (std::size_t i = 0; i < text_.size(); ++i) {
    if (text_[i] == '\n') line_starts_.push_back(i + 1);
  }
  code_points_ = cel::CodePointCount(text_);
}

Source::Location Source::LocationOf(std::int32_t offset) const {
  if (offset < 0) return {};
  const auto byte = static_cast<std::size_t>(offset);
  const auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), byte);
  const auto line = static_cast<std::size_t>(it - line_starts_.begin());  // 1-based
  const std::size_t start = line_starts_[line - 1];
  return {static_cast<int>(line),
          static_cast<int>(cel::CodePointCount(std::string_view(text_).substr(start, byte - start)))};
}

std::string Source::FormatIssue(const Issue& issue) const {
  const Location location = LocationOf(issue.offset);
  std::string out = "ERROR: <input>:";
  out += std::to_string(location.line);
  out += ":";
  out += std::to_string(location.column + 1);
  out += ": ";
  out += issue.message;
  if (location.line < 1) return out;
  const std::size_t start = line_starts_[static_cast<std::size_t>(location.line) - 1];
  std::size_t end = text_.find('\n', start);
  if (end == std::string::npos) end = text_.size();
  std::string snippet = text_.substr(start, end - start);
  if (snippet.size() > kMaxSnippetLength) return out;
  std::replace(snippet.begin(), snippet.end(), '\t', ' ');
  out += "\n | ";
  out += snippet;
  out += "\n | ";
  std::size_t pos = 0;
  for (int i = 0; i < location.column && pos < snippet.size(); ++i) {
    const std::size_t before = pos;
    DecodeUtf8(snippet, pos);
    out += pos - before > 1 ? "\uff0e" : ".";
  }
  if (pos < snippet.size()) {
    const std::size_t before = pos;
    DecodeUtf8(snippet, pos);
    out += pos - before > 1 ? "\uff3e" : "^";
  } else {
    out += "^";
  }
  return out;
}

std::string Source::FormatIssues(std::vector<Issue> issues) const {
  std::vector<std::pair<Location, const Issue*>> sorted;
  sorted.reserve(issues.size());
  for (const Issue& issue : issues) sorted.emplace_back(LocationOf(issue.offset), &issue);
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
    return a.first.line < b.first.line || (a.first.line == b.first.line && a.first.column < b.first.column);
  });
  std::string out;
  for (std::size_t i = 0; i < sorted.size() && i < kMaxErrorsToReport; ++i) {
    if (i > 0) out += "\n";
    out += FormatIssue(*sorted[i].second);
  }
  if (sorted.size() > kMaxErrorsToReport) {
    out += "\n";
    out += std::to_string(sorted.size() - kMaxErrorsToReport);
    out += " more errors were truncated";
  }
  return out;
}

}  // namespace ksched::plugins::dynamic_resources::cel
