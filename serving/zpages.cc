#include "serving/zpages.h"

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <optional>
#include <mutex>
#include <random>
#include <set>
#include <utility>

#include "serving/query_string.h"
#include "serving/zpage_encoding.h"

namespace ksched::serving {
namespace {

constexpr char kGroup[] = "config.k8s.io";
constexpr const char* kDelimiters[] = {":", ": ", "=", " "};

std::string_view TrimSpaces(std::string_view s) {  // strings.TrimFunc(s, ' ')
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

// goautoneg's nextSplitElement.
std::pair<std::string_view, std::string_view> Split(std::string_view s, char sep) {
  const std::size_t at = s.find(sep);
  if (at == std::string_view::npos) return {s, {}};
  return {s.substr(0, at), s.substr(at + 1)};
}

struct AcceptClause {
  std::string type;
  std::string subtype;
  double q = 1.0;
  std::map<std::string, std::string> params;  // a Go map: a repeated key keeps its last value
};

// goautoneg.ParseAccept: clauses by q (higher first), then concrete types before wildcards.
std::vector<AcceptClause> ParseAccept(std::string_view header) {
  std::vector<AcceptClause> clauses;
  std::string_view remaining = header;
  while (!remaining.empty()) {
    auto [raw_part, rest] = Split(remaining, ',');
    remaining = rest;
    const std::string_view part = TrimSpaces(raw_part);
    AcceptClause clause;
    auto [media, params] = Split(part, ';');
    auto [type, sub_rest] = Split(media, '/');
    clause.type = std::string(TrimSpaces(type));
    if (sub_rest.empty()) {
      if (clause.type != "*") continue;
      clause.subtype = "*";
    } else {
      auto [subtype, extra] = Split(sub_rest, '/');
      if (!extra.empty()) continue;
      clause.subtype = std::string(TrimSpaces(subtype));
    }
    while (!params.empty()) {
      auto [param, more] = Split(params, ';');
      params = more;
      auto [key, value_rest] = Split(param, '=');
      if (value_rest.empty()) continue;
      auto [value, extra] = Split(value_rest, '=');
      if (!extra.empty()) continue;
      const std::string token(TrimSpaces(key));
      if (token == "q") {
        // strconv.ParseFloat(v, 32): an invalid number reads as 0.
        char* end = nullptr;
        const std::string text(value);
        const double q = std::strtod(text.c_str(), &end);
        clause.q = (end != nullptr && *end == '\0' && !text.empty()) ? q : 0;
      } else {
        clause.params[token] = std::string(TrimSpaces(value));
      }
    }
    clauses.push_back(std::move(clause));
  }
  std::stable_sort(clauses.begin(), clauses.end(), [](const AcceptClause& a, const AcceptClause& b) {
    if (a.q > b.q) return true;
    if (a.type != "*" && b.type == "*") return true;
    if (a.subtype != "*" && b.subtype == "*") return true;
    return false;
  });
  return clauses;
}

struct Serializer {
  const char* type;
  const char* subtype;
  bool streams;  // has a stream serializer (JSON)
};
constexpr Serializer kSerializers[] = {{"application", "json", true}, {"application", "yaml", false}, {"text", "plain", false}};

struct Negotiated {
  const Serializer* serializer = nullptr;
  bool has_convert = false;
  std::string group, version, kind;
  bool pretty = false;
};

// NegotiateMediaTypeOptions. `kind` empty: DefaultEndpointRestrictions (no conversion allowed);
// else the z-page's restrictions (text/plain without conversion, structured only to its kinds).
std::optional<Negotiated> Negotiate(std::string_view header, std::string_view kind) {
  for (const AcceptClause& clause : ParseAccept(header)) {
    for (const Serializer& serializer : kSerializers) {
      const bool matches = (clause.type == serializer.type && clause.subtype == serializer.subtype) ||
                           (clause.type == serializer.type && clause.subtype == "*") ||
                           (clause.type == "*" && clause.subtype == "*");
      if (!matches) continue;
      Negotiated n;
      n.serializer = &serializer;
      bool ok = true;
      for (const auto& [key, value] : clause.params) {
        if (key == "as" || key == "g" || key == "v") {
          n.has_convert = true;
          (key == "as" ? n.kind : key == "g" ? n.group : n.version) = value;
        } else if (key == "stream") {
          const bool allowed = serializer.streams && kind.empty() && value == "watch";
          if (!value.empty() && !allowed) ok = false;
        } else if (key == "sv") {
          if (!value.empty()) ok = false;
        } else if (key == "pretty") {
          n.pretty = value == "1";
        }
      }
      if (!ok) continue;
      const bool text = std::string_view(serializer.type) == "text";
      bool allowed;
      if (kind.empty() || text) {
        allowed = !n.has_convert;
      } else {
        allowed = n.has_convert && n.group == kGroup && n.kind == kind &&
                  (n.version == "v1beta1" || n.version == "v1alpha1");
      }
      if (allowed) return n;
    }
  }
  return std::nullopt;
}

// isPrettyPrint: ?pretty=<true>, else a curl, Wget or browser User-Agent.
bool PrettyPrint(const ServingRequest& request) {
  if (request.query.find("pretty") != std::string::npos) {
    const std::vector<std::string> values = QueryValues(request.query, "pretty");
    if (!values.empty() && !values.front().empty()) {
      const std::string& v = values.front();
      return v == "1" || v == "t" || v == "T" || v == "true" || v == "TRUE" || v == "True";
    }
  }
  const std::string& agent = request.user_agent;
  return agent.starts_with("curl") || agent.starts_with("Wget") || agent.starts_with("Mozilla/5.0");
}

ZValue TypedObject(std::string_view kind, std::string_view version, const std::string& component) {
  ZValue object = ZValue::Object();
  object.Add("kind", ZValue::String(std::string(kind)));
  object.Add("apiVersion", ZValue::String(std::string(kGroup) + "/" + std::string(version)));
  object.Add("metadata", ZValue::Object().Add("name", ZValue::String(component)));
  return object;
}

ServingResponse Structured(const ZpageNegotiation& negotiation, std::string_view kind, const ZValue& document) {
  ServingResponse response;
  const bool json = negotiation.format == ZpageNegotiation::Format::kJson;
  response.content_type = std::string(json ? "application/json" : "application/yaml") + ";g=" + kGroup +
                          ";v=" + negotiation.version + ";as=" + std::string(kind);
  if (negotiation.version == "v1alpha1") {
    std::string lower(kind);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    response.headers.emplace_back("Warning", "299 - \"This version of the " + lower +
                                                 " endpoint is deprecated. Please use a newer version.\"");
  }
  response.body = json ? (negotiation.pretty ? EncodeJsonPretty(document) : EncodeJson(document)) : EncodeYaml(document);
  return response;
}

const char* RandomDelimiter() {
  static thread_local std::mt19937 generator{std::random_device{}()};
  std::uniform_int_distribution<std::size_t> pick(0, std::size(kDelimiters) - 1);
  return kDelimiters[pick(generator)];
}

std::string Header(const std::string& component, std::string_view page) {
  return "\n" + component + " " + std::string(page) +
         "\nWarning: This endpoint is not meant to be machine parseable, has no formatting compatibility "
         "guarantees and is for debugging purposes only.\n";
}

// Go's html.EscapeString.
std::string HtmlEscape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '\'': out += "&#39;"; break;
      case '"': out += "&#34;"; break;
      default: out += c;
    }
  }
  return out;
}

