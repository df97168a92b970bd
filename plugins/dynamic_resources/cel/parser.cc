#include "plugins/dynamic_resources/cel/parser.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "plugins/dynamic_resources/cel/lexer.h"

namespace ksched::plugins::dynamic_resources::cel {
namespace {

// The grammar's rules whose nesting ANTLR's recursion listener counts (one counter per rule).
enum Rule : std::uint8_t {
  kRuleExpr,
  kRuleConditionalOr,
  kRuleConditionalAnd,
  kRuleRelation,
  kRuleCalc,
  kRuleUnary,
  kRuleMember,
  kRulePrimary,
  kRuleExprList,
  kRuleListInit,
  kRuleMapInit,
  kRuleFieldInit,
  kRuleOptExpr,
  kRuleLiteral,
  kRuleCount,
};

constexpr std::string_view kExpectExpression =
    "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, "
    "IDENTIFIER}";
constexpr std::string_view kExpectIndex =
    "{'[', '{', '(', '.', '-', '!', '?', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, "
    "IDENTIFIER}";
constexpr std::string_view kExpectArgument =
    "{'[', '{', '(', ')', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, "
    "IDENTIFIER}";
constexpr std::string_view kExpectListElement =
    "{'[', ']', '{', '(', '.', ',', '-', '!', '?', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, "
    "BYTES, IDENTIFIER}";
constexpr std::string_view kExpectMapEntry =
    "{'[', '{', '}', '(', '.', ',', '-', '!', '?', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, "
    "BYTES, IDENTIFIER}";

bool IsReserved(std::string_view id) {
  static constexpr std::array<std::string_view, 17> kReserved = {
      "as", "break", "const", "continue", "else", "for", "function", "if", "import",
      "let", "loop", "package", "namespace", "return", "var", "void", "while"};
  return std::find(kReserved.begin(), kReserved.end(), id) != kReserved.end();
}

bool IsExpressionStart(TokenKind kind) {
  switch (kind) {
    case TokenKind::kLBracket: case TokenKind::kLBrace: case TokenKind::kLParen: case TokenKind::kDot:
    case TokenKind::kMinus: case TokenKind::kExclam: case TokenKind::kTrue: case TokenKind::kFalse:
    case TokenKind::kNull: case TokenKind::kDouble: case TokenKind::kInt: case TokenKind::kUint:
    case TokenKind::kString: case TokenKind::kBytes: case TokenKind::kIdent:
      return true;
    default:
      return false;
  }
}

std::string_view RelationOperator(TokenKind kind) {
  switch (kind) {
    case TokenKind::kLt: return "_<_";
    case TokenKind::kLe: return "_<=_";
    case TokenKind::kGe: return "_>=_";
    case TokenKind::kGt: return "_>_";
    case TokenKind::kEq: return "_==_";
    case TokenKind::kNe: return "_!=_";
    case TokenKind::kIn: return "@in";
    default: return {};
  }
}

bool UnHex(char c, std::uint32_t& out) {
  if (c >= '0' && c <= '9') {
    out = static_cast<std::uint32_t>(c - '0');
  } else if (c >= 'a' && c <= 'f') {
    out = static_cast<std::uint32_t>(c - 'a' + 10);
  } else if (c >= 'A' && c <= 'F') {
    out = static_cast<std::uint32_t>(c - 'A' + 10);
  } else {
    return false;
  }
  return true;
}

bool ValidRune(std::uint32_t r) { return r <= 0x10FFFF && !(r >= 0xD800 && r <= 0xDFFF); }

// cel-go's parser.unescape: the literal as written (prefix included) -> its value, or an error.
std::optional<std::string> Unescape(std::string_view literal, bool is_bytes, std::string& error) {
  std::string value;
  value.reserve(literal.size());
  for (std::size_t i = 0; i < literal.size(); ++i) {  // normalize \r\n and \r to \n
    if (literal[i] == '\r') {
      value.push_back('\n');
      if (i + 1 < literal.size() && literal[i + 1] == '\n') ++i;
    } else {
      value.push_back(literal[i]);
    }
  }
  error = "unable to unescape string";
  bool raw = false;
  if (!value.empty() && (value[0] == 'r' || value[0] == 'R')) {
    value.erase(0, 1);
    raw = true;
  }
  std::size_t n = value.size();
  if (n < 2 || value[0] != value[n - 1] || (value[0] != '"' && value[0] != '\'')) return std::nullopt;
  if (n >= 6 && (value.compare(0, 3, "'''") == 0 || value.compare(0, 3, "\"\"\"") == 0)) {
    value = value.substr(3, n - 6);
  } else {
    value = value.substr(1, n - 2);
  }
  if (raw || value.find('\\') == std::string::npos) return value;

  std::string out;
  out.reserve(value.size());
  std::size_t pos = 0;
  while (pos < value.size()) {
    const char c = value[pos];
    if (c != '\\') {
      out.push_back(c);
      ++pos;
      continue;
    }
    if (pos + 1 >= value.size()) {
      error = "unable to unescape string, found '\\' as last character";
      return std::nullopt;
    }
    const char e = value[pos + 1];
    pos += 2;
    std::uint32_t r = 0;
    bool encode = false;
    switch (e) {
      case 'a': r = '\a'; break;
      case 'b': r = '\b'; break;
      case 'f': r = '\f'; break;
      case 'n': r = '\n'; break;
      case 'r': r = '\r'; break;
      case 't': r = '\t'; break;
      case 'v': r = '\v'; break;
      case '\\': r = '\\'; break;
      case '\'': r = '\''; break;
      case '"': r = '"'; break;
      case '`': r = '`'; break;
      case '?': r = '?'; break;
      case 'x': case 'X': case 'u': case 'U': {
        std::size_t digits = 2;
        encode = true;
        if (e == 'x' || e == 'X') {
          encode = !is_bytes;
        } else {
          if (is_bytes) return std::nullopt;
          digits = e == 'u' ? 4 : 8;
        }
        if (pos + digits > value.size()) return std::nullopt;
        for (std::size_t j = 0; j < digits; ++j) {
          std::uint32_t x = 0;
          if (!UnHex(value[pos + j], x)) return std::nullopt;
          r = (r << 4) | x;
        }
        pos += digits;
        if (!is_bytes && !ValidRune(r)) {
          error = "invalid unicode code point";
          return std::nullopt;
        }
        break;
      }
      case '0': case '1': case '2': case '3': {
        if (pos + 2 > value.size()) {
          error = "unable to unescape octal sequence in string";
          return std::nullopt;
        }
        r = static_cast<std::uint32_t>(e - '0');
        for (std::size_t j = 0; j < 2; ++j) {
          const char x = value[pos + j];
          if (x < '0' || x > '7') {
            error = "unable to unescape octal sequence in string";
            return std::nullopt;
          }
          r = r * 8 + static_cast<std::uint32_t>(x - '0');
        }
        pos += 2;
        encode = !is_bytes;
        break;
      }
      default:
        return std::nullopt;
    }
    if (r < 0x80 || !encode) {
      out.push_back(static_cast<char>(r & 0xFF));
    } else {
      AppendUtf8(out, r);
    }
  }
  return out;
}

// The depth of a tree, without recursing.
int AstDepth(const Expr& root) {
  std::vector<std::pair<const Expr*, int>> stack{{&root, 1}};
  int max_depth = 0;
  while (!stack.empty()) {
    const auto [e, depth] = stack.back();
    stack.pop_back();
    max_depth = std::max(max_depth, depth);
    auto push = [&](const ExprPtr& child) {
      if (child) stack.emplace_back(child.get(), depth + 1);
    };
    push(e->operand);
    for (const ExprPtr& arg : e->args) push(arg);
    for (const MapEntry& entry : e->entries) {
      push(entry.key);
      push(entry.value);
    }
    for (const StructField& field : e->fields) push(field.value);
    for (const ExprPtr* child : {&e->iter_range, &e->accu_init, &e->loop_condition, &e->loop_step, &e->result}) {
      push(*child);
    }
  }
  return max_depth;
}

class Parser {
 public:
  explicit Parser(const Source& source) : source_(source) {
    Lexer lexer(source.text());
    for (;;) {
      tokens_.push_back(lexer.Next());
      if (tokens_.back().kind == TokenKind::kEof) break;
    }
    offsets_.push_back(0);  // ids start at 1
    depth_.push_back(0);
  }

