// The training loop of `oomkit train`: options, the step, the run, the summary.
//
// One optimizer step = one draw of B·gradient_accumulation_steps windows (one data position),
// cut into gradient_accumulation_steps micro-batches of (B, T) tokens, each
// forward -> loss -> backward, then gradient clipping, the optimizer step and
// zero_grad(set_to_none=true). The profiler marks every phase (core/phases.h).
#pragma once

#include <cstdint>
#include <exception>
#include <memory>
#include <stdexcept>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <torch/torch.h>

#include "oomkit/core/train_options.h"
#include "oomkit/estimate/estimate.h"
#include "oomkit/profile/memory_backend.h"
#include "oomkit/profile/profiler.h"
#include "oomkit/train/data.h"
#include "oomkit/train/distributed.h"
#include "oomkit/train/model.h"

namespace oomkit {

/// lr at optimizer step `step` (0-based): linear warmup over warmup_steps to lr, then cosine
/// decay to min_lr at step total_steps - 1 (Loshchilov & Hutter 2017, SGDR; nanoGPT's get_lr).
double learning_rate(int64_t step, int64_t total_steps, double lr, int64_t warmup_steps, double min_lr);

/// One finished optimizer step.
struct StepStats {
  int64_t step = 0;
  double loss = 0.0;       // mean loss over the micro-batches (and the ranks)
  double lr = 0.0;
  double grad_norm = 0.0;  // before clipping (0 when not clipping)
  double ms = 0.0;         // wall time of the step
  double cpu_ms = 0.0;     // CPU time of the process during the step (all threads)
  int64_t tokens = 0;      // B·T·grad_accum·W: the step's tokens over all ranks
  bool skipped = false;    // fp16-mixed: non-finite gradients, step skipped, loss scale lowered
  StepMemory memory;       // the profiler's picture of the step (empty without a profiler)
};

/// Where the last OOM of a run struck, for the end-of-run summary (OomHandler::last_oom()).
struct OomPoint {
  int64_t step = -1;              // 0-based index of the failed step; an evaluation's OOM: the
                                  // step the evaluation followed
  std::string phase;              // forward, backward, optimizer_step, zero_grad, eval; "" unknown
  int64_t micro_step = 0;
  int64_t allocated_bytes = -1;   // allocated when the allocation was refused; -1 unknown
  int64_t requested_bytes = -1;   // the refused request; -1 unknown (CUDA on LibTorch 1.x)
  int64_t limit_bytes = 0;        // the budget (--memory-limit); 0 none
  std::string message;            // the OOM message's first line
};

/// The end-of-run record (the --json summary and summary.json).
///
/// Step numbering, everywhere in oomkit (progress lines, this summary, the timeline's and the
/// trace's `step`, the report, OOM events, resume and checkpoint messages): "step k" is the
/// 0-based index of an optimizer step, the k-th being the (k+1)-th step run; counts are counts
/// ("3 steps": steps 0..2). A checkpoint's `step` key is the number of steps completed, which is
/// the index of the step a resumed run starts with.
struct TrainSummary {
  int exit_code = 0;                 // 0, 3 (kExitOom) after an OOM, or 130 / 143 after SIGINT / SIGTERM
  std::string stop_reason = "completed";  // "completed", "oom", "SIGINT", "SIGTERM"
  int64_t total_steps = 0;           // --steps
  int64_t first_step = 0;            // index of the first step this process ran (> 0 after --resume)
  int64_t steps_done = 0;            // optimizer steps completed in total: steps 0 .. steps_done - 1
  int64_t steps_this_run = 0;        // of which this process completed: first_step .. steps_done - 1
  double first_loss = 0.0;           // training loss of step 0 (carried through resume); JSON null
                                     // when no step completed
  double final_loss = 0.0;           // training loss of step steps_done - 1; JSON null when this
                                     // process completed no step
  double val_loss = -1.0;            // last validation loss (nats/token); < 0: none
  double unigram_entropy_bits = 0.0; // of the training split
  double tokens_per_s = 0.0;         // training tokens / training wall time (no eval, no saves),
                                     // over the completed steps; JSON null when none completed
  double ms_per_step = 0.0;
  double tokens_per_cpu_s = 0.0;     // training tokens / process CPU time of the steps: the work
                                     // measure that a machine shared with other jobs leaves intact
  int64_t model_flops_per_token = 0; // 6N + 12·L·H·Q·T (estimate/flops.h, PaLM appendix B)
  double peak_flops_per_s = 0.0;     // the start's matmul probe, per process; 0: no probe
  std::string peak_probe;            // what it measured: "float32 1024x1024 matmul on cpu"
  double mfu = 0.0;                  // tokens_per_s · model_flops_per_token / (peak · ranks); JSON
                                     // null without a probe or a completed step
  int64_t peak_allocated_bytes = 0;  // highest allocated_bytes seen by the memory backend over the
                                     // completed steps (an OOM's failed step: `oom`); JSON null
                                     // when this process completed none
  int64_t estimated_peak_bytes = 0;  // the estimator's prediction for the same run
  int64_t parameters = 0;
  std::string run_dir;
  std::string timeline;              // empty with --no-profile
  std::string checkpoint;            // last checkpoint written
  std::vector<std::string> profiler_errors;
  int64_t oom_recoveries = 0;        // --on-oom recover: fixes applied in this run
  std::string oom_report;            // the last oom_report.json written ("" without an OOM)
  std::optional<OomPoint> oom;       // set when an OOM stopped the run (stop_reason "oom")
  std::string memory_snapshot;       // the memory_viz pickle written ("" without --memory-snapshot)
  nlohmann::json to_json() const;
};

/// Thrown by Trainer::step() on a rank that did not run out of memory when another rank did
/// (collective OOM handling, Trainer::set_collective_oom): every rank abandoned the step, its
/// gradients dropped and its data rewound, so the ranks' OOM handlers decide a retry together.
class PeerOutOfMemory : public std::runtime_error {
 public:
  explicit PeerOutOfMemory(int ranks_out_of_memory)
      : std::runtime_error(std::to_string(ranks_out_of_memory) + " other rank(s) ran out of memory in this step"),
        ranks_out_of_memory_(ranks_out_of_memory) {}
  int ranks_out_of_memory() const { return ranks_out_of_memory_; }

