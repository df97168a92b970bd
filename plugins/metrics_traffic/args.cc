#include "plugins/metrics_traffic/args.h"

#include <cmath>
#include <cstdlib>
#include <string>

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include "api/outside_json.h"

namespace ksched::plugins::metrics_traffic {
namespace {

using std::chrono::milliseconds;

absl::Status FieldError(std::string_view plugin, std::string_view field, std::string_view what) {
  std::string message(plugin);
  message += ": args.";
  message += field;
  message += ": ";
  message += what;
  return absl::InvalidArgumentError(message);
}

// Label names and device names go into PromQL: keep them to characters that need no quoting.
bool IsLabelName(std::string_view name) {
  if (name.empty()) return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    const bool digit = c >= '0' && c <= '9';
    if (!letter && !(digit && i > 0)) return false;
  }
  return true;
}

bool IsDeviceName(std::string_view name) {
  for (const char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-' || c == '.' || c == ':' || c == '/' || c == '@';
    if (!ok) return false;
  }
  return true;
}

}  // namespace

absl::StatusOr<milliseconds> ParseDuration(std::string_view text) {
  if (text.empty()) return absl::InvalidArgumentError("empty duration");
  double total_ms = 0;
  std::size_t i = 0;
  bool any = false;
  while (i < text.size()) {
    std::size_t start = i;
    while (i < text.size() && ((text[i] >= '0' && text[i] <= '9') || text[i] == '.')) ++i;
    if (i == start) return absl::InvalidArgumentError("want a number before the unit");
    const std::string digits(text.substr(start, i - start));
    char* end = nullptr;
    const double number = std::strtod(digits.c_str(), &end);
    if (end != digits.c_str() + digits.size()) return absl::InvalidArgumentError("bad number");
    start = i;
    while (i < text.size() && ((text[i] >= 'a' && text[i] <= 'z') || text[i] == 'u')) ++i;
    const std::string_view unit = text.substr(start, i - start);
    double scale = 0;
    if (unit == "ms") {
      scale = 1;
    } else if (unit == "s" || (unit.empty() && !any && i == text.size())) {
      scale = 1000;  // a bare number is seconds
    } else if (unit == "m") {
      scale = 60'000;
    } else if (unit == "h") {
      scale = 3'600'000;
    } else {
      return absl::InvalidArgumentError("unknown unit \"" + std::string(unit) +
                                        "\" (want ms, s, m or h)");
    }
    total_ms += number * scale;
    any = true;
  }
  if (!std::isfinite(total_ms) || total_ms > 1e12) return absl::InvalidArgumentError("too large");
  return milliseconds(static_cast<std::int64_t>(std::llround(total_ms)));
}

