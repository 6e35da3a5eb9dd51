// Data parallelism on LibTorch's c10d: the job's environment (torchrun's variables), the
// process group (Gloo over a TCPStore) and DDP's gradient reducer (c10d::Reducer: gradients
// all-reduced in buckets as they become ready during backward).
//
// Only src/train/distributed.cpp includes the c10d headers; this header is plain LibTorch.
// Terms: W world size (processes in the job), r rank (0..W-1), DP data parallelism.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <torch/torch.h>

namespace oomkit {

/// Where this process sits in a job: torchrun's (and Slurm/Kubernetes launchers') variables.
struct DistEnv {
  int rank = 0;              // RANK: 0..world_size-1
  int world_size = 1;        // WORLD_SIZE: processes in the job
  int local_rank = 0;        // LOCAL_RANK: index on this machine
  int local_world_size = 1;  // LOCAL_WORLD_SIZE: processes on this machine (threads default to cores / it)
  std::string master_addr = "127.0.0.1";  // MASTER_ADDR: host of rank 0's TCPStore
  int master_port = 29500;   // MASTER_PORT: its port (torchrun's default 29500)
  bool agent_store = false;  // TORCHELASTIC_USE_AGENT_STORE=True: torchrun's agent hosts the store
  bool distributed() const { return world_size > 1; }
};

/// Reads RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT and
/// TORCHELASTIC_USE_AGENT_STORE. Without WORLD_SIZE: one process (rank 0 of 1). Throws
/// InputError naming the variable for a non-integer or out-of-range value (RANK >= WORLD_SIZE,
/// a port outside 1..65535, WORLD_SIZE set without RANK).
DistEnv dist_env_from_environment();

/// One collective as it ran: a gradient bucket's all-reduce (launched by the reducer during
/// backward) or another op. Times are steady-clock nanoseconds (the profiler's clock).
struct CollectiveRecord {
  std::string op;          // "allreduce", "broadcast", "reduce"
  std::string what;        // "grad_bucket", "loss", "val_loss", "broadcast_parameters", "stop_flag",
                           // "zero_parameters", "zero_optimizer_state", "zero_gradients"
  int64_t bucket = -1;     // bucket index for grad_bucket (0 = first launched), else -1
  int64_t bytes = 0;       // payload bytes
  int64_t launch_ns = 0;   // steady clock at launch
  int64_t done_ns = 0;     // steady clock when it completed (0: never completed)
};

/// The job's process group: c10d::ProcessGroupGloo over a c10d::TCPStore at
/// MASTER_ADDR:MASTER_PORT (rank 0 hosts it unless torchrun's agent does). Every call is a
/// collective: all ranks must make it, in the same order. Errors (a peer died, a timeout) come
/// out as std::runtime_error naming the operation.
class ProcessGroup {
 public:
  /// Connects to the store and the other W-1 ranks. `backend` "gloo" (CPU tensors); "nccl" is
  /// refused with InputError("--backend") in a build without CUDA and NCCL (this LibTorch
  /// build: CPU only). `timeout` bounds the store's rendezvous and every collective, so a rank
  /// that never arrives or died ends the job instead of hanging it. Throws std::runtime_error
  /// when the store or the peers cannot be reached within `timeout`.
  ProcessGroup(const DistEnv& env, const std::string& backend, std::chrono::milliseconds timeout);
  ~ProcessGroup();
  ProcessGroup(const ProcessGroup&) = delete;
  ProcessGroup& operator=(const ProcessGroup&) = delete;

  int rank() const { return env_.rank; }
  int world_size() const { return env_.world_size; }
  const DistEnv& env() const { return env_; }

