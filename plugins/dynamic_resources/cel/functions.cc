#include "plugins/dynamic_resources/cel/functions.h"

#include <algorithm>
#include <cstdlib>

namespace ksched::plugins::dynamic_resources::cel {
namespace {

void CollectTypeParams(const Type& type, std::vector<std::string>& out) {
  if (type.kind == TypeKind::kTypeParam) {
    if (std::find(out.begin(), out.end(), type.name) == out.end()) out.push_back(type.name);
    return;
  }
  for (const TypePtr& param : type.params) CollectTypeParams(*param, out);
}

std::vector<std::string_view> SplitTopLevel(std::string_view text) {
  std::vector<std::string_view> parts;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '(') ++depth;
    if (text[i] == ')') --depth;
    if (text[i] == ',' && depth == 0) {
      parts.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  if (text.find_first_not_of(' ', start) != std::string_view::npos) parts.push_back(text.substr(start));
  return parts;
}

}  // namespace

FunctionDecl& FunctionRegistry::Function(std::string_view name, FunctionImpl singleton) {
  for (FunctionDecl& fn : functions_) {
    if (fn.name == name) {
      if (singleton != nullptr) fn.singleton = singleton;
      return fn;
    }
  }
  functions_.push_back(FunctionDecl{std::string(name), {}, singleton});
  return functions_.back();
}

void FunctionRegistry::Global(std::string_view function, std::string id, std::string_view signature,
                              FunctionImpl impl) {
  Add(function, std::move(id), false, signature, impl);
}

void FunctionRegistry::Member(std::string_view function, std::string id, std::string_view signature,
                              FunctionImpl impl) {
  Add(function, std::move(id), true, signature, impl);
}

void FunctionRegistry::Add(std::string_view function, std::string id, bool member, std::string_view signature,
                           FunctionImpl impl) {
  OverloadDecl overload;
  overload.id = std::move(id);
  overload.member = member;
  overload.impl = impl;
  const std::size_t arrow = signature.find("->");
  for (std::string_view part : SplitTopLevel(signature.substr(0, arrow))) {
    TypePtr type = ParseTypeSpec(part);
    if (!type) std::abort();  // a malformed table entry: a programming error caught by any test
    overload.params.push_back(std::move(type));
  }
  overload.result = ParseTypeSpec(signature.substr(arrow + 2));
  if (!overload.result) std::abort();
  for (const TypePtr& param : overload.params) CollectTypeParams(*param, overload.type_params);
  CollectTypeParams(*overload.result, overload.type_params);
  Function(function).overloads.push_back(std::move(overload));
}

const FunctionDecl* FunctionRegistry::Find(std::string_view name) const {
  for (const FunctionDecl& fn : functions_) {
    if (fn.name == name) return &fn;
  }
  return nullptr;
}

const FunctionRegistry& Functions() {
  static const FunctionRegistry* const registry = [] {
    auto* r = new FunctionRegistry();
    RegisterStandardLibrary(*r);
    RegisterStringsLibrary(*r);
    RegisterListsLibrary(*r);
    RegisterOptionalLibrary(*r);
    RegisterKubernetesLibrary(*r);
    RegisterNetLibrary(*r);
    RegisterTimeLibrary(*r);
    RegisterStringFormat(*r);
    RegisterFormatLibrary(*r);
    RegisterAuthzLibrary(*r);
    return r;
  }();
  return *registry;
}

bool MatchesRuntimeType(const Type& type, const Value& value) {
  switch (type.kind) {
    case TypeKind::kDyn:
    case TypeKind::kAny:
    case TypeKind::kTypeParam:
      return true;
    case TypeKind::kList: {
      if (value.kind() != ValueKind::kList) return false;
      const auto& elements = value.list().elements;
      return elements.empty() || MatchesRuntimeType(*type.params[0], elements[0]);
    }
    case TypeKind::kMap: {
      if (value.kind() != ValueKind::kMap) return false;
      if (MapSize(value) == 0) return true;
      const std::vector<Value> keys = MapKeys(value);
      const std::optional<Value> first = MapFind(value, keys[0]);
      return MatchesRuntimeType(*type.params[0], keys[0]) && first.has_value() &&
             MatchesRuntimeType(*type.params[1], *first);
    }
    case TypeKind::kNull: return value.kind() == ValueKind::kNull;
    case TypeKind::kBool: return value.kind() == ValueKind::kBool;
    case TypeKind::kInt: return value.kind() == ValueKind::kInt;
    case TypeKind::kUint: return value.kind() == ValueKind::kUint;
    case TypeKind::kDouble: return value.kind() == ValueKind::kDouble;
    case TypeKind::kString: return value.kind() == ValueKind::kString;
    case TypeKind::kBytes: return value.kind() == ValueKind::kBytes;
    case TypeKind::kType: return value.kind() == ValueKind::kType;
    case TypeKind::kTimestamp: return value.kind() == ValueKind::kTimestamp;
    case TypeKind::kDuration: return value.kind() == ValueKind::kDuration;
    case TypeKind::kOpaque:
    case TypeKind::kStruct:
      return type.name == TypeNameOf(value);  // optional_type, kubernetes.Quantity, kubernetes.Semver
    default:
      return false;
  }
}

bool MatchesRuntimeSignature(const OverloadDecl& overload, std::span<const Value> args) {
  if (overload.params.size() != args.size()) return false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i].IsError() || !MatchesRuntimeType(*overload.params[i], args[i])) return false;
  }
  return true;
}

const OverloadDecl* MatchOverload(const FunctionDecl& fn, std::span<const Value> args) {
  for (const OverloadDecl& overload : fn.overloads) {
    if (MatchesRuntimeSignature(overload, args)) return &overload;
  }
  return nullptr;
}

Value NoSuchOverload(std::string_view function, std::span<const Value> args) {
  std::string signature;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i].IsError()) return args[i];
    if (i > 0) signature += ", ";
    signature += TypeNameOf(args[i]);
  }
  return Value::Error("no such overload: " + std::string(function) + "(" + signature + ")");
}

Value ErrorOrNoSuchOverload(const Value& arg) {
  if (arg.IsError()) return arg;
  return Value::Error("no such overload");
}

Value MakeString(CallContext& ctx, std::string value) {
  if (ctx.budget != nullptr && !ctx.budget->Charge(1 + value.size() / 10)) {
    return Value::Error(std::string(kCostLimitExceeded));
  }
  return Value::String(std::move(value));
}

Value MakeList(CallContext& ctx, std::vector<Value> elements) {
  if (ctx.budget != nullptr && !ctx.budget->Charge(1 + elements.size())) {
    return Value::Error(std::string(kCostLimitExceeded));
  }
  return Value::List(std::move(elements));
}

}  // namespace ksched::plugins::dynamic_resources::cel
