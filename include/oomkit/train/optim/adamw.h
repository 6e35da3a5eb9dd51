// AdamW with a one-pass CPU update (Loshchilov & Hutter 2019, "Decoupled Weight Decay
// Regularization", Algorithm 2), keeping LibTorch's own state, options and checkpoint layout.
#pragma once

#include <cstdint>
#include <vector>

#include <torch/torch.h>

#include "oomkit/train/optim/adamw_update.h"

namespace oomkit {

/// torch::optim::AdamW whose step() updates each CPU float parameter in one pass over p, g,
/// exp_avg and exp_avg_sq (adamw_update_float, split over LibTorch's intra-op threads), where
/// LibTorch 1.13 runs nine tensor ops per parameter (p.mul_ for the weight decay; mul_, add_;
/// mul_, addcmul_; sqrt, div, add_; addcdiv_) and holds two parameter-sized temporaries (sqrt(v)
/// and the quotient). State (AdamWParamState: step, exp_avg, exp_avg_sq), options (AdamWOptions),
/// save() and load() are LibTorch's, so checkpoints, ZeRO partitions and optimizer_state_bytes()
/// see the same tensors. Any other parameter (CUDA, not float, not contiguous, a gradient of
/// another dtype, shape or layout or overlapping p, moments that are not CPU float contiguous
/// tensors of p's shape, amsgrad) takes LibTorch's tensor-op path, transcribed here from
/// adamw.cpp. The one pass bumps p's and the moments' version counters, as in-place ops do.
/// Sparse gradients are rejected (c10::Error), as LibTorch does.
class FusedAdamW : public torch::optim::AdamW {
 public:
  explicit FusedAdamW(std::vector<torch::optim::OptimizerParamGroup> param_groups,
                      torch::optim::AdamWOptions defaults = {});
  explicit FusedAdamW(std::vector<torch::Tensor> params, torch::optim::AdamWOptions defaults = {});

  torch::Tensor step(LossClosure closure = nullptr) override;
};

/// True when `p` and its gradient `grad` qualify for FusedAdamW's one pass: CPU float strided
/// contiguous tensors of the same shape that do not overlap, amsgrad off. (The step also checks
/// the moments: CPU float contiguous, p's shape, apart from p, g and each other.)
bool adamw_one_pass(const torch::Tensor& p, const torch::Tensor& grad, bool amsgrad);

}  // namespace oomkit
