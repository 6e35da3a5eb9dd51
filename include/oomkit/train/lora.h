// LoRA fine-tuning in the trainer (Hu et al. 2021, "LoRA: Low-Rank Adaptation of Large Language
// Models", sec. 4.1; PEFT's peft/tuners/lora/layer.py Linear): a projection W (out, in) becomes
//   y = W x + b + (B (A x)) · alpha / r,   A (r, in), B (out, r)
// with W (and every other base parameter) frozen and only A and B trained. The adapters are what
// the estimator counts (estimate/parameters.cpp parameter_tensors(), LoraConfig): for each target
// of `targets` in every layer one A and one B; the base stays in the compute dtype.
//
// Targets are the estimator's names (lora_target_names()): LLaMA q,k,v,o,gate,up,down (the HF
// q_proj ... down_proj); GPT-2 c_attn (all of the fused d -> 3d), q/k/v (its d -> d slices,
// each with its own A and B, as PEFT on a split q/k/v model), o or c_proj (attn.c_proj), c_fc or
// up (mlp.c_fc), mlp_c_proj or down (mlp.c_proj). Two targets on the same slice are refused.
//
// Module layout: each adapter is a LoraAdapter child of the base nn::Linear, named "lora" (or
// "lora_q", "lora_k", "lora_v" for c_attn's slices), holding nn::Linear lora_A (in -> r) and
// lora_B (r -> out) without bias, PEFT's layout and initialisation: A Kaiming-uniform
// (a = sqrt(5), nn.Linear's default), B zeros, so a fresh adapter leaves the model's output
// unchanged. Parameter names: "<base>.lora.lora_A.weight".
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <torch/torch.h>

#include "oomkit/estimate/estimate.h"

namespace oomkit {

class GptImpl;

/// One adapter: y_delta = lora_B(lora_A(x)) · scale, (…, in) -> (…, out).
class LoraAdapterImpl : public torch::nn::Module {
 public:
  LoraAdapterImpl(int64_t in, int64_t out, int64_t rank, double scale);
  torch::Tensor forward(const torch::Tensor& x);

  torch::nn::Linear lora_A{nullptr};  // (r, in)
  torch::nn::Linear lora_B{nullptr};  // (out, r)
  double scale = 1.0;                 // alpha / r
};
TORCH_MODULE(LoraAdapter);

/// The delta of the adapter named `name` ("lora", "lora_q", ...) on `base` for input x, or an
/// undefined tensor when `base` has none. x: (B, T, in) -> (B, T, out).
torch::Tensor lora_delta(const torch::nn::Linear& base, const char* name, const torch::Tensor& x);

/// base(x) plus its "lora" adapter's delta when it has one (LoRA's forward, PEFT order: the
/// base's output first, then the adapter's added). x: (B, T, in) -> (B, T, out).
torch::Tensor linear_with_lora(const torch::nn::Linear& base, const torch::Tensor& x);

/// Adds the adapters of `lora` to every layer of `model` (drawn from the global torch
/// generator), freezes every other parameter (requires_grad false) and stores the frozen base in
/// `base_dtype` (the compute dtype: bf16 under bf16-mixed and bf16, fp16 under fp16-mixed, fp32
/// otherwise); adapters stay fp32 (the trainer casts them with everything else under pure bf16).
/// Call it after loading weights (--init-from) and before building the optimizer. Throws
/// InputError("--lora-rank") for rank < 1 or rank > n_embd, InputError("--lora-alpha") for
/// alpha <= 0 or not finite, InputError("--lora-targets") for an unknown, empty or overlapping
/// target list.
void add_lora_adapters(GptImpl& model, const LoraConfig& lora, torch::ScalarType base_dtype);

/// The base weights with their adapters merged in, W + scale · B A, as PEFT's merge_and_unload
/// computes it (in fp32, returned in the base weight's dtype), keyed by the base weight's
/// parameter name ("model.layers.0.self_attn.q_proj.weight"); GPT-2's q/k/v adapters merge into
/// their rows of c_attn.weight. Empty without adapters.
std::map<std::string, torch::Tensor> lora_merged_weights(const GptImpl& model);

/// True for a parameter name that belongs to an adapter ("….lora.lora_A.weight").
bool is_lora_parameter(const std::string& name);

}  // namespace oomkit
