// LLaMA modules: Hugging Face's modeling_llama.py op for op (include/oomkit/train/llama.h).
#include "oomkit/train/llama.h"

#include <cmath>
#include <limits>

#include <torch/version.h>

#include "oomkit/core/error.h"
#include "attention_core.h"
#include "oomkit/train/lora.h"

namespace oomkit {

namespace nn = torch::nn;

torch::Tensor rope_inverse_frequencies(const ModelConfig& config) {
  const int64_t d_h = config.head_dim();
  // 1 / base^(arange(0, d_h, 2) / d_h), in fp32 as HF computes it (int64 arange .float()).
  torch::Tensor exponent = torch::arange(0, d_h, 2, torch::kLong).to(torch::kFloat) / static_cast<double>(d_h);
  torch::Tensor inv_freq = 1.0 / torch::pow(torch::tensor(config.rope_theta, torch::kFloat), exponent);  // (d_h/2)
  const RopeScaling& r = config.rope_scaling;
  if (r.type.empty()) return inv_freq;
  if (r.type == "linear") return inv_freq / r.factor;
  if (r.type == "llama3") {
    const double old_context = static_cast<double>(r.original_max_position_embeddings);
    const double low_freq_wavelen = old_context / r.low_freq_factor;
    const double high_freq_wavelen = old_context / r.high_freq_factor;
    torch::Tensor wavelen = 2.0 * M_PI / inv_freq;
    torch::Tensor scaled = torch::where(wavelen > low_freq_wavelen, inv_freq / r.factor, inv_freq);
    torch::Tensor smooth = (old_context / wavelen - r.low_freq_factor) / (r.high_freq_factor - r.low_freq_factor);
    torch::Tensor smoothed = (1.0 - smooth) * scaled / r.factor + smooth * scaled;
    torch::Tensor medium = (wavelen >= high_freq_wavelen).logical_and(wavelen <= low_freq_wavelen);
    return torch::where(medium, smoothed, scaled);
  }
  throw InputError("rope_scaling", "rope_type '" + r.type + "' is not implemented by the trainer",
                   "the trainer builds rope_scaling null, linear and llama3 (Llama-3.1); `oomkit estimate` reads any");
}

std::pair<torch::Tensor, torch::Tensor> rope_cos_sin(const torch::Tensor& inv_freq, int64_t T) {
  torch::NoGradGuard no_grad;
  torch::Tensor positions = torch::arange(T, inv_freq.options());  // (T) fp32
  torch::Tensor freqs = torch::outer(positions, inv_freq);          // (T, d_h/2)
  torch::Tensor emb = torch::cat({freqs, freqs}, -1);               // (T, d_h)
  return {emb.cos(), emb.sin()};
}

torch::Tensor apply_rotary(const torch::Tensor& x, const torch::Tensor& cos, const torch::Tensor& sin) {
  const int64_t half = x.size(-1) / 2;
  torch::Tensor rotated = torch::cat({-x.slice(-1, half), x.slice(-1, 0, half)}, -1);  // rotate_half(x)
  return x * cos + rotated * sin;  // mul saves cos and sin only (x's inputs need no gradient of theirs)
}

RmsNormImpl::RmsNormImpl(int64_t d, double eps) : eps_(eps) {
  weight = register_parameter("weight", torch::ones({d}));
}

torch::Tensor RmsNormImpl::forward(const torch::Tensor& x) {
  const auto input_dtype = x.scalar_type();
  torch::Tensor x32 = x.to(torch::kFloat);                               // x itself when fp32
  torch::Tensor variance = x32.pow(2).mean(-1, /*keepdim=*/true);        // (B, T, 1); pow saves x32
  torch::Tensor normed = x32 * torch::rsqrt(variance + eps_);            // rsqrt saves its output; mul saves both
  return weight * normed.to(input_dtype);                                // mul saves normed (and weight)
}

LlamaAttentionImpl::LlamaAttentionImpl(const ModelConfig& config, AttentionKernel attention)
    : n_head_(config.n_head), n_kv_head_(config.n_kv_head), head_dim_(config.head_dim()), attention_(attention) {
  const int64_t d = config.n_embd, kv = config.n_kv_head * config.head_dim();
  q_proj = register_module("q_proj", nn::Linear(nn::LinearOptions(d, d).bias(false)));
  k_proj = register_module("k_proj", nn::Linear(nn::LinearOptions(d, kv).bias(false)));
  v_proj = register_module("v_proj", nn::Linear(nn::LinearOptions(d, kv).bias(false)));
  o_proj = register_module("o_proj", nn::Linear(nn::LinearOptions(d, d).bias(false)));
  attn_dropout = register_module("attn_dropout", nn::Dropout(config.attn_pdrop));
}

namespace {

// HF repeat_kv: (B, h_kv, T, d_h) -> (B, h_kv·n_rep, T, d_h), each kv head repeated n_rep times
// in place (expand then reshape: a copy); n_rep = 1 returns x.
torch::Tensor repeat_kv(const torch::Tensor& x, int64_t n_rep) {
  if (n_rep == 1) return x;
  const int64_t B = x.size(0), h_kv = x.size(1), T = x.size(2), d_h = x.size(3);
  return x.unsqueeze(2).expand({B, h_kv, n_rep, T, d_h}).reshape({B, h_kv * n_rep, T, d_h});
}

}  // namespace

torch::Tensor LlamaAttentionImpl::forward(const torch::Tensor& x, const RotaryTables& rt) {
  const int64_t B = x.size(0), T = x.size(1), h = n_head_, h_kv = n_kv_head_, d_h = head_dim_;
  torch::Tensor q = linear_with_lora(q_proj, x).view({B, T, h, d_h}).transpose(1, 2);     // (B, h, T, d_h); mm saves x
  torch::Tensor k = linear_with_lora(k_proj, x).view({B, T, h_kv, d_h}).transpose(1, 2);  // (B, h_kv, T, d_h)
  torch::Tensor v = linear_with_lora(v_proj, x).view({B, T, h_kv, d_h}).transpose(1, 2);  // (B, h_kv, T, d_h)
  q = apply_rotary(q, rt.cos, rt.sin);                                   // (B, h, T, d_h)
  k = repeat_kv(apply_rotary(k, rt.cos, rt.sin), h / h_kv);              // (B, h, T, d_h)
  v = repeat_kv(v, h / h_kv);                                            // (B, h, T, d_h)
  torch::Tensor y = causal_attention(q, k, v, rt.mask, attn_dropout, attention_);  // (B, h, T, d_h)
  y = y.transpose(1, 2).contiguous().view({B, T, h * d_h});  // (B, T, d) copy
  return linear_with_lora(o_proj, y);                                          // (B, T, d); mm saves y
}

LlamaMlpImpl::LlamaMlpImpl(const ModelConfig& config) {
  const int64_t d = config.n_embd, d_ff = config.d_ff;
  gate_proj = register_module("gate_proj", nn::Linear(nn::LinearOptions(d, d_ff).bias(false)));
  up_proj = register_module("up_proj", nn::Linear(nn::LinearOptions(d, d_ff).bias(false)));
  down_proj = register_module("down_proj", nn::Linear(nn::LinearOptions(d_ff, d).bias(false)));
}

torch::Tensor LlamaMlpImpl::forward(const torch::Tensor& x) {
  // One statement per op, so the order (and what is alive when) does not depend on the
  // compiler's order of evaluating operands.
  torch::Tensor g = linear_with_lora(gate_proj, x);    // (B, T, d_ff); mm saves x
  torch::Tensor a = torch::silu(g);  // (B, T, d_ff); saves g
  g = torch::Tensor();
  torch::Tensor u = linear_with_lora(up_proj, x);      // (B, T, d_ff); mm saves x (autocast: its own cast)
  torch::Tensor m = a * u;           // (B, T, d_ff); saves a and u
  a = u = torch::Tensor();
  return linear_with_lora(down_proj, m);               // (B, T, d); mm saves m
}

LlamaDecoderLayerImpl::LlamaDecoderLayerImpl(const ModelConfig& config, AttentionKernel attention) {
  input_layernorm = register_module("input_layernorm", RmsNorm(config.n_embd, config.norm_eps));
  self_attn = register_module("self_attn", LlamaAttention(config, attention));
  post_attention_layernorm = register_module("post_attention_layernorm", RmsNorm(config.n_embd, config.norm_eps));
  mlp = register_module("mlp", LlamaMlp(config));
}

torch::Tensor LlamaDecoderLayerImpl::forward(const torch::Tensor& x, const RotaryTables& rt) {
  torch::Tensor y = x + self_attn(input_layernorm(x), rt);  // (B, T, d)
  return y + mlp(post_attention_layernorm(y));              // (B, T, d)
}

LlamaModelImpl::LlamaModelImpl(const ModelConfig& config, AttentionKernel attention)
    : sliding_window_(config.sliding_window) {
  embed_tokens = register_module("embed_tokens", nn::Embedding(config.vocab_size, config.n_embd));
  layers = register_module("layers", nn::ModuleList());
  for (int64_t i = 0; i < config.n_layer; ++i) layers->push_back(LlamaDecoderLayer(config, attention));
  norm = register_module("norm", RmsNorm(config.n_embd, config.norm_eps));
  inv_freq = register_buffer("inv_freq", rope_inverse_frequencies(config));
}

RotaryTables LlamaModelImpl::rotary_tables(int64_t T, torch::ScalarType dtype) const {
  torch::NoGradGuard no_grad;
  RotaryTables rt;
  auto [cos, sin] = rope_cos_sin(inv_freq, T);  // (T, d_h) fp32
  rt.cos = cos.to(dtype);                        // cos itself when fp32
  rt.sin = sin.to(dtype);
  const auto long_opts = inv_freq.options().dtype(torch::kLong);
  const torch::Tensor i = torch::arange(T, long_opts).unsqueeze(1);  // (T, 1) query positions
  const torch::Tensor j = torch::arange(T, long_opts).unsqueeze(0);  // (1, T) key positions
  rt.mask = j > i;                                                   // (T, T) bool
  if (sliding_window_ > 0) rt.mask = rt.mask.logical_or(j <= i - sliding_window_);
  return rt;
}

}  // namespace oomkit