  ParseResult Run() {
    ParseResult result;
    if (source_.CodePointCount() > kMaxExpressionCodePoints) {
      result.issues.push_back({Issue::kNoLocation, "expression code point size exceeds limit: size: " +
                                                       std::to_string(source_.CodePointCount()) + ", limit " +
                                                       std::to_string(kMaxExpressionCodePoints)});
      return result;
    }
    ExprPtr expr = ParseExpr();
    if (!fatal_.has_value() && Peek().kind != TokenKind::kEof) {
      // ANTLR deletes a single extraneous token when what follows is what it expected.
      SyntaxError(Peek(), std::string(Peek(1).kind == TokenKind::kEof ? "extraneous" : "mismatched") + " input '" +
                              std::string(TokenDisplay(Peek())) + "' expecting <EOF>");
    }
    if (fatal_.has_value()) {
      result.issues.push_back(std::move(*fatal_));
      return result;
    }
    if (depth_[static_cast<std::size_t>(expr->id)] > kMaxRecursionDepth || AstDepth(*expr) > kMaxAstDepth) {
      result.issues.push_back({Issue::kNoLocation, "max recursion depth exceeded"});
      return result;
    }
    if (!issues_.empty()) {
      result.issues = std::move(issues_);
      return result;
    }
    result.expr = std::move(expr);
    result.offsets = std::move(offsets_);
    return result;
  }

 private:
  class RuleGuard {
   public:
    RuleGuard(Parser& parser, Rule rule) : parser_(parser), rule_(rule) {
      if (++parser_.rule_depth_[rule_] > kMaxRecursionDepth && !parser_.fatal_.has_value()) {
        parser_.fatal_ = Issue{Issue::kNoLocation, "expression recursion limit exceeded: " +
                                                       std::to_string(kMaxRecursionDepth)};
      }
    }
    ~RuleGuard() { --parser_.rule_depth_[rule_]; }
    RuleGuard(const RuleGuard&) = delete;
    RuleGuard& operator=(const RuleGuard&) = delete;

   private:
    Parser& parser_;
    Rule rule_;
  };

  // --- tokens ---------------------------------------------------------------------------------

  const Token& Peek(std::size_t ahead = 0) const {
    return tokens_[std::min(next_ + ahead, tokens_.size() - 1)];
  }
  Token Consume() {
    Token token = Peek();
    if (next_ < tokens_.size() - 1) ++next_;
    return token;
  }

  // Reports a syntax error at `at` (unless an earlier lexer error explains it).
  void SyntaxError(const Token& at, std::string message) {
    if (fatal_.has_value()) return;
    for (std::size_t i = 0; i < tokens_.size(); ++i) {
      const Token& token = tokens_[i];
      if (token.offset > at.offset) break;
      if (token.kind == TokenKind::kError) {
        fatal_ = Issue{token.offset, "Syntax error: token recognition error at: '" + std::string(token.text) + "'"};
        return;
      }
    }
    fatal_ = Issue{at.offset, "Syntax error: " + std::move(message)};
  }
  void Mismatched(std::string_view expecting) {
    SyntaxError(Peek(), "mismatched input '" + std::string(TokenDisplay(Peek())) + "' expecting " +
                            std::string(expecting));
  }
  // Whether the next token can start a member (after a run of '!' or '-').
  bool IsMemberStart() const {
    // A '-' may start a signed literal; the primary reports it when it does not.
    const TokenKind kind = Peek().kind;
    return IsExpressionStart(kind) && kind != TokenKind::kExclam;
  }
  // ANTLR's "no viable alternative at input '-!'": the source from the decision's first token to
  // the offending one.
  void NoViableAlternative(std::int32_t from) {
    const Token& at = Peek();
    const auto begin = static_cast<std::size_t>(from);
    const auto end = static_cast<std::size_t>(at.offset) + at.text.size();
    const std::string_view text = source_.text().substr(begin, end - begin);
    SyntaxError(at, "no viable alternative at input '" + std::string(text) + "'");
  }
  bool Expect(TokenKind kind, std::string_view expecting) {
    if (Peek().kind == kind) {
      Consume();
      return true;
    }
    Mismatched(expecting);
    return false;
  }
  // A closing token after a list of items: ANTLR's single-token deletion ("extraneous input '2'
  // expecting ...") when the token after the unexpected one closes, its single-token insertion
  // ("missing ')' at '<EOF>'") when `missing_at_eof` and the input ended, else a mismatch.
  bool ExpectClose(TokenKind kind, std::string_view expecting, std::string_view missing, bool missing_at_eof) {
    if (Peek().kind == kind) {
      Consume();
      return true;
    }
    const std::string display(TokenDisplay(Peek()));
    if (Peek().kind != TokenKind::kEof && Peek(1).kind == kind) {
      SyntaxError(Peek(), "extraneous input '" + display + "' expecting " + std::string(expecting));
    } else if (missing_at_eof && Peek().kind == TokenKind::kEof) {
      SyntaxError(Peek(), "missing " + std::string(missing) + " at '" + display + "'");
    } else {
      Mismatched(expecting);
    }
    return false;
  }
  // A ':' (map entries, message fields): missing when an expression follows instead.
  bool ExpectColon() {
    if (Peek().kind == TokenKind::kColon) {
      Consume();
      return true;
    }
    if (IsExpressionStart(Peek().kind)) {
      SyntaxError(Peek(), "missing ':' at '" + std::string(TokenDisplay(Peek())) + "'");
    } else {
      Mismatched("':'");
    }
    return false;
  }
  bool ExpectMissing(TokenKind kind, std::string_view what) {
    if (Peek().kind == kind) {
      Consume();
      return true;
    }
    SyntaxError(Peek(), "missing " + std::string(what) + " at '" + std::string(TokenDisplay(Peek())) + "'");
    return false;
  }

