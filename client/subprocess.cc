#include "client/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <thread>
#include <system_error>
#include <vector>

#include "absl/status/status.h"
#include "client/concat.h"

namespace ksched::client {

namespace {

std::string ErrnoText(int err) { return std::generic_category().message(err); }

// Owns a file descriptor.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { Reset(); }
  int get() const { return fd_; }
  void Reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }
  int* out() { return &fd_; }

 private:
  int fd_ = -1;
};

absl::Status MakePipe(Fd* read_end, Fd* write_end) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    return absl::InternalError(Concat("pipe: ", ErrnoText(errno)));
  }
  *read_end->out() = fds[0];
  *write_end->out() = fds[1];
  return absl::OkStatus();
}

// posix_spawn file actions and attributes, destroyed on every return path.
class SpawnSetup {
 public:
  SpawnSetup() {
    actions_ok_ = ::posix_spawn_file_actions_init(&actions_) == 0;
    attr_ok_ = ::posix_spawnattr_init(&attr_) == 0;
  }
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;
  ~SpawnSetup() {
    if (actions_ok_) ::posix_spawn_file_actions_destroy(&actions_);
    if (attr_ok_) ::posix_spawnattr_destroy(&attr_);
  }
  bool ok() const { return actions_ok_ && attr_ok_; }
  posix_spawn_file_actions_t* actions() { return &actions_; }
  posix_spawnattr_t* attr() { return &attr_; }

 private:
  posix_spawn_file_actions_t actions_{};
  posix_spawnattr_t attr_{};
  bool actions_ok_ = false;
  bool attr_ok_ = false;
};

void WriteAll(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return;  // best effort: our own stderr being closed must not fail the plugin run
    }
    data += n;
    size -= static_cast<std::size_t>(n);
  }
}

// Waits for `pid`, retrying on EINTR. Returns the wait status, or -1 on failure.
int WaitFor(pid_t pid) {
  int status = 0;
  for (;;) {
    const pid_t r = ::waitpid(pid, &status, 0);
    if (r == pid) return status;
    if (r < 0 && errno == EINTR) continue;
    return -1;
  }
}

}  // namespace

