// The knobs of one training run that the estimator, the trainer and the diagnosis share:
// precision, optimizer, attention kernel, activation checkpointing, parallelism, LoRA, the
// framework profile, and TrainingSetup that holds them (B, T, gradient accumulation, ...).
// Torch-free core types: `oomkit estimate`/`diagnose` read them without LibTorch, and
// TrainOptions (core/train_options.h) holds a TrainingSetup. The library names fields; only
// the CLI (src/cli/run_flags.h) maps them to flags.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "oomkit/core/model_config.h"

namespace oomkit {

/// oomkit: the op model of oomkit's own LibTorch trainer (measured, docs/model-ops.md).
/// hf: Hugging Face Transformers' eager modules (the same op model plus their differences).
/// megatron: Megatron-LM (fused kernels, distributed optimizer, TP/SP/PP).
/// deepspeed: DeepSpeed ZeRO 1/2/3 with its buckets, gathered-layer working set and offload.
enum class Framework { kOomkit, kHf, kMegatron, kDeepSpeed };

/// Megatron-LM's model/run arguments that a Hugging Face config.json does not carry. "auto"
/// follows the config's family: gpt2 -> LayerNorm, learned positions, biased Linear layers,
/// GELU; llama -> RMSNorm, rotary positions, no biases, SwiGLU.
struct MegatronOptions {
  bool sequence_parallel = false;            // --sequence-parallel
  int64_t make_vocab_size_divisible_by = 128;// V is padded to a multiple of this times TP
  std::string normalization = "auto";        // auto|layernorm|rmsnorm (--normalization)
  std::string position_embedding = "auto";   // auto|learned|rope (--position-embedding-type)
  double hidden_dropout = -1.0;              // --hidden-dropout; < 0: the config's resid/embd_pdrop
  double attention_dropout = -1.0;           // --attention-dropout; < 0: the config's attn_pdrop
};

/// DeepSpeed ZeRO's config keys (deepspeed/runtime/zero/config.py defaults, in elements).
struct DeepSpeedOptions {
  int64_t reduce_bucket_size = 500'000'000;             // "reduce_bucket_size": 5e8
  int64_t allgather_bucket_size = 500'000'000;          // "allgather_bucket_size": 5e8 (stages 1-2)
  int64_t stage3_prefetch_bucket_size = 50'000'000;     // "stage3_prefetch_bucket_size": 5e7
  int64_t stage3_max_live_parameters = 1'000'000'000;   // "stage3_max_live_parameters": 1e9
  int64_t stage3_param_persistence_threshold = 100'000; // "stage3_param_persistence_threshold": 1e5
  bool zero_init = true;                                // deepspeed.zero.Init() builds the model sharded
  int64_t gpus_per_node = 0;                            // 0: all --dp GPUs on one node
};

/// How the frozen base of a LoRA run (or an inference model) stores its Linear weights.
/// kNf4: bitsandbytes 4-bit NormalFloat (Dettmers et al. 2023, QLoRA, sec. 3), blocks of 64
/// with an fp32 absmax each, or with double quantization an 8-bit absmax per block plus an fp32
/// constant per 256 blocks. kInt8: LLM.int8() (Dettmers et al. 2022; bitsandbytes
/// Linear8bitLt): int8 weights with one fp32 scale per output row.
enum class BaseQuantization { kNone, kNf4, kInt8 };

struct QuantizationOptions {
  BaseQuantization base = BaseQuantization::kNone;  // --quantize-base none|nf4|int8
  bool double_quant = true;                         // bnb_4bit_use_double_quant (QLoRA's default)
  int64_t block_size = 64;                          // NF4 first-level block (elements)
  int64_t block_size2 = 256;                        // double quantization's second-level block (absmax values)
};

enum class Precision {
  kFp32,       // everything fp32
  kBf16Mixed,  // fp32 master weights + grads + optimizer; bf16 compute copies and activations
  kFp16Mixed,  // as bf16-mixed with fp16 compute, plus dynamic loss scaling
  kBf16,       // pure bf16: weights, grads, optimizer state in bf16
  kChapter,    // the seed chapter's convention: fp16 params (2P) + fp32 grads (4P) + fp32 Adam (8P)
};
enum class OptimizerKind { kAdamW, kSgd, kSgdMomentum, kLion, kAdafactor, kAdam8bit };
enum class AttentionKernel { kEager, kSdpa };  // kSdpa also stands for flash: no T x T term
enum class Checkpointing { kNone, kFull, kSelective };
enum class EstimateMethod { kDetailed, kChapter };  // kChapter: (34d + 5hT)·B·T·L activations

/// Parsers for the CLI spellings; each throws InputError(field, ...) listing the valid values.
Precision parse_precision(const std::string& s, const std::string& field = "--precision");      // fp32|bf16-mixed|fp16-mixed|bf16|chapter
OptimizerKind parse_optimizer(const std::string& s, const std::string& field = "--optimizer");  // adamw|adam|sgd|sgd-momentum|lion|adafactor|adam-8bit
AttentionKernel parse_attention(const std::string& s, const std::string& field = "--attention");// eager|sdpa|flash
Checkpointing parse_checkpointing(const std::string& s, const std::string& field = "--checkpointing"); // none|full|selective
const char* to_string(Precision p);
const char* to_string(OptimizerKind o);
const char* to_string(AttentionKernel a);
const char* to_string(Checkpointing c);

struct ParallelConfig {
  int64_t data_parallel = 1;      // N GPUs in data parallel
  int zero_stage = 0;             // 0, 1 (optimizer), 2 (+grads; FSDP shard-grad-op), 3 (+params; FSDP full-shard)
  int64_t tensor_parallel = 1;    // t
  int64_t pipeline_parallel = 1;  // p (1F1B: first stage holds p micro-batches in flight)
  bool offload_optimizer = false; // optimizer state (and its update) on CPU
  bool offload_parameters = false;// parameters on CPU between uses (ZeRO-3 offload)
  int dp_rank = -1;               // framework oomkit, ZeRO-1: whose share of the optimizer state
                                  // (0..data_parallel-1, as `train --zero 1` partitions it);
                                  // -1: the rank with the largest share
};

/// LoRA fine-tuning of a frozen base (Hu et al. 2021): `estimate --lora-rank/--lora-targets` and
/// `train --lora-rank/--lora-alpha/--lora-targets` (train/lora.h builds these adapters).
struct LoraConfig {
  int64_t rank = 0;                                       // r; 0 disables LoRA
  std::vector<std::string> targets = {"q", "k", "v", "o"}; // of q,k,v,o,gate,up,down (gpt2: c_attn,c_proj,c_fc,mlp_c_proj)
  double alpha = 8.0;                                     // lora_alpha (PEFT LoraConfig's default); scale alpha / r;
                                                          // the trainer's only: memory does not depend on it
};

/// Everything about the run except the model. Plain aggregate; defaults are a single-GPU fp32
/// AdamW run with eager attention.
struct TrainingSetup {
  int64_t micro_batch_size = 1;             // B, sequences per micro-batch
  int64_t seq_len = 1024;                   // T, tokens per sequence
  int64_t gradient_accumulation_steps = 1;
  Precision precision = Precision::kFp32;
  OptimizerKind optimizer = OptimizerKind::kAdamW;
  int64_t adam8bit_block_size = 2048;       // elements per quantization block (bitsandbytes)
  AttentionKernel attention = AttentionKernel::kEager;
  Checkpointing checkpointing = Checkpointing::kNone;
  int64_t checkpoint_every = 1;             // checkpoint every K-th block (full)
  bool dropout = true;                      // count dropout masks when the config's p > 0
  ParallelConfig parallel;
  LoraConfig lora;
  bool cuda = true;                         // false: the CPU target (no CUDA context/workspace)
  int cpu_threads = 0;                      // CPU target: the trainer's intra-op threads (0: every core),
                                            // which size oneDNN's per-thread bf16 matmul scratchpad
  int64_t overhead_bytes = 500LL << 20;     // CUDA context + cuBLAS workspace, default 500 MiB
  double safety_margin = 0.15;              // fraction of capacity kept free (chapter: 10-20%)
  double weight_decay = 0.1;                // the optimizer's weight decay (oomkit train's default):
                                            // plain SGD with weight decay > 0 allocates d_p + wd·p
  EstimateMethod method = EstimateMethod::kDetailed;
  Framework framework = Framework::kOomkit; // whose memory layout (framework.h)
  MegatronOptions megatron;                 // read by --framework megatron
  DeepSpeedOptions deepspeed;               // read by --framework deepspeed
  QuantizationOptions quantization;         // the frozen base's storage (quantization.h)

  /// Every problem, "field: message"; validate() throws InputError with all of them.
  /// (src/estimate/options.cpp: the LoRA targets are checked against the model's family.)
  std::vector<std::string> problems(const ModelConfig& model) const;
  void validate(const ModelConfig& model) const;
};

}  // namespace oomkit