// metav1.Time's JSON form (RFC 3339, UTC).
std::string Rfc3339(std::int64_t seconds) {
  const std::time_t t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof(buffer), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

// time.UnixDate ("Mon Jan _2 15:04:05 MST 2006") in the local zone.
std::string UnixDate(std::int64_t seconds) {
  const std::time_t t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  localtime_r(&t, &tm);
  char buffer[64];
  std::strftime(buffer, sizeof(buffer), "%a %b %e %H:%M:%S %Z %Y", &tm);
  return buffer;
}

std::string Uptime(std::int64_t up) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%lld hr %02lld min %02lld sec", static_cast<long long>(up / 3600),
                static_cast<long long>((up / 60) % 60), static_cast<long long>(up % 60));
  return buffer;
}

}  // namespace

ZpageNegotiation NegotiateZpage(const ServingRequest& request, std::string_view kind) {
  ZpageNegotiation out;
  if (TrimSpaces(request.accept).empty()) return out;  // strings.TrimSpace: the header's blanks
  std::optional<Negotiated> n = Negotiate(request.accept, kind);
  if (!n) {
    out.format = ZpageNegotiation::Format::kNotAcceptable;
    return out;
  }
  const std::string_view subtype = n->serializer->subtype;
  if (subtype == "plain") return out;
  out.format = subtype == "json" ? ZpageNegotiation::Format::kJson : ZpageNegotiation::Format::kYaml;
  out.version = n->version;
  out.pretty = n->pretty || PrettyPrint(request);
  return out;
}

ServingResponse ZpageNotAcceptable(const ServingRequest& request) {
  ZValue status = ZValue::Object();
  status.Add("kind", ZValue::String("Status"));
  status.Add("apiVersion", ZValue::String("v1"));
  status.Add("metadata", ZValue::Object());
  status.Add("status", ZValue::String("Failure"));
  status.Add("message", ZValue::String("only the following media types are accepted: application/json, "
                                       "application/yaml, text/plain"));
  status.Add("reason", ZValue::String("NotAcceptable"));
  status.Add("code", ZValue::Int(406));
  ServingResponse response;
  response.status = 406;
  std::optional<Negotiated> n = Negotiate(request.accept, "");
  if (!n || std::string_view(n->serializer->subtype) == "plain") {
    // WriteRawJSON (text/plain cannot carry a Status: its serializer has no Status form).
    response.content_type = "application/json";
    response.body = EncodeJsonPretty(status);
    return response;
  }
  if (std::string_view(n->serializer->subtype) == "json") {
    response.content_type = "application/json";
    response.body = (n->pretty || PrettyPrint(request)) ? EncodeJsonPretty(status) : EncodeJson(status);
  } else {
    response.content_type = "application/yaml";
    response.body = EncodeYaml(status);
  }
  return response;
}

