// Does it fit? The verdict on an estimate against a GPU's capacity, the ranked fixes (each
// measured by re-running the estimate with the change), the largest micro-batch that fits,
// and the chapter's model-size sweep.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "oomkit/estimate/estimate.h"

namespace oomkit {

/// One remedy, with its effect computed by estimate_memory() on the changed setup.
struct Fix {
  std::string name;         // "mixed_precision", "activation_checkpointing", "lighter_optimizer",
                            // "smaller_micro_batch", "zero_sharding", "offload"
  std::string description;  // the concrete change: "--precision bf16-mixed"
  int64_t saving_bytes = 0; // peak before - peak after (> 0)
  int64_t peak_bytes_after = 0;
};

struct Verdict {
  int64_t capacity_bytes = 0;
  int64_t usable_bytes = 0;    // capacity · (1 - safety_margin): the chapter's 10-20% kept free
  bool fits = false;           // peak_bytes <= usable_bytes
  int64_t headroom_bytes = 0;  // usable - peak; negative when it does not fit
  std::string bottleneck;      // category_name() of the largest category
  std::vector<Fix> fixes;      // the chapter's order: mixed precision, checkpointing, lighter
                               // optimizer, smaller micro-batch + accumulation, ZeRO/FSDP, offload
};

/// usable = floor(capacity · (1 - margin)). Throws InputError("--memory") for capacity <= 0.
int64_t usable_bytes(int64_t capacity_bytes, double safety_margin);

/// Judges `e` (made from model and e.setup) against `capacity_bytes`. Fixes that do not
/// change the setup or do not lower the peak are left out; each is computed alone, from the
/// current setup. Throws what estimate_memory() throws.
Verdict judge(const ModelConfig& model, const Estimate& e, int64_t capacity_bytes);

/// The largest micro_batch_size whose peak fits the usable bytes; 0 when even 1 does not.
int64_t max_micro_batch(const ModelConfig& model, const TrainingSetup& setup, int64_t capacity_bytes);

/// Peak bytes at micro_batch_size 1, 2, 4, ... up to and including the first that does not
/// fit (at most 2^20).
struct BatchPoint {
  int64_t micro_batch_size = 0;
  int64_t peak_bytes = 0;
};
std::vector<BatchPoint> batch_curve(const ModelConfig& model, const TrainingSetup& setup, int64_t capacity_bytes);

/// One row of the chapter's model-size table under `setup` (T is clamped to the model's
/// n_positions and reported).
struct SweepRow {
  std::string model;
  int64_t parameters = 0;
  int64_t seq_len = 0;
  int64_t static_bytes = 0;      // parameters (no autocast copies) + buffers + gradients + optimizer state: <= peak_bytes
  int64_t activation_bytes = 0;  // the activations category
  int64_t peak_bytes = 0;
};
std::vector<SweepRow> sweep(const std::vector<ModelConfig>& models, const TrainingSetup& setup);

/// The shipped sweep models, 125M to 70B: gpt2, gpt2-medium, gpt2-large, gpt2-xl,
/// llama-2-7b, mistral-7b, llama-3-8b, llama-2-13b, llama-2-70b.
std::vector<ModelConfig> sweep_models();

/// estimate_to_json(e) plus {"capacity_bytes","usable_bytes","fits","headroom_bytes",
/// "bottleneck","fixes":[{"name","description","saving_bytes","peak_bytes_after"}]}, plus
/// "max_batch" and "batch_curve":[{"micro_batch_size","peak_bytes"}] when `curve` is non-empty.
std::string verdict_to_json(const Estimate& e, const Verdict& v, int64_t max_batch = -1,
                            const std::vector<BatchPoint>& curve = {});

/// {"sweep":[{"model","parameters","seq_len","static_bytes","activation_bytes","peak_bytes"}]}
std::string sweep_to_json(const std::vector<SweepRow>& rows);

}  // namespace oomkit
