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
/// LibTorch runs eight tensor ops per parameter (mul_, mul_/add_, mul_/addcmul_, sqrt, div, add_,
/// addcdiv_) and allocates a parameter-sized `denom` each time. State (AdamWParamState: step,
/// exp_avg, exp_avg_sq), options (AdamWOptions), save() and load() are LibTorch's, so
/// checkpoints, ZeRO partitions and optimizer_state_bytes() see the same tensors. Any other
/// parameter (CUDA, not float, not contiguous, a gradient of another dtype or layout, amsgrad)
/// takes LibTorch's tensor-op path, transcribed here from adamw.cpp. Sparse gradients are
/// rejected (c10::Error), as LibTorch does.
class FusedAdamW : public torch::optim::AdamW {
 public:
  explicit FusedAdamW(std::vector<torch::optim::OptimizerParamGroup> param_groups,
                      torch::optim::AdamWOptions defaults = {});
  explicit FusedAdamW(std::vector<torch::Tensor> params, torch::optim::AdamWOptions defaults = {});

  torch::Tensor step(LossClosure closure = nullptr) override;
};

/// True when FusedAdamW updates `p` (with gradient `grad`) in one pass: a dense CPU float
/// contiguous parameter with a gradient of the same kind and size, amsgrad off.
bool adamw_one_pass(const torch::Tensor& p, const torch::Tensor& grad, bool amsgrad);

}  // namespace oomkit
