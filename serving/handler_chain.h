// HandlerChain: what every request goes through, as kube-scheduler's buildHandlerChain:
// authentication -> authorization -> the router, with upstream's refusals:
//
//   authentication failed  401, application/json metav1.Status
//                          {"kind":"Status",...,"message":"Unauthorized","reason":"Unauthorized","code":401}
//                          (upstream sends no X-Content-Type-Options with it; 403 has one)
//   authorization: no Allow, no error
//                          403, application/json metav1.Status, message
//                          forbidden: User "<name>" cannot <verb> path "<path>"[: <reason>]
//   authorization error    500, text/plain "Internal Server Error: \"<request URI>\": <error>"
//   and on every response "Cache-Control: no-cache, private" unless the handler set one
//   (WithCacheControl). The verb is the lowercased HTTP method (non-resource request). The JSON
//   bodies are indented when upstream's negotiation would pretty-print: ?pretty=<true>, or a
//   User-Agent starting with curl, Wget or Mozilla/5.0.
//
// Lanes: TryHandleLocally answers what needs no TokenReview or SubjectAccessReview (probes, cached
// tokens and decisions, client certificates) and hands back the rest, with its authentication
// when that was already decided, for Handle on a thread that may wait for the reviews. The server
// runs the two on separate workers so that requests waiting for reviews never delay the others.
//
// ChainObservers see each request's authentication (the user, or its failure) and authorization
// (the result), with the time each took.
//
// Thread-safety: Handle may be called concurrently; the parts it holds must allow that (they do),
// and so must the observers.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "serving/http_exchange.h"
#include "serving/request_authenticator.h"
#include "serving/request_authorizer.h"
#include "serving/router.h"

namespace ksched::serving {

// Told about every request's authentication and authorization, for the apiserver filters'
// metrics (authentication_attempts, authorization_attempts_total, ...). Either may be empty.
struct ChainObservers {
  // `user`: the authenticated user's name, nullptr when authentication failed.
  std::function<void(const std::string* user, std::chrono::steady_clock::duration elapsed)> authentication;
  std::function<void(const AuthorizationResult& result, std::chrono::steady_clock::duration elapsed)> authorization;
};

class HandlerChain {
 public:
  // All three must outlive the chain.
  HandlerChain(RequestAuthenticator& authenticator, RequestAuthorizer& authorizer, const Router& router,
               ChainObservers observers = {});

  // What TryHandleLocally leaves to Handle: the user, when authentication was decided locally (so
  // that it is neither repeated nor observed twice).
  struct Pending {
    std::optional<UserInfo> user;
  };

  // The whole chain, waiting for reviews where needed; resumes from `pending`.
  ServingResponse Handle(const ServingRequest& request, Pending pending = {}) const;
  // The response when no review is needed; otherwise what Handle resumes from.
  std::variant<ServingResponse, Pending> TryHandleLocally(const ServingRequest& request) const;

 private:
  RequestAuthenticator& authenticator_;
  RequestAuthorizer& authorizer_;
  const Router& router_;
  // nullopt only when `may_review` is false and a review is needed (`pending` then says how far it got).
  std::optional<ServingResponse> Decide(const ServingRequest& request, Pending& pending, bool may_review) const;

  const ChainObservers observers_;
};

// The metav1.Status JSON of an error response, as the apiserver's JSON serializer writes it
// (HTML-safe escaping and a trailing newline; `pretty`: indented by two spaces, no trailing newline,
// as json.MarshalIndent).
// `details_empty_object`: write "details":{} (Forbidden has empty StatusDetails, Unauthorized none).
std::string StatusJson(std::string_view message, std::string_view reason, int code, bool details_empty_object,
                       bool pretty = false);

// Whether upstream would pretty-print a JSON response to this request (negotiation.isPrettyPrint).
bool IsPrettyPrint(const ServingRequest& request);

}  // namespace ksched::serving
