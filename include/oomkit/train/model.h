// The GPT-2 model as torch::nn modules, following docs/model-ops.md op for op (the estimator
// counts what autograd saves for exactly this sequence). Letters: B batch, T sequence length,
// d = n_embd, h = n_head, d_h = d / h, d_ff, V = vocab_size, L = n_layer
// (include/oomkit/core/model_config.h).
//
// Parameter names are Hugging Face's (`transformer.wte.weight`, `transformer.h.0.attn.c_attn.weight`,
// ..., `transformer.ln_f.bias`). The language-model head is tied to `transformer.wte.weight`
// (Press & Wolf 2017; GPT-2): it has no tensor of its own, so named_parameters() lists every
// trainable tensor exactly once, as Hugging Face's deduplicated named_parameters() does.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <torch/torch.h>

#include "oomkit/core/model_config.h"
#include "oomkit/estimate/estimate.h"
#include "oomkit/train/llama.h"

namespace oomkit {

/// How the model runs, beside what it is (ModelConfig).
struct GptOptions {
  AttentionKernel attention = AttentionKernel::kEager;  // kSdpa needs LibTorch >= 2.0
  Checkpointing checkpointing = Checkpointing::kNone;   // kFull: blocks run under oomkit::checkpoint
  int64_t checkpoint_every = 1;                         // with kFull: blocks 0, K, 2K, ... are checkpointed
};

/// Causal self-attention: c_attn (d -> 3d), eager softmax(q k^T / sqrt(d_h)) v with a causal
/// mask, c_proj (d -> d). Radford et al. 2019; Vaswani et al. 2017 section 3.2.
class CausalSelfAttentionImpl : public torch::nn::Module {
 public:
  CausalSelfAttentionImpl(const ModelConfig& config, AttentionKernel attention);
  /// The kernel of later forwards (GptImpl::set_attention checks that it is built).
  void set_attention(AttentionKernel attention) { attention_ = attention; }
  /// x: (B, T, d) -> (B, T, d). `causal_mask`: (T, T) bool, true above the diagonal (masked).
  torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& causal_mask);
  /// Inference with a static KV cache: x (B, t, d) holds positions start .. start+t-1; their k
  /// and v are written into k_cache, v_cache (B, h, T_max, d_h) and attention runs over
  /// positions 0 .. start+t-1. `causal_mask` (t, start+t) bool. Returns (B, t, d).
  torch::Tensor forward_cached(const torch::Tensor& x, const torch::Tensor& causal_mask, torch::Tensor& k_cache,
                               torch::Tensor& v_cache, int64_t start);

  torch::nn::Linear c_attn{nullptr};
  torch::nn::Linear c_proj{nullptr};
  torch::nn::Dropout attn_dropout{nullptr};
  torch::nn::Dropout resid_dropout{nullptr};

 private:
  int64_t n_head_;
  int64_t n_embd_;
  AttentionKernel attention_;
};
TORCH_MODULE(CausalSelfAttention);

/// The MLP: c_fc (d -> d_ff), GELU (tanh approximation, GPT-2's gelu_new), c_proj (d_ff -> d).
class MlpImpl : public torch::nn::Module {
 public:
  explicit MlpImpl(const ModelConfig& config);
  /// x: (B, T, d) -> (B, T, d).
  torch::Tensor forward(const torch::Tensor& x);

  torch::nn::Linear c_fc{nullptr};
  torch::nn::Linear c_proj{nullptr};
  torch::nn::Dropout dropout{nullptr};
};
TORCH_MODULE(Mlp);

/// A pre-LayerNorm transformer block: x + attn(ln_1(x)), then x + mlp(ln_2(x)).
class BlockImpl : public torch::nn::Module {
 public:
  BlockImpl(const ModelConfig& config, AttentionKernel attention);
  /// x: (B, T, d) -> (B, T, d).
  torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& causal_mask);
  /// The same with the attention's static KV cache (CausalSelfAttentionImpl::forward_cached).
  torch::Tensor forward_cached(const torch::Tensor& x, const torch::Tensor& causal_mask, torch::Tensor& k_cache,
                               torch::Tensor& v_cache, int64_t start);

  torch::nn::LayerNorm ln_1{nullptr};
  CausalSelfAttention attn{nullptr};
  torch::nn::LayerNorm ln_2{nullptr};
  Mlp mlp{nullptr};
};
TORCH_MODULE(Block);

/// wte, wpe, drop, h.0 .. h.{L-1}, ln_f: Hugging Face's GPT2Model.
class TransformerImpl : public torch::nn::Module {
 public:
  explicit TransformerImpl(const ModelConfig& config);

