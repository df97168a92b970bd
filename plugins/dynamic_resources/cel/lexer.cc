#include "plugins/dynamic_resources/cel/lexer.h"

#include <algorithm>

#include "plugins/dynamic_resources/cel/source.h"

namespace ksched::plugins::dynamic_resources::cel {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsHexDigit(char c) { return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool IsLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsIdentStart(char c) { return IsLetter(c) || c == '_'; }
bool IsIdentChar(char c) { return IsIdentStart(c) || IsDigit(c); }

// Length of the escape sequence (ESC_SEQ) at text[pos] == '\\', or 0 when it is not one.
std::size_t EscapeLength(std::string_view text, std::size_t pos) {
  if (pos + 1 >= text.size()) return 0;
  const char c = text[pos + 1];
  switch (c) {
    case 'a': case 'b': case 'f': case 'n': case 'r': case 't': case 'v':
    case '"': case '\'': case '\\': case '?': case '`':
      return 2;
    default:
      break;
  }
  auto hex_run = [&](std::size_t from, std::size_t count) {
    if (from + count > text.size()) return false;
    for (std::size_t i = 0; i < count; ++i) {
      if (!IsHexDigit(text[from + i])) return false;
    }
    return true;
  };
  if (c == 'x' || c == 'X') return hex_run(pos + 2, 2) ? 4 : 0;
  if (c == 'u') return hex_run(pos + 2, 4) ? 6 : 0;
  if (c == 'U') return hex_run(pos + 2, 8) ? 10 : 0;
  if (c >= '0' && c <= '3') {
    if (pos + 3 < text.size() && text[pos + 2] >= '0' && text[pos + 2] <= '7' && text[pos + 3] >= '0' &&
        text[pos + 3] <= '7') {
      return 4;
    }
  }
  return 0;
}

// Length of the longest prefix of an escape sequence at text[pos] == '\\' that the lexer
// accepted before failing, the offending character included (ANTLR reports that text).
std::size_t FailedEscapeLength(std::string_view text, std::size_t pos) {
  std::size_t length = 2;  // the backslash and the character after it
  if (pos + 1 < text.size()) {
    const char c = text[pos + 1];
    std::size_t digits = 0;
    bool octal = false;
    if (c == 'x' || c == 'X') {
      digits = 2;
    } else if (c == 'u') {
      digits = 4;
    } else if (c == 'U') {
      digits = 8;
    } else if (c >= '0' && c <= '3') {
      digits = 2;
      octal = true;
    }
    std::size_t i = 0;
    while (i < digits && pos + 2 + i < text.size() &&
           (octal ? (text[pos + 2 + i] >= '0' && text[pos + 2 + i] <= '7') : IsHexDigit(text[pos + 2 + i]))) {
      ++i;
    }
    if (digits > 0) length += i + 1;
  }
  return std::min(length, text.size() - pos);
}

}  // namespace

std::string_view TokenDisplay(const Token& token) {
  return token.kind == TokenKind::kEof ? std::string_view("<EOF>") : token.text;
}

Token Lexer::Make(TokenKind kind, std::size_t start, std::size_t end) const {
  return Token{kind, text_.substr(start, end - start), static_cast<std::int32_t>(start)};
}

void Lexer::SkipWhitespaceAndComments() {
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
      ++pos_;
    } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '/') {
      while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
    } else {
      return;
    }
  }
}

