// The local launcher (launch.h): fork + exec of N workers, wait, stop all on the first failure.
#include "oomkit/train/launch.h"

#include "oomkit/core/train_options.h"

#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>

namespace oomkit {

namespace {

std::atomic<int> g_forward_signal{0};

extern "C" void on_launcher_signal(int sig) { g_forward_signal.store(sig); }

// A TCP port free on the loopback interface now (the kernel's choice for port 0). Another
// process could take it before rank 0 binds it; the store then fails to start, naming the port.
int free_loopback_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof(addr);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    const int err = errno;
    ::close(fd);
    throw std::runtime_error(std::string("choosing a free port: ") + std::strerror(err));
  }
  ::close(fd);
  return ntohs(addr.sin_port);
}

std::string describe(int status) {
  if (WIFEXITED(status)) return "exited with code " + std::to_string(WEXITSTATUS(status));
  const int sig = WTERMSIG(status);
  const char* name = ::sigdescr_np(sig);
  return "was killed by signal " + std::to_string(sig) + (name ? std::string(" (") + name + ")" : std::string());
}

int exit_code_of(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status); }

}  // namespace

std::vector<std::string> strip_launcher_flags(const std::vector<std::string>& argv) {
  std::vector<std::string> out;
  for (size_t i = 0; i < argv.size(); ++i) {
    if (argv[i] == "--nproc-per-node") {
      ++i;  // and its value
      continue;
    }
    if (argv[i].rfind("--nproc-per-node=", 0) == 0) continue;
    out.push_back(argv[i]);
  }
  return out;
}

// Milliseconds the other ranks get to end on their own after the first failure, before SIGTERM.
constexpr int64_t kSettleMs = 2000;

int launch_local_workers(const LaunchOptions& options) {
  const int n = options.nproc_per_node;
  const int port = options.master_port > 0 ? options.master_port : free_loopback_port();
  std::vector<char*> args;
  for (const auto& a : options.argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);

  struct sigaction action {}, old_int {}, old_term {};
  action.sa_handler = on_launcher_signal;
  sigemptyset(&action.sa_mask);
  g_forward_signal.store(0);
  sigaction(SIGINT, &action, &old_int);
  sigaction(SIGTERM, &action, &old_term);

  std::vector<pid_t> pids(n, -1);
  std::vector<bool> running(n, false);
  const pid_t launcher = ::getpid();
  for (int rank = 0; rank < n; ++rank) {
    const pid_t pid = ::fork();
    if (pid < 0) {
      const int err = errno;
      for (int r = 0; r < rank; ++r) ::kill(pids[r], SIGKILL);
      throw std::runtime_error(std::string("fork: ") + std::strerror(err));
    }
    if (pid == 0) {
      // A worker dies with its launcher (SIGKILL included), as torchrun's workers do.
      ::prctl(PR_SET_PDEATHSIG, SIGTERM);
      if (::getppid() != launcher) ::_exit(143);
      sigaction(SIGINT, &old_int, nullptr);
      sigaction(SIGTERM, &old_term, nullptr);
      ::setenv("RANK", std::to_string(rank).c_str(), 1);
      ::setenv("LOCAL_RANK", std::to_string(rank).c_str(), 1);
      ::setenv("GROUP_RANK", "0", 1);
      ::setenv("WORLD_SIZE", std::to_string(n).c_str(), 1);
      ::setenv("LOCAL_WORLD_SIZE", std::to_string(n).c_str(), 1);
      ::setenv("MASTER_ADDR", options.master_addr.c_str(), 1);
      ::setenv("MASTER_PORT", std::to_string(port).c_str(), 1);
      ::unsetenv("TORCHELASTIC_USE_AGENT_STORE");
      ::execv(options.executable.c_str(), args.data());
      std::fprintf(stderr, "error: rank %d: cannot run %s: %s\n", rank, options.executable.c_str(), std::strerror(errno));
      ::_exit(127);
    }
    pids[rank] = pid;
    running[rank] = true;
  }

  int left = n;
  int job_code = 0;
  int forwarded = 0;
  std::chrono::steady_clock::time_point term_at{}, kill_at{};
  bool stopping = false, termed = false;
  while (left > 0) {
    const int sig = g_forward_signal.load();
    if (sig != 0 && sig != forwarded) {
      forwarded = sig;
      for (int r = 0; r < n; ++r) {
        if (running[r]) ::kill(pids[r], sig);
      }
    }
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, WNOHANG);
    if (pid > 0) {
      int rank = -1;
      for (int r = 0; r < n; ++r) {
        if (pids[r] == pid) rank = r;
      }
      if (rank < 0) continue;
      running[rank] = false;
      --left;
      const bool failed = !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
      if (failed && job_code == 0 && !stopping) {
        job_code = exit_code_of(status);
        if (left > 0) {
          std::string others;
          for (int r = 0; r < n; ++r) {
            if (running[r]) others += (others.empty() ? "" : ", ") + std::to_string(r);
          }
          std::fprintf(stderr, "error: rank %d (pid %d) %s; stopping rank%s %s\n", rank, static_cast<int>(pid),
                       describe(status).c_str(), left > 1 ? "s" : "", others.c_str());
          // The others get a moment to end on their own first: a rank that failed on its
          // peer's closed connection often exits before the peer whose error caused it (an
          // OOM it could not share), and that peer's exit code is the job's.
          stopping = true;
          termed = false;
          term_at = std::chrono::steady_clock::now() + std::chrono::milliseconds(kSettleMs);
          kill_at = term_at + std::chrono::milliseconds(static_cast<int64_t>(options.grace_s * 1000.0));
        } else {
          std::fprintf(stderr, "error: rank %d (pid %d) %s\n", rank, static_cast<int>(pid), describe(status).c_str());
        }
      } else if (failed && job_code == 0 && forwarded != 0) {
        job_code = exit_code_of(status);  // stopped by the forwarded signal: 130 / 143
      } else if (failed && job_code != kExitOom && WIFEXITED(status) && WEXITSTATUS(status) == kExitOom) {
        // A rank stopped by an OOM it could not share with the others (data parallelism) exits
        // 3 while its peers fail on the closed connection (exit 1), often first: the OOM is the
        // job's cause and its exit code.
        std::fprintf(stderr, "error: rank %d (pid %d) %s: the job's exit code\n", rank, static_cast<int>(pid),
                     describe(status).c_str());
        job_code = kExitOom;
      }
      continue;
    }
    if (stopping && !termed && std::chrono::steady_clock::now() > term_at) {
      for (int r = 0; r < n; ++r) {
        if (running[r]) ::kill(pids[r], SIGTERM);
      }
      termed = true;
    }
    if (stopping && termed && std::chrono::steady_clock::now() > kill_at) {
      for (int r = 0; r < n; ++r) {
        if (running[r]) ::kill(pids[r], SIGKILL);
      }
      stopping = false;  // SIGKILL sent once; the loop reaps them
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGTERM, &old_term, nullptr);
  return job_code;
}

}  // namespace oomkit
