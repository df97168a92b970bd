#include "api/label_selector.h"

#include <algorithm>
#include <initializer_list>
#include <string>
#include <utility>

#include "absl/status/status.h"

namespace ksched::api {

namespace {

template <typename Strings>
std::string Join(const Strings& parts, std::string_view separator) {
  std::string out;
  bool first = true;
  for (const auto& part : parts) {
    if (!first) out += separator;
    first = false;
    out += part;
  }
  return out;
}

// strconv.ParseInt(s, 10, 64): optional sign, then one or more ASCII digits, within int64.
std::optional<std::int64_t> ParseInt64(std::string_view s) noexcept {
  bool negative = false;
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) return std::nullopt;
  const std::uint64_t limit = negative ? (std::uint64_t{1} << 63) : (std::uint64_t{1} << 63) - 1;
  std::uint64_t n = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (n > (limit - digit) / 10) return std::nullopt;
    n = n * 10 + digit;
  }
  if (!negative) return static_cast<std::int64_t>(n);
  if (n == (std::uint64_t{1} << 63)) return INT64_MIN;
  return -static_cast<std::int64_t>(n);
}

bool HasValue(const std::vector<std::string>& values, std::string_view value) noexcept {
  return std::any_of(values.begin(), values.end(),
                     [value](const std::string& v) { return v == value; });
}

void SortByKey(std::vector<LabelRequirement>& requirements) {
  std::stable_sort(requirements.begin(), requirements.end(),
                   [](const LabelRequirement& a, const LabelRequirement& b) {
                     return a.key() < b.key();
                   });
}

}  // namespace

std::string_view SelectionOperatorName(SelectionOperator op) {
  switch (op) {
    case SelectionOperator::kIn: return "in";
    case SelectionOperator::kNotIn: return "notin";
    case SelectionOperator::kEquals: return "=";
    case SelectionOperator::kDoubleEquals: return "==";
    case SelectionOperator::kNotEquals: return "!=";
    case SelectionOperator::kExists: return "exists";
    case SelectionOperator::kDoesNotExist: return "!";
    case SelectionOperator::kGreaterThan: return "gt";
    case SelectionOperator::kLessThan: return "lt";
  }
  return "";
}

LabelRequirement::LabelRequirement(std::string key, SelectionOperator op,
                                   std::vector<std::string> values)
    : key_(std::move(key)), op_(op), values_(std::move(values)) {
  if ((op_ == SelectionOperator::kGreaterThan || op_ == SelectionOperator::kLessThan) &&
      values_.size() == 1) {
    bound_ = ParseInt64(values_.front()).value_or(0);
  }
}

std::optional<LabelRequirement> LabelRequirement::Create(std::string key, SelectionOperator op,
                                                         std::vector<std::string> values,
                                                         const FieldPath& path,
                                                         FieldErrorList& errors) {
  const std::size_t errors_before = errors.size();
  if (std::vector<std::string> msgs = IsQualifiedName(key); !msgs.empty()) {
    errors.Add(InvalidValueError(path.Child("key"), GoQuote(key), Join(msgs, "; ")));
  }
  const FieldPath value_path = path.Child("values");
  switch (op) {
    case SelectionOperator::kIn:
    case SelectionOperator::kNotIn:
      if (values.empty()) {
        errors.Add(InvalidValueError(value_path, JsonStringList(values),
                                     "for 'in', 'notin' operators, values set can't be empty"));
      }
      break;
    case SelectionOperator::kEquals:
    case SelectionOperator::kDoubleEquals:
    case SelectionOperator::kNotEquals:
      if (values.size() != 1) {
        errors.Add(InvalidValueError(value_path, JsonStringList(values),
                                     "exact-match compatibility requires one single value"));
      }
      break;
    case SelectionOperator::kExists:
    case SelectionOperator::kDoesNotExist:
      if (!values.empty()) {
        errors.Add(InvalidValueError(value_path, JsonStringList(values),
                                     "values set must be empty for exists and does not exist"));
      }
      break;
    case SelectionOperator::kGreaterThan:
    case SelectionOperator::kLessThan:
      if (values.size() != 1) {
        errors.Add(InvalidValueError(value_path, JsonStringList(values),
                                     "for 'Gt', 'Lt' operators, exactly one value is required"));
      }
      for (std::size_t i = 0; i < values.size(); ++i) {
        if (!ParseInt64(values[i])) {
          errors.Add(InvalidValueError(value_path.Index(i), GoQuote(values[i]),
                                       "for 'Gt', 'Lt' operators, the value must be an integer"));
        }
      }
      break;
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (std::vector<std::string> msgs = IsValidLabelValue(values[i]); !msgs.empty()) {
      errors.Add(InvalidValueError(value_path.Index(i).Key(key), GoQuote(values[i]),
                                   Join(msgs, "; ")));
    }
  }
  if (errors.size() != errors_before) return std::nullopt;
  return LabelRequirement(std::move(key), op, std::move(values));
}

absl::StatusOr<LabelRequirement> LabelRequirement::Create(std::string key, SelectionOperator op,
                                                          std::vector<std::string> values,
                                                          const FieldPath& path) {
  FieldErrorList errors;
  std::optional<LabelRequirement> requirement =
      Create(std::move(key), op, std::move(values), path, errors);
  if (!requirement) return errors.ToStatus();
  return *std::move(requirement);
}

