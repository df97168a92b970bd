// PodsInPreBind: the pods whose binding cycle runs PreBind plugins with work to do, until their
// Bind starts (upstream runtime podsInPreBindMap / podInPreBind, k/k #135502). Preemption may
// pick such a pod as a victim: rather than deleting it through the API, it cancels the pod's
// binding cycle (Cancel), which then fails with the cancel message as an error, so that the pod
// is forgotten and goes back to the scheduling queue (backoff) instead of being deleted.
//
// A pod can be cancelled until its binding cycle, PreBind done, marks it prebound (MarkPrebound):
// from then on Cancel refuses and preemption falls back to deleting it. PreBind plugins are not
// interrupted (upstream cancels their context; ours have none): a cancelled pod's PreBind runs to
// its end and the cycle fails at MarkPrebound. A plugin that waits long may poll Cancelled.
//
// Thread-safety: every method may be called from any thread.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "base/mutex.h"

namespace ksched::framework {

class PodsInPreBind {
 public:
  // Registers the pod (by UID), replacing an earlier entry.
  void Add(std::string_view uid);
  void Remove(std::string_view uid);
  // Upstream podInPreBind.CancelPod: false when the pod is not in PreBind or was marked prebound;
  // otherwise the pod is cancelled with `message` (the first message stays) and true.
  bool Cancel(std::string_view uid, std::string message);
  // Upstream podInPreBind.MarkPrebound: nullopt (marked, or not registered), or the cancel message
  // when the pod was cancelled.
  std::optional<std::string> MarkPrebound(std::string_view uid);
  // Whether the pod is registered and cancelled.
  bool Cancelled(std::string_view uid) const;

 private:
  struct Entry {
    bool finished = false;
    bool canceled = false;
    std::string cause;
  };
  mutable base::Mutex mu_;
  std::map<std::string, Entry, std::less<>> pods_ ABSL_GUARDED_BY(mu_);
};

}  // namespace ksched::framework
