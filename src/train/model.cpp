// GPT-2 modules: the op sequence of docs/model-ops.md, line by line; the LLaMA family's modules are in
// llama.cpp, assembled here.
#include "oomkit/train/model.h"

#include <cmath>
#include <limits>
#include <unordered_set>
#include <utility>

#include <torch/version.h>

#include "oomkit/core/error.h"
#include "attention_core.h"
#include "oomkit/train/checkpoint.h"
#include "oomkit/train/gelu.h"
#include "oomkit/train/lora.h"
#include "oomkit/train/rng_autocast.h"

namespace oomkit {

namespace nn = torch::nn;

bool sdpa_available() { return TORCH_VERSION_MAJOR >= 2; }

CausalSelfAttentionImpl::CausalSelfAttentionImpl(const ModelConfig& config, AttentionKernel attention)
    : n_head_(config.n_head), n_embd_(config.n_embd), attention_(attention) {
  c_attn = register_module("c_attn", nn::Linear(config.n_embd, 3 * config.n_embd));
  c_proj = register_module("c_proj", nn::Linear(config.n_embd, config.n_embd));
  attn_dropout = register_module("attn_dropout", nn::Dropout(config.attn_pdrop));
  resid_dropout = register_module("resid_dropout", nn::Dropout(config.resid_pdrop));
}

torch::Tensor causal_attention(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v,
                               const torch::Tensor& mask, torch::nn::Dropout& attn_dropout, AttentionKernel kernel) {
  if (kernel == AttentionKernel::kSdpa) {
#if TORCH_VERSION_MAJOR >= 2
    return at::scaled_dot_product_attention(q, k, v, {}, attn_dropout->is_training() ? attn_dropout->options.p() : 0.0,
                                            /*is_causal=*/true);
#else
    (void)q;
    (void)k;
    (void)v;
    (void)mask;
    throw InputError("--attention", "sdpa needs LibTorch >= 2.0; this build has " TORCH_VERSION,
                     "use --attention eager");
#endif
  }
  const double d_h = static_cast<double>(q.size(-1));
  torch::Tensor s = torch::matmul(q, k.transpose(-2, -1)) * (1.0 / std::sqrt(d_h));  // (B, h, T, T)
  s = s.masked_fill(mask, -std::numeric_limits<double>::infinity());               // saves the (T, T) mask
  torch::Tensor p = torch::softmax(s, -1);                                           // (B, h, T, T); saves p
  s = torch::Tensor();                                                               // the scores are not saved
  p = attn_dropout(p);                                                               // mask (B, h, T, T) when p > 0
  return torch::matmul(p, v);                                                        // (B, h, T, d_h); saves p, v
}

namespace {

// GPT-2's q/k/v LoRA targets (lora.h): each slice of the fused c_attn output gets its adapter's
// delta, (B, T, d) each; the slices without one stay views of qkv.
void add_qkv_lora(const nn::Linear& c_attn, const torch::Tensor& x, std::vector<torch::Tensor>& parts) {
  const char* names[3] = {"lora_q", "lora_k", "lora_v"};
  for (size_t i = 0; i < 3; ++i) {
    torch::Tensor delta = lora_delta(c_attn, names[i], x);
    if (delta.defined()) parts[i] = parts[i] + delta;
  }
}

}  // namespace

torch::Tensor CausalSelfAttentionImpl::forward(const torch::Tensor& x, const torch::Tensor& causal_mask) {
  const int64_t B = x.size(0), T = x.size(1), d = n_embd_, h = n_head_, d_h = d / h;
  torch::Tensor qkv = linear_with_lora(c_attn, x);                 // (B, T, 3d); addmm saves x
  auto parts = qkv.split(d, -1);                                   // views
  add_qkv_lora(c_attn, x, parts);                                  // LoRA on the q/k/v slices (lora.h)
  torch::Tensor q = parts[0].view({B, T, h, d_h}).transpose(1, 2); // (B, h, T, d_h) view
  torch::Tensor k = parts[1].view({B, T, h, d_h}).transpose(1, 2);
  torch::Tensor v = parts[2].view({B, T, h, d_h}).transpose(1, 2);
  torch::Tensor y = causal_attention(q, k, v, causal_mask, attn_dropout, attention_);  // (B, h, T, d_h)
  y = y.transpose(1, 2).contiguous().view({B, T, d});  // (B, T, d) copy
  return resid_dropout(linear_with_lora(c_proj, y));   // (B, T, d); addmm saves y
}

torch::Tensor CausalSelfAttentionImpl::forward_cached(const torch::Tensor& x, const torch::Tensor& causal_mask,
                                                     torch::Tensor& k_cache, torch::Tensor& v_cache, int64_t start) {
  const int64_t B = x.size(0), t = x.size(1), d = n_embd_, h = n_head_, d_h = d / h, S = start + t;
  torch::Tensor qkv = linear_with_lora(c_attn, x);                 // (B, t, 3d)
  auto parts = qkv.split(d, -1);                                   // views
  add_qkv_lora(c_attn, x, parts);
  torch::Tensor q = parts[0].view({B, t, h, d_h}).transpose(1, 2); // (B, h, t, d_h) view
  k_cache.narrow(2, start, t).copy_(parts[1].view({B, t, h, d_h}).transpose(1, 2));  // into the cache, no allocation
  v_cache.narrow(2, start, t).copy_(parts[2].view({B, t, h, d_h}).transpose(1, 2));
  const torch::Tensor k = k_cache.narrow(2, 0, S);                 // (B, h, S, d_h) views
  const torch::Tensor v = v_cache.narrow(2, 0, S);
  // matmul copies the strided q to (B·h, t, d_h) for bmm; the product (B, h, t, S) and its
  // scaled copy exist together for the multiplication.
  torch::Tensor s = torch::matmul(q, k.transpose(-2, -1)) * (1.0 / std::sqrt(static_cast<double>(d_h)));
  s = s.masked_fill(causal_mask, -std::numeric_limits<double>::infinity());  // (B, h, t, S)
  torch::Tensor p = torch::softmax(s, -1);                                   // (B, h, t, S)
  s = torch::Tensor();
  torch::Tensor y = torch::matmul(p, v);  // (B, h, t, d_h)
  p = torch::Tensor();
  y = y.transpose(1, 2).contiguous().view({B, t, d});  // (B, t, d) copy
  return linear_with_lora(c_proj, y);                  // (B, t, d); eval: no dropout
}

MlpImpl::MlpImpl(const ModelConfig& config) {
  c_fc = register_module("c_fc", nn::Linear(config.n_embd, config.d_ff));
  c_proj = register_module("c_proj", nn::Linear(config.d_ff, config.n_embd));
  dropout = register_module("dropout", nn::Dropout(config.resid_pdrop));
}

torch::Tensor MlpImpl::forward(const torch::Tensor& x) {
  torch::Tensor f = linear_with_lora(c_fc, x);      // (B, T, d_ff); saves x
  torch::Tensor g = gelu_tanh(f);                   // (B, T, d_ff); saves f
  return dropout(linear_with_lora(c_proj, g));      // (B, T, d); saves g
}

BlockImpl::BlockImpl(const ModelConfig& config, AttentionKernel attention) {
  ln_1 = register_module("ln_1", nn::LayerNorm(nn::LayerNormOptions({config.n_embd}).eps(config.norm_eps)));
  attn = register_module("attn", CausalSelfAttention(config, attention));
  ln_2 = register_module("ln_2", nn::LayerNorm(nn::LayerNormOptions({config.n_embd}).eps(config.norm_eps)));
  mlp = register_module("mlp", Mlp(config));
}

torch::Tensor BlockImpl::forward(const torch::Tensor& x, const torch::Tensor& causal_mask) {
  torch::Tensor y = x + attn(ln_1(x), causal_mask);  // (B, T, d); layer_norm saves x, mean, rstd
  return y + mlp(ln_2(y));                           // (B, T, d)
}

torch::Tensor BlockImpl::forward_cached(const torch::Tensor& x, const torch::Tensor& causal_mask, torch::Tensor& k_cache,
                                        torch::Tensor& v_cache, int64_t start) {
  torch::Tensor y = x + attn->forward_cached(ln_1(x), causal_mask, k_cache, v_cache, start);  // (B, t, d)
  return y + mlp(ln_2(y));                                                                  // (B, t, d)
}

TransformerImpl::TransformerImpl(const ModelConfig& config) {
  wte = register_module("wte", nn::Embedding(config.vocab_size, config.n_embd));
  wpe = register_module("wpe", nn::Embedding(config.n_positions, config.n_embd));
  drop = register_module("drop", nn::Dropout(config.embd_pdrop));
  h = register_module("h", nn::ModuleList());
  ln_f = register_module("ln_f", nn::LayerNorm(nn::LayerNormOptions({config.n_embd}).eps(config.norm_eps)));
}

GptImpl::GptImpl(const ModelConfig& config, GptOptions options) : config_(config), options_(options) {
  config_.validate(config_.name);
  if (options_.checkpoint_every < 1) {
    throw InputError("--checkpoint-every", "must be >= 1, got " + std::to_string(options_.checkpoint_every));
  }
  if (options_.attention == AttentionKernel::kSdpa && !sdpa_available()) {
    throw InputError("--attention", std::string("sdpa needs LibTorch >= 2.0; this build has ") + TORCH_VERSION,
                     "use --attention eager");
  }
  if (options_.checkpointing == Checkpointing::kSelective) {
    throw InputError("--checkpointing", "the trainer implements none and full", "use --checkpointing full");
  }
  if (!config_.is_gpt2()) {
    build_llama();
    return;
  }
  transformer = register_module("transformer", Transformer(config_));
  for (int64_t i = 0; i < config_.n_layer; ++i) transformer->h->push_back(Block(config_, options_.attention));
  causal_mask_ = register_buffer(
      "causal_mask", torch::ones({config_.n_positions, config_.n_positions}, torch::kBool).triu(1));

  // GPT-2 initialisation (Radford et al. 2019, section 2.3: residual projections scaled by 1/sqrt(N)).
  torch::NoGradGuard no_grad;
  const double std_residual = 0.02 / std::sqrt(2.0 * static_cast<double>(config_.n_layer));
  for (auto& item : named_parameters()) {
    const std::string& name = item.key();
    torch::Tensor& p = item.value();
    const bool is_norm = name.find(".ln_") != std::string::npos;
    if (is_norm) {
      if (name.size() >= 6 && name.compare(name.size() - 6, 6, "weight") == 0) p.fill_(1.0); else p.zero_();
    } else if (name.size() >= 4 && name.compare(name.size() - 4, 4, "bias") == 0) {
      p.zero_();
    } else if (name.find("c_proj.weight") != std::string::npos) {
      p.normal_(0.0, std_residual);
    } else {
      p.normal_(0.0, 0.02);
    }
  }
}

void GptImpl::build_llama() {
  model = register_module("model", LlamaModel(config_, options_.attention));
  if (!config_.tie_word_embeddings) {
    lm_head = register_module("lm_head", nn::Linear(nn::LinearOptions(config_.n_embd, config_.vocab_size).bias(false)));
  }
  // HF LlamaPreTrainedModel._init_weights: Linear and Embedding N(0, initializer_range = 0.02);
  // RMSNorm weights stay 1.
  torch::NoGradGuard no_grad;
  for (auto& item : named_parameters()) {
    if (item.key().find("layernorm") != std::string::npos || item.key() == "model.norm.weight") continue;
    item.value().normal_(0.0, 0.02);
  }
}

namespace {

// The dtype q and k have inside the blocks: autocast's for the weights' device type when it is
// on, else the weights' own (AutocastState reads at::autocast's flags with the API this
// LibTorch does not deprecate).
torch::ScalarType compute_dtype(const torch::Tensor& weight) {
  const AutocastState autocast = AutocastState::current();
  if (weight.is_cuda()) return autocast.cuda_enabled ? autocast.cuda_dtype : weight.scalar_type();
  return autocast.cpu_enabled ? autocast.cpu_dtype : weight.scalar_type();
}

// Runs the n_layer blocks: layer(i) returns block i's forward, owning what it uses by value
// (a checkpointed block is recomputed in backward, after the caller's frame has returned). With
// --checkpointing full every checkpoint_every-th block runs under oomkit::checkpoint. Pass x by
// std::move: each block's input is then released as soon as nothing saved it (the memory model
// counts it so).
template <typename Layer>
torch::Tensor run_layers(torch::Tensor x, int64_t n_layer, const GptOptions& options, const Layer& layer) {
  for (int64_t i = 0; i < n_layer; ++i) {
    const auto forward = layer(i);
    const bool wrap = options.checkpointing == Checkpointing::kFull && i % options.checkpoint_every == 0;
    x = wrap ? checkpoint(forward, x) : forward(x);
  }
  return x;
}

}  // namespace

torch::Tensor GptImpl::forward_llama(const torch::Tensor& idx) {
  const int64_t T = idx.size(1);
  torch::Tensor x = model->embed_tokens(idx);  // (B, T, d)
  // cos, sin (T, d_h) and the (T, T) mask: shared by every layer, saved by their mul/masked_fill.
  const RotaryTables rt = model->rotary_tables(T, compute_dtype(model->embed_tokens->weight));
  x = run_layers(std::move(x), config_.n_layer, options_, [this, &rt](int64_t i) {
    std::shared_ptr<LlamaDecoderLayerImpl> layer = model->layers->ptr<LlamaDecoderLayerImpl>(i);
    return [layer, rt](const torch::Tensor& in) { return layer->forward(in, rt); };
  });
  torch::Tensor xf = model->norm(x);  // (B, T, d)
  return lm_head ? lm_head(xf) : torch::linear(xf, model->embed_tokens->weight);  // (B, T, V); mm saves xf
}

torch::Tensor GptImpl::forward(const torch::Tensor& idx) {
  const int64_t T = idx.size(1);
  if (T > config_.n_positions) {
    throw InputError("--seq-len", std::to_string(T) + " exceeds the model's n_positions " +
                                      std::to_string(config_.n_positions));
  }
  if (!config_.is_gpt2()) return forward_llama(idx);
  torch::Tensor pos = torch::arange(T, idx.options().dtype(torch::kLong));           // (T)
  // Positions first, then tokens: the order the estimator's backward assumes (wte's
  // EmbeddingBackward, created last, runs first; phase_points.cpp backward_point).
  torch::Tensor pos_emb = transformer->wpe(pos);                                      // (T, d)
  torch::Tensor x = transformer->drop(transformer->wte(idx) + pos_emb);               // (B, T, d)
  pos_emb = torch::Tensor();
  torch::Tensor mask = causal_mask_.slice(0, 0, T).slice(1, 0, T);                    // (T, T) view
  x = run_layers(std::move(x), config_.n_layer, options_, [this, &mask](int64_t i) {
    std::shared_ptr<BlockImpl> block = transformer->h->ptr<BlockImpl>(i);
    return [block, mask](const torch::Tensor& in) { return block->forward(in, mask); };
  });
  torch::Tensor xf = transformer->ln_f(x);                    // (B, T, d)
  return torch::linear(xf, transformer->wte->weight);         // (B, T, V); tied lm_head, saves xf
}

KvCache GptImpl::make_kv_cache(int64_t batch_size, int64_t max_len) const {
  if (!config_.is_gpt2()) {
    throw InputError("--model", config_.name + " is a LLaMA-family model; KV-cache inference is implemented for GPT-2");
  }
  if (max_len > config_.n_positions) {
    throw InputError("--max-new-tokens", "prompt + new tokens = " + std::to_string(max_len) + " exceeds n_positions " +
                                             std::to_string(config_.n_positions));
  }
  const int64_t h = config_.n_head, d_h = config_.head_dim();
  KvCache cache;
  const auto opts = transformer->wte->weight.options();
  for (int64_t i = 0; i < config_.n_layer; ++i) {
    cache.k.push_back(torch::zeros({batch_size, h, max_len, d_h}, opts));
    cache.v.push_back(torch::zeros({batch_size, h, max_len, d_h}, opts));
  }
  return cache;
}

torch::Tensor GptImpl::forward_cached(const torch::Tensor& idx, KvCache& cache) {
  if (!config_.is_gpt2()) {
    throw InputError("--model", config_.name + " is a LLaMA-family model; KV-cache inference is implemented for GPT-2");
  }
  const int64_t t = idx.size(1), start = cache.length, S = start + t;
  if (S > cache.capacity()) {
    throw InputError("--max-new-tokens", "the KV cache holds " + std::to_string(cache.capacity()) + " positions, step needs " +
                                             std::to_string(S));
  }
  torch::Tensor pos = torch::arange(start, S, idx.options().dtype(torch::kLong));      // (t)
  torch::Tensor x = transformer->wte(idx) + transformer->wpe(pos);                     // (B, t, d); eval: no dropout
  torch::Tensor mask = causal_mask_.slice(0, start, S).slice(1, 0, S);                 // (t, S) view
  for (int64_t i = 0; i < config_.n_layer; ++i) {
    x = transformer->h->ptr<BlockImpl>(i)->forward_cached(x, mask, cache.k[i], cache.v[i], start);
  }
  cache.length = S;
  torch::Tensor xf = transformer->ln_f(x);             // (B, t, d)
  return torch::linear(xf, transformer->wte->weight);  // (B, t, V)
}

torch::Tensor GptImpl::loss(const torch::Tensor& logits, const torch::Tensor& targets) {
  const int64_t V = logits.size(-1);
  return torch::nn::functional::cross_entropy(logits.view({-1, V}), targets.view({-1}));
}

std::vector<torch::Tensor> GptImpl::trainable_parameters() const {
  std::vector<torch::Tensor> out;
  std::unordered_set<const void*> seen;
  for (const auto& p : parameters()) {
    if (!p.requires_grad()) continue;  // a frozen LoRA base (lora.h)
    if (seen.insert(p.unsafeGetTensorImpl()).second) out.push_back(p);
  }
  return out;
}

int64_t GptImpl::num_parameters() const {
  int64_t n = 0;
  for (const auto& p : trainable_parameters()) n += p.numel();
  return n;
}

void GptImpl::set_attention(AttentionKernel attention) {
  if (attention == AttentionKernel::kSdpa && !sdpa_available()) {
    throw InputError("--attention", std::string("sdpa needs LibTorch >= 2.0; this build has ") + TORCH_VERSION,
                     "use --attention eager");
  }
  if (transformer) {
    for (const auto& block : *transformer->h) block->as<BlockImpl>()->attn->set_attention(attention);
  } else {
    for (const auto& layer : *model->layers) layer->as<LlamaDecoderLayerImpl>()->self_attn->set_attention(attention);
  }
  options_.attention = attention;
}

void GptImpl::set_checkpointing(Checkpointing checkpointing, int64_t every) {
  if (every < 1) throw InputError("--checkpoint-every", "must be >= 1, got " + std::to_string(every));
  if (checkpointing == Checkpointing::kSelective) {
    throw InputError("--checkpointing", "the trainer implements none and full", "use --checkpointing full");
  }
  options_.checkpointing = checkpointing;
  options_.checkpoint_every = every;
}

}  // namespace oomkit
