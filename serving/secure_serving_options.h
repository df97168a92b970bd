// SecureServingOptions: where and with which certificate the HTTPS endpoints are served
// (kube-scheduler's --bind-address, --secure-port, --tls-cert-file, --tls-private-key-file,
// --cert-dir, --tls-curve-preferences; apiserver SecureServingOptions).
//
// Plain value type. The scheduler decides whether to serve at all (upstream: --secure-port=0 turns
// serving off); here port 0 means an ephemeral port, which SecureServer::port() reports.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ksched::serving {

inline constexpr int kDefaultSecurePort = 10259;

struct SecureServingOptions {
  std::string bind_address = "0.0.0.0";  // an IPv4 or IPv6 literal ("::" for all IPv6)
  int port = kDefaultSecurePort;         // 0: ephemeral
  // Both or neither. With neither, a self-signed certificate for localhost / 127.0.0.1 (and the bind
  // address when it is not unspecified) is generated: into cert_dir/<pair_name>.{crt,key} when
  // cert_dir is set (reused when both files are already there), else kept in memory.
  std::string tls_cert_file;
  std::string tls_private_key_file;
  std::string cert_dir;
  std::string pair_name = "kube-scheduler";
  // --tls-curve-preferences: Go CurveID numbers (serving/tls_curves.h), checked by Start with
  // upstream's words, offered as the handshake's key exchange groups (those this build's OpenSSL
  // has; Go picks from the list in its own order, OpenSSL in the list's). Empty: OpenSSL's default.
  std::vector<std::int32_t> curve_preferences;
  // Requests that need no TokenReview or SubjectAccessReview (probes, cached verdicts, client
  // certificates) run on `local_threads`; those that wait for a review on `worker_threads`, at most
  // `max_waiting_for_review` queued or running: past that they are shed with upstream's 429 ("Too
  // many requests, please try again later.", Retry-After: 1) rather than queued without bound.
  int local_threads = 2;
  // Threads running the sockets (accept, TLS handshakes and records, HTTP parsing); each connection
  // stays on one strand, so its operations never run concurrently. Two, so that probes do not queue
  // behind a flood's handshakes on one thread (Go's server uses every core).
  int io_threads = 2;
  int worker_threads = 4;
  int max_waiting_for_review = 256;
  // At most this many connections open at once (0: no cap, as Go's http.Server); past it a new
  // connection is closed as soon as it is accepted, before any TLS state is made for it. The daemon
  // derives it from its memory limit (scheduler/memory_limit.h), so that a connection flood is
  // refused rather than ending in the kernel's OOM killer. `loopback_reserve` more are kept for
  // peers on a loopback address: a static pod's kubelet probes 127.0.0.1, a flood comes from outside.
  int max_connections = 0;
  int loopback_reserve = 16;
};

}  // namespace ksched::serving
