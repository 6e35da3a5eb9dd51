// `oomkit train --nproc-per-node N`: the local launcher, as torchrun's (torch.distributed.run)
// for one machine. The parent starts N copies of oomkit-train with torchrun's environment
// (RANK, LOCAL_RANK, WORLD_SIZE, LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT), waits for them,
// and when one fails stops the others and names it. Torch-free.
#pragma once

#include <string>
#include <vector>

namespace oomkit {

struct LaunchOptions {
  int nproc_per_node = 1;                 // N local workers (ranks 0..N-1)
  std::string executable;                 // the worker binary (oomkit-train)
  std::vector<std::string> argv;          // the workers' argv (argv[0] included), without --nproc-per-node
  std::string master_addr = "127.0.0.1";  // MASTER_ADDR given to the workers
  int master_port = 0;                    // MASTER_PORT; 0: a free loopback port chosen here
  double grace_s = 10.0;                  // after a failure: SIGTERM, then SIGKILL after this long
};

/// Removes `--nproc-per-node N` / `--nproc-per-node=N` from `argv` (the workers' command line).
std::vector<std::string> strip_launcher_flags(const std::vector<std::string>& argv);

/// Runs the workers and returns the job's exit code: 0 when every rank exited 0; otherwise the
/// first failing rank's exit code (128 + signal when it was killed), or 3 (kExitOom) when a rank
/// stopped by an OOM exits after it; the others get 2 s to end on their own, then SIGTERM (and,
/// past grace_s, SIGKILL); one line on stderr, "error: rank R (pid P) exited with code C" /
/// "was killed by signal S", naming the ranks stopped. SIGINT/SIGTERM to the
/// launcher are passed on to the workers (which finish their step, save and exit 130/143).
/// Throws std::runtime_error when a worker cannot be started.
int launch_local_workers(const LaunchOptions& options);

}  // namespace oomkit
