// 8-bit Adam with block-wise dynamic quantization (Dettmers et al. 2022; bitsandbytes).
// See include/oomkit/train/adam8bit.h for the exact update and the state layout.
#include "oomkit/train/adam8bit.h"

#include <torch/optim/serialize.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

namespace oomkit {

using torch::optim::deque_to_list;  // used by LibTorch's serialization macros
using torch::optim::list_to_deque;

torch::Tensor dynamic_quantization_map(bool is_signed) {
  // bitsandbytes functional.create_dynamic_map(signed, max_exponent_bits=7, total_bits=8):
  // 7 non-sign bits all usable by the exponent, so no extra linear items.
  constexpr int kMaxExponentBits = 7;
  std::vector<double> data;
  data.reserve(256);
  for (int i = 0; i < kMaxExponentBits; ++i) {
    const int64_t fraction_items = is_signed ? (int64_t{1} << i) + 1 : (int64_t{1} << (i + 1)) + 1;
    const double scale = std::pow(10.0, -(kMaxExponentBits - 1) + i);
    for (int64_t k = 0; k + 1 < fraction_items; ++k) {
      // midpoint of consecutive boundaries of linspace(0.1, 1, fraction_items)
      const double step = 0.9 / static_cast<double>(fraction_items - 1);
      const double mean = 0.1 + step * (static_cast<double>(k) + 0.5);
      data.push_back(scale * mean);
      if (is_signed) data.push_back(-scale * mean);
    }
  }
  data.push_back(0.0);
  data.push_back(1.0);
  TORCH_INTERNAL_ASSERT(data.size() == 256, "dynamic map has ", data.size(), " entries");
  std::sort(data.begin(), data.end());
  return torch::tensor(data, torch::kDouble).to(torch::kFloat);
}

namespace {

int64_t num_blocks(int64_t numel, int64_t block_size) { return (numel + block_size - 1) / block_size; }

// The flattened float32 tensor zero-padded to whole blocks, viewed as (blocks, block_size).
torch::Tensor as_blocks(const torch::Tensor& flat, int64_t block_size) {
  const int64_t n = flat.numel();
  const int64_t blocks = num_blocks(n, block_size);
  const int64_t pad = blocks * block_size - n;
  torch::Tensor padded = pad > 0 ? torch::cat({flat, torch::zeros({pad}, flat.options())}) : flat;
  return padded.view({blocks, block_size});
}

}  // namespace

BlockwiseQuantized quantize_blockwise(const torch::Tensor& x, const torch::Tensor& code, int64_t block_size) {
  TORCH_CHECK(block_size >= 1, "quantize_blockwise: block_size must be >= 1, got ", block_size);
  TORCH_CHECK(code.dim() == 1 && code.numel() == 256, "quantize_blockwise: code must have 256 entries");
  const int64_t n = x.numel();
  torch::Tensor blocks = as_blocks(x.reshape(-1).to(torch::kFloat), block_size);  // (blocks, block_size)
  torch::Tensor absmax = blocks.abs().amax(1);                                       // (blocks,)
  torch::Tensor safe = torch::where(absmax > 0, absmax, torch::ones_like(absmax));
  torch::Tensor normalized = blocks.div(safe.unsqueeze(1)).reshape(-1).narrow(0, 0, n);
  // Nearest map entry: count the midpoints between consecutive entries that lie below x.
  torch::Tensor midpoints = (code.narrow(0, 0, 255) + code.narrow(0, 1, 255)).mul_(0.5);
  torch::Tensor index = torch::searchsorted(midpoints, normalized, /*out_int32=*/true);
  return {index.to(torch::kUInt8).reshape(x.sizes()), absmax};
}

torch::Tensor dequantize_blockwise(const torch::Tensor& codes, const torch::Tensor& absmax, const torch::Tensor& code,
                                   int64_t block_size) {
  TORCH_CHECK(block_size >= 1, "dequantize_blockwise: block_size must be >= 1, got ", block_size);
  const int64_t n = codes.numel();
  TORCH_CHECK(absmax.numel() == num_blocks(n, block_size), "dequantize_blockwise: ", absmax.numel(),
              " scales for ", n, " elements in blocks of ", block_size);
  torch::Tensor values = code.index_select(0, codes.reshape(-1).to(torch::kLong));
  torch::Tensor blocks = as_blocks(values, block_size).mul(absmax.unsqueeze(1));
  return blocks.reshape(-1).narrow(0, 0, n).reshape(codes.sizes());
}

Adam8bitOptions::Adam8bitOptions(double lr) : lr_(lr) {}

void Adam8bitOptions::serialize(torch::serialize::OutputArchive& archive) const {
  _TORCH_OPTIM_SERIALIZE_TORCH_ARG(lr);
  _TORCH_OPTIM_SERIALIZE_TORCH_ARG(betas);
  _TORCH_OPTIM_SERIALIZE_TORCH_ARG(eps);
  _TORCH_OPTIM_SERIALIZE_TORCH_ARG(weight_decay);
  _TORCH_OPTIM_SERIALIZE_TORCH_ARG(block_size);
}

void Adam8bitOptions::serialize(torch::serialize::InputArchive& archive) {
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(double, lr);
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(betas_t, betas);
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(double, eps);
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(double, weight_decay);
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(int64_t, block_size);
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
}

void Adam8bitParamState::serialize(torch::serialize::InputArchive& archive) {
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(int64_t, step);
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(int64_t, block_size);
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(torch::Tensor, exp_avg_codes);
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(torch::Tensor, exp_avg_absmax);
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(torch::Tensor, exp_avg_sq_codes);
  _TORCH_OPTIM_DESERIALIZE_TORCH_ARG(torch::Tensor, exp_avg_sq_absmax);
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

torch::Tensor Adam8bit::step(LossClosure closure) {
  torch::NoGradGuard no_grad;
  torch::Tensor loss;
  if (closure) {
    torch::AutoGradMode enable_grad(true);
    loss = closure();
  }
  for (auto& group : param_groups_) {
    const auto& o = static_cast<const Adam8bitOptions&>(group.options());
    const auto [beta1, beta2] = o.betas();
    for (auto& p : group.params()) {
      if (!p.grad().defined()) continue;
      TORCH_CHECK(!p.grad().is_sparse(), "Adam8bit does not support sparse gradients");
      const torch::Tensor g = p.grad().to(torch::kFloat);
      const std::string key = c10::guts::to_string(p.unsafeGetTensorImpl());
      auto it = state_.find(key);
      if (it == state_.end()) {
        auto fresh = std::make_unique<Adam8bitParamState>();
        const int64_t blocks = num_blocks(p.numel(), o.block_size());
        const auto zero_codes = [&](const torch::Tensor& map) {  // the index of 0.0 in `map`
          const int64_t zero_index = map.eq(0).nonzero().item<int64_t>();
          return torch::full(p.sizes(), zero_index, p.options().dtype(torch::kUInt8));
        };
        fresh->block_size(o.block_size());
        fresh->exp_avg_codes(zero_codes(signed_map_));
        fresh->exp_avg_absmax(torch::zeros({blocks}, p.options().dtype(torch::kFloat)));
        fresh->exp_avg_sq_codes(zero_codes(unsigned_map_));
        fresh->exp_avg_sq_absmax(torch::zeros({blocks}, p.options().dtype(torch::kFloat)));
        it = state_.emplace(key, std::move(fresh)).first;
      }
      auto& state = static_cast<Adam8bitParamState&>(*it->second);
      state.step(state.step() + 1);
      const int64_t block = state.block_size();
      torch::Tensor m = dequantize_blockwise(state.exp_avg_codes(), state.exp_avg_absmax(), signed_map_, block);
      torch::Tensor v = dequantize_blockwise(state.exp_avg_sq_codes(), state.exp_avg_sq_absmax(), unsigned_map_, block);
      m.mul_(beta1).add_(g, 1.0 - beta1);
      v.mul_(beta2).addcmul_(g, g, 1.0 - beta2);

      const double step = static_cast<double>(state.step());
      const double bias_correction1 = 1.0 - std::pow(beta1, step);
      const double bias_correction2 = 1.0 - std::pow(beta2, step);
      torch::Tensor denom = v.sqrt().div_(std::sqrt(bias_correction2)).add_(o.eps());
      if (o.weight_decay() != 0) p.mul_(1.0 - o.lr() * o.weight_decay());
      const double step_size = o.lr() / bias_correction1;
      if (p.scalar_type() == torch::kFloat) {
        p.addcdiv_(m, denom, -step_size);
      } else {
        p.add_(m.div(denom).mul_(-step_size).to(p.scalar_type()));
      }

      BlockwiseQuantized qm = quantize_blockwise(m, signed_map_, block);
      BlockwiseQuantized qv = quantize_blockwise(v, unsigned_map_, block);
      state.exp_avg_codes().copy_(qm.codes);
      state.exp_avg_absmax().copy_(qm.absmax);
      state.exp_avg_sq_codes().copy_(qv.codes);
      state.exp_avg_sq_absmax().copy_(qv.absmax);
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
