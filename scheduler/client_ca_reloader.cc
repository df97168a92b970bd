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
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
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
  std::unique_lock lock(mu_);
  while (!wake_.wait_for(lock, interval_, [this] { return stopping_; })) {
    lock.unlock();
    if (absl::StatusOr<bool> reloaded = ReloadOnce(); !reloaded.ok()) {
      SPDLOG_ERROR("\"Failed to reload the client CA bundle; the CAs in use are kept\" name=\"{}\" err=\"{}\"",
                   target_->source(), std::string(reloaded.status().message()));
    }
    lock.lock();
  }
}

}  // namespace ksched::scheduler
