// kube-scheduler-cpp: entry point. Everything is in scheduler/command.h.
//
// Exit status: 0 on a clean stop (SIGTERM/SIGINT), --help, --version and --write-config-to; 1 on
// bad input (flags, configuration, files, kubeconfig), a failed start or a lost Lease, as
// upstream's kube-scheduler.
#include <malloc.h>
#include <sys/resource.h>

#include <cstdlib>
#include <exception>
#include <new>
#include <string>
#include <system_error>

#include <spdlog/spdlog.h>

#include "scheduler/command.h"

namespace {

// glibc gives a thread that meets a locked arena an arena of its own, up to 8 per CPU. The daemon
// runs one thread per binding in flight (dozens at peak, nearly all waiting for the API server),
// so it would get many arenas, each keeping freed memory and a high-water mark of its own. One
// arena: glibc's per-thread caches (tcache) serve most small allocations without its lock, and the
// hot loops allocate nothing. Blocks of 1 MiB and more (list responses, their parse trees) are
// mapped and unmapped on their own instead of glibc's default, which after the first such block is
// freed raises the threshold (up to 32 MiB) and serves the next ones from the heap, where they
// leave holes the heap cannot give back. Pod anti-affinity benchmark, peak RSS median of 9:
// 39.3 MiB (one arena per CPU) -> 38.7 (one arena) -> 38.35 (and a fixed threshold of 128 KiB),
// CPU within the noise (docs/bench/20261202-malloc-ab). MALLOC_ARENA_MAX and
// MALLOC_MMAP_THRESHOLD_ in the environment win.
void TuneMalloc() {
  if (std::getenv("MALLOC_ARENA_MAX") == nullptr) mallopt(M_ARENA_MAX, 1);
  if (std::getenv("MALLOC_MMAP_THRESHOLD_") == nullptr) mallopt(M_MMAP_THRESHOLD, 1 << 20);
}

// As every Go program since Go 1.19 (upstream's kube-scheduler included): the soft limit on open
// files raised to the hard one, so that a few thousand connections to the secure port (a flood, or
// many scrapers) do not run the daemon out of descriptors at a container's default 1024.
void RaiseOpenFileLimit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    (void)setrlimit(RLIMIT_NOFILE, &limit);  // best effort, as Go's
  }
}

// An exception nobody catches ends the process through std::terminate. The ones the daemon can
// meet without a bug are the system refusing resources: a thread that cannot start
// (std::system_error, EAGAIN under a pids limit or RLIMIT_NPROC) or memory (std::bad_alloc). Those
// get a clear line and exit status 1, as a failed start; anything else is a broken invariant and
// aborts loudly with what it was.
[[noreturn]] void OnTerminate() {
  std::string what = "std::terminate without an exception";
  bool resources = false;
  if (const std::exception_ptr current = std::current_exception()) {
    try {
      std::rethrow_exception(current);
    } catch (const std::system_error& e) {
      what = std::string("failed to start a thread (or another system resource): ") + e.what();
      resources = true;
    } catch (const std::bad_alloc&) {
      what = "out of memory";
      resources = true;
    } catch (const std::exception& e) {
      what = std::string("uncaught exception: ") + e.what();
    } catch (...) {
      what = "uncaught exception of unknown type";
    }
  }
  SPDLOG_CRITICAL("{}", what);
  spdlog::default_logger()->flush();
  if (resources) std::_Exit(1);
  std::abort();
}

}  // namespace

int main(int argc, char** argv) {
  TuneMalloc();  // before any thread starts
  RaiseOpenFileLimit();
  std::set_terminate(OnTerminate);
  return ksched::scheduler::RunSchedulerCommand(argc, argv);
}
