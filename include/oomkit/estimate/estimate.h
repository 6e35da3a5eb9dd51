// The analytic training-memory estimator: a table of named items, not a number.
// (Contract shared by train/profile/diagnose/report; the estimator module implements it.) The
// run's knobs (TrainingSetup and its enums) are core types: oomkit/core/training_setup.h.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "oomkit/core/model_config.h"
#include "oomkit/core/training_setup.h"
#include "oomkit/estimate/framework_options.h"

namespace oomkit {

enum class Category { kParameters, kGradients, kOptimizerState, kActivations, kTransient, kOverhead };
inline constexpr int kNumCategories = 6;

/// "parameters", "gradients", "optimizer_state", "activations", "transient", "overhead".
const char* category_name(Category c);

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
  int64_t gradients_kept_bytes = 0;               // gradients held from after backward to zero_grad: the
                                                  // gradients total, or under oomkit's ZeRO-2 this rank's share
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
