// Adafactor (Shazeer & Stern 2018, "Adafactor: Adaptive Learning Rates with Sublinear Memory
// Cost", Alg. 4 with a factored second moment), in the variant of Hugging Face transformers'
// `Adafactor` with `relative_step=False, scale_parameter=False, warmup_init=False` (an
// explicit learning rate, as HF recommends when a schedule drives lr):
//   beta2_t = 1 - t^decay_rate                                (decay_rate -0.8: §7.2's 1 - t^-0.8)
//   G2      = g² + eps1                                       (eps1 1e-30)
//   matrix (..., n, m): R = beta2_t·R + (1 - beta2_t)·mean_{last}(G2)       rows,    shape (..., n)
//                       C = beta2_t·C + (1 - beta2_t)·mean_{second-last}(G2) columns, shape (..., m)
//                       V = (R / mean(R)) ⊗ C                 (Alg. 4: R·C / (1ᵀR), rank-1)
//   vector / scalar:    V = beta2_t·V + (1 - beta2_t)·G2      (the full second moment)
//   U = g / sqrt(V);  U = U / max(1, RMS(U)/clip_threshold)   (§6 update clipping, d = 1)
//   U = lr·U;  first_moment: M = beta1·M + (1 - beta1)·U, U = M   (off by default: HF beta1=None)
//   p = p - weight_decay·lr·p - U
// State per parameter: rows + columns for a matrix, numel for a vector (+ numel with the
// first moment), in the parameter's dtype.
#pragma once

#include <vector>

#include <torch/torch.h>

#include "oomkit/train/optim/optimizers.h"

namespace oomkit {

struct AdafactorOptions : public torch::optim::OptimizerCloneableOptions<AdafactorOptions> {
  AdafactorOptions(double lr = 1e-3);  // NOLINT: implicit from lr, as LibTorch's options are
  TORCH_ARG(double, lr) = 1e-3;
  TORCH_ARG(double, eps1) = 1e-30;
  TORCH_ARG(double, clip_threshold) = 1.0;
  TORCH_ARG(double, decay_rate) = -0.8;
  TORCH_ARG(bool, first_moment) = false;
  TORCH_ARG(double, beta1) = 0.9;  // used only with first_moment
  TORCH_ARG(double, weight_decay) = 0.0;

 public:
  void serialize(torch::serialize::InputArchive& archive) override;
  void serialize(torch::serialize::OutputArchive& archive) const override;
  double get_lr() const override;
  void set_lr(const double lr) override;
};

struct AdafactorParamState : public torch::optim::OptimizerCloneableParamState<AdafactorParamState>,
                             public StateTensorSource {
  TORCH_ARG(int64_t, step) = 0;
  TORCH_ARG(torch::Tensor, exp_avg);         // first moment M, only with first_moment
  TORCH_ARG(torch::Tensor, exp_avg_sq_row);  // R, shape[:-1], for tensors with dim >= 2
  TORCH_ARG(torch::Tensor, exp_avg_sq_col);  // C, shape[:-2] + shape[-1:], for dim >= 2
  TORCH_ARG(torch::Tensor, exp_avg_sq);      // V, the parameter's shape, for dim < 2

 public:
  void serialize(torch::serialize::InputArchive& archive) override;
  void serialize(torch::serialize::OutputArchive& archive) const override;
  std::vector<torch::Tensor> state_tensors() const override {
    return {exp_avg(), exp_avg_sq_row(), exp_avg_sq_col(), exp_avg_sq()};
  }
};

/// The update rule is in this header's opening comment. Parameters without a gradient are
/// skipped; sparse gradients are rejected (c10::Error).
class Adafactor : public torch::optim::Optimizer {
 public:
  explicit Adafactor(std::vector<torch::optim::OptimizerParamGroup> param_groups, AdafactorOptions defaults = {});
  explicit Adafactor(std::vector<torch::Tensor> params, AdafactorOptions defaults = {});

  torch::Tensor step(LossClosure closure = nullptr) override;
  void save(torch::serialize::OutputArchive& archive) const override;
  void load(torch::serialize::InputArchive& archive) override;
};

}  // namespace oomkit
