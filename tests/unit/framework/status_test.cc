#include "framework/status.h"

#include <catch2/catch.hpp>

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