  // --- node construction ----------------------------------------------------------------------

  std::int64_t NewId(std::int32_t offset) {
    offsets_.push_back(offset);
    depth_.push_back(0);
    return static_cast<std::int64_t>(offsets_.size() - 1);
  }
  std::int32_t OffsetOf(const Expr& e) const { return offsets_[static_cast<std::size_t>(e.id)]; }
  int DepthOf(const ExprPtr& e) const { return e ? depth_[static_cast<std::size_t>(e->id)] : 0; }
  void SetDepth(const ExprPtr& e, int depth) { depth_[static_cast<std::size_t>(e->id)] = depth; }

  ExprPtr NewExpr(std::int32_t offset, ExprKind kind) {
    auto e = std::make_unique<Expr>();
    e->id = NewId(offset);
    e->kind = kind;
    return e;
  }
  ExprPtr NewConstant(std::int32_t offset, Constant constant) {
    ExprPtr e = NewExpr(offset, ExprKind::kConstant);
    e->constant = std::move(constant);
    return e;
  }
  ExprPtr NewBool(std::int32_t offset, bool value) {
    Constant c;
    c.kind = Constant::Kind::kBool;
    c.bool_value = value;
    return NewConstant(offset, std::move(c));
  }
  ExprPtr NewInt(std::int32_t offset, std::int64_t value) {
    Constant c;
    c.kind = Constant::Kind::kInt;
    c.int_value = value;
    return NewConstant(offset, std::move(c));
  }
  ExprPtr NewString(std::int32_t offset, std::string value) {
    Constant c;
    c.kind = Constant::Kind::kString;
    c.string_value = std::move(value);
    return NewConstant(offset, std::move(c));
  }
  ExprPtr NewIdent(std::int32_t offset, std::string name) {
    ExprPtr e = NewExpr(offset, ExprKind::kIdent);
    e->name = std::move(name);
    return e;
  }
  ExprPtr NewSelect(std::int32_t offset, ExprPtr operand, std::string field, bool test_only) {
    ExprPtr e = NewExpr(offset, ExprKind::kSelect);
    e->operand = std::move(operand);
    e->name = std::move(field);
    e->test_only = test_only;
    return e;
  }
  ExprPtr NewCall(std::int32_t offset, std::string function, std::vector<ExprPtr> args, ExprPtr target = nullptr) {
    ExprPtr e = NewExpr(offset, ExprKind::kCall);
    e->name = std::move(function);
    e->operand = std::move(target);
    e->args = std::move(args);
    return e;
  }
  template <typename... Args>
  ExprPtr Call(std::int32_t offset, std::string function, Args... args) {
    std::vector<ExprPtr> list;
    (list.push_back(std::move(args)), ...);
    return NewCall(offset, std::move(function), std::move(list));
  }
  ExprPtr NewList(std::int32_t offset, std::vector<ExprPtr> elements = {}) {
    ExprPtr e = NewExpr(offset, ExprKind::kList);
    e->args = std::move(elements);
    return e;
  }
  ExprPtr NewComprehension(std::int32_t offset, ExprPtr range, std::string iter_var, std::string iter_var2,
                           std::string accu_var, ExprPtr accu_init, ExprPtr condition, ExprPtr step,
                           ExprPtr result) {
    ExprPtr e = NewExpr(offset, ExprKind::kComprehension);
    e->iter_range = std::move(range);
    e->iter_var = std::move(iter_var);
    e->iter_var2 = std::move(iter_var2);
    e->accu_var = std::move(accu_var);
    e->accu_init = std::move(accu_init);
    e->loop_condition = std::move(condition);
    e->loop_step = std::move(step);
    e->result = std::move(result);
    return e;
  }
  // A deep copy with fresh ids at the same locations (cel-go's ExprHelper.Copy).
  ExprPtr Copy(const Expr& e) {
    ExprPtr c = NewExpr(OffsetOf(e), e.kind);
    c->constant = e.constant;
    c->name = e.name;
    c->test_only = e.test_only;
    if (e.operand) c->operand = Copy(*e.operand);
    for (const ExprPtr& arg : e.args) c->args.push_back(Copy(*arg));
    c->optional_indices = e.optional_indices;
    for (const MapEntry& entry : e.entries) {
      c->entries.push_back({NewId(offsets_[static_cast<std::size_t>(entry.id)]), Copy(*entry.key),
                            Copy(*entry.value), entry.optional});
    }
    for (const StructField& field : e.fields) {
      c->fields.push_back(
          {NewId(offsets_[static_cast<std::size_t>(field.id)]), field.name, Copy(*field.value), field.optional});
    }
    c->iter_var = e.iter_var;
    c->iter_var2 = e.iter_var2;
    c->accu_var = e.accu_var;
    for (auto [from, to] : {std::pair{&e.iter_range, &c->iter_range}, std::pair{&e.accu_init, &c->accu_init},
                            std::pair{&e.loop_condition, &c->loop_condition},
                            std::pair{&e.loop_step, &c->loop_step}, std::pair{&e.result, &c->result}}) {
      if (*from) *to = Copy(**from);
    }
    return c;
  }
  // A node standing for an expression that failed (the issue is recorded).
  ExprPtr ErrorNode(std::int32_t offset, std::string message) {
    issues_.push_back({offset, std::move(message)});
    return NewConstant(offset, Constant{});
  }

