#include "framework/status.h"

#include <catch2/catch.hpp>

#include "sanitizers/sanitizer_build.h"

#include <atomic>
#include <cstdlib>
#include <new>
#include <string>
#include <thread>
#include <vector>

using ksched::framework::Code;
using ksched::framework::CodeName;
using ksched::framework::Status;

TEST_CASE("a default Status is Success with an empty message", "[framework][status]") {
  Status status;
  CHECK(status.IsSuccess());
  CHECK_FALSE(status.IsRejected());
  CHECK(status.Message().empty());
  CHECK(status.ToString() == "Success");
}

TEST_CASE("code names are upstream's, in upstream's order", "[framework][status]") {
  struct Row {
    Code code;
    const char* name;
    int value;
  };
  const Row rows[] = {
      {Code::kSuccess, "Success", 0},
      {Code::kError, "Error", 1},
      {Code::kUnschedulable, "Unschedulable", 2},
      {Code::kUnschedulableAndUnresolvable, "UnschedulableAndUnresolvable", 3},
      {Code::kWait, "Wait", 4},
      {Code::kSkip, "Skip", 5},
      {Code::kPending, "Pending", 6},
  };
  for (const Row& row : rows) {
    CAPTURE(row.name);
    CHECK(CodeName(row.code) == row.name);
    CHECK(static_cast<int>(row.code) == row.value);
  }
}

TEST_CASE("IsRejected covers exactly Unschedulable, UnschedulableAndUnresolvable and Pending",
          "[framework][status]") {
  CHECK(Status(Code::kUnschedulable).IsRejected());
  CHECK(Status(Code::kUnschedulableAndUnresolvable).IsRejected());
  CHECK(Status(Code::kPending).IsRejected());
  CHECK_FALSE(Status(Code::kError).IsRejected());
  CHECK_FALSE(Status(Code::kWait).IsRejected());
  CHECK_FALSE(Status(Code::kSkip).IsRejected());
  CHECK(Status(Code::kWait).IsWait());
  CHECK(Status(Code::kSkip).IsSkip());
}

TEST_CASE("Message joins reasons with a comma and a space, error text first", "[framework][status]") {
  Status rejected(Code::kUnschedulable, {"Insufficient cpu", "Insufficient memory"});
  CHECK(rejected.Message() == "Insufficient cpu, Insufficient memory");

  Status failed = Status::FromError("connection refused");
  failed.AppendReason("while listing nodes");
  CHECK(failed.code() == Code::kError);
  CHECK(failed.Reasons() == std::vector<std::string>{"connection refused", "while listing nodes"});
  CHECK(failed.Message() == "connection refused, while listing nodes");
}

TEST_CASE("the plugin name is provenance: shown by ToString, ignored by equality",
          "[framework][status]") {
  Status a = Status(Code::kUnschedulable, {"node(s) didn't match Pod's node affinity/selector"})
                 .WithPlugin("NodeAffinity");
  Status b(Code::kUnschedulable, {"node(s) didn't match Pod's node affinity/selector"});
  CHECK(a.plugin() == "NodeAffinity");
  CHECK(a == b);
  CHECK(a.ToString() ==
        "Unschedulable: node(s) didn't match Pod's node affinity/selector (plugin NodeAffinity)");
  CHECK_FALSE(a == Status(Code::kUnschedulableAndUnresolvable,
                          {"node(s) didn't match Pod's node affinity/selector"}));
}

// Allocation counting for the sharing tests below: every operator new on this thread. Under
// AddressSanitizer (`make sanitize-test`) ASan owns operator new, a replacement here would free
// its blocks with the wrong function, so nothing is counted and only the semantics are checked.
namespace {
thread_local std::size_t allocations = 0;
#if defined(KSCHED_UNDER_ASAN)
constexpr bool kCountsAllocations = false;
#else
constexpr bool kCountsAllocations = true;
#endif
}  // namespace

#if !defined(KSCHED_UNDER_ASAN)
void* operator new(std::size_t size) {
  ++allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
#endif

TEST_CASE("copies share the reasons: copying a rejection allocates nothing",
          "[framework][status]") {
  const Status constant =
      Status(Code::kUnschedulable, {"node(s) didn't match pod anti-affinity rules"})
          .WithPlugin("InterPodAffinity");
  const std::size_t before = allocations;
  Status copy = constant;
  copy.WithPlugin("InterPodAffinity");  // the name it carries: a no-op
  Status assigned;
  assigned = copy;
  Status moved = std::move(copy);
  if (kCountsAllocations) CHECK(allocations == before);
  CHECK(moved == constant);
  CHECK(assigned.plugin() == "InterPodAffinity");
  CHECK(assigned.Message() == "node(s) didn't match pod anti-affinity rules");
}

TEST_CASE("changing a copy leaves the status it was copied from alone", "[framework][status]") {
  const Status original = Status(Code::kUnschedulable, {"Insufficient cpu"}).WithPlugin("Fit");

  Status renamed = original;
  renamed.WithPlugin("Other");
  CHECK(renamed.plugin() == "Other");
  CHECK(original.plugin() == "Fit");

  Status appended = original;
  appended.AppendReason("Insufficient memory");
  CHECK(appended.Message() == "Insufficient cpu, Insufficient memory");
  CHECK(original.Message() == "Insufficient cpu");

  Status with_error = original;
  with_error.WithError("0/3 nodes are available");
  CHECK(with_error.Message() == "0/3 nodes are available, Insufficient cpu");
  CHECK(original.error().empty());

  // A status that is not shared changes in place.
  Status sole(Code::kUnschedulable, {"a"});
  const std::size_t before = allocations;
  sole.WithPlugin("P");  // the block exists and is not shared; "P" fits the string's own buffer
  if (kCountsAllocations) CHECK(allocations == before);
  CHECK(sole.plugin() == "P");

  // Stamping an empty name on a bare status makes no block.
  Status bare(Code::kUnschedulable);
  const std::size_t before_bare = allocations;
  bare.WithPlugin("");
  if (kCountsAllocations) CHECK(allocations == before_bare);
}

TEST_CASE("statuses copied from one constant on many threads stay intact", "[framework][status]") {
  const Status constant = Status(Code::kUnschedulable, {"shared"}).WithPlugin("P");
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 20000; ++i) {
        Status copy = constant;
        if (i % 2 == 0) copy.WithPlugin("Q");  // unshares its own copy only
        if (copy.Message() != "shared") wrong.fetch_add(1);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  CHECK(wrong.load() == 0);
  CHECK(constant.plugin() == "P");
}
