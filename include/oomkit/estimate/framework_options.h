// Which training framework's memory layout the estimate follows, and the knobs that only a
// framework profile reads. Plain aggregates, included by estimate.h (TrainingSetup holds them).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

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

/// One row of DeepSpeed's "per CPU | per GPU" model-states table, in bytes, as
/// deepspeed/runtime/zero/stage_1_and_2.py estimate_zero2_model_states_mem_needs() and
/// stage3.py estimate_zero3_model_states_mem_needs() compute it (params, gradients, optimizer
/// states; no activations, no buffers). cpu_bytes includes DeepSpeed's additional_buffer_factor.
struct DeepSpeedStatesRow {
  int zero_stage = 2;          // 2 (also used for stage 1) or 3
  bool offload_param = false;  // "offload_param": {"device": "cpu"} (stage 3 only)
  bool offload_optimizer = false;
  bool zero_init = true;       // deepspeed.zero.Init (stage 3 only)
  int64_t cpu_bytes = 0;       // host RAM per node
  int64_t gpu_bytes = 0;
};

/// DeepSpeed's model_to_params(): total parameters (a tied head once) and the largest module's
/// own parameters (weight + bias of one Linear / Embedding / norm).
struct DeepSpeedParamCounts {
  int64_t total = 0;
  int64_t largest_layer = 0;
  std::string largest_layer_name;
};

}  // namespace oomkit
