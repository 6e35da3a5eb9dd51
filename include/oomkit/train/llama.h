// The LLaMA architecture (model_type llama / mistral) as torch::nn modules, op for op as
// Hugging Face's modeling_llama.py (transformers, commit 00227283, the v4.39 line: LlamaRMSNorm,
// rotate_half, apply_rotary_pos_emb, repeat_kv, LlamaMLP, LlamaAttention's eager path) with the
// RoPE frequencies of modeling_rope_utils.py (commit 0044e3b3, the v4.44 line:
// _compute_default_rope_parameters, _compute_linear_scaling_rope_parameters,
// _compute_llama3_parameters). Touvron et al. 2023 (LLaMA); Su et al. 2021 (RoPE); Shazeer
// 2020 (SwiGLU); Ainslie et al. 2023 (grouped-query attention); Zhang & Sennrich 2019 (RMSNorm).
//
// Letters: B batch, T sequence length, d hidden_size, h heads, h_kv key/value heads,
// d_h = d / h, d_ff intermediate_size, V vocab_size, L layers (model_config.h).
//
// Parameter names are Hugging Face's LlamaForCausalLM names: model.embed_tokens.weight,
// model.layers.N.input_layernorm.weight, model.layers.N.self_attn.{q,k,v,o}_proj.weight,
// model.layers.N.post_attention_layernorm.weight, model.layers.N.mlp.{gate,up,down}_proj.weight,
// model.norm.weight, lm_head.weight (absent with tie_word_embeddings). Every Linear is bias-free.
// The op sequence the estimator counts is docs/model-ops.md's LLaMA section.
#pragma once

#include <cstdint>
#include <utility>

#include <torch/torch.h>

#include "oomkit/core/model_config.h"
#include "oomkit/estimate/estimate.h"

namespace oomkit {

/// RoPE inverse frequencies (d_h / 2) fp32: 1 / rope_theta^(2i / d_h), i = 0 .. d_h/2 - 1
/// (HF _compute_default_rope_parameters), then rope_scaling: "linear" divides them by factor
/// (HF divides the positions: the same product), "llama3" applies _compute_llama3_parameters
/// (wavelength 2π/f above original_max_position_embeddings / low_freq_factor: f / factor; below
/// original_max_position_embeddings / high_freq_factor: f; between: (1 - s)·f/factor + s·f with
/// s = (original_max_position_embeddings / wavelength - low_freq_factor) / (high_freq_factor -
/// low_freq_factor)). Computed in fp32 as HF does. Throws InputError("rope_scaling") for any
/// other rope_type (dynamic, yarn, longrope: not implemented by the trainer).
torch::Tensor rope_inverse_frequencies(const ModelConfig& config);

/// cos and sin of the rotary angles for positions 0 .. T-1: emb = cat(freqs, freqs) with
/// freqs = outer(arange(T), inv_freq), as HF's LlamaRotaryEmbedding.forward; (T, d_h) each, fp32,
/// on inv_freq's device, computed without autograd.
std::pair<torch::Tensor, torch::Tensor> rope_cos_sin(const torch::Tensor& inv_freq, int64_t T);

/// HF apply_rotary_pos_emb for one tensor: x·cos + rotate_half(x)·sin, with rotate_half(x) =
/// cat(-x[..., d_h/2:], x[..., :d_h/2]). x: (B, heads, T, d_h); cos, sin: (T, d_h) in x's dtype.
torch::Tensor apply_rotary(const torch::Tensor& x, const torch::Tensor& cos, const torch::Tensor& sin);

/// What every layer of one forward shares: cos and sin (T, d_h) in the compute dtype and the
/// (T, T) bool mask, true where attention is masked (future positions; with a Mistral
/// sliding_window W also positions j <= i - W).
struct RotaryTables {
  torch::Tensor cos, sin, mask;
};

/// HF LlamaRMSNorm: y = weight · (x32 · rsqrt(mean(x32², -1) + eps)).to(x.dtype), x32 = x in
/// fp32. x: (..., d) -> (..., d). Parameter `weight` (d), initialised to ones.
class RmsNormImpl : public torch::nn::Module {
 public:
  RmsNormImpl(int64_t d, double eps);
  torch::Tensor forward(const torch::Tensor& x);

  torch::Tensor weight;

 private:
  double eps_;
};
TORCH_MODULE(RmsNorm);

/// HF LlamaAttention (eager path): q_proj (d -> h·d_h), k_proj and v_proj (d -> h_kv·d_h),
/// RoPE on q and k, repeat_kv to h heads, softmax(q k^T / sqrt(d_h) masked) v, o_proj (d -> d).
class LlamaAttentionImpl : public torch::nn::Module {
 public:
  LlamaAttentionImpl(const ModelConfig& config, AttentionKernel attention);
  void set_attention(AttentionKernel attention) { attention_ = attention; }
  /// x: (B, T, d) -> (B, T, d).
  torch::Tensor forward(const torch::Tensor& x, const RotaryTables& rt);

  torch::nn::Linear q_proj{nullptr}, k_proj{nullptr}, v_proj{nullptr}, o_proj{nullptr};
  torch::nn::Dropout attn_dropout{nullptr};  // HF attention_dropout; no parameters

 private:
  int64_t n_head_, n_kv_head_, head_dim_;
  AttentionKernel attention_;
};
TORCH_MODULE(LlamaAttention);

/// HF LlamaMLP: down_proj(silu(gate_proj(x)) · up_proj(x)); gate, up: d -> d_ff; down: d_ff -> d.
class LlamaMlpImpl : public torch::nn::Module {
 public:
  explicit LlamaMlpImpl(const ModelConfig& config);
  /// x: (B, T, d) -> (B, T, d).
  torch::Tensor forward(const torch::Tensor& x);

  torch::nn::Linear gate_proj{nullptr}, up_proj{nullptr}, down_proj{nullptr};
};
TORCH_MODULE(LlamaMlp);

/// HF LlamaDecoderLayer: x + self_attn(input_layernorm(x)), then + mlp(post_attention_layernorm(.)).
class LlamaDecoderLayerImpl : public torch::nn::Module {
 public:
  LlamaDecoderLayerImpl(const ModelConfig& config, AttentionKernel attention);
  /// x: (B, T, d) -> (B, T, d).
  torch::Tensor forward(const torch::Tensor& x, const RotaryTables& rt);

  RmsNorm input_layernorm{nullptr};
  LlamaAttention self_attn{nullptr};
  RmsNorm post_attention_layernorm{nullptr};
  LlamaMlp mlp{nullptr};
};
TORCH_MODULE(LlamaDecoderLayer);

/// HF LlamaModel's modules: embed_tokens (V, d), layers.0 .. layers.{L-1}, norm; plus the
/// `inv_freq` buffer (d_h / 2 fp32, rope_inverse_frequencies()).
class LlamaModelImpl : public torch::nn::Module {
 public:
  LlamaModelImpl(const ModelConfig& config, AttentionKernel attention);
  /// The tables of one forward over T positions, cos and sin cast to `dtype` (the dtype q and
  /// k have: the autocast dtype under autocast, else the weights'). Without autograd.
  RotaryTables rotary_tables(int64_t T, torch::ScalarType dtype) const;

  torch::nn::Embedding embed_tokens{nullptr};
  torch::nn::ModuleList layers{nullptr};
  RmsNorm norm{nullptr};
  torch::Tensor inv_freq;  // (d_h / 2) fp32 buffer

 private:
  int64_t sliding_window_;
};
TORCH_MODULE(LlamaModel);

}  // namespace oomkit
