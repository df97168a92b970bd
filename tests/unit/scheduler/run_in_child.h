// RunInChild: runs a function in a forked child process, stdout discarded and stderr captured, and
// reports how the child ended: for tests of code that exits or aborts the process on purpose (the
// cache's FlushAndExit, debug-build invariant checks). Fork from a test with no threads of its own
// running (the child has only the forking thread).
#pragma once

#include <catch2/catch.hpp>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <functional>
#include <string>

namespace ksched::scheduler::testing {

struct ChildEnd {
  bool exited = false;  // by exit / _exit, with exit_code
  int exit_code = 0;
  bool signaled = false;  // killed by `signal` (SIGABRT for std::abort)
  int signal = 0;
  std::string stderr_text;
};

// The child runs `fn` and then _exit(0).
inline ChildEnd RunInChild(const std::function<void()>& fn) {
  std::fflush(nullptr);
  int pipe_fds[2];
  REQUIRE(pipe(pipe_fds) == 0);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    // The child ends by the signal itself, not through Catch2's fatal-signal handler inherited from
    // the test's main: that handler reports and allocates inside the signal, which ThreadSanitizer
    // rejects ("signal-unsafe call inside of a signal", exit 66 under halt_on_error=1), so the
    // child would exit instead of being killed by SIGABRT.
    std::signal(SIGABRT, SIG_DFL);
    close(pipe_fds[0]);
    const int devnull = open("/dev/null", O_WRONLY);
    if (devnull >= 0) dup2(devnull, STDOUT_FILENO);
    dup2(pipe_fds[1], STDERR_FILENO);
    fn();
    _exit(0);
  }
  close(pipe_fds[1]);
  ChildEnd end;
  char buffer[4096];
  for (ssize_t n; (n = read(pipe_fds[0], buffer, sizeof buffer)) > 0;) {
    end.stderr_text.append(buffer, static_cast<std::size_t>(n));
  }
  close(pipe_fds[0]);
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  end.exited = WIFEXITED(status);
  end.exit_code = end.exited ? WEXITSTATUS(status) : 0;
  end.signaled = WIFSIGNALED(status);
  end.signal = end.signaled ? WTERMSIG(status) : 0;
  return end;
}

}  // namespace ksched::scheduler::testing
