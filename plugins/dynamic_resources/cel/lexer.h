// The CEL lexer: the token rules of cel-go's grammar (parser/gen/CEL.g4) with ANTLR's longest-match
// resolution. Whitespace and // comments are skipped. A character no rule accepts (or a string
// with an invalid escape or no closing quote) yields a kError token whose text is what ANTLR
// reports ("token recognition error at: '#'").
//
// Thread-safety: a Lexer is used by one thread; it only reads the text it was given.
#pragma once

#include <cstdint>
#include <string_view>

namespace ksched::plugins::dynamic_resources::cel {

enum class TokenKind : std::uint8_t {
  kEof,
  kError,
  kIdent,
  kEscIdent,  // `a.b` (cel-go's escaped identifier; rejected by the parser, as by default upstream)
  kInt,       // 42, 0x2A
  kUint,      // 42u, 0x2Au
  kDouble,    // 1.5, 1e3, .5
  kString,    // the literal as written, quotes and prefix included
  kBytes,     // b"..." as written
  kTrue,
  kFalse,
  kNull,
  kIn,
  kEq,        // ==
  kNe,        // !=
  kLt,        // <
  kLe,        // <=
  kGe,        // >=
  kGt,        // >
  kAnd,       // &&
  kOr,        // ||
  kLBracket,  // [
  kRBracket,  // ]
  kLBrace,    // {
  kRBrace,    // }
  kLParen,    // (
  kRParen,    // )
  kDot,       // .
  kComma,     // ,
  kMinus,     // -
  kExclam,    // !
  kQuestion,  // ?
  kColon,     // :
  kPlus,      // +
  kStar,      // *
  kSlash,     // /
  kPercent,   // %
};

struct Token {
  TokenKind kind = TokenKind::kEof;
  std::string_view text;    // the source text of the token (kError: the unrecognized text)
  std::int32_t offset = 0;  // byte offset in the source
};

class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}
  Token Next();

 private:
  void SkipWhitespaceAndComments();
  Token LexNumber(std::size_t start);
  // A string literal starting at `quote` (after any r/b prefix at `start`).
  Token LexString(std::size_t start, std::size_t quote, bool raw, TokenKind kind);
  Token Make(TokenKind kind, std::size_t start, std::size_t end) const;

  std::string_view text_;
  std::size_t pos_ = 0;
};

// The display name ANTLR uses for a token in syntax errors: '<EOF>' or the quoted text.
std::string_view TokenDisplay(const Token& token);

}  // namespace ksched::plugins::dynamic_resources::cel
