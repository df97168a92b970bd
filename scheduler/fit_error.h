// Diagnosis and FitError: why a pod fit no node, and the message users read in the
// FailedScheduling event and the PodScheduled condition (upstream framework.Diagnosis / FitError).
//
// The message is byte-compatible with upstream's FitError.Error():
//   "0/<N> nodes are available:" + " <PreFilter message>."  when a PreFilter rejected, else
//   + " <count> <reason>, <count> <reason>, ... ." (a histogram over every node's reasons, nodes
//   without an explicit status counted under the absent-nodes status, sorted as strings)
//   + " <PostFilter message>" when PostFilter ran (no period added: the message brings its own).
//
// Thread-safety: value types.
#pragma once

#include <set>
#include <string>
#include <string_view>

#include "framework/interface.h"
#include "framework/status.h"

namespace ksched::scheduler {

// upstream ErrNoNodesAvailable's text.
inline constexpr std::string_view kNoNodesAvailable = "no nodes available to schedule pods";

struct Diagnosis {
  framework::NodeToStatus node_to_status;
  // Plugins that rejected the pod (Unschedulable or UnschedulableAndUnresolvable): the queue
  // requeues the pod on their events only.
  std::set<std::string, std::less<>> unschedulable_plugins;
  // Plugins that returned Pending.
  std::set<std::string, std::less<>> pending_plugins;
  std::string pre_filter_msg;
  std::string post_filter_msg;

  // upstream Diagnosis.AddPluginStatus: files the status's plugin by its code.
  void AddPluginStatus(const framework::Status& status);
};

struct FitError {
  int num_all_nodes = 0;
  Diagnosis diagnosis;

  std::string Message() const;
};

// upstream truncateMessage: event notes are limited to 1024 bytes; longer ones are cut and end
// with " ...". The same cut as the event recorder's (scheduler/event_object.h TruncateNote, which
// backs off to a UTF-8 character boundary): one implementation.
std::string TruncateEventNote(std::string message);

}  // namespace ksched::scheduler
