// Cluster events as the scheduling queue sees them (upstream pkg/scheduler/framework/events.go and
// types.go, v1.34): the labels upstream gives events (they appear in logs and in the `event` label
// of scheduler_queue_incoming_pods_total) and the queue's own pseudo-events. Whether a registration
// matches an incoming event is framework::ClusterEvent::Match (upstream MatchClusterEvents).
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "framework/cluster_event.h"

namespace ksched::scheduler {

// Labels of the queue's internal moves (upstream framework.ScheduleAttemptFailure, ...).
inline constexpr std::string_view kScheduleAttemptFailure = "ScheduleAttemptFailure";
inline constexpr std::string_view kBackoffComplete = "BackoffComplete";
inline constexpr std::string_view kPopFromBackoffQ = "PopFromBackoffQ";
inline constexpr std::string_view kForceActivate = "ForceActivate";
inline constexpr std::string_view kUnschedulableTimeout = "UnschedulableTimeout";

// upstream ActionType.String(): the name of a single action or of Update/All; "" for other
// combinations.
std::string_view ActionTypeName(framework::ActionType action);

// An event with upstream's label (ClusterEvent.Label(): resource name + action name, e.g.
// "UnscheduledPodUpdate", "NodeAdd", "AssignedPodUpdatePodLabel").
framework::ClusterEvent MakeClusterEvent(framework::EventResource resource,
                                         framework::ActionType action);

// upstream EventUnscheduledPodAdd / EventUnscheduledPodUpdate / EventAssignedPodAdd.
framework::ClusterEvent UnscheduledPodAddEvent();
framework::ClusterEvent UnscheduledPodUpdateEvent();
framework::ClusterEvent AssignedPodAddEvent();

// upstream MatchAnyClusterEvent(incoming, registrations): one of the registrations Match()es.
bool MatchAnyClusterEvent(const framework::ClusterEvent& incoming,
                          const std::vector<framework::ClusterEvent>& registrations);

}  // namespace ksched::scheduler