 private:
  int ranks_out_of_memory_;
};

/// The model, optimizer, data and profiler of one run, and its step. The step is a function
/// whose tensors are all locals: when it throws (an OOM), they are released, the gradients
/// are dropped and the data position rewinds, so the caller can catch at step level and retry.
class Trainer {
 public:
  /// Loads data, builds model and optimizer (seeded), and applies --resume. `backend` and
  /// `profiler` must outlive the trainer. Throws InputError for any bad setting or file.
  /// With a process group of W > 1 ranks (data parallelism, DDP semantics): rank 0's
  /// parameters are broadcast to all ranks, this rank reads rows r·B·grad_accum .. of each
  /// global batch of B·grad_accum·W rows, gradients are averaged by a GradientReducer on the
  /// last micro-step of each step (no_sync before it), and step losses and validation losses
  /// are averaged over the ranks. With options.zero_stage 1 (ZeRO-1), each rank's optimizer
  /// holds only the parameters zero_partition() gives it, and after each update every rank
  /// broadcasts its parameters to the others. With options.zero_stage 2 (ZeRO-2) there is no
  /// GradientReducer: after the last micro-step's backward each gradient is reduced to the rank
  /// that owns its parameter and dropped by the others (reduce_gradients_to_owners), so from
  /// then to zero_grad a rank holds only its share of the gradients; the full gradients exist
  /// at the end of backward (they are not freed during it). `group` must outlive the trainer.
  Trainer(const TrainOptions& options, MemoryBackend* backend, Profiler* profiler, ProcessGroup* group = nullptr);
  ~Trainer();

  /// The profiler marks go to (may be null: no marks).
  void set_profiler(Profiler* profiler) { profiler_ = profiler; }
  /// Runs optimizer step `next_step()` with the current micro-batch shape and advances:
  /// profiler begin_step .. marks .. end_step. When it throws, the profiler's step stays open
  /// (its marks are already in the timeline) and a retry begins the same step anew.
  StepStats step();
  /// Mean validation loss over options.eval_batches batches under NoGradGuard.
  double evaluate();
  /// Writes a checkpoint to `path` (via path.tmp and rename). Throws InputError("--save").
  /// With the optimizer state sharded (ZeRO-1), call consolidate_optimizer_state() on every
  /// rank first; then rank 0 writes the whole state (the same file as a DDP or one-process run,
  /// so it resumes at any world size); std::logic_error without it.
  void save_checkpoint(const std::string& path) const;
  /// ZeRO-1/2 (options.zero_stage 1 or 2 over W > 1 ranks): a collective. Every rank broadcasts its
  /// share of the optimizer state (serialised, ProcessGroup::broadcast_blob) and rank 0 gathers
  /// the whole state into an optimizer over every parameter, kept for the next
  /// save_checkpoint() (which releases it): ZeroRedundancyOptimizer.consolidate_state_dict(to=0).
  /// Transient bytes: the largest share on every rank, the whole state on rank 0.
  void consolidate_optimizer_state();
  /// True when this rank keeps only its share of the optimizer state (ZeRO-1 or 2, W > 1).
  bool optimizer_sharded() const { return !owned_by_rank_.empty(); }
  /// Data parallelism with ZeRO-2 (`train --on-oom recover`): before any gradient moves, every
  /// step's ranks agree (one all-reduce of a flag, after the last micro-step's backward) whether
  /// one of them ran out of memory in its forward or backward; if so every rank abandons the
  /// step: the failing rank rethrows its OOM, the others throw PeerOutOfMemory. An OOM later in
  /// the step (the optimizer's) is not covered. Throws std::logic_error without ZeRO-2 over
  /// W > 1 ranks (DDP's reducer all-reduces during backward, where a rank cannot back out).
  void set_collective_oom(bool on);
  bool collective_oom() const { return collective_oom_; }
  /// True when the last step() was abandoned by the ranks' agreement (set_collective_oom): its
  /// OOM (or PeerOutOfMemory) was seen by every rank.
  bool oom_agreed() const { return oom_agreed_; }
  /// True when this rank also keeps only its share of the gradients after backward (ZeRO-2, W > 1).
  bool gradients_sharded() const { return !owned_by_rank_.empty() && options_.zero_stage >= 2; }
  /// Restores a checkpoint written by save_checkpoint(). Throws InputError("--resume") for an
  /// unreadable, corrupted or mismatched file (different model, optimizer, precision, B, T).
  void load_checkpoint(const std::string& path);

