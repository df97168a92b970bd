#include "serving/handler_chain.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include <utility>
#include <vector>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "serving/query_string.h"

namespace ksched::serving {
namespace {

// Go's encoding/json string escaping (with HTML escaping on, the default).
void AppendJsonString(std::string& out, std::string_view text) {
  out += '"';
  for (std::size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '<': out += "\\u003c"; break;
      case '>': out += "\\u003e"; break;
      case '&': out += "\\u0026"; break;
      default:
        if (c < 0x20) {
          out += fmt::format("\\u{:04x}", c);
        } else if (c == 0xE2 && i + 2 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0x80 &&
                   (static_cast<unsigned char>(text[i + 2]) == 0xA8 ||
                    static_cast<unsigned char>(text[i + 2]) == 0xA9)) {
          out += static_cast<unsigned char>(text[i + 2]) == 0xA8 ? "\\u2028" : "\\u2029";
          i += 2;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
}

// Go's %q for the ASCII cases that occur in user names and paths.
std::string GoQuote(std::string_view text) {
  std::string out = "\"";
  for (const char ch : text) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c == 0x7f) {
      out += fmt::format("\\x{:02x}", c);
    } else {
      out += ch;
    }
  }
  out += '"';
  return out;
}

// responsewriters' sanitizer: the messages may echo user input into a browser.
std::string Sanitize(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else out += c;
  }
  return out;
}

ServingResponse JsonStatus(int code, std::string body, bool nosniff) {
  ServingResponse response;
  response.status = code;
  response.content_type = "application/json";
  response.body = std::move(body);
  if (nosniff) response.headers.emplace_back("X-Content-Type-Options", "nosniff");
  return response;
}

std::string LowerCase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

void AddCacheControl(ServingResponse& response) {
  for (const auto& [name, value] : response.headers) {
    std::string lower = LowerCase(name);
    if (lower == "cache-control") return;
  }
  response.headers.emplace_back("Cache-Control", "no-cache, private");
}

}  // namespace

std::string StatusJson(std::string_view message, std::string_view reason, int code, bool details_empty_object,
                       bool pretty) {
  std::vector<std::pair<std::string, std::string>> fields = {
      {"kind", "\"Status\""}, {"apiVersion", "\"v1\""}, {"metadata", "{}"}, {"status", "\"Failure\""}};
  std::string quoted;
  AppendJsonString(quoted, message);
  fields.emplace_back("message", quoted);
  quoted.clear();
  AppendJsonString(quoted, reason);
  fields.emplace_back("reason", quoted);
  if (details_empty_object) fields.emplace_back("details", "{}");
  fields.emplace_back("code", std::to_string(code));

  std::string out = "{";
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) out += ',';
    if (pretty) out += "\n  ";
    out += '"';
    out += fields[i].first;
    out += pretty ? "\": " : "\":";
    out += fields[i].second;
  }
  out += pretty ? "\n}" : "}\n";  // MarshalIndent has no trailing newline; Encoder does
  return out;
}

bool IsPrettyPrint(const ServingRequest& request) {
  if (request.query.find("pretty") != std::string::npos) {
    const std::vector<std::string> values = QueryValues(request.query, "pretty");
    if (!values.empty() && !values.front().empty()) {
      // strconv.ParseBool; anything else is false
      static const std::vector<std::string> kTrue = {"1", "t", "T", "TRUE", "true", "True"};
      return std::find(kTrue.begin(), kTrue.end(), values.front()) != kTrue.end();
    }
  }
  const std::string& agent = request.user_agent;
  return agent.rfind("curl", 0) == 0 || agent.rfind("Wget", 0) == 0 || agent.rfind("Mozilla/5.0", 0) == 0;
}

HandlerChain::HandlerChain(RequestAuthenticator& authenticator, RequestAuthorizer& authorizer,
                           const Router& router, ChainObservers observers)
    : authenticator_(authenticator), authorizer_(authorizer), router_(router), observers_(std::move(observers)) {}

ServingResponse HandlerChain::Handle(const ServingRequest& request, Pending pending) const {
  return *Decide(request, pending, true);
}

std::variant<ServingResponse, HandlerChain::Pending> HandlerChain::TryHandleLocally(
    const ServingRequest& request) const {
  Pending pending;
  if (std::optional<ServingResponse> response = Decide(request, pending, false)) return *std::move(response);
  return pending;
}

std::optional<ServingResponse> HandlerChain::Decide(const ServingRequest& request, Pending& pending,
                                                    bool may_review) const {
  ServingResponse response;
  if (!pending.user) {
    const auto authn_start = std::chrono::steady_clock::now();
    std::optional<absl::StatusOr<UserInfo>> user =
        may_review ? std::optional<absl::StatusOr<UserInfo>>(
                         authenticator_.Authenticate(request.authorization, request.peer_certificates))
                   : authenticator_.TryAuthenticateLocally(request.authorization, request.peer_certificates);
    if (!user) return std::nullopt;  // a TokenReview is needed
    if (observers_.authentication) {
      observers_.authentication(user->ok() ? &(*user)->name : nullptr, std::chrono::steady_clock::now() - authn_start);
    }
    if (!user->ok()) {
      SPDLOG_ERROR("\"Unable to authenticate the request\" remote=\"{}\" err=\"{}\"", request.remote,
                   std::string(user->status().message()));
      response = JsonStatus(401, StatusJson("Unauthorized", "Unauthorized", 401, false, IsPrettyPrint(request)), false);
      AddCacheControl(response);
      return response;
    }
    pending.user = **std::move(user);
  }
  const UserInfo& user = *pending.user;
  const std::string verb = LowerCase(request.method);
  const auto authz_start = std::chrono::steady_clock::now();
  std::optional<AuthorizationResult> result =
      may_review ? std::optional<AuthorizationResult>(authorizer_.Authorize(user, verb, request.path))
                 : authorizer_.TryAuthorizeLocally(user, verb, request.path);
  if (!result) return std::nullopt;  // a SubjectAccessReview is needed
  if (observers_.authorization) observers_.authorization(*result, std::chrono::steady_clock::now() - authz_start);
  if (result->decision == AuthorizationDecision::kAllow) {
    response = router_.Serve(request);
  } else if (!result->error.ok()) {
    response = ServingResponse::Error(
        500, Sanitize(fmt::format("Internal Server Error: {}: {}", GoQuote(request.target),
                                  std::string(result->error.message()))));
  } else {
    SPDLOG_TRACE("Forbidden URI={} reason={}", request.target, result->reason);
    std::string message = "forbidden: " + Sanitize(fmt::format("User {} cannot {} path {}", GoQuote(user.name),
                                                               verb, GoQuote(request.path)));
    if (!result->reason.empty()) message += ": " + result->reason;
    response = JsonStatus(403, StatusJson(message, "Forbidden", 403, true, IsPrettyPrint(request)), true);
  }
  AddCacheControl(response);
  return response;
}

}  // namespace ksched::serving
