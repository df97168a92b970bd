#include "scheduler/pod_status_patch.h"

#include <algorithm>
#include <cstdint>
#include <span>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "rapidjson/stringbuffer.h"
#include "rapidjson/writer.h"
#include "scheduler/api_time_format.h"

namespace ksched::scheduler {
namespace {

using JsonWriter = rapidjson::Writer<rapidjson::StringBuffer>;

// A JSON scalar of a condition field.
using Scalar = std::variant<std::nullptr_t, std::string, std::int64_t>;
// A condition as Go's diff sees it: its JSON object, keys sorted.
using Fields = std::vector<std::pair<std::string_view, Scalar>>;

constexpr std::string_view kMergeKey = "type";

Scalar TimeScalar(const std::optional<api::Time>& time) {
  if (!time.has_value()) return nullptr;
  return FormatApiTime(*time);
}

Fields ConditionFields(const api::PodCondition& condition) {
  Fields fields;
  fields.emplace_back("lastProbeTime", TimeScalar(condition.last_probe_time));
  fields.emplace_back("lastTransitionTime", TimeScalar(condition.last_transition_time));
  if (!condition.message.empty()) fields.emplace_back("message", condition.message);
  if (condition.observed_generation != 0) {
    fields.emplace_back("observedGeneration", condition.observed_generation);
  }
  if (!condition.reason.empty()) fields.emplace_back("reason", condition.reason);
  fields.emplace_back("status", condition.status);
  fields.emplace_back(kMergeKey, condition.type);
  return fields;
}

const Scalar* Find(const Fields& fields, std::string_view key) {
  for (const auto& [name, value] : fields) {
    if (name == key) return &value;
  }
  return nullptr;
}

// Go's diffMaps of two condition objects, plus the merge key when anything differs.
Fields DiffCondition(const api::PodCondition& old_condition, const api::PodCondition& new_condition) {
  const Fields before = ConditionFields(old_condition);
  const Fields after = ConditionFields(new_condition);
  Fields patch;
  for (const auto& [key, value] : after) {
    const Scalar* old_value = Find(before, key);
    if (old_value == nullptr || *old_value != value) patch.emplace_back(key, value);
  }
  for (const auto& [key, value] : before) {
    if (Find(after, key) == nullptr) patch.emplace_back(key, nullptr);
  }
  if (patch.empty()) return patch;
  if (Find(patch, kMergeKey) == nullptr) patch.emplace_back(kMergeKey, new_condition.type);
  std::sort(patch.begin(), patch.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return patch;
}

const api::PodCondition* FindCondition(std::span<const api::PodCondition> conditions,
                                       std::string_view type) {
  for (const api::PodCondition& condition : conditions) {
    if (condition.type == type) return &condition;
  }
  return nullptr;
}

void String(JsonWriter& writer, std::string_view value) {
  writer.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
}

void WriteScalar(JsonWriter& writer, const Scalar& value) {
  if (std::holds_alternative<std::nullptr_t>(value)) {
    writer.Null();
  } else if (const auto* text = std::get_if<std::string>(&value)) {
    String(writer, *text);
  } else {
    writer.Int64(std::get<std::int64_t>(value));
  }
}

void WriteFields(JsonWriter& writer, const Fields& fields) {
  writer.StartObject();
  for (const auto& [key, value] : fields) {
    String(writer, key);
    WriteScalar(writer, value);
  }
  writer.EndObject();
}

bool SameTypeOrder(std::span<const api::PodCondition> a, std::span<const api::PodCondition> b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const api::PodCondition& x, const api::PodCondition& y) { return x.type == y.type; });
}

// Go's diff of the conditions lists, before it is written.
struct ConditionsDiff {
  bool set_element_order = false;  // "$setElementOrder/conditions": every new type, in order
  bool null_list = false;          // "conditions": null (every condition removed)
  std::vector<Fields> elements;    // "conditions": [...] when non-empty

  bool empty() const { return !set_element_order && !null_list && elements.empty(); }
};

ConditionsDiff DiffConditions(std::span<const api::PodCondition> before,
                              std::span<const api::PodCondition> after) {
  ConditionsDiff diff;
  if (before.empty()) {  // the key is new: the whole list
    for (const api::PodCondition& condition : after) diff.elements.push_back(ConditionFields(condition));
    return diff;
  }
  if (after.empty()) {  // the key is gone
    diff.null_list = true;
    return diff;
  }
  for (const api::PodCondition& condition : after) {
    const api::PodCondition* old_condition = FindCondition(before, condition.type);
    Fields element =
        old_condition == nullptr ? ConditionFields(condition) : DiffCondition(*old_condition, condition);
    if (!element.empty()) diff.elements.push_back(std::move(element));
  }
  std::vector<std::string_view> deleted;
  for (const api::PodCondition& condition : before) {
    if (FindCondition(after, condition.type) == nullptr) deleted.push_back(condition.type);
  }
  std::sort(deleted.begin(), deleted.end());
  for (const std::string_view type : deleted) {
    diff.elements.push_back({{"$patch", std::string("delete")}, {kMergeKey, std::string(type)}});
  }
  diff.set_element_order = !diff.elements.empty() || !SameTypeOrder(before, after);
  return diff;
}

}  // namespace

bool UpdatePodCondition(api::PodStatus& status, api::PodCondition condition, api::Time now) {
  condition.last_transition_time = now;
  for (api::PodCondition& current : status.conditions) {
    if (current.type != condition.type) continue;
    if (condition.status == current.status) condition.last_transition_time = current.last_transition_time;
    const bool equal = condition.status == current.status && condition.reason == current.reason &&
                       condition.message == current.message &&
                       condition.last_probe_time == current.last_probe_time &&
                       condition.last_transition_time == current.last_transition_time;
    current = std::move(condition);
    return !equal;
  }
  status.conditions.push_back(std::move(condition));
  return true;
}

std::string PodStatusPatch(const api::PodStatus& old_status, const api::PodStatus& new_status) {
  const ConditionsDiff conditions = DiffConditions(old_status.conditions, new_status.conditions);
  const bool nominated_differs = old_status.nominated_node_name != new_status.nominated_node_name;
  if (conditions.empty() && !nominated_differs) return "{}";

  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  writer.StartObject();
  String(writer, "status");
  writer.StartObject();
  if (conditions.set_element_order) {
    String(writer, "$setElementOrder/conditions");
    writer.StartArray();
    for (const api::PodCondition& condition : new_status.conditions) {
      WriteFields(writer, {{kMergeKey, condition.type}});
    }
    writer.EndArray();
  }
  if (conditions.null_list) {
    String(writer, "conditions");
    writer.Null();
  } else if (!conditions.elements.empty()) {
    String(writer, "conditions");
    writer.StartArray();
    for (const Fields& element : conditions.elements) WriteFields(writer, element);
    writer.EndArray();
  }
  if (nominated_differs) {
    String(writer, "nominatedNodeName");
    if (new_status.nominated_node_name.empty()) {
      writer.Null();
    } else {
      String(writer, new_status.nominated_node_name);
    }
  }
  writer.EndObject();
  writer.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace ksched::scheduler
