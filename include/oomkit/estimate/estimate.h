// The analytic training-memory estimator: a table of named items, not a number.
// (Contract shared by train/profile/diagnose/report; the estimator module implements it.)
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "oomkit/core/model_config.h"
#include "oomkit/estimate/framework_options.h"

namespace oomkit {

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
enum class Category { kParameters, kGradients, kOptimizerState, kActivations, kTransient, kOverhead };
inline constexpr int kNumCategories = 6;

/// "parameters", "gradients", "optimizer_state", "activations", "transient", "overhead".
const char* category_name(Category c);

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
};

struct LoraConfig {
  int64_t rank = 0;                                       // r; 0 disables LoRA
  std::vector<std::string> targets = {"q", "k", "v", "o"}; // of q,k,v,o,gate,up,down (gpt2: c_attn,c_proj,c_fc,mlp_c_proj)
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
  std::vector<std::string> problems(const ModelConfig& model) const;
  void validate(const ModelConfig& model) const;
};

/// One row of the table: {path: "activations/block/attn_probs", bytes, formula}.
struct EstimateItem {
  std::string path;
  Category category = Category::kActivations;
  int64_t bytes = 0;        // for the whole run per GPU (all layers), not per layer
  std::string formula;      // e.g. "L·B·h·T²·2 B (softmax output saved by at::_softmax)"
};

/// Predicted allocated bytes at one phase mark (see core/phases.h) for the first optimizer
/// step (optimizer state created lazily) or the steady state.
struct PhasePrediction {
  std::string step_kind;      // "first" or "steady"
  std::string phase;          // phase_name()
  int64_t allocated_bytes = 0;// allocated at the mark
  int64_t peak_bytes = 0;     // peak allocated in the interval ending at the mark
};

struct ParameterCount {
  int64_t embeddings = 0;     // wte (+ wpe)
  int64_t attention = 0;      // all layers
  int64_t mlp = 0;            // all layers
  int64_t norms = 0;          // per-layer + final
  int64_t head = 0;           // lm_head when untied; 0 when tied
  int64_t lora = 0;           // adapters (trainable when LoRA is on)
  int64_t total() const { return embeddings + attention + mlp + norms + head + lora; }
};

struct Estimate {
  ModelConfig model;
  TrainingSetup setup;
  ParameterCount parameters;
  std::vector<EstimateItem> items;
  std::array<int64_t, kNumCategories> totals{};  // indexed by Category
  std::vector<PhasePrediction> phases;            // first + steady, every phase
  int64_t peak_bytes = 0;                         // max over phases, per GPU, incl. overhead
  std::string peak_phase;                         // "steady/after_forward" etc.
  // Host RAM beside the GPU (framework profiles with offload; empty otherwise).
  std::vector<EstimateItem> host_items;           // per node
  int64_t host_bytes = 0;                         // sum of host_items
  std::vector<DeepSpeedStatesRow> host_table;     // DeepSpeed's "per CPU | per GPU" rows
  DeepSpeedParamCounts host_counts;               // the counts host_table was made from
  int64_t total(Category c) const { return totals[static_cast<int>(c)]; }
};

/// Runs the estimate. Throws InputError for invalid model or setup, or byte counts that would
/// overflow int64.
Estimate estimate_memory(const ModelConfig& model, const TrainingSetup& setup);

/// Exact parameter count by part. Throws InputError on overflow.
ParameterCount count_parameters(const ModelConfig& model, const LoraConfig& lora = {});

/// JSON with every item in bytes:
/// {"model":{config.json keys}, "setup":{...}, "parameters":{"embeddings":N,...,"total":N},
///  "items":[{"path","category","bytes","formula"}], "totals":{"parameters":N,...,"overhead":N},
///  "phases":[{"step_kind","phase","allocated_bytes","peak_bytes"}], "peak_bytes":N,
///  "peak_phase":"..."}
std::string estimate_to_json(const Estimate& e);

}  // namespace oomkit
