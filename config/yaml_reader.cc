#include "config/yaml_reader.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <regex>
#include <string>
#include <unordered_set>
#include <vector>

#include "config/yaml_prescan.h"
#include "yaml-cpp/yaml.h"

namespace ksched::config {
namespace {

constexpr std::string_view kStrTag = "tag:yaml.org,2002:str";
constexpr std::string_view kBinaryTag = "tag:yaml.org,2002:binary";

// go-yaml v2's resolveMap for the words a plain scalar can spell.
std::optional<Value> ResolveWord(std::string_view in) {
  static constexpr std::string_view kTrue[] = {"y",  "Y",    "yes",  "Yes", "YES", "true",
                                               "True", "TRUE", "on", "On",  "ON"};
  static constexpr std::string_view kFalse[] = {"n",     "N",     "no",  "No",  "NO", "false",
                                                "False", "FALSE", "off", "Off", "OFF"};
  static constexpr std::string_view kNull[] = {"", "~", "null", "Null", "NULL"};
  for (std::string_view word : kTrue) {
    if (in == word) return Value::Bool(true);
  }
  for (std::string_view word : kFalse) {
    if (in == word) return Value::Bool(false);
  }
  for (std::string_view word : kNull) {
    if (in == word) return Value();
  }
  return std::nullopt;
}

bool IsSpecialFloatWord(std::string_view in) {
  static constexpr std::string_view kWords[] = {".nan",  ".NaN",  ".NAN",  ".inf",  ".Inf",
                                                ".INF",  "+.inf", "+.Inf", "+.INF", "-.inf",
                                                "-.Inf", "-.INF"};
  for (std::string_view word : kWords) {
    if (in == word) return true;
  }
  return false;
}

// strconv.ParseUint(s, 0, 64) without a sign: 0x / 0o / 0b prefixes, a leading 0 for octal.
std::optional<std::uint64_t> ParseUnsignedBase0(std::string_view s) {
  int base = 10;
  if (s.size() >= 2 && s[0] == '0') {
    const char p = s[1];
    if (p == 'x' || p == 'X') {
      base = 16;
      s.remove_prefix(2);
    } else if (p == 'o' || p == 'O') {
      base = 8;
      s.remove_prefix(2);
    } else if (p == 'b' || p == 'B') {
      base = 2;
      s.remove_prefix(2);
    } else {
      base = 8;
      s.remove_prefix(1);
    }
  }
  if (s.empty()) return std::nullopt;
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value, base);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return value;
}

std::optional<Value> ResolveInteger(std::string_view plain) {
  bool negative = false;
  std::string_view digits = plain;
  if (!digits.empty() && (digits[0] == '+' || digits[0] == '-')) {
    negative = digits[0] == '-';
    digits.remove_prefix(1);
  }
  const std::optional<std::uint64_t> magnitude = ParseUnsignedBase0(digits);
  if (!magnitude.has_value()) return std::nullopt;
  constexpr std::uint64_t kMaxInt = std::numeric_limits<std::int64_t>::max();
  if (negative) {
    if (*magnitude > kMaxInt + 1) return std::nullopt;
    if (*magnitude == kMaxInt + 1) return Value::Int(std::numeric_limits<std::int64_t>::min());
    return Value::Int(-static_cast<std::int64_t>(*magnitude));
  }
  if (*magnitude <= kMaxInt) return Value::Int(static_cast<std::int64_t>(*magnitude));
  // ParseUint accepts no sign.
  if (plain[0] == '+') return std::nullopt;
  return Value::Uint(*magnitude);
}

std::optional<Value> ResolveFloat(std::string_view plain) {
  static const std::regex kYamlFloat(R"(^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$)");
  const std::string text(plain);
  if (!std::regex_match(text, kYamlFloat)) return std::nullopt;
  std::string_view digits = plain;
  if (digits[0] == '+') digits.remove_prefix(1);
  double value = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (end != digits.data() + digits.size()) return std::nullopt;
  if (ec == std::errc::result_out_of_range) {
    // Go's ParseFloat returns ±Inf with a range error: the float is rejected, the scalar stays a
    // string in go-yaml. Underflow to zero is accepted by Go, so only overflow is a miss.
    if (std::fabs(value) > 1) return std::nullopt;
  } else if (ec != std::errc()) {
    return std::nullopt;
  }
  return Value::Float(value);
}

// go-yaml v2's resolve() for a plain, untagged scalar.
absl::StatusOr<Value> ResolvePlain(const std::string& in) {
  if (std::optional<Value> word = ResolveWord(in)) return *std::move(word);
  if (IsSpecialFloatWord(in)) {
    const bool nan = in == ".nan" || in == ".NaN" || in == ".NAN";
    const char* rendered = nan ? "NaN" : in[0] == '-' ? "-Inf" : "+Inf";
    return absl::InvalidArgumentError(std::string("json: unsupported value: ") + rendered);
  }
  const char first = in[0];
  if (first == '.') {
    if (std::optional<Value> f = ResolveFloat(in)) return *std::move(f);
    return Value::String(in);
  }
  if (first == '+' || first == '-' || (first >= '0' && first <= '9')) {
    std::string plain;
    plain.reserve(in.size());
    for (char c : in) {
      if (c != '_') plain.push_back(c);
    }
    if (plain.empty()) return Value::String(in);
    if (std::optional<Value> i = ResolveInteger(plain)) return *std::move(i);
    if (std::optional<Value> f = ResolveFloat(plain)) return *std::move(f);
  }
  return Value::String(in);
}

// Map keys become JSON object keys: non-string scalars are rendered as text.
std::string KeyText(const Value& key, const std::string& raw) {
  switch (key.kind()) {
    case Value::Kind::kString:
      return key.as_string();
    case Value::Kind::kBool:
      return key.as_bool() ? "true" : "false";
    case Value::Kind::kInt:
      return std::to_string(key.as_int());
    case Value::Kind::kUint:
      return std::to_string(key.as_uint());
    case Value::Kind::kNull:
      return "null";
    default:
      return raw;
  }
}

// Values converted beyond which a document that is mostly aliases is refused. go-yaml compares the
// aliases decoded with all nodes decoded (allowedAliasRatio); yaml-cpp does not say which nodes
// are aliases, but a document cannot hold more nodes than bytes unless aliases repeat them.
constexpr std::size_t kAliasCheckFrom = 400'000;

class Converter {
 public:
  explicit Converter(std::size_t source_bytes) : source_bytes_(source_bytes) {}

