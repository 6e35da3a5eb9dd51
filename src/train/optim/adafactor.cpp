// Adafactor (Shazeer & Stern 2018, Alg. 4; Hugging Face transformers' variant with an explicit
// lr). See include/oomkit/train/optim/adafactor.h for the exact update.
#include "oomkit/train/optim/adafactor.h"

#include <torch/optim/serialize.h>

#include <cmath>
#include <string>
#include <utility>

namespace oomkit {

using torch::optim::deque_to_list;  // used by LibTorch's serialization macros
using torch::optim::list_to_deque;

AdafactorOptions::AdafactorOptions(double lr) : lr_(lr) {}

void AdafactorOptions::serialize(torch::serialize::OutputArchive& archive) const {
  _TORCH_OPTIM_SERIALIZE_TORCH_ARG(lr);
  _TORCH_OPTIM_SERIALIZE_TORCH_ARG(eps1);
  _TORCH_OPTIM_SERIALIZE_TORCH_ARG(clip_threshold);
  _TORCH_OPTIM_SERIALIZE_TORCH_ARG(decay_rate);
  _TORCH_OPTIM_SERIALIZE_TORCH_ARG(first_moment);
  _TORCH_OPTIM_SERIALIZE_TORCH_ARG(beta1);
  _TORCH_OPTIM_SERIALIZE_TORCH_ARG(weight_decay);
}

void AdafactorOptions::serialize(torch::serialize::InputArchive& archive) {
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(double, lr);
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(double, eps1);
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(double, clip_threshold);
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(double, decay_rate);
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(bool, first_moment);
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(double, beta1);
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(double, weight_decay);
}

double AdafactorOptions::get_lr() const { return lr(); }
void AdafactorOptions::set_lr(const double lr) { this->lr(lr); }

void AdafactorParamState::serialize(torch::serialize::OutputArchive& archive) const {
  _TORCH_OPTIM_SERIALIZE_TORCH_ARG(step);
  _TORCH_OPTIM_SERIALIZE_TORCH_ARG(exp_avg);
  _TORCH_OPTIM_SERIALIZE_TORCH_ARG(exp_avg_sq_row);
  _TORCH_OPTIM_SERIALIZE_TORCH_ARG(exp_avg_sq_col);
  _TORCH_OPTIM_SERIALIZE_TORCH_ARG(exp_avg_sq);
}

void AdafactorParamState::serialize(torch::serialize::InputArchive& archive) {
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(int64_t, step);
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(torch::Tensor, exp_avg);
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(torch::Tensor, exp_avg_sq_row);
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(torch::Tensor, exp_avg_sq_col);
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(torch::Tensor, exp_avg_sq);
}

Adafactor::Adafactor(std::vector<torch::optim::OptimizerParamGroup> param_groups, AdafactorOptions defaults)
    : torch::optim::Optimizer(std::move(param_groups), std::make_unique<AdafactorOptions>(defaults)) {
  TORCH_CHECK(defaults.lr() >= 0, "Invalid learning rate: ", defaults.lr());
  TORCH_CHECK(defaults.eps1() >= 0, "Invalid eps1: ", defaults.eps1());
  TORCH_CHECK(defaults.clip_threshold() > 0, "Invalid clip_threshold: ", defaults.clip_threshold());
  TORCH_CHECK(defaults.decay_rate() < 0, "Invalid decay_rate (must be < 0): ", defaults.decay_rate());
  TORCH_CHECK(0 <= defaults.beta1() && defaults.beta1() < 1.0, "Invalid beta1: ", defaults.beta1());
  TORCH_CHECK(defaults.weight_decay() >= 0, "Invalid weight_decay: ", defaults.weight_decay());
}

Adafactor::Adafactor(std::vector<torch::Tensor> params, AdafactorOptions defaults)
    : Adafactor(std::vector<torch::optim::OptimizerParamGroup>{torch::optim::OptimizerParamGroup(std::move(params))},
                std::move(defaults)) {}

namespace {

// Root mean square of all elements: ||t||_2 / sqrt(numel) (Shazeer & Stern 2018, §6).
torch::Tensor rms(const torch::Tensor& t) { return t.norm() / std::sqrt(static_cast<double>(t.numel())); }

}  // namespace

torch::Tensor Adafactor::step(LossClosure closure) {
  torch::NoGradGuard no_grad;
  torch::Tensor loss;
  if (closure) {
    torch::AutoGradMode enable_grad(true);
    loss = closure();
  }
  for (auto& group : param_groups_) {
    const auto& o = static_cast<const AdafactorOptions&>(group.options());
    for (auto& p : group.params()) {
      if (!p.grad().defined()) continue;
      const torch::Tensor& grad = p.grad();
      TORCH_CHECK(!grad.is_sparse(), "Adafactor does not support sparse gradients");
      const bool factored = p.dim() >= 2;
      const OptimizerStateKey key = optimizer_state_key(p);
      auto it = state_.find(key);
      if (it == state_.end()) {
        auto fresh = std::make_unique<AdafactorParamState>();
        const auto opts = p.options();
        if (o.first_moment()) fresh->exp_avg(torch::zeros_like(p, torch::MemoryFormat::Preserve));
        if (factored) {
          std::vector<int64_t> row_shape(p.sizes().begin(), p.sizes().end() - 1);   // shape[:-1]
          std::vector<int64_t> col_shape(p.sizes().begin(), p.sizes().end() - 2);   // shape[:-2]
          col_shape.push_back(p.size(-1));                                            // + shape[-1:]
          fresh->exp_avg_sq_row(torch::zeros(row_shape, opts));
          fresh->exp_avg_sq_col(torch::zeros(col_shape, opts));
        } else {
          fresh->exp_avg_sq(torch::zeros_like(p, torch::MemoryFormat::Preserve));
        }
        it = state_.emplace(key, std::move(fresh)).first;
      }
      auto& state = static_cast<AdafactorParamState&>(*it->second);
      state.step(state.step() + 1);
      const double beta2t = 1.0 - std::pow(static_cast<double>(state.step()), o.decay_rate());
      torch::Tensor update = grad.square().add_(o.eps1());  // G2 = g² + eps1
      if (factored) {
        torch::Tensor& row = state.exp_avg_sq_row();
        torch::Tensor& col = state.exp_avg_sq_col();
        row.mul_(beta2t).add_(update.mean(-1), 1.0 - beta2t);
        col.mul_(beta2t).add_(update.mean(-2), 1.0 - beta2t);
        // V^{-1/2} = (R / mean(R))^{-1/2} ⊗ C^{-1/2}
        torch::Tensor r_factor = (row / row.mean(-1, /*keepdim=*/true)).rsqrt_().unsqueeze(-1);
        torch::Tensor c_factor = col.unsqueeze(-2).rsqrt();
        update = r_factor.mul(c_factor).mul_(grad);
      } else {
        torch::Tensor& v = state.exp_avg_sq();
        v.mul_(beta2t).add_(update, 1.0 - beta2t);
        update = v.rsqrt().mul_(grad);
      }
      update.div_((rms(update) / o.clip_threshold()).clamp_min_(1.0));
      update.mul_(o.lr());
      if (o.first_moment()) {
        torch::Tensor& m = state.exp_avg();
        m.mul_(o.beta1()).add_(update, 1.0 - o.beta1());
        update = m;
      }
      if (o.weight_decay() != 0) p.add_(p, -o.weight_decay() * o.lr());
      p.sub_(update);
    }
  }
  return loss;
}

void Adafactor::save(torch::serialize::OutputArchive& archive) const {
  torch::optim::serialize<AdafactorParamState, AdafactorOptions>(archive, *this);
}

void Adafactor::load(torch::serialize::InputArchive& archive) {
  torch::optim::serialize<AdafactorParamState, AdafactorOptions>(archive, *this);
}

}  // namespace oomkit