Token Lexer::Next() {
  SkipWhitespaceAndComments();
  const std::size_t start = pos_;
  if (pos_ >= text_.size()) return Make(TokenKind::kEof, start, start);
  const char c = text_[pos_];
  auto peek = [&](std::size_t ahead) { return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0'; };
  auto is_quote = [](char q) { return q == '"' || q == '\''; };

  if (IsDigit(c) || (c == '.' && IsDigit(peek(1)))) return LexNumber(start);
  if (IsIdentStart(c)) {
    // String prefixes: r"..." (raw), b"..." (bytes), br"..." / bR"..." (raw bytes).
    if ((c == 'r' || c == 'R') && is_quote(peek(1))) return LexString(start, start + 1, true, TokenKind::kString);
    if (c == 'b' || c == 'B') {
      if (is_quote(peek(1))) return LexString(start, start + 1, false, TokenKind::kBytes);
      if ((peek(1) == 'r' || peek(1) == 'R') && is_quote(peek(2))) {
        return LexString(start, start + 2, true, TokenKind::kBytes);
      }
    }
    while (pos_ < text_.size() && IsIdentChar(text_[pos_])) ++pos_;
    const std::string_view word = text_.substr(start, pos_ - start);
    TokenKind kind = TokenKind::kIdent;
    if (word == "true") {
      kind = TokenKind::kTrue;
    } else if (word == "false") {
      kind = TokenKind::kFalse;
    } else if (word == "null") {
      kind = TokenKind::kNull;
    } else if (word == "in") {
      kind = TokenKind::kIn;
    }
    return Make(kind, start, pos_);
  }
  if (is_quote(c)) return LexString(start, start, false, TokenKind::kString);
  if (c == '`') {
    std::size_t end = pos_ + 1;
    while (end < text_.size() && (IsIdentChar(text_[end]) || text_[end] == '.' || text_[end] == '-' ||
                                  text_[end] == '/' || text_[end] == ' ')) {
      ++end;
    }
    if (end < text_.size() && text_[end] == '`' && end > pos_ + 1) {
      pos_ = end + 1;
      return Make(TokenKind::kEscIdent, start, pos_);
    }
    pos_ = start + 1;
    return Make(TokenKind::kError, start, pos_);
  }

  auto two = [&](char second) {
    if (peek(1) != second) return false;
    pos_ += 2;
    return true;
  };
  switch (c) {
    case '=':
      if (two('=')) return Make(TokenKind::kEq, start, pos_);
      break;
    case '!':
      if (two('=')) return Make(TokenKind::kNe, start, pos_);
      ++pos_;
      return Make(TokenKind::kExclam, start, pos_);
    case '<':
      if (two('=')) return Make(TokenKind::kLe, start, pos_);
      ++pos_;
      return Make(TokenKind::kLt, start, pos_);
    case '>':
      if (two('=')) return Make(TokenKind::kGe, start, pos_);
      ++pos_;
      return Make(TokenKind::kGt, start, pos_);
    case '&':
      if (two('&')) return Make(TokenKind::kAnd, start, pos_);
      break;
    case '|':
      if (two('|')) return Make(TokenKind::kOr, start, pos_);
      break;
    default: {
      TokenKind kind = TokenKind::kError;
      switch (c) {
        case '[': kind = TokenKind::kLBracket; break;
        case ']': kind = TokenKind::kRBracket; break;
        case '{': kind = TokenKind::kLBrace; break;
        case '}': kind = TokenKind::kRBrace; break;
        case '(': kind = TokenKind::kLParen; break;
        case ')': kind = TokenKind::kRParen; break;
        case '.': kind = TokenKind::kDot; break;
        case ',': kind = TokenKind::kComma; break;
        case '-': kind = TokenKind::kMinus; break;
        case '?': kind = TokenKind::kQuestion; break;
        case ':': kind = TokenKind::kColon; break;
        case '+': kind = TokenKind::kPlus; break;
        case '*': kind = TokenKind::kStar; break;
        case '/': kind = TokenKind::kSlash; break;
        case '%': kind = TokenKind::kPercent; break;
        default: break;
      }
      if (kind != TokenKind::kError) {
        ++pos_;
        return Make(kind, start, pos_);
      }
      break;
    }
  }
  // Nothing matches: one code point is unrecognized; after '=', '&' or '|' (prefixes of two-
  // character tokens) ANTLR also consumed the character it looked ahead at.
  DecodeUtf8(text_, pos_);
  if ((c == '=' || c == '&' || c == '|') && pos_ < text_.size()) DecodeUtf8(text_, pos_);
  return Make(TokenKind::kError, start, pos_);
}

Token Lexer::LexNumber(std::size_t start) {
  std::size_t p = start;
  auto at = [&](std::size_t i) { return i < text_.size() ? text_[i] : '\0'; };
  if (at(p) == '0' && (at(p + 1) == 'x' || at(p + 1) == 'X') && IsHexDigit(at(p + 2))) {
    p += 2;
    while (IsHexDigit(at(p))) ++p;
    if (at(p) == 'u' || at(p) == 'U') {
      pos_ = p + 1;
      return Make(TokenKind::kUint, start, pos_);
    }
    pos_ = p;
    return Make(TokenKind::kInt, start, pos_);
  }
  bool is_float = false;
  while (IsDigit(at(p))) ++p;
  if (at(p) == '.' && IsDigit(at(p + 1))) {
    is_float = true;
    ++p;
    while (IsDigit(at(p))) ++p;
  }
  // EXPONENT: [eE] [+-]? DIGIT+
  if (at(p) == 'e' || at(p) == 'E') {
    std::size_t q = p + 1;
    if (at(q) == '+' || at(q) == '-') ++q;
    if (IsDigit(at(q))) {
      while (IsDigit(at(q))) ++q;
      p = q;
      is_float = true;
    }
  }
  if (is_float) {
    pos_ = p;
    return Make(TokenKind::kDouble, start, pos_);
  }
  if (at(p) == 'u' || at(p) == 'U') {
    pos_ = p + 1;
    return Make(TokenKind::kUint, start, pos_);
  }
  pos_ = p;
  return Make(TokenKind::kInt, start, pos_);
}

Token Lexer::LexString(std::size_t start, std::size_t quote, bool raw, TokenKind kind) {
  const char q = text_[quote];
  const std::string_view triple = q == '"' ? std::string_view("\"\"\"") : std::string_view("'''");
  // Triple-quoted, ending at the first closing triple quote (ANTLR's non-greedy loop).
  if (text_.substr(quote, 3) == triple) {
    std::size_t p = quote + 3;
    while (p < text_.size()) {
      if (text_.substr(p, 3) == triple) {
        pos_ = p + 3;
        return Make(kind, start, pos_);
      }
      if (!raw && text_[p] == '\\') {
        const std::size_t length = EscapeLength(text_, p);
        if (length == 0) break;  // not a string of this form
        p += length;
      } else {
        ++p;
      }
    }
    // No closing triple quote: the longest match is the single-quoted form (an empty string).
  }
  std::size_t p = quote + 1;
  while (p < text_.size()) {
    const char c = text_[p];
    if (c == q) {
      pos_ = p + 1;
      return Make(kind, start, pos_);
    }
    if (c == '\n' || c == '\r') break;
    if (!raw && c == '\\') {
      const std::size_t length = EscapeLength(text_, p);
      if (length == 0) {
        // ANTLR reports what it consumed, the offending character included.
        pos_ = p + FailedEscapeLength(text_, p);
        return Make(TokenKind::kError, start, pos_);
      }
      p += length;
      continue;
    }
    ++p;
  }
  pos_ = p;
  return Make(TokenKind::kError, start, pos_);
}

}  // namespace ksched::plugins::dynamic_resources::cel