  // --- rules ----------------------------------------------------------------------------------

  // expr: conditionalOr ('?' conditionalOr ':' expr)?
  ExprPtr ParseExpr() {
    RuleGuard guard(*this, kRuleExpr);
    if (fatal_.has_value()) return nullptr;
    ExprPtr condition = ParseConditionalOr();
    if (!condition || Peek().kind != TokenKind::kQuestion) return condition;
    const Token question = Consume();
    ExprPtr if_true = ParseConditionalOr();
    if (!if_true || !Expect(TokenKind::kColon, "':'")) return nullptr;
    ExprPtr if_false = ParseExpr();
    if (!if_false) return nullptr;
    const int depth = 1 + std::max({DepthOf(condition), DepthOf(if_true), DepthOf(if_false)});
    ExprPtr e = Call(question.offset, "_?_:_", std::move(condition), std::move(if_true), std::move(if_false));
    SetDepth(e, depth);
    return e;
  }

  // conditionalOr: conditionalAnd ('||' conditionalAnd)*, and conditionalAnd: relation ('&&'
  // relation)*, both balanced as cel-go's logicManager does.
  ExprPtr ParseLogical(bool is_or) {
    RuleGuard guard(*this, is_or ? kRuleConditionalOr : kRuleConditionalAnd);
    if (fatal_.has_value()) return nullptr;
    const TokenKind op_kind = is_or ? TokenKind::kOr : TokenKind::kAnd;
    std::vector<ExprPtr> terms;
    std::vector<std::int32_t> ops;
    terms.push_back(is_or ? ParseLogical(false) : ParseRelation(0));
    if (!terms.back()) return nullptr;
    while (Peek().kind == op_kind) {
      ops.push_back(Consume().offset);
      terms.push_back(is_or ? ParseLogical(false) : ParseRelation(0));
      if (!terms.back()) return nullptr;
    }
    if (ops.empty()) return std::move(terms[0]);
    return Balanced(is_or ? "_||_" : "_&&_", terms, ops, 0, ops.size() - 1);
  }
  ExprPtr ParseConditionalOr() { return ParseLogical(true); }

  ExprPtr Balanced(const std::string& function, std::vector<ExprPtr>& terms, const std::vector<std::int32_t>& ops,
                   std::size_t lo, std::size_t hi) {
    const std::size_t mid = (lo + hi + 1) / 2;
    ExprPtr left = mid == lo ? std::move(terms[mid]) : Balanced(function, terms, ops, lo, mid - 1);
    ExprPtr right = mid == hi ? std::move(terms[mid + 1]) : Balanced(function, terms, ops, mid + 1, hi);
    const int depth = std::max(DepthOf(left), DepthOf(right));
    ExprPtr e = Call(ops[mid], function, std::move(left), std::move(right));
    SetDepth(e, depth);
    return e;
  }

  // relation: calc | relation op relation (ANTLR's precedence climbing: the right operand is
  // relation[2], which takes no further operator).
  ExprPtr ParseRelation(int precedence) {
    RuleGuard guard(*this, kRuleRelation);
    if (fatal_.has_value()) return nullptr;
    ExprPtr lhs = ParseCalc(0);
    if (!lhs) return nullptr;
    while (1 >= precedence) {
      const std::string_view op = RelationOperator(Peek().kind);
      if (op.empty()) break;
      const Token token = Consume();
      ExprPtr rhs = ParseRelation(2);
      if (!rhs) return nullptr;
      const int depth = 1 + std::max(DepthOf(lhs), DepthOf(rhs));
      lhs = Call(token.offset, std::string(op), std::move(lhs), std::move(rhs));
      SetDepth(lhs, depth);
    }
    return lhs;
  }

  // calc: unary | calc ('*'|'/'|'%') calc | calc ('+'|'-') calc
  ExprPtr ParseCalc(int precedence) {
    RuleGuard guard(*this, kRuleCalc);
    if (fatal_.has_value()) return nullptr;
    ExprPtr lhs = ParseUnary();
    if (!lhs) return nullptr;
    for (;;) {
      const TokenKind kind = Peek().kind;
      std::string op;
      int next = 0;
      if ((kind == TokenKind::kStar || kind == TokenKind::kSlash || kind == TokenKind::kPercent) && 2 >= precedence) {
        op = kind == TokenKind::kStar ? "_*_" : kind == TokenKind::kSlash ? "_/_" : "_%_";
        next = 3;
      } else if ((kind == TokenKind::kPlus || kind == TokenKind::kMinus) && 1 >= precedence) {
        op = kind == TokenKind::kPlus ? "_+_" : "_-_";
        next = 2;
      } else {
        break;
      }
      const Token token = Consume();
      ExprPtr rhs = ParseCalc(next);
      if (!rhs) return nullptr;
      const int depth = 1 + std::max(DepthOf(lhs), DepthOf(rhs));
      lhs = Call(token.offset, std::move(op), std::move(lhs), std::move(rhs));
      SetDepth(lhs, depth);
    }
    return lhs;
  }

  // unary: member | '!'+ member | '-'+ member
  ExprPtr ParseUnary() {
    RuleGuard guard(*this, kRuleUnary);
    if (fatal_.has_value()) return nullptr;
    const TokenKind kind = Peek().kind;
    const bool signed_literal =
        kind == TokenKind::kMinus && (Peek(1).kind == TokenKind::kInt || Peek(1).kind == TokenKind::kDouble);
    if ((kind != TokenKind::kExclam && kind != TokenKind::kMinus) || signed_literal) return ParseMember();
    const std::int32_t first = Peek().offset;
    std::size_t count = 0;
    while (Peek().kind == kind) {
      Consume();
      ++count;
    }
    if (!IsMemberStart()) {
      NoViableAlternative(first);
      return nullptr;
    }
    ExprPtr member = ParseMember();
    if (!member || count % 2 == 0) return member;
    const int depth = DepthOf(member);
    ExprPtr e = Call(first, kind == TokenKind::kExclam ? "!_" : "-_", std::move(member));
    SetDepth(e, depth);
    return e;
  }

