// The `oomkit train` / `oomkit estimate` flag spellings of the estimate.h enums, as the fixes
// print them (estimate.h's parse_* functions accept exactly these).
#pragma once

#include "oomkit/estimate/estimate.h"

namespace oomkit::diagnose_detail {

inline const char* precision_flag(Precision p) {
  switch (p) {
    case Precision::kFp32: return "fp32";
    case Precision::kBf16Mixed: return "bf16-mixed";
    case Precision::kFp16Mixed: return "fp16-mixed";
    case Precision::kBf16: return "bf16";
    case Precision::kChapter: return "chapter";
  }
  return "fp32";
}

inline const char* optimizer_flag(OptimizerKind o) {
  switch (o) {
    case OptimizerKind::kAdamW: return "adamw";
    case OptimizerKind::kSgd: return "sgd";
    case OptimizerKind::kSgdMomentum: return "sgd-momentum";
    case OptimizerKind::kLion: return "lion";
    case OptimizerKind::kAdafactor: return "adafactor";
    case OptimizerKind::kAdam8bit: return "adam-8bit";
  }
  return "adamw";
}

inline const char* checkpointing_flag(Checkpointing c) {
  switch (c) {
    case Checkpointing::kNone: return "none";
    case Checkpointing::kFull: return "full";
    case Checkpointing::kSelective: return "selective";
  }
  return "none";
}

}  // namespace oomkit::diagnose_detail
