// Lion (Chen et al. 2023, Algorithm 2). See include/oomkit/train/optim/lion.h.
#include "oomkit/train/optim/lion.h"

#include <torch/optim/serialize.h>

#include <string>
#include <utility>

namespace oomkit {

using torch::optim::deque_to_list;  // used by LibTorch's serialization macros
using torch::optim::list_to_deque;

LionOptions::LionOptions(double lr) : lr_(lr) {}

void LionOptions::serialize(torch::serialize::OutputArchive& archive) const {
  _TORCH_OPTIM_SERIALIZE_TORCH_ARG(lr);
  _TORCH_OPTIM_SERIALIZE_TORCH_ARG(betas);
  _TORCH_OPTIM_SERIALIZE_TORCH_ARG(weight_decay);
}

void LionOptions::serialize(torch::serialize::InputArchive& archive) {
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(double, lr);
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(betas_t, betas);
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(double, weight_decay);
}

double LionOptions::get_lr() const { return lr(); }
void LionOptions::set_lr(const double lr) { this->lr(lr); }

void LionParamState::serialize(torch::serialize::OutputArchive& archive) const {
  _TORCH_OPTIM_SERIALIZE_TORCH_ARG(step);
  _TORCH_OPTIM_SERIALIZE_TORCH_ARG(exp_avg);
}

void LionParamState::serialize(torch::serialize::InputArchive& archive) {
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(int64_t, step);
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(torch::Tensor, exp_avg);
}

Lion::Lion(std::vector<torch::optim::OptimizerParamGroup> param_groups, LionOptions defaults)
    : torch::optim::Optimizer(std::move(param_groups), std::make_unique<LionOptions>(defaults)) {
  TORCH_CHECK(defaults.lr() >= 0, "Invalid learning rate: ", defaults.lr());
  const auto [beta1, beta2] = defaults.betas();
  TORCH_CHECK(0 <= beta1 && beta1 < 1.0, "Invalid beta1: ", beta1);
  TORCH_CHECK(0 <= beta2 && beta2 < 1.0, "Invalid beta2: ", beta2);
  TORCH_CHECK(defaults.weight_decay() >= 0, "Invalid weight_decay: ", defaults.weight_decay());
}

Lion::Lion(std::vector<torch::Tensor> params, LionOptions defaults)
    : Lion(std::vector<torch::optim::OptimizerParamGroup>{torch::optim::OptimizerParamGroup(std::move(params))},
           std::move(defaults)) {}

torch::Tensor Lion::step(LossClosure closure) {
  torch::NoGradGuard no_grad;
  torch::Tensor loss;
  if (closure) {
    torch::AutoGradMode enable_grad(true);
    loss = closure();
  }
  for (auto& group : param_groups_) {
    const auto& options = static_cast<const LionOptions&>(group.options());
    const double lr = options.lr();
    const auto [beta1, beta2] = options.betas();
    for (auto& p : group.params()) {
      if (!p.grad().defined()) continue;
      const torch::Tensor& grad = p.grad();
      TORCH_CHECK(!grad.is_sparse(), "Lion does not support sparse gradients");
      const OptimizerStateKey key = optimizer_state_key(p);
      auto it = state_.find(key);
      if (it == state_.end()) {
        auto fresh = std::make_unique<LionParamState>();
        fresh->exp_avg(torch::zeros_like(p, torch::MemoryFormat::Preserve));
        it = state_.emplace(key, std::move(fresh)).first;
      }
      auto& state = static_cast<LionParamState&>(*it->second);
      state.step(state.step() + 1);
      torch::Tensor& m = state.exp_avg();
      // c = beta1·m + (1 - beta1)·g; p = p·(1 - lr·wd) - lr·sign(c)
      torch::Tensor update = m.mul(beta1).add_(grad, 1.0 - beta1).sign_();
      if (options.weight_decay() != 0) p.mul_(1.0 - lr * options.weight_decay());
      p.add_(update, -lr);
      // m = beta2·m + (1 - beta2)·g
      m.mul_(beta2).add_(grad, 1.0 - beta2);
    }
  }
  return loss;
}

void Lion::save(torch::serialize::OutputArchive& archive) const {
  torch::optim::serialize<LionParamState, LionOptions>(archive, *this);
}

void Lion::load(torch::serialize::InputArchive& archive) {
  torch::optim::serialize<LionParamState, LionOptions>(archive, *this);
}

}  // namespace oomkit
