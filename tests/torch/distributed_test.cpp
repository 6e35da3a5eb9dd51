// Tests of include/oomkit/train/distributed.h: two real processes (fork) joined by c10d's Gloo
// process group over a TCPStore on a free loopback port. Each child checks its own results and
// reports through its exit code; the parent waits with a deadline, so a hang fails the test.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "oomkit/core/error.h"
#include "oomkit/train/distributed.h"

namespace oomkit {
namespace {

int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
  socklen_t len = sizeof(addr);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  ::close(fd);
  return ntohs(addr.sin_port);
}

// Runs body(rank, port) in `world` forked processes; returns each child's exit status (the
// body's return value, 100 for an exception, 124 when the deadline killed it).
std::vector<int> run_ranks(int world, const std::function<int(int, int)>& body, int deadline_s = 60) {
  const int port = free_port();
  std::vector<pid_t> pids;
  for (int rank = 0; rank < world; ++rank) {
    const pid_t pid = ::fork();
    if (pid == 0) {
      int code = 100;
      try {
        code = body(rank, port);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "rank %d: %s\n", rank, e.what());
      }
      std::fflush(nullptr);
      ::_exit(code);
    }
    pids.push_back(pid);
  }
  std::vector<int> codes(world, -1);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(deadline_s);
  int left = world;
  while (left > 0) {
    for (int r = 0; r < world; ++r) {
      if (codes[r] != -1) continue;
      int status = 0;
      if (::waitpid(pids[r], &status, WNOHANG) == pids[r]) {
        codes[r] = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        --left;
      }
    }
    if (left > 0 && std::chrono::steady_clock::now() > deadline) {
      for (int r = 0; r < world; ++r) {
        if (codes[r] == -1) {
          ::kill(pids[r], SIGKILL);
          ::waitpid(pids[r], nullptr, 0);
          codes[r] = 124;
        }
      }
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return codes;
}

DistEnv env_for(int rank, int world, int port) {
  DistEnv env;
  env.rank = rank;
  env.local_rank = rank;
  env.world_size = world;
  env.local_world_size = world;
  env.master_port = port;
  return env;
}

// Invariant: an all-reduce sums each rank's values exactly (small integers in float64), a
// broadcast gives every rank rank 0's tensor, and a string set by rank 0 reaches rank 1.
TEST(ProcessGroup, TwoProcessAllreduceBroadcastAndStore) {
  const auto codes = run_ranks(2, [](int rank, int port) {
    ProcessGroup group(env_for(rank, 2, port), "gloo", std::chrono::seconds(30));
    const std::vector<double> sum = group.allreduce_sum({1.0 + rank, 10.0 * (rank + 1)}, "test");
    if (sum != std::vector<double>{3.0, 30.0}) return 1;
    torch::Tensor t = torch::full({5}, static_cast<float>(rank + 7));  // rank 0: 7, rank 1: 8
    group.broadcast_from_rank0({t});
    if (!torch::equal(t, torch::full({5}, 7.0f))) return 2;
    if (group.share_from_rank0("run_dir", rank == 0 ? "runs/a" : "runs/b") != "runs/a") return 3;
    if (group.take_collectives().size() != 2) return 4;  // the all-reduce and the broadcast
    group.barrier();
    return 0;
  });
  EXPECT_EQ(codes, (std::vector<int>{0, 0}));
}

// Invariant (DDP semantics): after a synced backward every rank holds the mean of the ranks'
// gradients, here computed independently in each child from both ranks' inputs; a backward
// without prepare_for_backward() (no_sync) keeps the local gradient, and the next synced
// backward averages the accumulated sums. Buckets: 1 MiB cap splits the 600x600 (1.37 MiB)
// weight from the rest, so more than one bucket is launched.
TEST(GradientReducer, AveragesGradientsAcrossRanksAndHonoursNoSync) {
  const auto codes = run_ranks(2, [](int rank, int port) {
    ProcessGroup group(env_for(rank, 2, port), "gloo", std::chrono::seconds(30));
    torch::manual_seed(3);
    torch::nn::Linear a(600, 600), b(600, 4);
    std::vector<torch::Tensor> params = a->parameters();
    for (const auto& p : b->parameters()) params.push_back(p);
    GradientReducer reducer(group, params, int64_t{1} << 20);
    if (reducer.num_buckets() < 2) return 1;
    auto input = [](int r, int micro) {
      return torch::sin(torch::arange(2 * 600, torch::kFloat32).reshape({2, 600}) * (1 + r) + micro);
    };
    auto loss_of = [&](const torch::Tensor& x) { return b(torch::relu(a(x))).pow(2).mean(); };
    // Expected: mean over ranks of the sum over micro-steps 0 and 1 of each rank's gradient.
    std::vector<torch::Tensor> expected(params.size());
    for (int r = 0; r < 2; ++r) {
      for (int micro = 0; micro < 2; ++micro) {
        for (auto& p : params) p.mutable_grad() = torch::Tensor();
        loss_of(input(r, micro)).backward();  // no prepare_for_backward: local only
        for (size_t i = 0; i < params.size(); ++i) {
          torch::Tensor g = params[i].grad().detach().clone() / 2.0;
          expected[i] = expected[i].defined() ? expected[i] + g : g;
        }
      }
    }
    for (auto& p : params) p.mutable_grad() = torch::Tensor();
    loss_of(input(rank, 0)).backward();  // no_sync micro-step
    reducer.prepare_for_backward();
    loss_of(input(rank, 1)).backward();  // synced micro-step
    for (size_t i = 0; i < params.size(); ++i) {
      if (!torch::allclose(params[i].grad(), expected[i], 1e-5, 1e-7)) return 10 + static_cast<int>(i);
    }
    int64_t buckets = 0;
    for (const auto& c : group.take_collectives()) {
      if (c.what == "grad_bucket" && c.done_ns >= c.launch_ns && c.launch_ns > 0) ++buckets;
    }
    return buckets == reducer.num_buckets() ? 0 : 2;
  });
  EXPECT_EQ(codes, (std::vector<int>{0, 0}));
}

// Invariant: a rank whose peer died does not hang: its next collective fails within the
// process group's timeout (here 5 s), with an error rather than a wait.
// Rank 1 dies only after a barrier: Gloo's constructor connects the pairs while the peer may still
// be connecting, so a peer that dies straight after its own constructor can make rank 0's
// constructor fail instead (CI saw exactly that: exit 100, "Connection closed by peer"). After
// the barrier the group is whole on both ranks; the barrier's own ending may already see the
// closed connection, so the barrier is inside the timed try as well.
TEST(ProcessGroup, DeadPeerEndsTheCollectiveWithAnError) {
  const auto codes = run_ranks(
      2,
      [](int rank, int port) {
        ProcessGroup group(env_for(rank, 2, port), "gloo", std::chrono::seconds(5));
        if (rank == 1) {
          group.barrier();
          ::_exit(7);  // dies without a word
        }
        const auto t0 = std::chrono::steady_clock::now();
        try {
          group.barrier();
          group.allreduce_sum({1.0}, "test");
        } catch (const std::exception&) {
          const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
          return s < 15.0 ? 0 : 1;
        }
        return 2;  // the all-reduce "succeeded" without its peer
      },
      40);
  EXPECT_EQ(codes, (std::vector<int>{0, 7}));
}

// Invariant: the environment of torchrun is read as such; bad values name the variable.
TEST(DistEnv, ReadsTorchrunVariablesAndNamesBadOnes) {
  ::setenv("WORLD_SIZE", "4", 1);
  ::setenv("RANK", "3", 1);
  ::setenv("LOCAL_RANK", "1", 1);
  ::setenv("LOCAL_WORLD_SIZE", "2", 1);
  ::setenv("MASTER_ADDR", "node7", 1);
  ::setenv("MASTER_PORT", "29611", 1);
  const DistEnv env = dist_env_from_environment();
  EXPECT_EQ(env.rank, 3);
  EXPECT_EQ(env.world_size, 4);
  EXPECT_EQ(env.local_rank, 1);
  EXPECT_EQ(env.local_world_size, 2);
  EXPECT_EQ(env.master_addr, "node7");
  EXPECT_EQ(env.master_port, 29611);
  ::setenv("RANK", "4", 1);
  try {
    dist_env_from_environment();
    FAIL() << "RANK 4 of WORLD_SIZE 4 accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "RANK");
  }
  ::setenv("RANK", "0", 1);
  ::setenv("MASTER_PORT", "http", 1);
  EXPECT_THROW(dist_env_from_environment(), InputError);
  ::unsetenv("WORLD_SIZE");
  EXPECT_EQ(dist_env_from_environment().world_size, 1);
}

// Invariant: --backend nccl on this CPU-only build is refused with one clear error naming the
// flag (before any connection is tried).
TEST(ProcessGroup, NcclIsRefusedOnACpuBuild) {
  try {
    ProcessGroup group(env_for(0, 2, free_port()), "nccl", std::chrono::seconds(1));
    FAIL() << "nccl accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--backend");
    EXPECT_NE(std::string(e.what()).find("CPU"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace oomkit
