// kube-scheduler-cpp: entry point. Everything is in scheduler/command.h.
//
// Exit status: 0 on a clean stop (SIGTERM/SIGINT), --help, --version and --write-config-to; 1 on
// bad input (flags, configuration, files, kubeconfig), a failed start or a lost Lease, as
// upstream's kube-scheduler.
#include <malloc.h>

#include <cstdlib>

#include "framework/parallelizer.h"
#include "scheduler/command.h"

namespace {

// glibc gives a thread that meets a locked arena an arena of its own, up to 8 per CPU. The daemon
// runs one thread per binding in flight (dozens at peak, nearly all waiting for the API server),
// so it gets many arenas, each keeping freed memory of its own. One arena per CPU
// the process may use, as Go's allocator keeps one cache per P: 0.8-1.5 MiB less peak RSS on the
// GPU and pod anti-affinity benchmarks, CPU within the noise
// (docs/bench/20261202-tls-stream-ab). MALLOC_ARENA_MAX in the environment wins.
void LimitMallocArenas() {
  if (std::getenv("MALLOC_ARENA_MAX") != nullptr) return;
  mallopt(M_ARENA_MAX, ksched::framework::Parallelizer::AvailableCpus());
}

}  // namespace

int main(int argc, char** argv) {
  LimitMallocArenas();  // before any thread starts
  return ksched::scheduler::RunSchedulerCommand(argc, argv);
}