  int64_t next_step() const { return next_step_; }
  /// Changes the micro-batch shape (B, grad_accum) for later steps (OOM recovery keeps B·accum).
  void set_micro_batching(int64_t batch_size, int64_t grad_accum);
  /// Applies the memory knobs of `setup` for later steps: micro-batch, accumulation, activation
  /// checkpointing and precision (fp32 <-> bf16-mixed / fp16-mixed autocast only; pure bf16
  /// would recast the parameters). Used by OOM probes and recovery (oom_recovery.cpp). Throws
  /// InputError naming the flag for a change it cannot make.
  void set_memory_setup(const TrainingSetup& setup);
  MemoryBackend* backend() const { return backend_; }
  Profiler* profiler() const { return profiler_; }
  const TrainOptions& options() const { return options_; }
  Gpt& model() { return model_; }
  torch::optim::Optimizer& optimizer() { return *optimizer_; }
  TokenDataset& dataset() { return *dataset_; }
  const ModelConfig& config() const { return config_; }
  TrainingSetup training_setup() const;  // the estimator's view of this run
  double first_loss() const { return first_loss_; }
  ProcessGroup* process_group() const { return group_; }
  const GradientReducer* reducer() const { return reducer_.get(); }
  int rank() const { return group_ ? group_->rank() : 0; }
  int world_size() const { return group_ ? group_->world_size() : 1; }

 private:
  torch::Tensor forward_loss(const Batch& batch, int64_t micro, bool mark);
  std::unique_ptr<torch::optim::Optimizer> build_optimizer(const std::vector<torch::Tensor>& params) const;
  // ZeRO-2, after the last micro-step's backward: one c10d reduce per gradient to the rank that
  // owns it (SUM, then / W on the owner); the other ranks drop it. A collective.
  void reduce_gradients_to_owners();
  // ZeRO-2's clip_grad_norm_: the global L2 norm from every rank's own gradients (an allreduce
  // of the squared norms), each rank scaling its own. Returns the norm before clipping.
  double clip_sharded_gradients(double max_norm);
  // collective_oom_: one all-reduce of "did this rank run out of memory"; returns when no rank
  // did, else drops the gradients and rethrows `local_oom` or throws PeerOutOfMemory.
  void agree_no_rank_out_of_memory(const std::exception_ptr& local_oom);

  TrainOptions options_;
  MemoryBackend* backend_;
  Profiler* profiler_;
  ModelConfig config_;
  torch::Device device_;
  std::unique_ptr<TokenDataset> dataset_;
  Gpt model_{nullptr};
  std::vector<torch::Tensor> params_;
  std::unique_ptr<torch::optim::Optimizer> optimizer_;  // ZeRO-1: over this rank's share only
  // ZeRO-1: the parameters each rank owns (zero_partition's order); empty without sharding.
  std::vector<std::vector<torch::Tensor>> owned_by_rank_;
  bool collective_oom_ = false;      // set_collective_oom
  bool oom_agreed_ = false;          // oom_agreed
  // ZeRO-1 on rank 0: the whole state, from consolidate_optimizer_state() to save_checkpoint().
  mutable std::unique_ptr<torch::optim::Optimizer> consolidated_optimizer_;
  ProcessGroup* group_ = nullptr;
  std::unique_ptr<GradientReducer> reducer_;
  int64_t next_step_ = 0;
  double first_loss_ = 0.0;
  double loss_scale_ = 65536.0;   // fp16-mixed dynamic loss scaling
  int64_t good_steps_ = 0;
};

/// The whole `oomkit train` run: startup report, the loop with progress lines, evaluation,
/// checkpoints, SIGINT/SIGTERM handling (finish the step, save, exit 130/143), the summary.
/// Writes timeline.jsonl/.csv and summary.json into the run directory. Throws InputError for
/// bad input before anything is written.
TrainSummary run_training(const TrainOptions& options);

}  // namespace oomkit