absl::StatusOr<SubprocessResult> RunSubprocess(const SubprocessSpec& spec) {
  if (spec.argv.empty() || spec.argv[0].empty()) {
    return absl::InvalidArgumentError("RunSubprocess: no program given");
  }
  const std::string& program = spec.argv[0];

  Fd out_read, out_write, err_read, err_write;
  if (absl::Status s = MakePipe(&out_read, &out_write); !s.ok()) return s;
  if (absl::Status s = MakePipe(&err_read, &err_write); !s.ok()) return s;

  SpawnSetup setup;
  if (!setup.ok()) return absl::InternalError("posix_spawn: cannot initialise attributes");
  // The pipe ends carry O_CLOEXEC, so only the dup2'ed copies survive the exec.
  if (::posix_spawn_file_actions_addopen(setup.actions(), STDIN_FILENO, "/dev/null", O_RDONLY, 0) !=
          0 ||
      ::posix_spawn_file_actions_adddup2(setup.actions(), out_write.get(), STDOUT_FILENO) != 0 ||
      ::posix_spawn_file_actions_adddup2(setup.actions(), err_write.get(), STDERR_FILENO) != 0) {
    return absl::InternalError("posix_spawn: cannot set up the child's standard streams");
  }
  sigset_t empty_mask;
  sigset_t all_signals;
  sigemptyset(&empty_mask);
  sigfillset(&all_signals);
  if (::posix_spawnattr_setflags(setup.attr(), POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF |
                                                   POSIX_SPAWN_SETPGROUP) != 0 ||
      ::posix_spawnattr_setsigmask(setup.attr(), &empty_mask) != 0 ||
      ::posix_spawnattr_setsigdefault(setup.attr(), &all_signals) != 0 ||
      ::posix_spawnattr_setpgroup(setup.attr(), 0) != 0) {
    return absl::InternalError("posix_spawn: cannot set the child's signal state");
  }

  std::vector<char*> argv;
  argv.reserve(spec.argv.size() + 1);
  for (const std::string& arg : spec.argv) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  std::vector<char*> envp;
  envp.reserve(spec.env.size() + 1);
  for (const std::string& entry : spec.env) envp.push_back(const_cast<char*>(entry.c_str()));
  envp.push_back(nullptr);

  pid_t pid = -1;
  const int spawn_error = ::posix_spawnp(&pid, program.c_str(), setup.actions(), setup.attr(),
                                         argv.data(), envp.data());
  if (spawn_error != 0) {
    const std::string message = Concat(program, ": ", ErrnoText(spawn_error));
    if (spawn_error == ENOENT || spawn_error == ENOTDIR) return absl::NotFoundError(message);
    if (spawn_error == EACCES || spawn_error == EPERM) return absl::PermissionDeniedError(message);
    return absl::InternalError(Concat("posix_spawn ", message));
  }
  out_write.Reset();
  err_write.Reset();

  SubprocessResult result;
  const bool has_deadline = spec.timeout.count() > 0;
  const auto deadline = std::chrono::steady_clock::now() + spec.timeout;
  absl::Status failure;  // set when the child must be killed
  char buffer[16384];
  while (out_read.get() >= 0 || err_read.get() >= 0) {
    int wait_ms = -1;
    if (has_deadline) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) {
        failure = absl::DeadlineExceededError(Concat(
            program, ": did not finish within ", spec.timeout.count(), "ms and was killed"));
        break;
      }
      wait_ms = static_cast<int>(std::min<long long>(left.count() + 1, 60'000));
    }
    pollfd fds[2];
    nfds_t count = 0;
    if (out_read.get() >= 0) fds[count++] = pollfd{out_read.get(), POLLIN, 0};
    if (err_read.get() >= 0) fds[count++] = pollfd{err_read.get(), POLLIN, 0};
    const int ready = ::poll(fds, count, wait_ms);
    if (ready < 0) {
      if (errno == EINTR) continue;
      failure = absl::InternalError(Concat("poll: ", ErrnoText(errno)));
      break;
    }
    for (nfds_t i = 0; i < count; ++i) {
      if (fds[i].revents == 0) continue;
      const bool is_stdout = fds[i].fd == out_read.get();
      const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (n <= 0) {
        (is_stdout ? out_read : err_read).Reset();
        continue;
      }
      const auto size = static_cast<std::size_t>(n);
      if (is_stdout) {
        if (result.stdout_data.size() + size > spec.max_stdout_bytes) {
          failure = absl::ResourceExhaustedError(Concat(program, ": wrote more than ",
                                                        spec.max_stdout_bytes,
                                                        " bytes to stdout and was killed"));
          break;
        }
        result.stdout_data.append(buffer, size);
      } else {
        if (spec.pass_through_stderr) WriteAll(STDERR_FILENO, buffer, size);
        if (result.stderr_data.size() < spec.max_stderr_bytes) {
          const std::size_t room = spec.max_stderr_bytes - result.stderr_data.size();
          result.stderr_data.append(buffer, std::min(size, room));
        }
      }
    }
    if (!failure.ok()) break;
  }

  // Both pipes closed, but the child may run on (it closed its output and kept going): the
  // deadline holds for its exit too.
  int status = -1;
  if (failure.ok() && has_deadline) {
    for (;;) {
      const pid_t r = ::waitpid(pid, &status, WNOHANG);
      if (r == pid) break;
      if (r < 0 && errno != EINTR) {
        status = -1;
        break;
      }
      if (std::chrono::steady_clock::now() >= deadline) {
        failure = absl::DeadlineExceededError(Concat(
            program, ": did not finish within ", spec.timeout.count(), "ms and was killed"));
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  if (!failure.ok()) {
    ::kill(-pid, SIGKILL);  // the child leads its own process group
    ::kill(pid, SIGKILL);
    WaitFor(pid);
    return failure;
  }
  if (!has_deadline) status = WaitFor(pid);
  if (status == -1) return absl::InternalError(Concat("waitpid ", program, ": ", ErrnoText(errno)));
  if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.term_signal = WTERMSIG(status);
  }
  return result;
}

}  // namespace ksched::client
