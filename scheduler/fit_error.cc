#include "scheduler/fit_error.h"

#include <algorithm>
#include <map>
#include <vector>

#include "scheduler/event_object.h"

namespace ksched::scheduler {

void Diagnosis::AddPluginStatus(const framework::Status& status) {
  if (status.plugin().empty()) return;
  if (status.code() == framework::Code::kUnschedulable ||
      status.code() == framework::Code::kUnschedulableAndUnresolvable) {
    unschedulable_plugins.insert(status.plugin());
  } else if (status.code() == framework::Code::kPending) {
    pending_plugins.insert(status.plugin());
  }
}

std::string FitError::Message() const {
  std::string message = "0/" + std::to_string(num_all_nodes) + " nodes are available:";
  if (!diagnosis.pre_filter_msg.empty()) {
    message += " " + diagnosis.pre_filter_msg + ".";
  } else {
    std::map<std::string, int, std::less<>> histogram;
    for (const auto& [node, status] : diagnosis.node_to_status.map()) {
      for (std::string& reason : status.Reasons()) ++histogram[std::move(reason)];
    }
    const int explicit_nodes = static_cast<int>(diagnosis.node_to_status.size());
    if (explicit_nodes < num_all_nodes) {
      for (std::string& reason : diagnosis.node_to_status.absent_status().Reasons()) {
        histogram[std::move(reason)] += num_all_nodes - explicit_nodes;
      }
    }
    std::vector<std::string> entries;
    entries.reserve(histogram.size());
    for (const auto& [reason, count] : histogram) entries.push_back(std::to_string(count) + " " + reason);
    // Upstream sorts the "<count> <reason>" strings bytewise (sort.Strings).
    std::sort(entries.begin(), entries.end());
    if (!entries.empty()) {
      message += ' ';
      for (std::size_t i = 0; i < entries.size(); ++i) {
        if (i > 0) message += ", ";
        message += entries[i];
      }
      message += '.';
    }
  }
  // Appended as is: upstream adds no period after it (the preemption message ends with one).
  if (!diagnosis.post_filter_msg.empty()) message += " " + diagnosis.post_filter_msg;
  return message;
}

std::string TruncateEventNote(std::string message) { return TruncateNote(std::move(message)); }

}  // namespace ksched::scheduler
