#include "framework/pods_in_pre_bind.h"

#include <utility>

namespace ksched::framework {

void PodsInPreBind::Add(std::string_view uid) {
  base::MutexLock lock(&mu_);
  pods_.insert_or_assign(std::string(uid), Entry{});
}

void PodsInPreBind::Remove(std::string_view uid) {
  base::MutexLock lock(&mu_);
  if (auto it = pods_.find(uid); it != pods_.end()) pods_.erase(it);
}

bool PodsInPreBind::Cancel(std::string_view uid, std::string message) {
  base::MutexLock lock(&mu_);
  auto it = pods_.find(uid);
  if (it == pods_.end() || it->second.finished) return false;
  if (!it->second.canceled) it->second.cause = std::move(message);
  it->second.canceled = true;
  return true;
}

std::optional<std::string> PodsInPreBind::MarkPrebound(std::string_view uid) {
  base::MutexLock lock(&mu_);
  auto it = pods_.find(uid);
  if (it == pods_.end()) return std::nullopt;
  if (it->second.canceled) return it->second.cause;
  it->second.finished = true;
  return std::nullopt;
}

bool PodsInPreBind::Cancelled(std::string_view uid) const {
  base::MutexLock lock(&mu_);
  auto it = pods_.find(uid);
  return it != pods_.end() && it->second.canceled;
}

}  // namespace ksched::framework
