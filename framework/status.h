// Status: the result of running a plugin or an extension point, with upstream's codes
// (k8s.io/kube-scheduler/framework Code/Status).
//
// A Status is a small value: the code, the reasons shown to users (joined with ", " in Message(),
// which is what FitError and events print), an optional error text for the Error code, and the name
// of the plugin that produced it (stamped by the runtime, not by the plugin). A default-constructed
// Status is Success, the counterpart of upstream's nil *Status.
//
// Sharing: everything but the code lives in one immutable block that copies share (a reference
// count) and that a mutation (WithPlugin, WithError, AppendReason) copies first when it is shared.
// So a plugin that rejects many nodes for the same reason keeps that Status as a constant, already
// stamped with its own name (WithPlugin leaves an equal name alone), and returning it per node
// allocates nothing: the Filter hot path stays allocation-free on rejections too.
//
// Thread-safety: a value type; distinct objects may be used from distinct threads freely, also
// when they share their block (the count is atomic; a shared block is never written).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ksched::framework {

// The order and the names are upstream's; the names appear in logs and metrics labels.
enum class Code : std::uint8_t {
  // The plugin ran correctly and found the pod schedulable (or had nothing to say).
  kSuccess = 0,
  // An internal or unexpected failure: the pod is retried with backoff; not a rejection.
  kError,
  // The pod does not fit now; preemption may help. Requeued on events the plugin registered for.
  kUnschedulable,
  // The pod does not fit and preemption cannot help (e.g. a node-selector mismatch).
  kUnschedulableAndUnresolvable,
  // Permit asks the binding cycle to wait (for Allow/Reject or a timeout).
  kWait,
  // The plugin does not apply to this pod; its later extension points are skipped.
  kSkip,
  // The pod waits on something outside the scheduler; goes to activeQ on its event, no backoff.
  kPending,
};

std::string_view CodeName(Code code);

class Status {
 public:
  Status() = default;  // Success
  explicit Status(Code code) : code_(code) {}
  Status(Code code, std::vector<std::string> reasons) : code_(code) {
    if (!reasons.empty()) MutableRep().reasons = std::move(reasons);
  }
  Status(Code code, std::initializer_list<std::string_view> reasons);

  // Copies share the block (no allocation).
  Status(const Status&) = default;
  Status& operator=(const Status&) = default;
  Status(Status&&) noexcept = default;
  Status& operator=(Status&&) noexcept = default;
  ~Status() = default;

  // Error-code status carrying an error text (upstream AsStatus).
  static Status FromError(std::string error);

  Code code() const { return code_; }
  // Upstream Reasons(): the error text (if any) first, then the reasons.
  std::vector<std::string> Reasons() const;
  // Upstream Message(): Reasons() joined with ", ".
  std::string Message() const;
  const std::string& error() const { return rep_ != nullptr ? rep_->error : EmptyString(); }
  const std::string& plugin() const { return rep_ != nullptr ? rep_->plugin : EmptyString(); }

  // Stamps the plugin's name; a no-op (no copy of a shared block) when it already carries it.
  Status& WithPlugin(std::string_view plugin) & {
    StampPlugin(plugin);
    return *this;
  }
  Status&& WithPlugin(std::string_view plugin) && {
    StampPlugin(plugin);
    return std::move(*this);
  }
  void AppendReason(std::string reason) { MutableRep().reasons.push_back(std::move(reason)); }
  // Attaches an error text keeping the code (upstream Status.WithError): Message() then starts
  // with it. Used for Unschedulable statuses that carry a FitError's message.
  Status& WithError(std::string error) & {
    MutableRep().error = std::move(error);
    return *this;
  }
  Status&& WithError(std::string error) && {
    MutableRep().error = std::move(error);
    return std::move(*this);
  }

  bool IsSuccess() const { return code_ == Code::kSuccess; }
  bool IsWait() const { return code_ == Code::kWait; }
  bool IsSkip() const { return code_ == Code::kSkip; }
  // Unschedulable, UnschedulableAndUnresolvable or Pending: the pod was turned down, not failed.
  bool IsRejected() const {
    return code_ == Code::kUnschedulable || code_ == Code::kUnschedulableAndUnresolvable ||
           code_ == Code::kPending;
  }

  // Equal when code, reasons and error agree (the plugin name is provenance, not content).
  friend bool operator==(const Status& a, const Status& b) {
    if (a.code_ != b.code_) return false;
    const std::vector<std::string>& a_reasons = a.rep_ != nullptr ? a.rep_->reasons : EmptyList();
    const std::vector<std::string>& b_reasons = b.rep_ != nullptr ? b.rep_->reasons : EmptyList();
    return a_reasons == b_reasons && a.error() == b.error();
  }

  // "Unschedulable: reason1, reason2" (plus " (plugin X)" when stamped): for logs, not users.
  std::string ToString() const;

 private:
  // Everything but the code, out of line: a plain Success (what Filter and Score return once per
  // node and plugin) is one byte and a null pointer, built and destroyed for free.
  struct Rep {
    std::vector<std::string> reasons;
    std::string error;
    std::string plugin;
  };
  // The block, made or unshared first (out of line: mutations are off the hot paths).
  Rep& MutableRep();
  void StampPlugin(std::string_view plugin);
  static const std::string& EmptyString();
  static const std::vector<std::string>& EmptyList();

  Code code_ = Code::kSuccess;
  std::shared_ptr<Rep> rep_;  // shared by copies; never written while shared
};

}  // namespace ksched::framework
