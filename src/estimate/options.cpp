// Category names and TrainingSetup validation (the spellings of the run knobs: core/training_setup.cpp).
#include <cmath>
#include <string>
#include <vector>

#include "oomkit/core/error.h"
#include "oomkit/estimate/estimate.h"
#include "oomkit/estimate/parameters.h"

namespace oomkit {

const char* category_name(Category c) {
  switch (c) {
    case Category::kParameters: return "parameters";
    case Category::kGradients: return "gradients";
    case Category::kOptimizerState: return "optimizer_state";
    case Category::kActivations: return "activations";
    case Category::kTransient: return "transient";
    case Category::kOverhead: return "overhead";
  }
  return "unknown";
}

std::vector<std::string> TrainingSetup::problems(const ModelConfig& model) const {
  std::vector<std::string> out = model.problems();
  // Sizes are capped so that every per-token product stays far inside int64 before the
  // checked arithmetic of estimate_memory() even starts.
  constexpr int64_t kMaxCount = int64_t{1} << 31;
  auto count = [&](const char* field, int64_t v) {
    if (v < 1) out.push_back(std::string(field) + ": must be >= 1, got " + std::to_string(v));
    else if (v > kMaxCount) out.push_back(std::string(field) + ": " + std::to_string(v) + " is too large (limit 2^31)");
  };
  count("--batch-size", micro_batch_size);
  count("--seq-len", seq_len);
  count("--grad-accum", gradient_accumulation_steps);
  count("--checkpoint-every", checkpoint_every);
  count("--dp", parallel.data_parallel);
  count("--tp", parallel.tensor_parallel);
  count("--pp", parallel.pipeline_parallel);
  if (optimizer == OptimizerKind::kAdam8bit) count("--adam8bit-block-size", adam8bit_block_size);
  if (seq_len > model.n_positions && seq_len <= kMaxCount) {
    out.push_back("--seq-len: " + std::to_string(seq_len) + " exceeds the model's n_positions " +
                  std::to_string(model.n_positions));
  }
  if (parallel.zero_stage < 0 || parallel.zero_stage > 3) {
    out.push_back("--zero: must be 0, 1, 2 or 3, got " + std::to_string(parallel.zero_stage));
  }
  if (parallel.tensor_parallel > 1 && model.n_head % parallel.tensor_parallel != 0) {
    out.push_back("--tp: " + std::to_string(parallel.tensor_parallel) + " does not divide n_head " +
                  std::to_string(model.n_head));
  }
  if (parallel.pipeline_parallel > model.n_layer) {
    out.push_back("--pp: " + std::to_string(parallel.pipeline_parallel) + " stages for " +
                  std::to_string(model.n_layer) + " layers");
  }
  if (quantization.base != BaseQuantization::kNone && lora.rank == 0) {
    out.push_back("--quantize-base: quantizes the frozen base of a LoRA run; add --lora-rank");
  }
  if (lora.rank < 0) out.push_back("--lora-rank: must be >= 0, got " + std::to_string(lora.rank));
  if (lora.rank > model.n_embd) out.push_back("--lora-rank: " + std::to_string(lora.rank) + " exceeds n_embd");
  if (lora.rank > 0) {
    const auto valid = lora_target_names(model);
    if (lora.targets.empty()) out.push_back("--lora-targets: empty");
    for (const auto& t : lora.targets) {
      bool ok = false;
      for (const auto& v : valid) ok = ok || v == t;
      if (!ok) {
        std::string list;
        for (const auto& v : valid) list += (list.empty() ? "" : ", ") + v;
        out.push_back("--lora-targets: unknown target '" + t + "' for this family; valid: " + list);
      }
    }
  }
  if (overhead_bytes < 0) out.push_back("--overhead: must not be negative");
  if (!(weight_decay >= 0.0) || !std::isfinite(weight_decay)) {
    out.push_back("--weight-decay: must be a finite number >= 0, got " + std::to_string(weight_decay));
  }
  if (!(safety_margin >= 0.0 && safety_margin < 1.0)) {
    out.push_back("--margin: must be in [0, 1), got " + std::to_string(safety_margin));
  }
  return out;
}

void TrainingSetup::validate(const ModelConfig& model) const {
  const auto list = problems(model);
  if (list.empty()) return;
  // The field of the first problem names the error; the others follow in the same line.
  const std::string& first = list.front();
  const auto colon = first.find(':');
  const std::string field = colon == std::string::npos ? "setup" : first.substr(0, colon);
  std::string message = colon == std::string::npos ? first : first.substr(colon + 2);
  for (size_t i = 1; i < list.size(); ++i) message += "; " + list[i];
  throw InputError(field, message);
}

}  // namespace oomkit
