// Parallelizer: runs a function over [0, n) on a fixed pool of worker threads, in chunks (upstream
// parallelize.Parallelizer with `parallelism` workers). The calling thread works too: a pool of
// min(parallelism, max_threads) - 1 threads runs each job (see the constructor). Used for Filter
// and Score over nodes.
//
// Until() blocks until every index ran or a worker called Cancel() on the run's token; indexes not
// yet started when cancelled are skipped. Chunk size follows upstream's chunkSizeFor:
// max(1, min(sqrt(n), n / parallelism + 1)).
//
// Every run names its operation (upstream Until's `operation` argument): with a counter set
// (CountGoroutinesIn), the run counts upstream's worker count for its size under that operation
// of scheduler_goroutines while it lasts (framework/running_goroutines.h).
//
// Thread-safety: Until() may be called from one thread at a time (the scheduling thread);
// concurrent Until() calls from different threads are serialized. The function runs concurrently
// on up to `parallelism` threads. CountGoroutinesIn must be called before the first run.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <thread>
#include <vector>

#include "base/mutex.h"
#include "framework/running_goroutines.h"

namespace ksched::framework {

class Parallelizer {
 public:
  // A cancellation flag for one Until() run.
  class Run {
   public:
    void Cancel() { cancelled_.store(true, std::memory_order_relaxed); }
    bool cancelled() const { return cancelled_.load(std::memory_order_relaxed); }

   private:
    std::atomic<bool> cancelled_{false};
  };

  // `parallelism` sets the chunk sizes and the slice counts, as upstream's `parallelism` workers do.
  // At most `max_threads` OS threads (the caller included) run a job at once: min(parallelism,
  // max_threads). Upstream's workers are goroutines that Go runs on GOMAXPROCS threads, so its
  // parallelism 16 on 2 CPUs is 2 threads; 15 OS threads here would add only wake-ups and context
  // switches (a fifth of an in-process TopologySpreading run's CPU time on 2 CPUs). The default
  // is the CPUs this process may run on (AvailableCpus).
  explicit Parallelizer(int parallelism, int max_threads = AvailableCpus());
  ~Parallelizer();
  Parallelizer(const Parallelizer&) = delete;
  Parallelizer& operator=(const Parallelizer&) = delete;

  int parallelism() const { return parallelism_; }
  // OS threads that run a job, the caller included.
  int threads() const { return static_cast<int>(workers_.size()) + 1; }

  // The CPUs in this process's affinity mask (a cpuset limits it), at least 1, lowered to its
  // cgroup's CPU limit as Go lowers GOMAXPROCS (framework/cpu_quota.h).
  static int AvailableCpus();

  // Where runs are counted (nullptr: nowhere, the default). Not owned; must outlive this object.
  void CountGoroutinesIn(RunningGoroutines* counter) { goroutines_ = counter; }

  // Calls fn(i, run) for every i in [0, n) unless cancelled; returns when all calls finished.
  void Until(std::size_t n, const std::function<void(std::size_t, Run&)>& fn,
             GoroutineOperation operation);

  // Calls fn(begin, end, slice) once per slice of [0, n), split into SliceCount(n) slices of
  // consecutive indexes, in parallel. Each slice runs on one thread, so a loop that collects into
  // per-slice scratch needs no lock and allocates per slice, not per index.
  std::size_t SliceCount(std::size_t n) const;
  // The run counts as an Until over the n indexes (upstream's loop), not over the slices.
  template <typename Fn>
  void ForEachSlice(std::size_t n, Fn&& fn, GoroutineOperation operation) {
    const CountedGoroutines counted(goroutines_, operation, UpstreamWorkers(n));
    const std::size_t slices = SliceCount(n);
    if (slices == 0) return;
    RunJob(slices, [&](std::size_t slice, Run& /*run*/) {
      fn(n * slice / slices, n * (slice + 1) / slices, slice);
    });
  }

 private:
  // upstream numWorkersForChunkSize for n pieces: the goroutines its Until would start.
  std::int64_t UpstreamWorkers(std::size_t n) const;
  void RunJob(std::size_t n, const std::function<void(std::size_t, Run&)>& fn);
  void WorkerLoop();
  // One Until() call's work: fn over [0, n) in chunks of `chunk`.
  struct Job {
    const std::function<void(std::size_t, Run&)>* fn = nullptr;
    Run* run = nullptr;
    std::size_t n = 0;
    std::size_t chunk = 1;
  };
  // Takes chunks of `job` (the open one, copied under mu_) until none is left.
  void Drain(const Job& job);

  const int parallelism_;
  RunningGoroutines* goroutines_ = nullptr;  // written before the first run only
  base::Mutex run_mu_;  // serializes Until()

  base::Mutex mu_;
  base::CondVar work_cv_;
  base::CondVar done_cv_;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::uint64_t job_id_ ABSL_GUARDED_BY(mu_) = 0;  // bumped per Until(); workers join each job once
  Job job_ ABSL_GUARDED_BY(mu_);                   // the open job (odd job_id_)
  std::atomic<std::size_t> next_{0};
  int active_workers_ ABSL_GUARDED_BY(mu_) = 0;
  std::vector<std::thread> workers_;  // started by the constructor, joined by the destructor
};

}  // namespace ksched::framework
