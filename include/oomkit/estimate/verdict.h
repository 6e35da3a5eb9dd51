// Does it fit? The verdict on an estimate against a GPU's capacity, the ranked fixes (each
// measured by re-running the estimate with the change), the largest micro-batch that fits,
// and the chapter's model-size sweep.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "oomkit/estimate/estimate.h"
#include "oomkit/estimate/remedies.h"

namespace oomkit {

/// One remedy alone, with its effect computed by estimate_memory() on the changed setup.
struct Fix {
  std::string name;         // remedy_name(): "micro_batch", "attention_sdpa", "checkpointing_full", ...
  std::string description;  // the concrete change: "--precision bf16-mixed: bf16 autocast, ..."
  int64_t saving_bytes = 0; // peak before - peak after (> 0)
  int64_t peak_bytes_after = 0;
  bool fits = false;        // fits alone, on the available hardware
  std::string cost;         // describe_cost()
};

struct Verdict {
  int64_t capacity_bytes = 0;
  int64_t usable_bytes = 0;    // capacity · (1 - safety_margin): the chapter's 10-20% kept free
  bool fits = false;           // peak_bytes <= usable_bytes
  int64_t headroom_bytes = 0;  // usable - peak; negative when it does not fit
  std::string bottleneck;      // category_name() of the largest category
  std::vector<Fix> fixes;      // each remedy alone, in the catalogue's cost order (remedies.h);
                               // empty when the run fits
  RemedyReport remedies;       // the catalogue's answer: combinations, more-hardware plan
};

/// Judges `e` (made from model and e.setup) against `capacity_bytes` with the remedies
/// catalogue (find_remedies() on `resources`): when it does not fit, the single fixes that lower
/// the peak (each re-estimated alone, cheapest first) and the cheapest combinations that fit.
/// Throws what estimate_memory() throws.
Verdict judge(const ModelConfig& model, const Estimate& e, int64_t capacity_bytes, const RemedyResources& resources = {});

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
/// "bottleneck","fixes":[{"name","description","saving_bytes","peak_bytes_after","fits","cost"}],
/// "remedies":remedy_report_json()}, plus
/// "max_batch" and "batch_curve":[{"micro_batch_size","peak_bytes"}] when `curve` is non-empty.
std::string verdict_to_json(const Estimate& e, const Verdict& v, int64_t max_batch = -1,
                            const std::vector<BatchPoint>& curve = {});

/// {"fits","cost_model","link_bytes_per_second","host_memory_bytes","combinations":[plan...],
/// "more_hardware":[plan...]}; a plan is {"remedies":[remedy_name()],"flags","description",
/// "peak_bytes","saving_bytes","fits","gpus_needed","host_bytes_needed","numerics",
/// "changes_numerics","link_bytes_per_step","link_seconds_per_step","recompute_fraction",
/// "accumulation_factor"}.
nlohmann::json remedy_report_json(const RemedyReport& report);

/// {"sweep":[{"model","parameters","seq_len","static_bytes","activation_bytes","peak_bytes"}]}
std::string sweep_to_json(const std::vector<SweepRow>& rows);

}  // namespace oomkit
