#include "scheduler/fit_error.h"

#include "framework/nodes_available_message.h"
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
  std::string message;
  if (!diagnosis.pre_filter_msg.empty()) {
    message = "0/" + std::to_string(num_all_nodes) + " nodes are available: " +
              diagnosis.pre_filter_msg + ".";
  } else {
    message = framework::NodesAvailableMessage(num_all_nodes, diagnosis.node_to_status);
  }
  // Appended as is: upstream adds no period after it (the preemption message ends with one).
  if (!diagnosis.post_filter_msg.empty()) message += " " + diagnosis.post_filter_msg;
  return message;
}

std::string TruncateEventNote(std::string message) { return TruncateNote(std::move(message)); }

}  // namespace ksched::scheduler
