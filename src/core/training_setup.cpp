// Names of the run knobs (core/training_setup.h): spellings <-> enums.
#include "oomkit/core/training_setup.h"

#include <string>
#include <utility>

#include "oomkit/core/error.h"

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

}  // namespace oomkit
