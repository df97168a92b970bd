#include "scheduler/prometheus_response.h"

#include <cmath>
#include <cstdlib>
#include <set>

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include "api/outside_json.h"

namespace ksched::scheduler {
namespace {

std::string_view StringOf(const rapidjson::Value& value) {
  return std::string_view(value.GetString(), value.GetStringLength());
}

const rapidjson::Value* Member(const rapidjson::Value& object, const char* name) {
  if (!object.IsObject()) return nullptr;
  auto it = object.FindMember(name);
  return it == object.MemberEnd() ? nullptr : &it->value;
}

}  // namespace

absl::StatusOr<InstantVector> ParseInstantVector(std::string_view body, std::string_view node_label) {
  rapidjson::Document doc;
  if (absl::Status parsed = api::ParseOutsideJson(body, doc); !parsed.ok()) {
    return absl::InvalidArgumentError("answer is not JSON: " + std::string(parsed.message()));
  }
  const rapidjson::Value* status = Member(doc, "status");
  if (status == nullptr || !status->IsString()) {
    return absl::InvalidArgumentError("answer has no \"status\"");
  }
  if (StringOf(*status) != "success") {
    std::string message = "Prometheus answered status \"" + std::string(StringOf(*status)) + "\"";
    const rapidjson::Value* type = Member(doc, "errorType");
    const rapidjson::Value* error = Member(doc, "error");
    if (type != nullptr && type->IsString()) message += " (" + std::string(StringOf(*type)) + ")";
    if (error != nullptr && error->IsString()) message += ": " + std::string(StringOf(*error));
    return absl::FailedPreconditionError(message);
  }
  const rapidjson::Value* data = Member(doc, "data");
  const rapidjson::Value* type = data == nullptr ? nullptr : Member(*data, "resultType");
  const rapidjson::Value* result = data == nullptr ? nullptr : Member(*data, "result");
  if (type == nullptr || !type->IsString() || result == nullptr) {
    return absl::InvalidArgumentError("answer has no data.resultType or data.result");
  }
  if (StringOf(*type) != "vector") {
    return absl::FailedPreconditionError("the query gives a " + std::string(StringOf(*type)) +
                                         ", not an instant vector with one series per node");
  }
  if (!result->IsArray()) return absl::InvalidArgumentError("data.result is not an array");

  InstantVector out;
  std::set<std::string, std::less<>> seen;
  const std::string label(node_label);
  auto problem = [&out](std::string text) {
    if (out.first_problem.empty()) out.first_problem = std::move(text);
  };
  for (const rapidjson::Value& series : result->GetArray()) {
    const rapidjson::Value* metric = Member(series, "metric");
    const rapidjson::Value* value = Member(series, "value");
    if (metric == nullptr || value == nullptr || !value->IsArray() || value->Size() != 2 ||
        !(*value)[0].IsNumber()) {
      return absl::InvalidArgumentError("a series of data.result has no metric or [time, value]");
    }
    const rapidjson::Value* node = Member(*metric, label.c_str());
    if (node == nullptr || !node->IsString() || node->GetStringLength() == 0) {
      ++out.unlabelled_series;
      problem("a series without label " + label);
      continue;
    }
    const std::string_view name = StringOf(*node);
    const rapidjson::Value& text = (*value)[1];
    double number = std::nan("");
    bool numeric = false;
    if (text.IsString()) {
      const std::string copy(StringOf(text));
      char* end = nullptr;
      number = std::strtod(copy.c_str(), &end);
      numeric = !copy.empty() && end == copy.c_str() + copy.size();
    }
    if (!numeric || !std::isfinite(number)) {
      ++out.bad_samples;
      problem("node " + std::string(name) + ": value " +
              (text.IsString() ? "\"" + std::string(StringOf(text)) + "\"" : std::string("not a string")));
      continue;
    }
    if (!seen.emplace(name).second) {
      ++out.duplicate_nodes;
      problem("node " + std::string(name) + " in more than one series");
      continue;
    }
    out.values.push_back(NodeValue{std::string(name), number, (*value)[0].GetDouble()});
  }
  return out;
}

std::string FormUrlEncode(std::string_view value) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(value.size() * 3);
  for (const char c : value) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z') || (byte >= '0' && byte <= '9') ||
        byte == '-' || byte == '_' || byte == '.' || byte == '~') {
      out += c;
    } else {
      out += '%';
      out += kHex[byte >> 4];
      out += kHex[byte & 0xF];
    }
  }
  return out;
}

}  // namespace ksched::scheduler
