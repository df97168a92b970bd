// UTF-8 decoding and encoding with Go's rules (unicode/utf8), for code that must render or rewrite
// strings byte-for-byte the way upstream Go code does: `for _, r := range s` and DecodeRuneInString
// turn each invalid or truncated sequence into U+FFFD consuming one byte, and reject overlong
// forms, surrogates and code points above U+10FFFF.
//
// Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ksched::api {

inline constexpr char32_t kRuneError = 0xFFFD;

struct DecodedRune {
  char32_t rune;      // kRuneError for an invalid sequence
  std::size_t width;  // bytes consumed: 1..4, or 0 for empty input
};

// Decodes the first rune of `s` like Go's utf8.DecodeRuneInString.
constexpr DecodedRune DecodeRune(std::string_view s) noexcept {
  if (s.empty()) return {kRuneError, 0};
  const auto b0 = static_cast<unsigned char>(s[0]);
  if (b0 < 0x80) return {b0, 1};
  std::size_t width = 0;
  unsigned char lo = 0x80;
  unsigned char hi = 0xBF;
  char32_t rune = 0;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    width = 2;
    rune = b0 & 0x1F;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    width = 3;
    rune = b0 & 0x0F;
    if (b0 == 0xE0) lo = 0xA0;  // no overlong forms
    if (b0 == 0xED) hi = 0x9F;  // no surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    width = 4;
    rune = b0 & 0x07;
    if (b0 == 0xF0) lo = 0x90;  // no overlong forms
    if (b0 == 0xF4) hi = 0x8F;  // nothing above U+10FFFF
  } else {
    return {kRuneError, 1};
  }
  if (s.size() < width) return {kRuneError, 1};
  for (std::size_t i = 1; i < width; ++i) {
    const auto b = static_cast<unsigned char>(s[i]);
    const unsigned char min = i == 1 ? lo : 0x80;
    const unsigned char max = i == 1 ? hi : 0xBF;
    if (b < min || b > max) return {kRuneError, 1};
    rune = (rune << 6) | (b & 0x3F);
  }
  return {rune, width};
}

// Appends the UTF-8 encoding of `r` (an invalid code point is written as U+FFFD, as Go does).
inline void AppendRune(std::string& out, char32_t r) {
  if (r > 0x10FFFF || (r >= 0xD800 && r <= 0xDFFF)) r = kRuneError;
  if (r < 0x80) {
    out += static_cast<char>(r);
  } else if (r < 0x800) {
    out += static_cast<char>(0xC0 | (r >> 6));
    out += static_cast<char>(0x80 | (r & 0x3F));
  } else if (r < 0x10000) {
    out += static_cast<char>(0xE0 | (r >> 12));
    out += static_cast<char>(0x80 | ((r >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (r & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (r >> 18));
    out += static_cast<char>(0x80 | ((r >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((r >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (r & 0x3F));
  }
}

}  // namespace ksched::api
