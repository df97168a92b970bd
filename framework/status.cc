#include "framework/status.h"

#include <array>
#include <atomic>
#include <cstdlib>

namespace ksched::framework {

std::string_view CodeName(Code code) {
  static constexpr std::array<std::string_view, 7> kNames = {
      "Success", "Error", "Unschedulable", "UnschedulableAndUnresolvable", "Wait", "Skip", "Pending"};
  const auto index = static_cast<std::size_t>(code);
  if (index >= kNames.size()) std::abort();  // an out-of-range Code is a broken invariant
  return kNames[index];
}

Status::Status(Code code, std::initializer_list<std::string_view> reasons) : code_(code) {
  if (reasons.size() == 0) return;
  std::vector<std::string>& list = MutableRep().reasons;
  list.reserve(reasons.size());
  for (std::string_view reason : reasons) list.emplace_back(reason);
}

Status::Rep& Status::MutableRep() {
  if (rep_ == nullptr) {
    rep_ = std::make_shared<Rep>();
  } else if (rep_.use_count() > 1) {
    rep_ = std::make_shared<Rep>(*rep_);
  } else {
    // use_count() == 1 is exact: only this object holds the block, so no other thread can be
    // copying it. The count is read relaxed, though; the acquire fence orders the writes below
    // after the reads of a copy that another thread dropped just before (its decrement releases).
    std::atomic_thread_fence(std::memory_order_acquire);
  }
  return *rep_;
}

// Out of line: inlined with a literal name, GCC 12 at -O3 warns (-Wrestrict, a false positive) on
// the string assignment.
void Status::StampPlugin(std::string_view plugin) {
  if (rep_ == nullptr ? plugin.empty() : rep_->plugin == plugin) return;
  MutableRep().plugin.assign(plugin.data(), plugin.size());
}

const std::string& Status::EmptyString() {
  static const std::string kEmpty;
  return kEmpty;
}

const std::vector<std::string>& Status::EmptyList() {
  static const std::vector<std::string> kEmpty;
  return kEmpty;
}

Status Status::FromError(std::string error) {
  Status status(Code::kError);
  status.MutableRep().error = std::move(error);
  return status;
}

std::vector<std::string> Status::Reasons() const {
  if (rep_ == nullptr) return {};
  if (rep_->error.empty()) return rep_->reasons;
  std::vector<std::string> all;
  all.reserve(rep_->reasons.size() + 1);
  all.push_back(rep_->error);
  all.insert(all.end(), rep_->reasons.begin(), rep_->reasons.end());
  return all;
}

std::string Status::Message() const {
  std::string message;
  for (const std::string& reason : Reasons()) {
    if (!message.empty()) message += ", ";
    message += reason;
  }
  return message;
}

std::string Status::ToString() const {
  std::string text(CodeName(code_));
  const std::string message = Message();
  if (!message.empty()) text += ": " + message;
  if (!plugin().empty()) text += " (plugin " + plugin() + ")";
  return text;
}

}  // namespace ksched::framework
