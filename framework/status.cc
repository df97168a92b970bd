#include "framework/status.h"

#include <array>
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
  reasons_.reserve(reasons.size());
  for (std::string_view reason : reasons) reasons_.emplace_back(reason);
}

Status Status::FromError(std::string error) {
  Status status(Code::kError);
  status.error_ = std::move(error);
  return status;
}

std::vector<std::string> Status::Reasons() const {
  if (error_.empty()) return reasons_;
  std::vector<std::string> all;
  all.reserve(reasons_.size() + 1);
  all.push_back(error_);
  all.insert(all.end(), reasons_.begin(), reasons_.end());
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
  if (!plugin_.empty()) text += " (plugin " + plugin_ + ")";
  return text;
}

}  // namespace ksched::framework