  // member: primary ('.' '?'? IDENT | '.' IDENT '(' args ')' | '[' '?'? expr ']')*
  ExprPtr ParseMember() {
    RuleGuard guard(*this, kRuleMember);
    if (fatal_.has_value()) return nullptr;
    ExprPtr e = ParsePrimary();
    while (e) {
      if (Peek().kind == TokenKind::kDot) {
        const Token dot = Consume();
        const bool optional = Peek().kind == TokenKind::kQuestion;
        if (optional) Consume();
        const Token id = Peek();
        if (id.kind != TokenKind::kIdent && id.kind != TokenKind::kEscIdent) {
          if (optional) {
            Mismatched("{IDENTIFIER, ESC_IDENTIFIER}");
          } else {
            SyntaxError(id, "no viable alternative at input '." +
                                std::string(id.kind == TokenKind::kEof ? std::string_view() : id.text) + "'");
          }
          return nullptr;
        }
        Consume();
        std::string field(id.text);
        if (id.kind == TokenKind::kEscIdent) {
          issues_.push_back({id.offset, "unsupported syntax: '`'"});
          field = field.substr(1, field.size() - 2);
        }
        if (optional) {
          const int depth = 1 + DepthOf(e);
          e = Call(dot.offset, "_?._", std::move(e), NewString(id.offset, std::move(field)));
          SetDepth(e, depth);
        } else if (id.kind == TokenKind::kIdent && Peek().kind == TokenKind::kLParen) {
          const Token open = Consume();
          std::vector<ExprPtr> args;
          if (!ParseArguments(args)) return nullptr;
          int depth = DepthOf(e);
          for (const ExprPtr& arg : args) depth = std::max(depth, DepthOf(arg));
          e = ReceiverCallOrMacro(open.offset, std::move(field), std::move(e), std::move(args));
          SetDepth(e, depth + 1);
        } else {
          const int depth = 1 + DepthOf(e);
          e = NewSelect(dot.offset, std::move(e), std::move(field), false);
          SetDepth(e, depth);
        }
      } else if (Peek().kind == TokenKind::kLBracket) {
        const Token bracket = Consume();
        const bool optional = Peek().kind == TokenKind::kQuestion;
        if (optional) Consume();
        if (!IsExpressionStart(Peek().kind)) {
          Mismatched(optional ? kExpectExpression : kExpectIndex);
          return nullptr;
        }
        ExprPtr index = ParseExpr();
        if (!index || !ExpectMissing(TokenKind::kRBracket, "']'")) return nullptr;
        const int depth = 1 + std::max(DepthOf(e), DepthOf(index));
        e = Call(bracket.offset, optional ? "_[?_]" : "_[_]", std::move(e), std::move(index));
        SetDepth(e, depth);
      } else {
        break;
      }
    }
    return e;
  }

  // '(' exprList? ')' after the opening parenthesis.
  bool ParseArguments(std::vector<ExprPtr>& args) {
    if (Peek().kind == TokenKind::kRParen) {
      Consume();
      return true;
    }
    if (!IsExpressionStart(Peek().kind)) {
      Mismatched(kExpectArgument);
      return false;
    }
    RuleGuard guard(*this, kRuleExprList);
    if (fatal_.has_value()) return false;
    for (;;) {
      ExprPtr arg = ParseExpr();
      if (!arg) return false;
      args.push_back(std::move(arg));
      if (Peek().kind != TokenKind::kComma) break;
      Consume();
    }
    return ExpectClose(TokenKind::kRParen, "')'", "')'", true);
  }

  ExprPtr ParsePrimary() {
    RuleGuard guard(*this, kRulePrimary);
    if (fatal_.has_value()) return nullptr;
    const Token token = Peek();
    switch (token.kind) {
      case TokenKind::kDot:
      case TokenKind::kIdent:
        return ParseIdentOrCall();
      case TokenKind::kLParen: {
        Consume();
        ExprPtr e = ParseExpr();
        if (!e || !ExpectMissing(TokenKind::kRParen, "')'")) return nullptr;
        return e;
      }
      case TokenKind::kLBracket:
        return ParseList();
      case TokenKind::kLBrace:
        return ParseMap();
      case TokenKind::kMinus:
        // Here only a signed number literal may start with '-'.
        if (Peek(1).kind != TokenKind::kInt && Peek(1).kind != TokenKind::kDouble) {
          const std::int32_t minus = Consume().offset;
          NoViableAlternative(minus);
          return nullptr;
        }
        return ParseLiteral();
      case TokenKind::kInt:
      case TokenKind::kUint:
      case TokenKind::kDouble:
      case TokenKind::kString:
      case TokenKind::kBytes:
      case TokenKind::kTrue:
      case TokenKind::kFalse:
      case TokenKind::kNull:
        return ParseLiteral();
      default:
        Mismatched(kExpectExpression);
        return nullptr;
    }
  }

  // '.'? IDENT | '.'? IDENT '(' args ')' | '.'? IDENT ('.' IDENT)* '{' fields '}'
  ExprPtr ParseIdentOrCall() {
    std::string name;
    if (Peek().kind == TokenKind::kDot) {
      Consume();
      name = ".";
      if (Peek().kind != TokenKind::kIdent) {
        Mismatched("IDENTIFIER");
        return nullptr;
      }
    }
    // A message literal: IDENT ('.' IDENT)* '{'.
    std::size_t ahead = 1;
    while (Peek(ahead).kind == TokenKind::kDot && Peek(ahead + 1).kind == TokenKind::kIdent) ahead += 2;
    if (Peek(ahead).kind == TokenKind::kLBrace) return ParseMessage(std::move(name));

    const Token id = Consume();
    name += id.text;
    if (Peek().kind == TokenKind::kLParen) {
      const Token open = Consume();
      std::vector<ExprPtr> args;
      if (!ParseArguments(args)) return nullptr;
      int depth = 0;
      for (const ExprPtr& arg : args) depth = std::max(depth, DepthOf(arg));
      if (IsReserved(id.text)) return ErrorNode(id.offset, "reserved identifier: " + std::string(id.text));
      ExprPtr e = GlobalCallOrMacro(open.offset, std::move(name), std::move(args));
      SetDepth(e, depth);
      return e;
    }
    if (IsReserved(id.text)) return ErrorNode(id.offset, "reserved identifier: " + std::string(id.text));
    return NewIdent(id.offset, std::move(name));
  }

