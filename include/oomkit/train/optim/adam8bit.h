// 8-bit Adam (Dettmers et al. 2022, "8-bit Optimizers via Block-wise Quantization"): AdamW
// whose two states live as 8-bit codes with one fp32 absmax scale per block of `block_size`
// elements, quantized with bitsandbytes' dynamic (tree) data type (§2.2, §2.3): the signed map
// for the first moment m, the unsigned map for the second moment v.
//
// Per step, per parameter (bitsandbytes' blockwise 8-bit Adam kernel; t = step):
//   m, v = dequantize(codes_m, absmax_m), dequantize(codes_v, absmax_v)      (fp32)
//   m = beta1·m + (1 - beta1)·g;  v = beta2·v + (1 - beta2)·g²
//   p = p·(1 - lr·weight_decay) - lr·(m / (1 - beta1^t)) / (sqrt(v / (1 - beta2^t)) + eps)
//   codes, absmax = quantize(m), quantize(v)   (per block: absmax = max|x|, code = the map
//                                               entry nearest to x / absmax)
// As in bitsandbytes (`min_8bit_size`, default 4096), a parameter with fewer elements keeps
// m and v in fp32 and takes the same update without quantization.
// State bytes per parameter of n elements: 2·n (two uint8 code tensors) + 2·4·ceil(n/block)
// (two fp32 absmax vectors) when n >= min_8bit_size, else 2·4·n; plus the two 256-entry fp32
// maps once per optimizer (2 KiB).
#pragma once

#include <tuple>
#include <vector>

#include <torch/torch.h>

#include "oomkit/train/optim/optimizers.h"
#include "oomkit/train/optim/quantize8bit.h"

namespace oomkit {

struct Adam8bitOptions : public torch::optim::OptimizerCloneableOptions<Adam8bitOptions> {
  Adam8bitOptions(double lr = 1e-3);  // NOLINT: implicit from lr, as LibTorch's options are
  TORCH_ARG(double, lr) = 1e-3;
  typedef std::tuple<double, double> betas_t;
  TORCH_ARG(betas_t, betas) = std::make_tuple(0.9, 0.999);
  TORCH_ARG(double, eps) = 1e-8;
  TORCH_ARG(double, weight_decay) = 0.0;
  TORCH_ARG(int64_t, block_size) = 2048;
  // true: contiguous fp32 CPU parameters take the fused per-block kernel (one pass, no
  // full-size fp32 temporaries); false, and every other parameter: LibTorch tensor ops on
  // whole dequantized states. Both implement the same rule.
  TORCH_ARG(bool, fused) = true;
  TORCH_ARG(int64_t, min_8bit_size) = 4096;  // smaller parameters keep fp32 states (bitsandbytes)

 public:
  void serialize(torch::serialize::InputArchive& archive) override;
  void serialize(torch::serialize::OutputArchive& archive) const override;
  double get_lr() const override;
  void set_lr(const double lr) override;
};

struct Adam8bitParamState : public torch::optim::OptimizerCloneableParamState<Adam8bitParamState>,
                            public StateTensorSource {
  TORCH_ARG(int64_t, step) = 0;
  TORCH_ARG(int64_t, block_size) = 2048;       // fixed when the state is created
  TORCH_ARG(torch::Tensor, exp_avg_codes);     // uint8, the parameter's shape (signed map)
  TORCH_ARG(torch::Tensor, exp_avg_absmax);    // float32, (blocks,)
  TORCH_ARG(torch::Tensor, exp_avg_sq_codes);  // uint8, the parameter's shape (unsigned map)
  TORCH_ARG(torch::Tensor, exp_avg_sq_absmax); // float32, (blocks,)
  TORCH_ARG(torch::Tensor, exp_avg);           // float32 m, only below min_8bit_size
  TORCH_ARG(torch::Tensor, exp_avg_sq);        // float32 v, only below min_8bit_size

 public:
  void serialize(torch::serialize::InputArchive& archive) override;
  void serialize(torch::serialize::OutputArchive& archive) const override;
  std::vector<torch::Tensor> state_tensors() const override {
    return {exp_avg_codes(), exp_avg_absmax(), exp_avg_sq_codes(), exp_avg_sq_absmax(), exp_avg(), exp_avg_sq()};
  }
};

/// The update rule is in this header's opening comment. Parameters without a gradient are
/// skipped; sparse gradients are rejected (c10::Error). The block size of a parameter's
/// state is fixed when the state is created.
class Adam8bit : public torch::optim::Optimizer, public StateTensorSource {
 public:
  explicit Adam8bit(std::vector<torch::optim::OptimizerParamGroup> param_groups, Adam8bitOptions defaults = {});
  explicit Adam8bit(std::vector<torch::Tensor> params, Adam8bitOptions defaults = {});

  torch::Tensor step(LossClosure closure = nullptr) override;
  void save(torch::serialize::OutputArchive& archive) const override;
  void load(torch::serialize::InputArchive& archive) override;
  /// The two quantization maps, shared by all parameters.
  std::vector<torch::Tensor> state_tensors() const override { return {signed_map_, unsigned_map_}; }

 private:
  void step_tensor_ops(torch::Tensor& p, const Adam8bitOptions& o, Adam8bitParamState& state);
  void step_fp32_state(torch::Tensor& p, const Adam8bitOptions& o, Adam8bitParamState& state);
  torch::Tensor signed_map_;    // (256,) float32, for m
  torch::Tensor unsigned_map_;  // (256,) float32, for v
};

}  // namespace oomkit
