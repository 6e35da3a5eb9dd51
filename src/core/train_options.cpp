// TrainOptions' defaults and validation, and the --on-oom spellings (core/train_options.h).
#include "oomkit/core/train_options.h"

#include <cmath>
#include <string>
#include <vector>

#include "oomkit/core/error.h"

namespace oomkit {

TrainingSetup default_train_setup() {
  TrainingSetup s;
  s.micro_batch_size = 16;
  s.seq_len = 128;
  s.cuda = false;
  return s;
}

const char* to_string(OnOom mode) {
  switch (mode) {
    case OnOom::kAbort: return "abort";
    case OnOom::kDiagnose: return "diagnose";
    case OnOom::kRecover: return "recover";
  }
  return "diagnose";
}

OnOom parse_on_oom(const std::string& text) {
  if (text == "abort") return OnOom::kAbort;
  if (text == "diagnose") return OnOom::kDiagnose;
  if (text == "recover") return OnOom::kRecover;
  throw InputError("--on-oom", "must be abort, diagnose or recover, got '" + text + "'");
}

std::vector<std::string> TrainOptions::problems() const {
  std::vector<std::string> out;
  auto positive = [&out](const char* field, int64_t v) {
    if (v < 1) out.push_back(std::string(field) + ": must be >= 1, got " + std::to_string(v));
  };
  positive("--batch-size", setup.micro_batch_size);
  positive("--grad-accum", setup.gradient_accumulation_steps);
  positive("--seq-len", setup.seq_len);
  positive("--steps", steps);
  positive("--eval-batches", eval_batches);
  positive("--checkpoint-every", setup.checkpoint_every);
  positive("--memory-history", memory_history);
  if (!(lr > 0.0) || !std::isfinite(lr)) out.push_back("--lr: must be > 0, got " + std::to_string(lr));
  if (!(min_lr >= 0.0) || min_lr > lr) out.push_back("--min-lr: must be in [0, --lr], got " + std::to_string(min_lr));
  if (warmup_steps < 0) out.push_back("--warmup: must be >= 0, got " + std::to_string(warmup_steps));
  if (!(setup.weight_decay >= 0.0)) out.push_back("--weight-decay: must be >= 0");
  if (!(grad_clip >= 0.0)) out.push_back("--grad-clip: must be >= 0 (0 disables clipping)");
  if (dropout >= 1.0) out.push_back("--dropout: must be in [0, 1)");
  if (save_every < 0) out.push_back("--save-every: must be >= 0");
  if (eval_every < 0) out.push_back("--eval-every: must be >= 0");
  if (log_every < 0) out.push_back("--log-every: must be >= 0");
  if (memory_limit_bytes < 0) out.push_back("--memory-limit: must be >= 0");
  if (setup.cpu_threads < 0) out.push_back("--threads: must be >= 0 (0: every core)");
  if (backend != "gloo" && backend != "nccl") out.push_back("--backend: must be gloo or nccl, got '" + backend + "'");
  if (!(bucket_cap_mb > 0.0) || !std::isfinite(bucket_cap_mb)) {
    out.push_back("--bucket-cap-mb: must be > 0, got " + std::to_string(bucket_cap_mb));
  }
  if (zero_stage == 3) {
    out.push_back("--zero: stage 3 (parameters sharded) is not implemented in the trainer (0: DDP, 1: optimizer "
                  "state sharded, 2: optimizer state and gradients); `oomkit estimate --zero 3` predicts it");
  } else if (zero_stage < 0 || zero_stage > 3) {
    out.push_back("--zero: must be 0, 1 or 2, got " + std::to_string(zero_stage));
  }
  if ((zero_stage == 1 || zero_stage == 2) && setup.optimizer == OptimizerKind::kAdam8bit) {
    out.push_back("--zero: " + std::to_string(zero_stage) + " shards per-parameter optimizer state; adam8bit also "
                  "keeps quantization maps shared by every parameter (use adamw, adafactor, lion or sgd)");
  }
  if (dist_timeout_s < 1) out.push_back("--dist-timeout: must be >= 1 second, got " + std::to_string(dist_timeout_s));
  if (setup.lora.rank < 0) out.push_back("--lora-rank: must be >= 0, got " + std::to_string(setup.lora.rank));
  if (setup.precision == Precision::kChapter) out.push_back("--precision: 'chapter' is an estimator convention, not a training mode");
  if (setup.precision == Precision::kFp16Mixed && !setup.cuda) {
    out.push_back("--precision: fp16-mixed needs --device cuda (CPU autocast computes in bf16; use bf16-mixed)");
  }
  return out;
}

void TrainOptions::validate_data_parallel() const {
  if (on_oom == OnOom::kRecover && zero_stage != 2) {
    throw InputError("--on-oom", "recover under data parallelism needs --zero 2: every rank must agree on the new "
                                 "micro-batch before any gradient moves, and DDP's reducer (--zero 0 and 1) "
                                 "all-reduces during backward, where a rank cannot back out",
                     "add --zero 2, or use --on-oom abort or diagnose");
  }
  if (setup.cuda) {
    throw InputError("--device", "data parallelism runs on Gloo over CPU tensors in this build", "use --device cpu");
  }
  if (setup.precision == Precision::kBf16) {
    // ProcessGroupGloo in LibTorch 1.13 has no bfloat16 collectives ("Invalid scalar type").
    throw InputError("--precision", "bf16 keeps bfloat16 gradients, which LibTorch 1.13's Gloo cannot reduce",
                     "use --precision bf16-mixed (fp32 gradients) under data parallelism");
  }
}

void TrainOptions::validate() const {
  const auto all = problems();
  if (all.empty()) return;
  std::string message;
  for (const auto& p : all) message += (message.empty() ? "" : "; ") + p;
  const std::string field = all.front().substr(0, all.front().find(':'));
  throw InputError(field, message.substr(field.size() + 2));
}

}  // namespace oomkit
