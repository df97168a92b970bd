// SecureServer: kube-scheduler's HTTPS endpoint (default 0.0.0.0:10259): HTTP/1.1 with keep-alive
// over TLS (1.2+), every request through delegated authentication and authorization
// (handler_chain.h), then routed to the health families or to a handler registered by path.
//
//   SecureServer server(serving_options, auth_options);
//   server.readyz().AddCheck("shutdown", [&] { ... });
//   server.AddHandler("/metrics", [&](const ServingRequest& r) { ... });
//   if (absl::Status s = server.Start(); !s.ok()) { /* exit 1 with s.message() */ }
//   ... server.port() ...
//   server.Stop();
//
// Health families: /healthz, /livez, /readyz with named checks (health_checks.h). Upstream
// kube-scheduler registers: healthz = [leaderElection] with leader election, else [ping];
// livez = [ping]; readyz = [leaderElection], shutdown, sched-handler-sync. A family left empty
// serves "ping".
//
// Client certificates: with a client CA (DelegatingAuthOptions::client_certificates or its source)
// the handshake asks for a certificate without requiring or verifying one (Go's
// tls.RequestClientCert, the CA subjects as hints); what the client sent is verified per request by
// the authenticator (client_certificate_authenticator.h). Without one, none is asked for.
//
// Threads: io_threads (2) run the sockets (accept, TLS, HTTP parsing), each connection on a strand
// of its own; authentication, authorization and handlers run on two pools (SecureServingOptions):
// requests decided without a TokenReview or SubjectAccessReview on the local lane, the others on
// the review lane, bounded, so that probes answer at once under a flood of anonymous or
// unknown-token requests. Handlers and checks must be thread-safe and return promptly.
//
// Errors: Start returns kInvalidArgument for bad options (certificate files: naming the file; bind
// address; always-allow paths; the client CA source's errors), kFailedPrecondition when the port
// cannot be bound ("failed to create listener: ...") or cert_dir cannot be written. Nothing is left running after a failed Start.
//
// Thread-safety: AddHandler and the health registries may be used before and after Start, from
// any thread. Start and Stop must not race each other. Stop closes the listener and every
// connection, waits for running handlers, and is idempotent; the destructor calls it. Stop must not
// be called from a handler or check (it waits for them). Start may be called once.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "serving/delegating_auth_options.h"
#include "serving/health_checks.h"
#include "serving/http_exchange.h"
#include "serving/router.h"
#include "serving/secure_serving_options.h"

namespace ksched::serving {

class SecureServer {
 public:
  SecureServer(SecureServingOptions serving, DelegatingAuthOptions auth);
  ~SecureServer();
  SecureServer(const SecureServer&) = delete;
  SecureServer& operator=(const SecureServer&) = delete;

  // Serves `path` exactly (see Router::Handle: aborts on a taken or health path).
  // `listed`: whether /statusz names it (Go's Handle / UnlistedHandle).
  void AddHandler(std::string path, Handler handler, bool listed = true);
  // Serves every path under `prefix` (ending in '/') no exact handler takes (Router::HandlePrefix).
  void AddPrefixHandler(std::string prefix, Handler handler, bool listed = true);
  // Every path served so far (Router::ListedPaths), for /statusz.
  std::vector<std::string> ListedPaths() const;
  HealthChecks& healthz() { return router_.healthz(); }
  HealthChecks& livez() { return router_.livez(); }
  HealthChecks& readyz() { return router_.readyz(); }

  absl::Status Start();
  // The bound port once started (the ephemeral one for port 0); 0 before Start or after a failure.
  int port() const;
  void Stop();

  class Impl;  // the Beast/Asio part, secure_server.cc

 private:
  const SecureServingOptions serving_;
  const DelegatingAuthOptions auth_;
  Router router_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ksched::serving
