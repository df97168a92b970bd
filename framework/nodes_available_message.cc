#include "framework/nodes_available_message.h"

#include <algorithm>
#include <map>
#include <vector>

namespace ksched::framework {

std::string NodesAvailableMessage(int num_all_nodes, const NodeToStatus& statuses) {
  std::string message = "0/" + std::to_string(num_all_nodes) + " nodes are available:";
  std::map<std::string, int, std::less<>> histogram;
  for (const auto& [node, status] : statuses.map()) {
    for (std::string& reason : status.Reasons()) ++histogram[std::move(reason)];
  }
  const int explicit_nodes = static_cast<int>(statuses.size());
  if (explicit_nodes < num_all_nodes) {
    for (std::string& reason : statuses.absent_status().Reasons()) {
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
  return message;
}

}  // namespace ksched::framework
