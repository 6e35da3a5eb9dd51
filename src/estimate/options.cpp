// Names and validation of the estimator's policy knobs (CLI spellings <-> enums).
#include <cmath>
#include <string>
#include <vector>

#include "oomkit/core/error.h"
#include "oomkit/estimate/estimate.h"
#include "oomkit/estimate/parameters.h"

namespace oomkit {
namespace {

template <typename Enum, size_t N>
Enum parse_one(const std::string& s, const std::string& field, const std::pair<const char*, Enum> (&table)[N]) {
  std::string valid;
  for (const auto& [name, value] : table) {
    if (s == name) return value;
    valid += (valid.empty() ? "" : ", ") + std::string(name);
  }
  throw InputError(field, "unknown value '" + s + "'; valid: " + valid);
}

constexpr std::pair<const char*, Precision> kPrecisions[] = {
    {"fp32", Precision::kFp32}, {"bf16-mixed", Precision::kBf16Mixed}, {"fp16-mixed", Precision::kFp16Mixed},
    {"bf16", Precision::kBf16}, {"chapter", Precision::kChapter}};
constexpr std::pair<const char*, OptimizerKind> kOptimizers[] = {
    {"adamw", OptimizerKind::kAdamW}, {"adam", OptimizerKind::kAdamW}, {"sgd", OptimizerKind::kSgd},
    {"sgd-momentum", OptimizerKind::kSgdMomentum}, {"lion", OptimizerKind::kLion},
    {"adafactor", OptimizerKind::kAdafactor}, {"adam-8bit", OptimizerKind::kAdam8bit},
    // bitsandbytes PagedAdamW8bit: the same state bytes in CUDA unified memory, which the driver
    // pages to host RAM under pressure instead of failing (Dettmers et al. 2023, sec. 3).
    {"paged-adamw-8bit", OptimizerKind::kAdam8bit}};
constexpr std::pair<const char*, AttentionKernel> kAttention[] = {
    {"eager", AttentionKernel::kEager}, {"sdpa", AttentionKernel::kSdpa}, {"flash", AttentionKernel::kSdpa}};
constexpr std::pair<const char*, Checkpointing> kCheckpointing[] = {
    {"none", Checkpointing::kNone}, {"full", Checkpointing::kFull}, {"selective", Checkpointing::kSelective}};

}  // namespace

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

Precision parse_precision(const std::string& s, const std::string& field) { return parse_one(s, field, kPrecisions); }
OptimizerKind parse_optimizer(const std::string& s, const std::string& field) { return parse_one(s, field, kOptimizers); }
AttentionKernel parse_attention(const std::string& s, const std::string& field) { return parse_one(s, field, kAttention); }
Checkpointing parse_checkpointing(const std::string& s, const std::string& field) {
  return parse_one(s, field, kCheckpointing);
}

const char* to_string(Precision p) {
  switch (p) {
    case Precision::kFp32: return "fp32";
    case Precision::kBf16Mixed: return "bf16-mixed";
    case Precision::kFp16Mixed: return "fp16-mixed";
    case Precision::kBf16: return "bf16";
    case Precision::kChapter: return "chapter";
  }
  return "unknown";
}
const char* to_string(OptimizerKind o) {
  switch (o) {
    case OptimizerKind::kAdamW: return "adamw";
    case OptimizerKind::kSgd: return "sgd";
    case OptimizerKind::kSgdMomentum: return "sgd-momentum";
    case OptimizerKind::kLion: return "lion";
    case OptimizerKind::kAdafactor: return "adafactor";
    case OptimizerKind::kAdam8bit: return "adam-8bit";
  }
  return "unknown";
}
const char* to_string(AttentionKernel a) { return a == AttentionKernel::kEager ? "eager" : "sdpa"; }
const char* to_string(Checkpointing c) {
  switch (c) {
    case Checkpointing::kNone: return "none";
    case Checkpointing::kFull: return "full";
    case Checkpointing::kSelective: return "selective";
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