  /// Sums `values` (float64) over the ranks; each rank gets the sums. `what` names it in the
  /// collective log ("loss", "val_loss", "stop_flag").
  std::vector<double> allreduce_sum(const std::vector<double>& values, const std::string& what);
  /// Copies rank 0's tensors into every rank's (in place), bucketed as DDP's initial
  /// _sync_module_states (c10d::broadcast_coalesced's buckets: one dtype each, up to 250 MiB).
  /// Each bucket's flat buffer is freed before this returns (it is broadcast through a view
  /// that does not own it), so none shows in the first step's memory marks.
  void broadcast_from_rank0(const std::vector<torch::Tensor>& tensors);
  /// Copies rank `root`'s values of `tensors` into every rank's, in place: one c10d broadcast
  /// per tensor, all launched and then waited for (ZeroRedundancyOptimizer._sync_params in
  /// torch 1.13 without parameters_as_bucket_view), so no flat buffer is allocated. `what`
  /// names it in the collective log ("zero_parameters"). Throws std::runtime_error from c10d.
  void broadcast_from(const std::vector<torch::Tensor>& tensors, int root, const std::string& what);
  /// Sums every rank's `tensors` into rank `root`'s, in place: one c10d reduce per tensor
  /// (ReduceOp SUM), all launched and then waited for, so no flat buffer is allocated. On the
  /// other ranks the tensors' contents are unspecified afterwards (Gloo may use them as scratch):
  /// ZeRO-2 drops them. Gloo is handed non-owning views, so dropping a tensor right after the
  /// call frees it at once. `tensors` must be contiguous and stay alive through the call. `what`
  /// names it in the collective log ("zero_gradients"). Throws std::runtime_error from c10d.
  void reduce_to(const std::vector<torch::Tensor>& tensors, int root, const std::string& what);
  /// Rank `root`'s `payload` on every rank (the other ranks' argument is ignored): its length,
  /// then its bytes, each a c10d broadcast, through buffers of the group's own (outside the c10
  /// allocator, so a checkpoint's transfer never shows in the run's memory marks). Throws
  /// std::runtime_error.
  std::string broadcast_blob(const std::string& payload, int root, const std::string& what);
  /// Rank 0's `value` on every rank, through the store (key `key`); other ranks' values ignored.
  std::string share_from_rank0(const std::string& key, const std::string& value);
  /// Waits for every rank.
  void barrier();

  /// Collectives completed since the last call (the reducer's bucket all-reduces included), in
  /// launch order. Thread-safe: bucket completions are recorded by Gloo's threads.
  std::vector<CollectiveRecord> take_collectives();
  void record_collective(const CollectiveRecord& record);

  struct Impl;
  Impl& impl() { return *impl_; }

 private:
  DistEnv env_;
  std::unique_ptr<Impl> impl_;
  std::mutex collectives_mutex_;
  std::vector<CollectiveRecord> collectives_;
};

/// DDP's gradient synchronisation (torch.nn.parallel.DistributedDataParallel, without Python):
/// c10d::Reducer with buckets from c10d::compute_bucket_assignment_by_size, parameters in
/// reverse order (the order backward produces their gradients), a first bucket of 1 MiB
/// (DDP's _DEFAULT_FIRST_BUCKET_BYTES) and then `bucket_cap_bytes` (DDP's bucket_cap_mb,
/// default 25 MiB). Each bucket's all-reduce is launched from an autograd hook as soon as its
/// last gradient is accumulated, so communication overlaps the rest of backward; gradients are
/// divided by W (an average, DDP's default hook). The bucket buffers are allocated once, here,
/// through the c10 allocator: one flat copy of the gradients, float32 for float32 parameters.
class GradientReducer {
 public:
  /// `params` are the trainable parameters, all of which must get a gradient in every synced
  /// backward (find_unused_parameters = false). Throws std::runtime_error from c10d.
  GradientReducer(ProcessGroup& group, const std::vector<torch::Tensor>& params, int64_t bucket_cap_bytes);
  ~GradientReducer();
  /// Call before a backward whose gradients must be averaged (the last micro-step of a
  /// gradient-accumulation step). A backward without it accumulates locally only: DDP's
  /// no_sync(). The averaged gradients are in param.grad() when backward() returns.
  void prepare_for_backward();
  int64_t num_buckets() const;
  /// Bytes of each bucket, in launch order.
  std::vector<int64_t> bucket_bytes() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace oomkit