Handler FlagzHandler(std::string component, std::map<std::string, std::string> flags) {
  struct State {
    std::string component;
    std::map<std::string, std::string> flags;
    std::once_flag text_once;
    std::string text;  // the first text answer, kept (upstream's cachedPlainTextResponse)
  };
  auto state = std::make_shared<State>();
  state->component = std::move(component);
  state->flags = std::move(flags);
  return [state](const ServingRequest& request) {
    const ZpageNegotiation negotiation = NegotiateZpage(request, "Flagz");
    switch (negotiation.format) {
      case ZpageNegotiation::Format::kNotAcceptable:
        return ZpageNotAcceptable(request);
      case ZpageNegotiation::Format::kText: {
        std::call_once(state->text_once, [&] {
          const char* separator = RandomDelimiter();
          std::string text = Header(state->component, "flagz");
          for (const auto& [name, value] : state->flags) text += name + separator + value + "\n";
          state->text = std::move(text);
        });
        ServingResponse response;
        response.content_type = kTextPlain;
        response.body = state->text;
        return response;
      }
      case ZpageNegotiation::Format::kJson:
      case ZpageNegotiation::Format::kYaml:
        break;
    }
    ZValue document = TypedObject("Flagz", negotiation.version, state->component);
    if (!state->flags.empty()) {  // `json:"flags,omitempty"`
      ZValue values = ZValue::Object();
      for (const auto& [name, value] : state->flags) values.Add(name, ZValue::String(value));
      document.Add("flags", std::move(values));
    }
    return Structured(negotiation, "Flagz", document);
  };
}

std::vector<std::string> AggregateZpagePaths(const std::vector<std::string>& paths) {
  static const std::set<std::string, std::less<>> kNonDebugging = {"/apis", "/api", "/openid", "/openapi",
                                                                     "/.well-known"};
  std::set<std::string> folders;
  for (const std::string& path : paths) {
    // strings.Split(path, "/"): parts[1] is the first segment.
    if (path.empty()) continue;
    const std::size_t first = path.find('/');
    if (first == std::string::npos) continue;
    const std::size_t second = path.find('/', first + 1);
    const std::string segment = path.substr(first + 1, second == std::string::npos ? std::string::npos : second - first - 1);
    if (segment.empty()) continue;
    const std::string folder = "/" + segment;
    if (!kNonDebugging.contains(folder)) folders.insert(folder);
  }
  return {folders.begin(), folders.end()};
}

Handler StatuszHandler(std::string component, StatuszInfo info, std::function<std::int64_t()> now) {
  if (!now) {
    now = [] { return static_cast<std::int64_t>(std::time(nullptr)); };
  }
  std::vector<std::string> paths = AggregateZpagePaths(info.listed_paths);
  return [component = std::move(component), info = std::move(info), paths = std::move(paths),
          now = std::move(now)](const ServingRequest& request) {
    const std::int64_t uptime = std::max<std::int64_t>(0, now() - info.start_time_seconds);
    const ZpageNegotiation negotiation = NegotiateZpage(request, "Statusz");
    switch (negotiation.format) {
      case ZpageNegotiation::Format::kNotAcceptable:
        return ZpageNotAcceptable(request);
      case ZpageNegotiation::Format::kText: {
        const std::string delim = HtmlEscape(RandomDelimiter());
        std::string emulation;
        if (!info.emulation_version.empty()) {
          emulation = "Emulation version" + delim + " " + HtmlEscape(info.emulation_version);
        }
        std::string joined;
        for (const std::string& path : paths) joined += (joined.empty() ? "" : " ") + path;
        if (!joined.empty()) joined = "Paths" + delim + " " + HtmlEscape(joined);
        ServingResponse response;
        response.content_type = kTextPlain;
        response.body = Header(component, "statusz") + "\nStarted" + delim + " " +
                        HtmlEscape(UnixDate(info.start_time_seconds)) + "\nUp" + delim + " " +
                        HtmlEscape(Uptime(uptime)) + "\nGo version" + delim + " " + HtmlEscape(info.go_version) +
                        "\nBinary version" + delim + " " + HtmlEscape(info.binary_version) + "\n" + emulation +
                        "\n" + joined + "\n";
        return response;
      }
      case ZpageNegotiation::Format::kJson:
      case ZpageNegotiation::Format::kYaml:
        break;
    }
    ZValue document = TypedObject("Statusz", negotiation.version, component);
    document.Add("startTime", ZValue::String(Rfc3339(info.start_time_seconds)));
    document.Add("uptimeSeconds", ZValue::Int(uptime));
    document.Add("goVersion", ZValue::String(info.go_version));
    document.Add("binaryVersion", ZValue::String(info.binary_version));
    if (!info.emulation_version.empty()) document.Add("emulationVersion", ZValue::String(info.emulation_version));
    document.Add("paths", paths.empty() ? ZValue::Null() : ZValue::Strings(paths));
    return Structured(negotiation, "Statusz", document);
  };
}

}  // namespace ksched::serving
