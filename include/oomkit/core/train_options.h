// The settings of one `oomkit train` run. Torch-free, so the torch-free `oomkit` knows them
// (its --help, completion and man page list train's flags) while `oomkit-train` runs them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "oomkit/core/training_setup.h"

namespace oomkit {

/// `oomkit train --on-oom abort|diagnose|recover`: what an out-of-memory error inside a training
/// step does; the handling lives in train/oom_recovery.h.
enum class OnOom {
  kAbort,     // flush the timeline, one line, exit kExitOom
  kDiagnose,  // the playbook with live probes, oom_report.json/.txt, exit kExitOom (the default)
  kRecover,   // the playbook, then continue the same step with the cheapest fix a probe showed
};

/// Exit code of `oomkit train` stopped by an OOM (abort, diagnose, or recover that found no fix).
inline constexpr int kExitOom = 3;

/// "abort", "diagnose", "recover".
const char* to_string(OnOom mode);
/// Inverse of to_string(); throws InputError("--on-oom") for anything else.
OnOom parse_on_oom(const std::string& text);

/// The trainer's default memory setup: B = 16, T = 128, one micro-batch per step, fp32 AdamW,
/// eager attention, no activation checkpointing, on the CPU (cuda = false), every core.
TrainingSetup default_train_setup();

/// Every setting of a training run. `setup` holds the knobs the estimator reads too (B, T,
/// gradient accumulation, precision, optimizer, attention, activation checkpointing,
/// checkpoint_every, weight decay, device: setup.cuda, intra-op threads: setup.cpu_threads,
/// 0 = every core); the other fields are the run's own. Defaults are the default run
/// (`oomkit train` without flags): gpt-nano on the default corpus. The CLI binds each flag to
/// one field (src/cli/train_flags.cpp).
struct TrainOptions {
  TrainingSetup setup = default_train_setup();
  std::string model = "gpt-nano";        // shipped name or config.json path
  std::string data;                      // token file or shard glob (data.h); empty: the default corpus
  std::string val_data;                  // validation token file or glob; empty: the tail of data
  std::string corpus_dir = "/usr/share/common-licenses";  // the default corpus
  std::string run_dir;                   // empty: runs/<model>-<YYYYmmdd-HHMMSS>
  std::string timeline;                  // empty: <run_dir>/timeline.jsonl
  std::string save;                      // checkpoint path; empty: none
  int64_t save_every = 0;                // steps between checkpoints; 0: only at the end
  std::string resume;                    // checkpoint to continue from
  std::string init_from;                 // Hugging Face GPT-2 snapshot folder (config.json + safetensors)
                                         // whose config and weights start the run; empty: --model, random init
  std::string save_hf;                   // folder for model.safetensors + config.json at the end; empty: none
  int64_t steps = 400;                   // optimizer steps in total (a resumed run continues to it)
  double lr = 2e-3;                      // peak learning rate
  int64_t warmup_steps = 20;             // linear warmup from 0 to lr
  double min_lr = 2e-4;                  // cosine decays lr to this at the last step
  double grad_clip = 1.0;                // max global L2 norm; 0: no clipping
  std::string precision_auto;            // --precision auto: "precision auto -> bf16-mixed (avx512_bf16)"
                                         // (format_auto_precision()); empty: setup.precision was given
  uint64_t seed = 1337;
  double dropout = -1.0;                 // >= 0 overrides every *_pdrop of the config
  int64_t eval_every = 100;              // steps between validation passes; 0: only at the end
  int64_t eval_batches = 16;             // validation batches per pass
  double val_fraction = 0.1;             // tail of the stream held out (without val_data)
  int64_t log_every = 0;                 // steps between progress lines; 0: about 25 lines per run
  double mfu_probe_seconds = 0.2;        // matmul probe for MFU's peak at start (matmul_probe.h); 0: no MFU
  int64_t memory_limit_bytes = 0;        // backend budget; 0: none
  std::string memory_snapshot;           // --memory-snapshot: memory_viz pickle written at the end
                                         // (also after an OOM stop); empty: no recording
  int64_t memory_history = 100000;       // --memory-history: trace entries kept (max_entries)
  bool profile = true;                   // false: --no-profile
  bool quiet = false;                    // no progress lines
  OnOom on_oom = OnOom::kDiagnose;       // what an OOM inside a step does (oom_recovery.h)
  bool progress_to_stderr = false;       // progress lines on stderr (with --json)
  // Data parallelism (train/distributed.h): the job's shape comes from torchrun's environment
  // (RANK, WORLD_SIZE, ...); `oomkit train --nproc-per-node N` sets it for N local workers.
  // B and gradient accumulation are per rank: the global batch is B·accumulation·W sequences.
  std::string backend = "gloo";          // --backend: gloo (CPU tensors) | nccl (CUDA builds with NCCL)
  double bucket_cap_mb = 25.0;           // --bucket-cap-mb: gradient all-reduce bucket size, MiB (DDP's 25)
  int64_t dist_timeout_s = 300;          // --dist-timeout: rendezvous and collective timeout, seconds
  int zero_stage = 0;                    // --zero: 0 DDP (every rank keeps the whole optimizer state);
                                         // 1 ZeRO-1 (each rank keeps and updates the state of its share
                                         // of the parameters, then broadcasts them: ZeroRedundancyOptimizer)

  /// "cuda" or "cpu" (setup.cuda).
  const char* device_name() const { return setup.cuda ? "cuda" : "cpu"; }
  /// Every problem, "field: message" (non-positive sizes, lr, fractions...).
  std::vector<std::string> problems() const;
  /// Throws InputError naming the first field, with all problems in the message.
  void validate() const;
  /// What a data-parallel run (W > 1 ranks) cannot do in this build, checked by the launcher
  /// before it starts workers and by every worker: --on-oom recover without --zero 2, --device
  /// cuda (Gloo over CPU tensors), --precision bf16 (Gloo in LibTorch 1.13 has no bfloat16).
  /// Throws InputError naming the flag.
  void validate_data_parallel() const;
};

}  // namespace oomkit
