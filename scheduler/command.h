// The kube-scheduler command: what `kube-scheduler-cpp [flags]` does, in upstream's order
// (cmd/kube-scheduler/app/server.go, v1.37.2):
//   1. flags (scheduler/command_flags.h); --help and --version print and return 0;
//   2. logging (--logging-format, -v);
//   3. the KubeSchedulerConfiguration (scheduler/component_config.h);
//   4. the API server connection (clientConnection.kubeconfig / --master / in-cluster) and the
//      profiles' frameworks (a profile naming a plugin that is not compiled in fails here);
//   5. --write-config-to: the configuration with the completed profiles is written, return 0;
//   6. HTTPS serving, informers synced, then (with leader election) campaigning for the Lease and
//      scheduling only while leading; SIGTERM/SIGINT stop cleanly (the Lease is released).
// Bad input at any step prints one line naming the flag, field or file on stderr and returns 1
// before anything is sent to the API server. Losing the Lease returns 1, as upstream.
//
// Thread-safety: call once per process (it owns signal handling).
#pragma once

namespace ksched::scheduler {

int RunSchedulerCommand(int argc, const char* const* argv);

}  // namespace ksched::scheduler
