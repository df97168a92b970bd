#include "scheduler/client_ca_reloader.h"

#include <utility>

#include <spdlog/spdlog.h>

namespace ksched::scheduler {

ClientCaReloader::ClientCaReloader(std::shared_ptr<serving::ClientCertificateAuthenticator> target, ReadBundle read,
                                   std::chrono::milliseconds interval)
    : target_(std::move(target)), read_(std::move(read)), interval_(interval) {
  thread_ = std::thread([this] { Loop(); });
}

ClientCaReloader::~ClientCaReloader() {
  {
    base::MutexLock lock(&mu_);
    stopping_ = true;
  }
  wake_.NotifyAll();
  thread_.join();
}

absl::StatusOr<bool> ClientCaReloader::ReloadOnce() {
  absl::StatusOr<std::string> bundle = read_();
  if (!bundle.ok()) return bundle.status();
  absl::StatusOr<bool> changed = target_->Reload(*bundle);
  if (changed.ok() && *changed) {
    SPDLOG_INFO("\"Loaded a new CA Bundle and Verifier\" name=\"{}\"", target_->source());
  }
  return changed;
}

void ClientCaReloader::Loop() {
  base::MutexLock lock(&mu_);
  while (!wake_.WaitFor(&mu_, interval_, [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return stopping_; })) {
    lock.Unlock();
    if (absl::StatusOr<bool> reloaded = ReloadOnce(); !reloaded.ok()) {
      SPDLOG_ERROR("\"Failed to reload the client CA bundle; the CAs in use are kept\" name=\"{}\" err=\"{}\"",
                   target_->source(), std::string(reloaded.status().message()));
    }
    lock.Lock();
  }
}

}  // namespace ksched::scheduler
