// ServingRequest / ServingResponse: one HTTP exchange of the secure server as plain values, so that
// routing, health checks, authentication and authorization are written and tested without sockets
// (Boost.Beast stays inside secure_server.cc). Handler: what a registered path serves.
//
// Thread-safety: plain value types. A Handler is called from the server's worker threads, possibly
// several at once: it must be thread-safe and return promptly (Stop() waits for it).
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace ksched::serving {

inline constexpr char kTextPlain[] = "text/plain; charset=utf-8";

struct ServingRequest {
  std::string method;         // as sent, upper case: "GET", "DELETE", ...
  std::string target;         // the raw request target as sent, path and query ("RequestURI")
  std::string path;           // percent-decoded path without the query, e.g. "/readyz/shutdown"
  std::string query;          // raw query after '?', without it; empty when none
  std::string authorization;  // the Authorization header; empty when absent
  std::string user_agent;     // the User-Agent header (error bodies are indented for curl, as upstream)
  std::string accept;         // the Accept header; empty when absent (content negotiation, zpages.h)
  std::string remote;         // peer "ip:port", for logs
  std::string body;           // the request body (at most the server's body limit, 1 MiB)
  // The certificates the client sent in the TLS handshake, leaf first (DER); empty when it sent
  // none or the server asked for none (no client CA configured).
  std::vector<std::string> peer_certificates;
};

struct ServingResponse {
  int status = 200;
  std::string content_type = kTextPlain;  // empty: no Content-Type header
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // extra headers, in order

  // Go's http.Error: text/plain, X-Content-Type-Options: nosniff, body + "\n".
  static ServingResponse Error(int status, std::string message);
  // Go's http.NotFound: 404 "404 page not found\n".
  static ServingResponse NotFound();
};

using Handler = std::function<ServingResponse(const ServingRequest&)>;

}  // namespace ksched::serving