  ExprPtr ParseMessage(std::string name) {
    name += Consume().text;
    while (Peek().kind == TokenKind::kDot) {
      Consume();
      name += ".";
      name += Consume().text;
    }
    const Token brace = Consume();
    ExprPtr e = NewExpr(brace.offset, ExprKind::kStruct);
    e->name = std::move(name);
    int depth = 0;
    if (Peek().kind != TokenKind::kRBrace && Peek().kind != TokenKind::kComma) {
      RuleGuard guard(*this, kRuleFieldInit);
      if (fatal_.has_value()) return nullptr;
      for (;;) {
        const bool optional = Peek().kind == TokenKind::kQuestion;
        if (optional) Consume();
        const Token field = Peek();
        if (field.kind != TokenKind::kIdent && field.kind != TokenKind::kEscIdent) {
          Mismatched("{'?', IDENTIFIER, ESC_IDENTIFIER}");
          return nullptr;
        }
        Consume();
        const Token colon = Peek();
        if (!ExpectColon()) return nullptr;
        ExprPtr value = ParseExpr();
        if (!value) return nullptr;
        depth = std::max(depth, DepthOf(value));
        e->fields.push_back({NewId(colon.offset), std::string(field.text), std::move(value), optional});
        if (Peek().kind != TokenKind::kComma || Peek(1).kind == TokenKind::kRBrace) break;
        Consume();
      }
    }
    if (Peek().kind == TokenKind::kComma) Consume();
    if (!ExpectClose(TokenKind::kRBrace, "{'}', ','}", "'}'", false)) return nullptr;
    SetDepth(e, depth);
    return e;
  }

  // '[' listInit? ','? ']'
  ExprPtr ParseList() {
    const Token bracket = Consume();
    ExprPtr e = NewList(bracket.offset);
    int depth = 0;
    if (Peek().kind != TokenKind::kRBracket && Peek().kind != TokenKind::kComma) {
      if (!IsExpressionStart(Peek().kind) && Peek().kind != TokenKind::kQuestion) {
        Mismatched(kExpectListElement);
        return nullptr;
      }
      RuleGuard guard(*this, kRuleListInit);
      if (fatal_.has_value()) return nullptr;
      for (;;) {
        RuleGuard opt_guard(*this, kRuleOptExpr);
        if (fatal_.has_value()) return nullptr;
        if (Peek().kind == TokenKind::kQuestion) {
          Consume();
          e->optional_indices.push_back(static_cast<std::int32_t>(e->args.size()));
        }
        ExprPtr element = ParseExpr();
        if (!element) return nullptr;
        depth = std::max(depth, DepthOf(element));
        e->args.push_back(std::move(element));
        if (Peek().kind != TokenKind::kComma || Peek(1).kind == TokenKind::kRBracket) break;
        Consume();
      }
    }
    if (Peek().kind == TokenKind::kComma) Consume();
    if (!ExpectClose(TokenKind::kRBracket, "{']', ','}", "']'", false)) return nullptr;
    SetDepth(e, depth);
    return e;
  }

  // '{' mapInitializerList? ','? '}'
  ExprPtr ParseMap() {
    const Token brace = Consume();
    ExprPtr e = NewExpr(brace.offset, ExprKind::kMap);
    int depth = 0;
    if (Peek().kind != TokenKind::kRBrace && Peek().kind != TokenKind::kComma) {
      if (!IsExpressionStart(Peek().kind) && Peek().kind != TokenKind::kQuestion) {
        Mismatched(kExpectMapEntry);
        return nullptr;
      }
      RuleGuard guard(*this, kRuleMapInit);
      if (fatal_.has_value()) return nullptr;
      for (;;) {
        bool optional = false;
        ExprPtr key;
        {
          RuleGuard opt_guard(*this, kRuleOptExpr);
          if (fatal_.has_value()) return nullptr;
          if (Peek().kind == TokenKind::kQuestion) {
            Consume();
            optional = true;
          }
          key = ParseExpr();
        }
        if (!key) return nullptr;
        const Token colon = Peek();
        if (!ExpectColon()) return nullptr;
        ExprPtr value = ParseExpr();
        if (!value) return nullptr;
        depth = std::max({depth, DepthOf(key), DepthOf(value)});
        e->entries.push_back({NewId(colon.offset), std::move(key), std::move(value), optional});
        if (Peek().kind != TokenKind::kComma || Peek(1).kind == TokenKind::kRBrace) break;
        Consume();
      }
    }
    if (Peek().kind == TokenKind::kComma) Consume();
    if (!ExpectClose(TokenKind::kRBrace, "{'}', ','}", "'}'", false)) return nullptr;
    SetDepth(e, depth);
    return e;
  }

  ExprPtr ParseLiteral() {
    RuleGuard guard(*this, kRuleLiteral);
    if (fatal_.has_value()) return nullptr;
    const std::int32_t offset = Peek().offset;
    const bool negative = Peek().kind == TokenKind::kMinus;
    if (negative) Consume();
    const Token token = Consume();
    Constant c;
    switch (token.kind) {
      case TokenKind::kInt: {
        std::string text(token.text);
        int base = 10;
        if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
          base = 16;
          text = text.substr(2);
        }
        if (negative) text = "-" + text;
        errno = 0;
        char* end = nullptr;
        const long long value = std::strtoll(text.c_str(), &end, base);
        if (errno != 0 || end != text.c_str() + text.size()) return ErrorNode(offset, "invalid int literal");
        c.kind = Constant::Kind::kInt;
        c.int_value = value;
        break;
      }
      case TokenKind::kUint: {
        std::string text(token.text.substr(0, token.text.size() - 1));
        int base = 10;
        if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
          base = 16;
          text = text.substr(2);
        }
        errno = 0;
        char* end = nullptr;
        const unsigned long long value = std::strtoull(text.c_str(), &end, base);
        if (errno != 0 || end != text.c_str() + text.size()) return ErrorNode(offset, "invalid uint literal");
        c.kind = Constant::Kind::kUint;
        c.uint_value = value;
        break;
      }
      case TokenKind::kDouble: {
        std::string text(token.text);
        if (negative) text = "-" + text;
        errno = 0;
        char* end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        // Go's ParseFloat fails on overflow only (an underflow rounds to zero silently).
        if (end != text.c_str() + text.size() || (errno == ERANGE && std::isinf(value))) {
          return ErrorNode(offset, "invalid double literal");
        }
        c.kind = Constant::Kind::kDouble;
        c.double_value = value;
        break;
      }
      case TokenKind::kString:
      case TokenKind::kBytes: {
        const bool is_bytes = token.kind == TokenKind::kBytes;
        std::string error;
        std::optional<std::string> value = Unescape(is_bytes ? token.text.substr(1) : token.text, is_bytes, error);
        if (!value.has_value()) return ErrorNode(offset, error);
        c.kind = is_bytes ? Constant::Kind::kBytes : Constant::Kind::kString;
        c.string_value = std::move(*value);
        break;
      }
      case TokenKind::kTrue:
      case TokenKind::kFalse:
        c.kind = Constant::Kind::kBool;
        c.bool_value = token.kind == TokenKind::kTrue;
        break;
      default:
        c.kind = Constant::Kind::kNull;
        break;
    }
    return NewConstant(offset, std::move(c));
  }

