// kube-scheduler-cpp: entry point. Everything is in scheduler/command.h.
//
// Exit status: 0 on a clean stop (SIGTERM/SIGINT), --help, --version and --write-config-to; 1 on
// bad input (flags, configuration, files, kubeconfig), a failed start or a lost Lease, as
// upstream's kube-scheduler.
#include "scheduler/command.h"

int main(int argc, char** argv) { return ksched::scheduler::RunSchedulerCommand(argc, argv); }
