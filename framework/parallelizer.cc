#include "framework/parallelizer.h"

#include <sched.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "framework/cpu_quota.h"

namespace ksched::framework {

namespace {

// upstream parallelize.chunkSizeFor: max(1, min(sqrt(n), n/parallelism + 1)).
std::size_t ChunkSizeFor(std::size_t n, int parallelism) {
  auto size = static_cast<std::size_t>(std::sqrt(static_cast<double>(n)));
  const std::size_t cap = n / static_cast<std::size_t>(parallelism) + 1;
  if (size > cap) size = cap;
  return std::max<std::size_t>(size, 1);
}

}  // namespace

// Job protocol. job_id_ is odd while a job is open for workers to join and even once it is
// closed. Workers join (++active_workers_) only under mu_ while the job is open, and the caller
// closes the job and waits for active_workers_ == 0 before returning, so the job (job_, which a
// worker copies under mu_ when it joins) stays alive while anyone drains it, and a worker that
// wakes late never touches a finished job.

int Parallelizer::AvailableCpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  const int affinity = sched_getaffinity(0, sizeof set, &set) == 0 ? std::max(CPU_COUNT(&set), 1) : 1;
  return CapByCpuLimit(affinity, CgroupCpuLimit());
}

Parallelizer::Parallelizer(int parallelism, int max_threads) : parallelism_(parallelism) {
  if (parallelism < 1) {
    std::fprintf(stderr, "Parallelizer: parallelism must be at least 1, got %d\n", parallelism);
    std::abort();
  }
  const int threads = std::min(parallelism, std::max(max_threads, 1));
  workers_.reserve(static_cast<std::size_t>(threads - 1));
  for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { WorkerLoop(); });
}

Parallelizer::~Parallelizer() {
  {
    base::MutexLock lock(&mu_);
    stopping_ = true;
  }
  work_cv_.NotifyAll();
  for (std::thread& worker : workers_) worker.join();
}

std::int64_t Parallelizer::UpstreamWorkers(std::size_t n) const {
  const std::size_t chunk = ChunkSizeFor(n, parallelism_);
  const std::size_t chunks = (n + chunk - 1) / chunk;
  return static_cast<std::int64_t>(std::min(chunks, static_cast<std::size_t>(parallelism_)));
}

void Parallelizer::Until(std::size_t n, const std::function<void(std::size_t, Run&)>& fn,
                         GoroutineOperation operation) {
  // Counted even when n is 0, as upstream's Until adds its (zero) workers then too.
  const CountedGoroutines counted(goroutines_, operation, UpstreamWorkers(n));
  RunJob(n, fn);
}

void Parallelizer::RunJob(std::size_t n, const std::function<void(std::size_t, Run&)>& fn) {
  if (n == 0) return;
  base::MutexLock run_lock(&run_mu_);
  Run run;
  const std::size_t chunk = ChunkSizeFor(n, parallelism_);
  if (workers_.empty() || chunk >= n) {
    // One chunk (or no workers): waking threads would cost more than the work.
    for (std::size_t i = 0; i < n && !run.cancelled(); ++i) fn(i, run);
    return;
  }
  const Job job{&fn, &run, n, chunk};
  {
    base::MutexLock lock(&mu_);
    job_ = job;
    next_.store(0, std::memory_order_relaxed);
    ++job_id_;  // open
  }
  work_cv_.NotifyAll();

  // Closes the job and waits for the workers even if fn throws on this thread.
  struct CloseJob {
    Parallelizer* self;
    ~CloseJob() {
      base::MutexLock lock(&self->mu_);
      ++self->job_id_;  // closed
      self->done_cv_.Wait(&self->mu_,
                          [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(self->mu_) { return self->active_workers_ == 0; });
      self->job_ = Job{};
    }
  } close_job{this};
  Drain(job);
}

std::size_t Parallelizer::SliceCount(std::size_t n) const {
  // A few slices per worker, so that one uneven slice does not hold the others up.
  return std::min(n, static_cast<std::size_t>(parallelism_) * 4);
}

void Parallelizer::WorkerLoop() {
  std::uint64_t joined = 0;
  base::MutexLock lock(&mu_);
  while (true) {
    work_cv_.Wait(&mu_, [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      return stopping_ || (job_id_ % 2 == 1 && job_id_ != joined);
    });
    if (stopping_) return;
    joined = job_id_;
    ++active_workers_;
    const Job job = job_;
    lock.Unlock();
    Drain(job);
    lock.Lock();
    if (--active_workers_ == 0) done_cv_.NotifyAll();
  }
}

void Parallelizer::Drain(const Job& job) {
  const std::function<void(std::size_t, Run&)>& fn = *job.fn;
  Run& run = *job.run;
  const std::size_t n = job.n;
  const std::size_t chunk = job.chunk;
  while (true) {
    const std::size_t start = next_.fetch_add(1, std::memory_order_relaxed) * chunk;
    if (start >= n) return;
    const std::size_t end = std::min(n, start + chunk);
    for (std::size_t i = start; i < end; ++i) {
      // As workqueue.ParallelizeUntil: cancellation is checked before every piece.
      if (run.cancelled()) return;
      fn(i, run);
    }
  }
}

}  // namespace ksched::framework