bool LabelRequirement::Matches(const Labels& labels) const noexcept {
  const std::optional<std::string_view> value = labels.Get(key_);
  switch (op_) {
    case SelectionOperator::kIn:
    case SelectionOperator::kEquals:
    case SelectionOperator::kDoubleEquals:
      return value.has_value() && HasValue(values_, *value);
    case SelectionOperator::kNotIn:
    case SelectionOperator::kNotEquals:
      return !value.has_value() || !HasValue(values_, *value);
    case SelectionOperator::kExists:
      return value.has_value();
    case SelectionOperator::kDoesNotExist:
      return !value.has_value();
    case SelectionOperator::kGreaterThan:
    case SelectionOperator::kLessThan: {
      if (!value.has_value()) return false;
      const std::optional<std::int64_t> number = ParseInt64(*value);
      if (!number) return false;
      return op_ == SelectionOperator::kGreaterThan ? *number > bound_ : *number < bound_;
    }
  }
  return false;
}

std::string LabelRequirement::ToString() const {
  std::string out;
  if (op_ == SelectionOperator::kDoesNotExist) out += '!';
  out += key_;
  switch (op_) {
    case SelectionOperator::kExists:
    case SelectionOperator::kDoesNotExist:
      return out;
    case SelectionOperator::kEquals: out += '='; break;
    case SelectionOperator::kDoubleEquals: out += "=="; break;
    case SelectionOperator::kNotEquals: out += "!="; break;
    case SelectionOperator::kIn: out += " in "; break;
    case SelectionOperator::kNotIn: out += " notin "; break;
    case SelectionOperator::kGreaterThan: out += '>'; break;
    case SelectionOperator::kLessThan: out += '<'; break;
  }
  const bool set_based = op_ == SelectionOperator::kIn || op_ == SelectionOperator::kNotIn;
  if (set_based) out += '(';
  if (values_.size() == 1) {
    out += values_.front();
  } else {
    std::vector<std::string_view> sorted(values_.begin(), values_.end());
    std::sort(sorted.begin(), sorted.end());
    out += Join(sorted, ",");
  }
  if (set_based) out += ')';
  return out;
}

CompiledLabelSelector CompiledLabelSelector::Nothing() {
  CompiledLabelSelector selector;
  selector.nothing_ = true;
  return selector;
}

absl::StatusOr<CompiledLabelSelector> CompiledLabelSelector::Compile(
    const LabelSelector* selector) {
  if (selector == nullptr) return Nothing();
  CompiledLabelSelector compiled;
  compiled.requirements_.reserve(selector->match_labels.size() +
                                 selector->match_expressions.size());
  for (const auto& [key, value] : selector->match_labels) {
    absl::StatusOr<LabelRequirement> requirement =
        LabelRequirement::Create(key, SelectionOperator::kEquals, {value});
    if (!requirement.ok()) return requirement.status();
    compiled.requirements_.push_back(*std::move(requirement));
  }
  for (const LabelSelectorRequirement& expression : selector->match_expressions) {
    SelectionOperator op;
    if (expression.op == kLabelSelectorOpIn) {
      op = SelectionOperator::kIn;
    } else if (expression.op == kLabelSelectorOpNotIn) {
      op = SelectionOperator::kNotIn;
    } else if (expression.op == kLabelSelectorOpExists) {
      op = SelectionOperator::kExists;
    } else if (expression.op == kLabelSelectorOpDoesNotExist) {
      op = SelectionOperator::kDoesNotExist;
    } else {
      return absl::InvalidArgumentError(
          GoQuote(expression.op) + " is not a valid label selector operator");
    }
    absl::StatusOr<LabelRequirement> requirement =
        LabelRequirement::Create(expression.key, op, expression.values);
    if (!requirement.ok()) return requirement.status();
    compiled.requirements_.push_back(*std::move(requirement));
  }
  SortByKey(compiled.requirements_);
  return compiled;
}

CompiledLabelSelector CompiledLabelSelector::FromSet(const Labels& set) {
  CompiledLabelSelector compiled;
  compiled.requirements_.reserve(set.size());
  for (const auto& [key, value] : set) {
    compiled.requirements_.push_back(LabelRequirement(key, SelectionOperator::kEquals, {value}));
  }
  return compiled;  // Labels iterate in key order already
}

absl::StatusOr<CompiledLabelSelector> CompiledLabelSelector::ValidatedFromSet(const Labels& set) {
  CompiledLabelSelector compiled;
  compiled.requirements_.reserve(set.size());
  for (const auto& [key, value] : set) {
    absl::StatusOr<LabelRequirement> requirement =
        LabelRequirement::Create(key, SelectionOperator::kEquals, {value});
    if (!requirement.ok()) return requirement.status();
    compiled.requirements_.push_back(*std::move(requirement));
  }
  return compiled;
}

CompiledLabelSelector CompiledLabelSelector::FromRequirements(
    std::vector<LabelRequirement> requirements) {
  CompiledLabelSelector compiled;
  compiled.requirements_ = std::move(requirements);
  SortByKey(compiled.requirements_);
  return compiled;
}

bool CompiledLabelSelector::Matches(const Labels& labels) const noexcept {
  if (nothing_) return false;
  return std::all_of(requirements_.begin(), requirements_.end(),
                     [&labels](const LabelRequirement& r) { return r.Matches(labels); });
}

std::string CompiledLabelSelector::ToString() const {
  std::string out;
  for (std::size_t i = 0; i < requirements_.size(); ++i) {
    if (i > 0) out += ',';
    out += requirements_[i].ToString();
  }
  return out;
}

}  // namespace ksched::api
