#include "api/field_selector.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "api/utf8.h"

namespace ksched::api {

namespace {

// splitTerms: splits on "," not preceded by an escaping "\"; the escapes stay in the terms.
std::vector<std::string_view> SplitTerms(std::string_view selector) {
  std::vector<std::string_view> terms;
  if (selector.empty()) return terms;
  std::size_t start = 0;
  bool in_slash = false;
  for (std::size_t i = 0; i < selector.size(); ++i) {
    const char c = selector[i];
    if (in_slash) {
      in_slash = false;
    } else if (c == '\\') {
      in_slash = true;
    } else if (c == ',') {
      terms.push_back(selector.substr(start, i - start));
      start = i + 1;
    }
  }
  terms.push_back(selector.substr(start));
  return terms;
}

struct SplitTermResult {
  std::string_view lhs;
  std::string_view op;
  std::string_view rhs;
};

// splitTerm: the first position where "!=", "==" or "=" starts (in that order of preference).
std::optional<SplitTermResult> SplitTerm(std::string_view term) {
  static constexpr std::string_view kOperators[] = {"!=", "==", "="};
  for (std::size_t i = 0; i < term.size(); ++i) {
    const std::string_view remaining = term.substr(i);
    for (std::string_view op : kOperators) {
      if (remaining.starts_with(op)) {
        return SplitTermResult{term.substr(0, i), op, remaining.substr(op.size())};
      }
    }
  }
  return std::nullopt;
}

}  // namespace

std::string EscapeFieldSelectorValue(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '\\' || c == ',' || c == '=') out += '\\';
    out += c;
  }
  return out;
}

absl::StatusOr<std::string> UnescapeFieldSelectorValue(std::string_view value) {
  if (value.find_first_of("\\,=") == std::string_view::npos) return std::string(value);
  // Upstream walks the value rune by rune and re-encodes each one, so an invalid UTF-8 byte comes
  // out as U+FFFD; do the same.
  std::string out;
  out.reserve(value.size());
  bool in_slash = false;
  while (!value.empty()) {
    const DecodedRune d = DecodeRune(value);
    value.remove_prefix(d.width);
    if (in_slash) {
      if (d.rune == '\\' || d.rune == ',' || d.rune == '=') {
        AppendRune(out, d.rune);
      } else {
        std::string sequence = "\\";
        AppendRune(sequence, d.rune);
        return absl::InvalidArgumentError(
            "invalid field selector: invalid escape sequence: " + sequence);
      }
      in_slash = false;
      continue;
    }
    if (d.rune == '\\') {
      in_slash = true;
    } else if (d.rune == ',' || d.rune == '=') {
      return absl::InvalidArgumentError("invalid field selector: unescaped character in value: " +
                                        std::to_string(static_cast<std::uint32_t>(d.rune)));
    } else {
      AppendRune(out, d.rune);
    }
  }
  if (in_slash) {
    return absl::InvalidArgumentError("invalid field selector: invalid escape sequence: \\");
  }
  return out;
}

FieldSelector FieldSelector::Nothing() {
  FieldSelector selector;
  selector.nothing_ = true;
  return selector;
}

absl::StatusOr<FieldSelector> FieldSelector::Parse(std::string_view selector) {
  std::vector<std::string_view> terms = SplitTerms(selector);
  std::sort(terms.begin(), terms.end());
  FieldSelector parsed;
  for (std::string_view term : terms) {
    if (term.empty()) continue;
    const std::optional<SplitTermResult> split = SplitTerm(term);
    if (!split) {
      std::string message = "invalid selector: '";
      message += selector;
      message += "'; can't understand '";
      message += term;
      message += '\'';
      return absl::InvalidArgumentError(message);
    }
    absl::StatusOr<std::string> value = UnescapeFieldSelectorValue(split->rhs);
    if (!value.ok()) return value.status();
    // The identity transform upstream applies turns a term with an empty field and an empty value
    // into Everything(), which the AND then drops.
    if (split->lhs.empty() && value->empty()) continue;
    parsed.requirements_.push_back(FieldRequirement{
        std::string(split->lhs),
        split->op == "!=" ? FieldOperator::kNotEquals : FieldOperator::kEquals,
        *std::move(value)});
  }
  return parsed;
}

FieldSelector FieldSelector::OneTermEqual(std::string field, std::string value) {
  return FromRequirements({FieldRequirement{std::move(field), FieldOperator::kEquals,
                                            std::move(value)}});
}

FieldSelector FieldSelector::OneTermNotEqual(std::string field, std::string value) {
  return FromRequirements({FieldRequirement{std::move(field), FieldOperator::kNotEquals,
                                            std::move(value)}});
}

FieldSelector FieldSelector::FromRequirements(std::vector<FieldRequirement> requirements) {
  FieldSelector selector;
  selector.requirements_ = std::move(requirements);
  return selector;
}

bool FieldSelector::Matches(const Labels& fields) const noexcept {
  return Matches([&fields](std::string_view field) -> std::string_view {
    return fields.Get(field).value_or(std::string_view());
  });
}

std::optional<std::string_view> FieldSelector::RequiresExactMatch(
    std::string_view field) const noexcept {
  if (nothing_) return std::nullopt;
  for (const FieldRequirement& requirement : requirements_) {
    if (requirement.op == FieldOperator::kEquals && requirement.field == field) {
      return std::string_view(requirement.value);
    }
  }
  return std::nullopt;
}

std::string FieldSelector::ToString() const {
  std::string out;
  if (nothing_) return out;
  for (std::size_t i = 0; i < requirements_.size(); ++i) {
    if (i > 0) out += ',';
    const FieldRequirement& requirement = requirements_[i];
    out += requirement.field;
    out += requirement.op == FieldOperator::kEquals ? "=" : "!=";
    out += EscapeFieldSelectorValue(requirement.value);
  }
  return out;
}

}  // namespace ksched::api