absl::StatusOr<MetricsTrafficArgs> ParseMetricsTrafficArgs(std::string_view plugin,
                                                           std::string_view json) {
  MetricsTrafficArgs args;
  rapidjson::Document doc;
  if (!json.empty()) {
    if (absl::Status parsed = api::ParseOutsideJson(json, doc); !parsed.ok()) {
      return absl::InvalidArgumentError(std::string(plugin) + ": args: not JSON: " + std::string(parsed.message()));
    }
    if (!doc.IsObject()) return FieldError(plugin, "", "want an object");
  }
  auto string_field = [&](const rapidjson::Value& value, std::string_view name,
                          std::string& out) -> absl::Status {
    if (!value.IsString()) return FieldError(plugin, name, "Invalid value: want a string");
    out.assign(value.GetString(), value.GetStringLength());
    return absl::OkStatus();
  };
  auto duration_field = [&](const rapidjson::Value& value, std::string_view name,
                            milliseconds& out) -> absl::Status {
    absl::StatusOr<milliseconds> parsed = absl::InvalidArgumentError("want a duration");
    if (value.IsString()) {
      parsed = ParseDuration(std::string_view(value.GetString(), value.GetStringLength()));
    } else if (value.IsNumber() && value.GetDouble() >= 0 && value.GetDouble() < 1e9) {
      parsed = milliseconds(static_cast<std::int64_t>(std::llround(value.GetDouble() * 1000)));
    }
    if (!parsed.ok()) {
      return FieldError(plugin, name,
                        "Invalid value: want a duration such as \"15s\" (" +
                            std::string(parsed.status().message()) + ")");
    }
    out = *parsed;
    return absl::OkStatus();
  };

  if (doc.IsObject()) {
    for (const auto& member : doc.GetObject()) {
      const std::string_view name(member.name.GetString(), member.name.GetStringLength());
      const rapidjson::Value& value = member.value;
      absl::Status status;
      if (name == "ip") {
        status = string_field(value, name, args.ip);
      } else if (name == "devicename") {
        status = string_field(value, name, args.device_name);
      } else if (name == "timerange") {
        if (!value.IsInt64()) {
          status = FieldError(plugin, name, "Invalid value: want an integer number of minutes");
        } else {
          args.timerange_minutes = value.GetInt64();
        }
      } else if (name == "query") {
        status = string_field(value, name, args.query);
      } else if (name == "refreshInterval") {
        status = duration_field(value, name, args.refresh_interval);
      } else if (name == "stalenessLimit") {
        status = duration_field(value, name, args.staleness_limit);
      } else if (name == "nodeLabel") {
        status = string_field(value, name, args.node_label);
      } else if (name == "timeout") {
        status = duration_field(value, name, args.timeout);
      } else if (name == "bearerToken") {
        status = string_field(value, name, args.bearer_token);
      } else if (name == "bearerTokenFile") {
        status = string_field(value, name, args.bearer_token_file);
      } else if (name == "caFile") {
        status = string_field(value, name, args.ca_file);
      } else {
        std::string message(plugin);
        message += ": args: unknown field \"";
        message += name;
        message += "\"";
        return absl::InvalidArgumentError(message);
      }
      if (!status.ok()) return status;
    }
  }

  if (args.ip.empty()) {
    return FieldError(plugin, "ip",
                      "Required value: the Prometheus URL, e.g. \"http://prometheus:9090\"");
  }
  if (args.ip.rfind("http://", 0) != 0 && args.ip.rfind("https://", 0) != 0) {
    return FieldError(plugin, "ip",
                      "Invalid value: \"" + args.ip + "\": want an http:// or https:// URL");
  }
  if (args.timerange_minutes < 0 || args.timerange_minutes > 7 * 24 * 60) {
    return FieldError(plugin, "timerange",
                      "Invalid value: " + std::to_string(args.timerange_minutes) +
                          ": want minutes in [0, 10080] (0: the plugin's default)");
  }
  if (!IsDeviceName(args.device_name)) {
    return FieldError(plugin, "devicename",
                      "Invalid value: \"" + args.device_name +
                          "\": want letters, digits and _ - . : / @ only");
  }
  if (!IsLabelName(args.node_label)) {
    return FieldError(plugin, "nodeLabel",
                      "Invalid value: \"" + args.node_label + "\": want a Prometheus label name");
  }
  if (args.refresh_interval < milliseconds(100)) {
    return FieldError(plugin, "refreshInterval", "Invalid value: must be at least 100ms");
  }
  if (args.staleness_limit < args.refresh_interval) {
    return FieldError(plugin, "stalenessLimit",
                      "Invalid value: must be at least refreshInterval (" +
                          std::to_string(args.refresh_interval.count()) + "ms)");
  }
  if (args.timeout <= milliseconds(0)) {
    return FieldError(plugin, "timeout", "Invalid value: must be positive");
  }
  if (args.ca_file.size() > 0 && args.ip.rfind("https://", 0) != 0) {
    return FieldError(plugin, "caFile", "Invalid value: only meaningful with an https:// ip");
  }
  return args;
}

}  // namespace ksched::plugins::metrics_traffic
