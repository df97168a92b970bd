#include "plugins/dynamic_resources/cel/device_selector.h"

#include "absl/status/status.h"
#include "plugins/dynamic_resources/cel/checker.h"
#include "plugins/dynamic_resources/cel/device_view.h"
#include "plugins/dynamic_resources/cel/evaluator.h"
#include "plugins/dynamic_resources/cel/parser.h"
#include "plugins/dynamic_resources/cel/source.h"

namespace ksched::plugins::dynamic_resources {
namespace {

// ConvertToNative(bool)'s error for a value that is not a bool, as cel-go words it per type.
std::string BoolConversionError(const cel::Value& value) {
  switch (value.kind()) {
    case cel::ValueKind::kInt: return "unsupported type conversion from 'int' to bool";
    case cel::ValueKind::kUint: return "unsupported type conversion from 'uint' to bool";
    case cel::ValueKind::kDouble: return "type conversion error from Double to 'bool'";
    case cel::ValueKind::kString: return "unsupported native conversion from string to 'bool'";
    case cel::ValueKind::kBytes: return "type conversion error from Bytes to 'bool'";
    case cel::ValueKind::kNull: return "type conversion error from 'null_type' to 'bool'";
    case cel::ValueKind::kList: return "type conversion error from list to 'bool'";
    case cel::ValueKind::kMap: return "type conversion error from map to 'bool'";
    case cel::ValueKind::kType: return "type conversion not supported for 'type'";
    case cel::ValueKind::kQuantity: return "type conversion error from 'Quantity' to 'bool'";
    case cel::ValueKind::kSemver: return "type conversion error from 'Semver' to 'bool'";
    case cel::ValueKind::kIP: return "type conversion error from 'IP' to 'bool'";
    case cel::ValueKind::kCIDR: return "type conversion error from 'CIDR' to 'bool'";
    case cel::ValueKind::kURL: return "type conversion error from 'URL' to 'bool'";
    case cel::ValueKind::kNamedFormat: return "type conversion error from 'Format' to 'bool'";
    default: return "type conversion error";
  }
}

}  // namespace

CompiledSelector::CompiledSelector(std::string expression, std::unique_ptr<const cel::Program> program)
    : expression_(std::move(expression)), program_(std::move(program)) {}

CompiledSelector::~CompiledSelector() = default;

absl::StatusOr<std::shared_ptr<const CompiledSelector>> CompiledSelector::Compile(std::string_view expression) {
  const cel::Source source(expression);
  cel::ParseResult parsed = cel::Parse(source);
  if (!parsed.issues.empty()) {
    return absl::InvalidArgumentError("compilation failed: " + source.FormatIssues(std::move(parsed.issues)));
  }
  cel::CheckResult checked = cel::Check(*parsed.expr, parsed.offsets);
  if (!checked.issues.empty()) {
    return absl::InvalidArgumentError("compilation failed: " + source.FormatIssues(std::move(checked.issues)));
  }
  const cel::TypePtr& output = checked.types[static_cast<std::size_t>(parsed.expr->id)];
  if (output->kind != cel::TypeKind::kBool && output->kind != cel::TypeKind::kAny) {
    return absl::InvalidArgumentError("must evaluate to bool or the unknown type, not " + cel::TypeString(*output));
  }
  absl::StatusOr<std::unique_ptr<const cel::Program>> program = cel::Program::Build(*parsed.expr, checked);
  if (!program.ok()) return program.status();
  return std::shared_ptr<const CompiledSelector>(new CompiledSelector(std::string(expression), *std::move(program)));
}

absl::StatusOr<bool> CompiledSelector::Matches(const CelDevice& device) const {
  // Upstream converts all attributes before evaluating.
  if (absl::Status status = cel::CheckAttributes(device); !status.ok()) return status;
  cel::Value result = program_->Evaluate(device);
  // An optional result converts through its value (cel-go's Optional.ConvertToNative).
  const std::string type_name(cel::TypeNameOf(result));
  while (result.kind() == cel::ValueKind::kOptional) {
    if (result.optional_value() == nullptr) {
      return absl::InvalidArgumentError("CEL result of type " + type_name +
                                        " could not be converted to bool: optional.none() dereference");
    }
    cel::Value inner = *result.optional_value();
    result = std::move(inner);
  }
  if (result.IsError()) return absl::InvalidArgumentError(std::string(result.text()));
  if (result.kind() == cel::ValueKind::kBool) return result.bool_value();
  return absl::InvalidArgumentError("CEL result of type " + type_name +
                                    " could not be converted to bool: " + BoolConversionError(result));
}

SelectorCache::SelectorCache(std::size_t max_entries) : max_entries_(max_entries) {}

const SelectorCache::Entry* SelectorCache::Lookup(std::string_view expression) {
  auto it = index_.find(expression);
  if (it == index_.end()) return nullptr;
  lru_.splice(lru_.begin(), lru_, it->second);
  return &*it->second;
}

absl::StatusOr<std::shared_ptr<const CompiledSelector>> SelectorCache::GetOrCompile(std::string_view expression) {
  {
    base::MutexLock lock(&mu_);
    if (const Entry* entry = Lookup(expression); entry != nullptr) return entry->second;
  }
  // Compile outside the lock; a concurrent compile of the same expression may win the insert.
  absl::StatusOr<std::shared_ptr<const CompiledSelector>> compiled = CompiledSelector::Compile(expression);
  base::MutexLock lock(&mu_);
  if (const Entry* entry = Lookup(expression); entry != nullptr) return entry->second;
  if (max_entries_ == 0) return compiled;
  lru_.emplace_front(std::string(expression), compiled);
  index_.emplace(std::string_view(lru_.front().first), lru_.begin());
  while (lru_.size() > max_entries_) {
    index_.erase(std::string_view(lru_.back().first));
    lru_.pop_back();
  }
  return compiled;
}

}  // namespace ksched::plugins::dynamic_resources
