#include "scheduler/namespace_label_store.h"

#include <mutex>

namespace ksched::scheduler {

void NamespaceLabelStore::OnAddShared(const Shared& ns) {
  std::unique_lock lock(mu_);
  namespaces_.insert_or_assign(ns->metadata.name, ns);
}

void NamespaceLabelStore::OnUpdateShared(const Shared& /*old_ns*/, const Shared& new_ns) {
  OnAddShared(new_ns);
}

void NamespaceLabelStore::OnDeleteShared(const Shared& last_known) {
  std::unique_lock lock(mu_);
  namespaces_.erase(last_known->metadata.name);
}

std::optional<api::Labels> NamespaceLabelStore::Labels(std::string_view name) const {
  std::shared_lock lock(mu_);
  auto it = namespaces_.find(name);
  if (it == namespaces_.end()) return std::nullopt;
  return it->second->metadata.labels;
}

std::size_t NamespaceLabelStore::size() const {
  std::shared_lock lock(mu_);
  return namespaces_.size();
}

}  // namespace ksched::scheduler
