// Lion: EvoLved Sign Momentum (Chen et al. 2023, "Symbolic Discovery of Optimization
// Algorithms", Algorithm 2, with decoupled weight decay). One state tensor per parameter
// (the momentum m, in the parameter's dtype): half of AdamW's state.
#pragma once

#include <tuple>
#include <vector>

#include <torch/torch.h>

#include "oomkit/train/optim/optimizers.h"

namespace oomkit {

struct LionOptions : public torch::optim::OptimizerCloneableOptions<LionOptions> {
  LionOptions(double lr = 1e-4);  // NOLINT: implicit from lr, as LibTorch's options are
  TORCH_ARG(double, lr) = 1e-4;
  typedef std::tuple<double, double> betas_t;
  TORCH_ARG(betas_t, betas) = std::make_tuple(0.9, 0.99);
  TORCH_ARG(double, weight_decay) = 0.0;

 public:
  void serialize(torch::serialize::InputArchive& archive) override;
  void serialize(torch::serialize::OutputArchive& archive) const override;
  double get_lr() const override;
  void set_lr(const double lr) override;
};

struct LionParamState : public torch::optim::OptimizerCloneableParamState<LionParamState>,
                        public StateTensorSource {
  TORCH_ARG(int64_t, step) = 0;
  TORCH_ARG(torch::Tensor, exp_avg);  // m, same shape and dtype as the parameter

 public:
  void serialize(torch::serialize::InputArchive& archive) override;
  void serialize(torch::serialize::OutputArchive& archive) const override;
  std::vector<torch::Tensor> state_tensors() const override { return {exp_avg()}; }
};

/// Per step, for each parameter p with gradient g (Chen et al. 2023, Alg. 2):
///   c = beta1·m + (1 - beta1)·g
///   p = p - lr·(sign(c) + weight_decay·p)
///   m = beta2·m + (1 - beta2)·g
/// Parameters without a gradient are skipped. Sparse gradients are rejected (c10::Error).
class Lion : public torch::optim::Optimizer {
 public:
  explicit Lion(std::vector<torch::optim::OptimizerParamGroup> param_groups, LionOptions defaults = {});
  explicit Lion(std::vector<torch::Tensor> params, LionOptions defaults = {});

  torch::Tensor step(LossClosure closure = nullptr) override;
  void save(torch::serialize::OutputArchive& archive) const override;
  void load(torch::serialize::InputArchive& archive) override;
};

}  // namespace oomkit
