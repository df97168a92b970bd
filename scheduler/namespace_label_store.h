// NamespaceLabelStore: the cluster's namespaces as the namespace reflector has them, for the
// labels InterPodAffinity matches namespaceSelector terms against (framework::FrameworkServices::
// namespace_labels; upstream's namespace lister). It is the reflector's handler and keeps the
// reflector's own objects (the *Shared calls). Namespace changes raise no queue event (upstream's
// InterPodAffinity registers none either).
//
// Ownership: shares the namespaces with the reflector; they are immutable. Thread-safety: the
// handler calls come from the reflector thread; Labels and size are safe from any thread (one
// shared mutex).
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>

#include "api/labels.h"
#include "api/namespace.h"
#include "client/reflector.h"

namespace ksched::scheduler {

class NamespaceLabelStore final : public client::ReflectorHandler<api::Namespace> {
 public:
  using Shared = std::shared_ptr<const api::Namespace>;

  void OnAddShared(const Shared& ns) override;
  void OnUpdateShared(const Shared& old_ns, const Shared& new_ns) override;
  void OnDeleteShared(const Shared& last_known) override;

  // The labels of namespace `name`, nullopt when no such namespace is known.
  std::optional<api::Labels> Labels(std::string_view name) const;
  std::size_t size() const;

 private:
  mutable std::shared_mutex mu_;
  std::map<std::string, Shared, std::less<>> namespaces_;  // guarded by mu_; by name
};

}  // namespace ksched::scheduler