  // --- macros ---------------------------------------------------------------------------------

  ExprPtr GlobalCallOrMacro(std::int32_t offset, std::string function, std::vector<ExprPtr> args) {
    if (function == "has" && args.size() == 1) {
      Expr& arg = *args[0];
      if (arg.kind != ExprKind::kSelect || arg.test_only) {
        return ErrorNode(OffsetOf(arg), "invalid argument to has() macro");
      }
      return NewSelect(offset, std::move(arg.operand), std::move(arg.name), true);
    }
    return NewCall(offset, std::move(function), std::move(args));
  }

  // An iteration variable of a macro, or nullopt with the issue recorded.
  std::optional<std::string> IterVar(const ExprPtr& arg, std::string_view not_ident) {
    if (arg->kind != ExprKind::kIdent) {
      issues_.push_back({OffsetOf(*arg), std::string(not_ident)});
      return std::nullopt;
    }
    if (arg->name == kAccumulatorName || arg->name == kLegacyAccumulatorName) {
      issues_.push_back({OffsetOf(*arg), "iteration variable overwrites accumulator variable"});
      return std::nullopt;
    }
    return arg->name;
  }

  ExprPtr ReceiverCallOrMacro(std::int32_t offset, std::string function, ExprPtr target, std::vector<ExprPtr> args) {
    const std::size_t argc = args.size();
    ExprPtr expanded;
    bool is_macro = true;
    if ((function == "all" || function == "exists" || function == "exists_one") && argc == 2) {
      expanded = Quantifier(offset, function, std::move(target), std::move(args));
    } else if ((function == "all" || function == "exists" || function == "existsOne" ||
                function == "exists_one") &&
               argc == 3) {
      expanded = QuantifierTwoVar(offset, function, std::move(target), std::move(args));
    } else if ((function == "map" && (argc == 2 || argc == 3)) || (function == "filter" && argc == 2)) {
      expanded = MapOrFilter(offset, function == "filter", std::move(target), std::move(args));
    } else if ((function == "transformList" || function == "transformMap" || function == "transformMapEntry") &&
               (argc == 3 || argc == 4)) {
      expanded = Transform(offset, function, std::move(target), std::move(args));
    } else if (function == "bind" && argc == 3 && target->kind == ExprKind::kIdent && target->name == "cel") {
      expanded = Bind(offset, std::move(args));
    } else if (function == "sortBy" && argc == 2) {
      expanded = SortBy(offset, std::move(target), std::move(args));
    } else if ((function == "optMap" || function == "optFlatMap") && argc == 2) {
      expanded = OptMap(offset, function == "optFlatMap", std::move(target), std::move(args));
    } else {
      is_macro = false;
    }
    if (is_macro) return expanded ? std::move(expanded) : NewConstant(offset, Constant{});
    return NewCall(offset, std::move(function), std::move(args), std::move(target));
  }

  ExprPtr Accu(std::int32_t offset) { return NewIdent(offset, kAccumulatorName); }

  ExprPtr Quantifier(std::int32_t offset, const std::string& function, ExprPtr target, std::vector<ExprPtr> args) {
    std::optional<std::string> var = IterVar(args[0], "argument must be a simple name");
    if (!var.has_value()) return nullptr;
    return QuantifierOf(offset, function, std::move(target), std::move(*var), "", std::move(args[1]));
  }

  ExprPtr QuantifierTwoVar(std::int32_t offset, const std::string& function, ExprPtr target,
                           std::vector<ExprPtr> args) {
    std::optional<std::pair<std::string, std::string>> vars = IterVars(args[0], args[1]);
    if (!vars.has_value()) return nullptr;
    return QuantifierOf(offset, function, std::move(target), std::move(vars->first), std::move(vars->second),
                        std::move(args[2]));
  }

  std::optional<std::pair<std::string, std::string>> IterVars(const ExprPtr& first, const ExprPtr& second) {
    for (const ExprPtr* arg : {&first, &second}) {
      if ((*arg)->kind != ExprKind::kIdent) {
        issues_.push_back({OffsetOf(**arg), "argument must be a simple name"});
        return std::nullopt;
      }
    }
    if (first->name == second->name) {
      issues_.push_back({OffsetOf(*second), "duplicate variable name: " + first->name});
      return std::nullopt;
    }
    for (const ExprPtr* arg : {&first, &second}) {
      if ((*arg)->name == kAccumulatorName || (*arg)->name == kLegacyAccumulatorName) {
        issues_.push_back({OffsetOf(**arg), "iteration variable overwrites accumulator variable"});
        return std::nullopt;
      }
    }
    return std::pair{first->name, second->name};
  }

  ExprPtr QuantifierOf(std::int32_t offset, const std::string& function, ExprPtr target, std::string var,
                       std::string var2, ExprPtr predicate) {
    ExprPtr init;
    ExprPtr condition;
    ExprPtr step;
    ExprPtr result;
    if (function == "all") {
      init = NewBool(offset, true);
      condition = Call(offset, "@not_strictly_false", Accu(offset));
      step = Call(offset, "_&&_", Accu(offset), std::move(predicate));
      result = Accu(offset);
    } else if (function == "exists") {
      init = NewBool(offset, false);
      condition = Call(offset, "@not_strictly_false", Call(offset, "!_", Accu(offset)));
      step = Call(offset, "_||_", Accu(offset), std::move(predicate));
      result = Accu(offset);
    } else {
      init = NewInt(offset, 0);
      condition = NewBool(offset, true);
      step = Call(offset, "_?_:_", std::move(predicate), Call(offset, "_+_", Accu(offset), NewInt(offset, 1)),
                  Accu(offset));
      result = Call(offset, "_==_", Accu(offset), NewInt(offset, 1));
    }
    return NewComprehension(offset, std::move(target), std::move(var), std::move(var2), kAccumulatorName,
                            std::move(init), std::move(condition), std::move(step), std::move(result));
  }

