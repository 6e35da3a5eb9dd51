// The phase marks of a training step. The profiler snapshots memory at each; the estimator
// predicts allocated bytes at each; the timeline, the report and the diagnosis name them with
// these exact strings.
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace oomkit {

/// Order within one optimizer step: for each micro-batch of gradient accumulation,
/// step_start (first micro-batch only) -> after_forward -> after_loss -> after_backward;
/// then after_optimizer_step -> after_zero_grad. kEval is a mark after an evaluation pass.
enum class Phase {
  kStepStart,
  kAfterForward,
  kAfterLoss,
  kAfterBackward,
  kAfterOptimizerStep,
  kAfterZeroGrad,
  kEval,
};

inline constexpr std::array<Phase, 7> kAllPhases = {
    Phase::kStepStart,          Phase::kAfterForward, Phase::kAfterLoss, Phase::kAfterBackward,
    Phase::kAfterOptimizerStep, Phase::kAfterZeroGrad, Phase::kEval};

/// "step_start", "after_forward", "after_loss", "after_backward", "after_optimizer_step",
/// "after_zero_grad", "eval".
constexpr std::string_view phase_name(Phase p) {
  switch (p) {
    case Phase::kStepStart: return "step_start";
    case Phase::kAfterForward: return "after_forward";
    case Phase::kAfterLoss: return "after_loss";
    case Phase::kAfterBackward: return "after_backward";
    case Phase::kAfterOptimizerStep: return "after_optimizer_step";
    case Phase::kAfterZeroGrad: return "after_zero_grad";
    case Phase::kEval: return "eval";
  }
  return "unknown";
}

/// Inverse of phase_name(); nullopt for an unknown string.
constexpr std::optional<Phase> phase_from_name(std::string_view name) {
  for (Phase p : kAllPhases) {
    if (phase_name(p) == name) return p;
  }
  return std::nullopt;
}

}  // namespace oomkit
