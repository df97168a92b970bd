// ClientCaReloader: keeps the secure server's client CAs current, as upstream's dynamic CA content
// does (a file watch with a 1-minute resync for --client-ca-file; a configmap controller with a
// 1-minute resync for the cluster's client CA): every `interval` it reads the bundle again
// (`read`) and, when it changed, reloads it into the authenticator (logged as upstream: "Loaded a
// new CA Bundle and Verifier"). A bundle that cannot be read or loaded is logged and the CAs in
// use are kept.
//
// Ownership: owns one thread, stopped and joined by the destructor. Thread-safety: construct and
// destroy from one thread; the authenticator is shared with the server (its Reload is thread-safe).
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "absl/status/statusor.h"
#include "base/mutex.h"
#include "serving/client_certificate_authenticator.h"

namespace ksched::scheduler {

class ClientCaReloader {
 public:
  using ReadBundle = std::function<absl::StatusOr<std::string>()>;

  ClientCaReloader(std::shared_ptr<serving::ClientCertificateAuthenticator> target, ReadBundle read,
                   std::chrono::milliseconds interval = std::chrono::minutes(1));
  ~ClientCaReloader();
  ClientCaReloader(const ClientCaReloader&) = delete;
  ClientCaReloader& operator=(const ClientCaReloader&) = delete;

  // One read and reload now (what each interval does); its result, for tests and logs: whether the
  // CAs changed.
  absl::StatusOr<bool> ReloadOnce();

 private:
  void Loop();

  const std::shared_ptr<serving::ClientCertificateAuthenticator> target_;
  const ReadBundle read_;
  const std::chrono::milliseconds interval_;
  base::Mutex mu_;
  base::CondVar wake_;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::thread thread_;
};

}  // namespace ksched::scheduler