  ExprPtr MapOrFilter(std::int32_t offset, bool is_filter, ExprPtr target, std::vector<ExprPtr> args) {
    std::optional<std::string> var = IterVar(args[0], "argument is not an identifier");
    if (!var.has_value()) return nullptr;
    ExprPtr step;
    if (is_filter) {
      std::vector<ExprPtr> element;
      element.push_back(std::move(args[0]));
      step = Call(offset, "_?_:_", std::move(args[1]),
                  Call(offset, "_+_", Accu(offset), NewList(offset, std::move(element))), Accu(offset));
    } else {
      ExprPtr filter = args.size() == 3 ? std::move(args[1]) : nullptr;
      std::vector<ExprPtr> element;
      element.push_back(std::move(args.back()));
      step = Call(offset, "_+_", Accu(offset), NewList(offset, std::move(element)));
      if (filter) step = Call(offset, "_?_:_", std::move(filter), std::move(step), Accu(offset));
    }
    return NewComprehension(offset, std::move(target), std::move(*var), "", kAccumulatorName, NewList(offset),
                            NewBool(offset, true), std::move(step), Accu(offset));
  }

  ExprPtr Transform(std::int32_t offset, const std::string& function, ExprPtr target, std::vector<ExprPtr> args) {
    std::optional<std::pair<std::string, std::string>> vars = IterVars(args[0], args[1]);
    if (!vars.has_value()) return nullptr;
    ExprPtr filter = args.size() == 4 ? std::move(args[2]) : nullptr;
    ExprPtr transform = std::move(args.back());
    ExprPtr step;
    ExprPtr init;
    if (function == "transformList") {
      std::vector<ExprPtr> element;
      element.push_back(std::move(transform));
      step = Call(offset, "_+_", Accu(offset), NewList(offset, std::move(element)));
      init = NewList(offset);
    } else if (function == "transformMap") {
      step = Call(offset, "cel.@mapInsert", Accu(offset), NewIdent(offset, vars->first), std::move(transform));
      init = NewExpr(offset, ExprKind::kMap);
    } else {
      step = Call(offset, "cel.@mapInsert", Accu(offset), std::move(transform));
      init = NewExpr(offset, ExprKind::kMap);
    }
    if (filter) step = Call(offset, "_?_:_", std::move(filter), std::move(step), Accu(offset));
    return NewComprehension(offset, std::move(target), std::move(vars->first), std::move(vars->second),
                            kAccumulatorName, std::move(init), NewBool(offset, true), std::move(step),
                            Accu(offset));
  }

  // cel.bind(var, init, result)
  ExprPtr Bind(std::int32_t offset, std::vector<ExprPtr> args) {
    if (args[0]->kind != ExprKind::kIdent) {
      issues_.push_back({OffsetOf(*args[0]), "cel.bind() variable names must be simple identifiers"});
      return nullptr;
    }
    std::string var = args[0]->name;
    return NewComprehension(offset, NewList(offset), "#unused", "", var, std::move(args[1]), NewBool(offset, false),
                            NewIdent(offset, var), std::move(args[2]));
  }

  ExprPtr SortBy(std::int32_t offset, ExprPtr target, std::vector<ExprPtr> args) {
    const ExprKind kind = target->kind;
    if (kind != ExprKind::kList && kind != ExprKind::kSelect && kind != ExprKind::kIdent &&
        kind != ExprKind::kComprehension && kind != ExprKind::kCall) {
      issues_.push_back({OffsetOf(*target), "sortBy can only be applied to a list, identifier, comprehension, call "
                                            "or select expression"});
      return nullptr;
    }
    const std::string input = "@__sortBy_input__";
    std::vector<ExprPtr> map_args;
    map_args.push_back(std::move(args[0]));
    map_args.push_back(std::move(args[1]));
    ExprPtr keys = MapOrFilter(offset, false, NewIdent(offset, input), std::move(map_args));
    if (!keys) return nullptr;
    std::vector<ExprPtr> call_args;
    call_args.push_back(std::move(keys));
    ExprPtr sorted = NewCall(offset, "@sortByAssociatedKeys", std::move(call_args), NewIdent(offset, input));
    return NewComprehension(offset, NewList(offset), "#unused", "", input, std::move(target),
                            NewBool(offset, false), NewIdent(offset, input), std::move(sorted));
  }

  ExprPtr OptMap(std::int32_t offset, bool flat, ExprPtr target, std::vector<ExprPtr> args) {
    if (args[0]->kind != ExprKind::kIdent) {
      issues_.push_back({OffsetOf(*args[0]), std::string(flat ? "optFlatMap" : "optMap") +
                                                 "() variable name must be a simple identifier"});
      return nullptr;
    }
    std::string var = args[0]->name;
    ExprPtr copy = Copy(*target);
    ExprPtr has_value = NewCall(offset, "hasValue", {}, std::move(target));
    ExprPtr value = NewCall(offset, "value", {}, std::move(copy));
    ExprPtr body = NewComprehension(offset, NewList(offset), "#unused", "", var, std::move(value),
                                    NewBool(offset, false), NewIdent(offset, var), std::move(args[1]));
    if (!flat) body = Call(offset, "optional.of", std::move(body));
    return Call(offset, "_?_:_", std::move(has_value), std::move(body), NewCall(offset, "optional.none", {}));
  }

  const Source& source_;
  std::vector<Token> tokens_;
  std::size_t next_ = 0;
  std::array<int, kRuleCount> rule_depth_{};
  std::vector<std::int32_t> offsets_;
  std::vector<int> depth_;  // by id: nesting of counted nodes (cel-go's visitor recursion depth)
  std::optional<Issue> fatal_;
  std::vector<Issue> issues_;
};

}  // namespace

ParseResult Parse(const Source& source) { return Parser(source).Run(); }

}  // namespace ksched::plugins::dynamic_resources::cel