  torch::nn::Embedding wte{nullptr};
  torch::nn::Embedding wpe{nullptr};
  torch::nn::Dropout drop{nullptr};
  torch::nn::ModuleList h{nullptr};
  torch::nn::LayerNorm ln_f{nullptr};
};
TORCH_MODULE(Transformer);

/// A static KV cache (Hugging Face's StaticCache): per layer k and v of (B, h, T_max, d_h) in
/// the model's dtype, allocated once; `length` positions are filled.
struct KvCache {
  std::vector<torch::Tensor> k;  // L tensors (B, h, T_max, d_h)
  std::vector<torch::Tensor> v;
  int64_t length = 0;            // positions written so far
  int64_t capacity() const { return k.empty() ? 0 : k.front().size(2); }
};

/// The trainer's causal language model, of the config's family:
///  - GPT-2 with a tied language-model head (Hugging Face's GPT2LMHeadModel): `transformer`;
///  - LLaMA / Mistral (Hugging Face's LlamaForCausalLM, llama.h): `model` and, unless
///    tie_word_embeddings, `lm_head` (V, d).
/// The other family's members stay null.
class GptImpl : public torch::nn::Module {
 public:
  /// Validates `config` (InputError naming the field). GPT-2 initialises as GPT-2 does:
  /// N(0, 0.02) for Linear and Embedding weights, N(0, 0.02/sqrt(2L)) for the residual
  /// projections (attn.c_proj, mlp.c_proj), zero biases, LayerNorm (1, 0). LLaMA as HF's
  /// LlamaPreTrainedModel._init_weights: N(0, initializer_range = 0.02) for every Linear and
  /// Embedding weight, RMSNorm weights 1. Draws from the global torch generator (seed it with
  /// torch::manual_seed for reproducibility). Throws InputError("rope_scaling") for a rope_type
  /// the trainer does not build.
  GptImpl(const ModelConfig& config, GptOptions options = {});

  /// idx: (B, T) int64 token ids, T <= n_positions -> logits (B, T, V).
  torch::Tensor forward(const torch::Tensor& idx);

  /// A zeroed cache for B sequences of up to `max_len` positions (<= n_positions), in the
  /// dtype and on the device of the weights. Throws InputError("--max-new-tokens") when
  /// max_len > n_positions, InputError("--model") for a LLaMA-family model (the KV-cache
  /// inference path is GPT-2's only).
  KvCache make_kv_cache(int64_t batch_size, int64_t max_len) const;

  /// Inference step: idx (B, t) int64 tokens at positions cache.length .. cache.length+t-1
  /// (prefill: the prompt; decode: t = 1) -> logits (B, t, V); appends their k and v to the
  /// cache. Run it under torch::NoGradGuard or c10::InferenceMode (no tensors are saved).
  /// Throws InputError("--max-new-tokens") when the cache would overflow.
  torch::Tensor forward_cached(const torch::Tensor& idx, KvCache& cache);

  /// Mean cross-entropy of `logits` (B, T, V) against `targets` (B, T) int64, as
  /// cross_entropy(logits.view(B*T, V), targets.view(B*T)) (log_softmax + nll_loss).
  static torch::Tensor loss(const torch::Tensor& logits, const torch::Tensor& targets);

  /// The trainable tensors, each once (the tied head adds none).
  std::vector<torch::Tensor> trainable_parameters() const;
  /// Total elements of trainable_parameters(): equals count_parameters(config).total().
  int64_t num_parameters() const;

  const ModelConfig& config() const { return config_; }
  const GptOptions& options() const { return options_; }
  /// Switches activation checkpointing for later forwards (OOM recovery, oom_recovery.h).
  /// Throws InputError("--checkpoint-every") for every < 1, InputError("--checkpointing") for kSelective.
  void set_checkpointing(Checkpointing checkpointing, int64_t every);
  /// Switches every block's attention kernel for later forwards (OOM recovery). Throws
  /// InputError("--attention") for kSdpa when !sdpa_available().
  void set_attention(AttentionKernel attention);

  Transformer transformer{nullptr};  // GPT-2
  LlamaModel model{nullptr};         // LLaMA family
  torch::nn::Linear lm_head{nullptr};  // LLaMA family, untied only

 private:
  void build_llama();
  torch::Tensor forward_llama(const torch::Tensor& idx);

  ModelConfig config_;
  GptOptions options_;
  torch::Tensor causal_mask_;  // (n_positions, n_positions) bool buffer, true above the diagonal
};
TORCH_MODULE(Gpt);

/// Whether this LibTorch build has the fused scaled_dot_product_attention (LibTorch >= 2.0).
bool sdpa_available();

}  // namespace oomkit
