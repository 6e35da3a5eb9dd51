// 8-bit Adam with block-wise dynamic quantization (Dettmers et al. 2022; bitsandbytes).
// See include/oomkit/train/optim/adam8bit.h for the exact update and the state layout.
#include "oomkit/train/optim/adam8bit.h"

#include <torch/optim/serialize.h>

#include <ATen/Parallel.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

namespace oomkit {

using torch::optim::deque_to_list;  // used by LibTorch's serialization macros
using torch::optim::list_to_deque;

Adam8bitOptions::Adam8bitOptions(double lr) : lr_(lr) {}

void Adam8bitOptions::serialize(torch::serialize::OutputArchive& archive) const {
  _TORCH_OPTIM_SERIALIZE_TORCH_ARG(lr);
  _TORCH_OPTIM_SERIALIZE_TORCH_ARG(betas);
  _TORCH_OPTIM_SERIALIZE_TORCH_ARG(eps);
  _TORCH_OPTIM_SERIALIZE_TORCH_ARG(weight_decay);
  _TORCH_OPTIM_SERIALIZE_TORCH_ARG(block_size);
  _TORCH_OPTIM_SERIALIZE_TORCH_ARG(fused);
  _TORCH_OPTIM_SERIALIZE_TORCH_ARG(min_8bit_size);
}

void Adam8bitOptions::serialize(torch::serialize::InputArchive& archive) {
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(double, lr);
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(betas_t, betas);
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(double, eps);
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(double, weight_decay);
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(int64_t, block_size);
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(bool, fused);
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(int64_t, min_8bit_size);
}

double Adam8bitOptions::get_lr() const { return lr(); }
void Adam8bitOptions::set_lr(const double lr) { this->lr(lr); }

void Adam8bitParamState::serialize(torch::serialize::OutputArchive& archive) const {
  _TORCH_OPTIM_SERIALIZE_TORCH_ARG(step);
  _TORCH_OPTIM_SERIALIZE_TORCH_ARG(block_size);
  _TORCH_OPTIM_SERIALIZE_TORCH_ARG(exp_avg_codes);
  _TORCH_OPTIM_SERIALIZE_TORCH_ARG(exp_avg_absmax);
  _TORCH_OPTIM_SERIALIZE_TORCH_ARG(exp_avg_sq_codes);
  _TORCH_OPTIM_SERIALIZE_TORCH_ARG(exp_avg_sq_absmax);
  _TORCH_OPTIM_SERIALIZE_TORCH_ARG(exp_avg);
  _TORCH_OPTIM_SERIALIZE_TORCH_ARG(exp_avg_sq);
}

void Adam8bitParamState::serialize(torch::serialize::InputArchive& archive) {
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(int64_t, step);
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(int64_t, block_size);
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(torch::Tensor, exp_avg_codes);
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(torch::Tensor, exp_avg_absmax);
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(torch::Tensor, exp_avg_sq_codes);
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(torch::Tensor, exp_avg_sq_absmax);
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(torch::Tensor, exp_avg);
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(torch::Tensor, exp_avg_sq);
}

Adam8bit::Adam8bit(std::vector<torch::optim::OptimizerParamGroup> param_groups, Adam8bitOptions defaults)
    : torch::optim::Optimizer(std::move(param_groups), std::make_unique<Adam8bitOptions>(defaults)),
      signed_map_(dynamic_quantization_map(true)),
      unsigned_map_(dynamic_quantization_map(false)) {
  TORCH_CHECK(defaults.lr() >= 0, "Invalid learning rate: ", defaults.lr());
  TORCH_CHECK(defaults.eps() >= 0, "Invalid epsilon value: ", defaults.eps());
  const auto [beta1, beta2] = defaults.betas();
  TORCH_CHECK(0 <= beta1 && beta1 < 1.0, "Invalid beta1: ", beta1);
  TORCH_CHECK(0 <= beta2 && beta2 < 1.0, "Invalid beta2: ", beta2);
  TORCH_CHECK(defaults.weight_decay() >= 0, "Invalid weight_decay: ", defaults.weight_decay());
  TORCH_CHECK(defaults.block_size() >= 1, "Invalid block_size: ", defaults.block_size());
}

Adam8bit::Adam8bit(std::vector<torch::Tensor> params, Adam8bitOptions defaults)
    : Adam8bit(std::vector<torch::optim::OptimizerParamGroup>{torch::optim::OptimizerParamGroup(std::move(params))},
               std::move(defaults)) {}

namespace {

int64_t num_blocks(int64_t numel, int64_t block_size) { return (numel + block_size - 1) / block_size; }

// Step constants shared by both paths (t = the parameter's step count).
struct AdamStepConstants {
  float beta1, beta2, one_minus_beta1, one_minus_beta2;
  float decay;       // 1 - lr·weight_decay
  float step_size;   // lr / (1 - beta1^t)
  float inv_sqrt_bias_correction2;  // 1 / sqrt(1 - beta2^t)
  float eps;
};

AdamStepConstants step_constants(const Adam8bitOptions& o, int64_t step) {
  const auto [beta1, beta2] = o.betas();
  const double t = static_cast<double>(step);
  return {static_cast<float>(beta1),
          static_cast<float>(beta2),
          static_cast<float>(1.0 - beta1),
          static_cast<float>(1.0 - beta2),
          static_cast<float>(1.0 - o.lr() * o.weight_decay()),
          static_cast<float>(o.lr() / (1.0 - std::pow(beta1, t))),
          static_cast<float>(1.0 / std::sqrt(1.0 - std::pow(beta2, t))),
          static_cast<float>(o.eps())};
}

// The fused CPU kernel, bitsandbytes-style: per block, dequantize both states, update them
// and the parameter in one pass while tracking the new absmax, then requantize the block.
// Needs contiguous fp32 p and g; keeps only 2·block floats of scratch per thread.
void fused_step_cpu(torch::Tensor& p, const torch::Tensor& grad, Adam8bitParamState& state,
                    const AdamStepConstants& k, const torch::Tensor& signed_map, const torch::Tensor& unsigned_map) {
  static const NearestCode signed_code(dynamic_quantization_map(true));
  static const NearestCode unsigned_code(dynamic_quantization_map(false));
  const int64_t n = p.numel();
  const int64_t block = state.block_size();
  float* pp = p.data_ptr<float>();
  const float* gp = grad.data_ptr<float>();
  uint8_t* c1 = state.exp_avg_codes().data_ptr<uint8_t>();
  uint8_t* c2 = state.exp_avg_sq_codes().data_ptr<uint8_t>();
  float* a1 = state.exp_avg_absmax().data_ptr<float>();
  float* a2 = state.exp_avg_sq_absmax().data_ptr<float>();
  const float* map1 = signed_map.data_ptr<float>();
  const float* map2 = unsigned_map.data_ptr<float>();
  at::parallel_for(0, num_blocks(n, block), 1, [&](int64_t b_begin, int64_t b_end) {
    std::vector<float> m(block), v(block);
    for (int64_t b = b_begin; b < b_end; ++b) {
      const int64_t start = b * block;
      const int64_t len = std::min(block, n - start);
      const float scale1 = a1[b], scale2 = a2[b];
      float max1 = 0.0f, max2 = 0.0f;
      for (int64_t j = 0; j < len; ++j) {
        const int64_t i = start + j;
        const float g = gp[i];
        const float mj = map1[c1[i]] * scale1 * k.beta1 + k.one_minus_beta1 * g;
        const float vj = map2[c2[i]] * scale2 * k.beta2 + k.one_minus_beta2 * g * g;
        const float denom = std::sqrt(vj) * k.inv_sqrt_bias_correction2 + k.eps;
        pp[i] = pp[i] * k.decay - k.step_size * mj / denom;
        m[j] = mj;
        v[j] = vj;
        max1 = std::max(max1, std::abs(mj));
        max2 = std::max(max2, vj);
      }
      a1[b] = max1;
      a2[b] = max2;
      const float safe1 = max1 > 0.0f ? max1 : 1.0f;
      const float safe2 = max2 > 0.0f ? max2 : 1.0f;
      for (int64_t j = 0; j < len; ++j) {
        c1[start + j] = signed_code(m[j] / safe1);
        c2[start + j] = unsigned_code(v[j] / safe2);
      }
    }
  });
}

}  // namespace

void Adam8bit::step_tensor_ops(torch::Tensor& p, const Adam8bitOptions& o, Adam8bitParamState& state) {
  const AdamStepConstants k = step_constants(o, state.step());
  const int64_t block = state.block_size();
  const torch::Tensor g = p.grad().to(torch::kFloat);
  torch::Tensor m = dequantize_blockwise(state.exp_avg_codes(), state.exp_avg_absmax(), signed_map_, block);
  torch::Tensor v = dequantize_blockwise(state.exp_avg_sq_codes(), state.exp_avg_sq_absmax(), unsigned_map_, block);
  m.mul_(k.beta1).add_(g, k.one_minus_beta1);
  v.mul_(k.beta2).addcmul_(g, g, k.one_minus_beta2);
  torch::Tensor update = m.div(v.sqrt().mul_(k.inv_sqrt_bias_correction2).add_(k.eps)).mul_(-k.step_size);
  torch::Tensor p32 = p.to(torch::kFloat).mul_(k.decay).add_(update);
  p.copy_(p32);
  BlockwiseQuantized qm = quantize_blockwise(m, signed_map_, block);
  BlockwiseQuantized qv = quantize_blockwise(v, unsigned_map_, block);
  state.exp_avg_codes().copy_(qm.codes);
  state.exp_avg_absmax().copy_(qm.absmax);
  state.exp_avg_sq_codes().copy_(qv.codes);
  state.exp_avg_sq_absmax().copy_(qv.absmax);
}

void Adam8bit::step_fp32_state(torch::Tensor& p, const Adam8bitOptions& o, Adam8bitParamState& state) {
  const AdamStepConstants k = step_constants(o, state.step());
  const torch::Tensor g = p.grad().to(torch::kFloat);
  torch::Tensor& m = state.exp_avg();
  torch::Tensor& v = state.exp_avg_sq();
  m.mul_(k.beta1).add_(g, k.one_minus_beta1);
  v.mul_(k.beta2).addcmul_(g, g, k.one_minus_beta2);
  torch::Tensor update = m.div(v.sqrt().mul_(k.inv_sqrt_bias_correction2).add_(k.eps)).mul_(-k.step_size);
  p.copy_(p.to(torch::kFloat).mul_(k.decay).add_(update));
}

torch::Tensor Adam8bit::step(LossClosure closure) {
  torch::NoGradGuard no_grad;
  torch::Tensor loss;
  if (closure) {
    torch::AutoGradMode enable_grad(true);
    loss = closure();
  }
  for (auto& group : param_groups_) {
    const auto& o = static_cast<const Adam8bitOptions&>(group.options());
    for (auto& p : group.params()) {
      if (!p.grad().defined()) continue;
      TORCH_CHECK(!p.grad().is_sparse(), "Adam8bit does not support sparse gradients");
      const OptimizerStateKey key = optimizer_state_key(p);
      auto it = state_.find(key);
      if (it == state_.end()) {
        auto fresh = std::make_unique<Adam8bitParamState>();
        const int64_t blocks = num_blocks(p.numel(), o.block_size());
        const auto zero_codes = [&](const torch::Tensor& map) {  // the index of 0.0 in `map`
          const int64_t zero_index = map.eq(0).nonzero().item<int64_t>();
          return torch::full(p.sizes(), zero_index, p.options().dtype(torch::kUInt8));
        };
        fresh->block_size(o.block_size());
        if (p.numel() < o.min_8bit_size()) {
          fresh->exp_avg(torch::zeros(p.sizes(), p.options().dtype(torch::kFloat)));
          fresh->exp_avg_sq(torch::zeros(p.sizes(), p.options().dtype(torch::kFloat)));
        } else {
          fresh->exp_avg_codes(zero_codes(signed_map_));
          fresh->exp_avg_absmax(torch::zeros({blocks}, p.options().dtype(torch::kFloat)));
          fresh->exp_avg_sq_codes(zero_codes(unsigned_map_));
          fresh->exp_avg_sq_absmax(torch::zeros({blocks}, p.options().dtype(torch::kFloat)));
        }
        it = state_.emplace(key, std::move(fresh)).first;
      }
      auto& state = static_cast<Adam8bitParamState&>(*it->second);
      state.step(state.step() + 1);
      const bool fusable = o.fused() && p.device().is_cpu() && p.scalar_type() == torch::kFloat &&
                           p.is_contiguous() && p.grad().scalar_type() == torch::kFloat;
      if (state.exp_avg().defined()) {
        step_fp32_state(p, o, state);
      } else if (fusable) {
        const torch::Tensor grad = p.grad().contiguous();
        fused_step_cpu(p, grad, state, step_constants(o, state.step()), signed_map_, unsigned_map_);
      } else {
        step_tensor_ops(p, o, state);
      }
    }
  }
  return loss;
}

void Adam8bit::save(torch::serialize::OutputArchive& archive) const {
  torch::optim::serialize<Adam8bitParamState, Adam8bitOptions>(archive, *this);
}

void Adam8bit::load(torch::serialize::InputArchive& archive) {
  torch::optim::serialize<Adam8bitParamState, Adam8bitOptions>(archive, *this);
}

}  // namespace oomkit