  absl::StatusOr<Value> Convert(const YAML::Node& node) {
    if (++converted_ > kAliasCheckFrom && converted_ > 10 * source_bytes_) {
      return absl::InvalidArgumentError("yaml: document contains excessive aliasing");
    }
    if (depth_ >= kMaxYamlDepth) {
      return absl::InvalidArgumentError("yaml: line " + std::to_string(node.Mark().line + 1) +
                                        ": exceeded max depth of " + std::to_string(kMaxYamlDepth));
    }
    struct Nested {
      std::size_t& depth;
      explicit Nested(std::size_t& d) : depth(++d) {}
      ~Nested() { --depth; }
    } const nested(depth_);
    switch (node.Type()) {
      case YAML::NodeType::Undefined:
      case YAML::NodeType::Null:
        return Value();
      case YAML::NodeType::Scalar:
        return Scalar(node);
      case YAML::NodeType::Sequence: {
        Value list = Value::EmptyList();
        for (const YAML::Node& item : node) {
          absl::StatusOr<Value> value = Convert(item);
          if (!value.ok()) return value.status();
          list.Append(*std::move(value));
        }
        return list;
      }
      case YAML::NodeType::Map: {
        Value map = Value::EmptyMap();
        // Keys seen, so that a mapping of n keys takes O(n), not Value::Find's O(n^2).
        std::unordered_set<std::string> keys;
        for (auto it = node.begin(); it != node.end(); ++it) {
          if (!it->first.IsScalar() && !it->first.IsNull()) {
            return absl::InvalidArgumentError("error converting YAML to JSON: yaml: line " +
                                              std::to_string(it->first.Mark().line + 1) +
                                              ": a map key must be a scalar");
          }
          absl::StatusOr<Value> key = it->first.IsNull() ? Value() : Scalar(it->first);
          if (!key.ok()) return key.status();
          const std::string text = KeyText(*key, it->first.IsScalar() ? it->first.Scalar() : "");
          if (!keys.insert(text).second) {
            duplicates_.push_back("  line " + std::to_string(it->first.Mark().line + 1) +
                                  ": key \"" + text + "\" already set in map");
            continue;
          }
          absl::StatusOr<Value> value = Convert(it->second);
          if (!value.ok()) return value.status();
          map.as_map().push_back(MapEntry{text, *std::move(value)});
        }
        // Upstream converts YAML to JSON through a Go map, whose keys json.Marshal sorts: the
        // strict decoder meets (and names unknown) fields in that order.
        std::sort(map.as_map().begin(), map.as_map().end(),
                  [](const MapEntry& a, const MapEntry& b) { return a.key < b.key; });
        return map;
      }
    }
    return Value();
  }

  const std::vector<std::string>& duplicates() const { return duplicates_; }

 private:
  static absl::StatusOr<Value> Scalar(const YAML::Node& node) {
    const std::string& tag = node.Tag();
    if (tag == "!" || tag == kStrTag || tag == kBinaryTag) return Value::String(node.Scalar());
    return ResolvePlain(node.Scalar());
  }

  std::vector<std::string> duplicates_;
  const std::size_t source_bytes_;
  std::size_t converted_ = 0;
  std::size_t depth_ = 0;
};

}  // namespace

absl::StatusOr<Value> ReadYaml(std::string_view text) {
  if (HasControlCharacters(text)) return absl::InvalidArgumentError("yaml: control characters are not allowed");
  if (const std::optional<std::size_t> line = DeepFlowNestingLine(text); line.has_value()) {
    return absl::InvalidArgumentError("yaml: line " + std::to_string(*line) + ": exceeded max depth of " +
                                      std::to_string(kMaxYamlDepth));
  }
  // go-yaml reads up to the end of the stream looking for the closing quote and fails there;
  // errors before the quote opens come first.
  const std::optional<std::size_t> open_quote = UnterminatedQuoteLine(text);
  const auto end_of_stream = [&] {
    return absl::InvalidArgumentError("yaml: line " + std::to_string(EndOfStreamLine(text)) +
                                      ": found unexpected end of stream");
  };
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
  } catch (const YAML::ParserException& e) {
    if (open_quote.has_value() && static_cast<std::size_t>(e.mark.line + 1) >= *open_quote) return end_of_stream();
    return absl::InvalidArgumentError("yaml: line " + std::to_string(e.mark.line + 1) + ": " +
                                      e.msg);
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(std::string("yaml: ") + e.what());
  }
  if (open_quote.has_value()) return end_of_stream();
  Converter converter(text.size());
  absl::StatusOr<Value> value;
  try {
    value = converter.Convert(root);
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(std::string("yaml: ") + e.what());
  }
  if (!value.ok()) return value.status();
  if (!converter.duplicates().empty()) {
    std::string message = "strict decoding error: yaml: unmarshal errors:";
    for (const std::string& line : converter.duplicates()) message += "\n" + line;
    return absl::InvalidArgumentError(message);
  }
  return value;
}

}  // namespace ksched::config
