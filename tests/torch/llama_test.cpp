// The LLaMA model (llama.h): RoPE, RMSNorm and Llama-3.1 frequency scaling against values computed
// independently (tests/data/llama/rope_reference.py: Python's math module in float64, no torch),
// Hugging Face names and counts, grouped-query attention, causality, Mistral's sliding window and
// activation checkpointing.
#include <cmath>
#include <map>

#include <gtest/gtest.h>
#include <ATen/autocast_mode.h>

#include <torch/torch.h>

#include "oomkit/core/error.h"
#include "oomkit/core/model_config.h"
#include "oomkit/estimate/estimate.h"
#include "oomkit/estimate/parameters.h"
#include "oomkit/train/llama.h"
#include "oomkit/train/model.h"

namespace oomkit {
namespace {

ModelConfig tiny_llama(int64_t h_kv = 2, bool tied = false) {
  ModelConfig c;
  c.name = "tiny-llama";
  c.architecture = Architecture::kLlama;
  c.vocab_size = 64;
  c.n_embd = 32;
  c.n_layer = 2;
  c.n_head = 4;
  c.n_kv_head = h_kv;
  c.d_ff = 48;
  c.n_positions = 32;
  c.tie_word_embeddings = tied;
  c.embd_pdrop = c.attn_pdrop = c.resid_pdrop = 0.0;
  c.norm_eps = 1e-5;
  return c;
}

// Invariant: inverse frequencies equal rope_reference.py's for Llama-3.1-8B's rope settings
// (theta 500000, d_h 128, llama3 factor 8, low 1, high 4, original 8192): index 20 is a high
// frequency (kept), 30 is in the smoothed band, 40, 50 and 63 are divided by 8; and without
// rope_scaling the plain 1/theta^(2i/d_h). fp32 (as HF computes them): relative 2e-6.
TEST(LlamaRope, InverseFrequenciesMatchTheReference) {
  ModelConfig c = tiny_llama();
  c.n_embd = 128 * 2;
  c.n_head = 2;
  c.n_kv_head = 2;
  c.rope_theta = 500000.0;
  const std::vector<int64_t> index = {0, 20, 30, 40, 50, 63};
  const std::vector<double> plain = {1.0, 0.016560440080994446, 0.0021311195369119653, 0.0002742481756762073,
                                     3.529227739646723e-05, 2.455140791131609e-06};
  const std::vector<double> llama31 = {1.0, 0.016560440080994446, 0.0013718935677611381, 3.428102195952591e-05,
                                       4.411534674558404e-06, 3.068925988914511e-07};
  torch::Tensor f = rope_inverse_frequencies(c);
  ASSERT_EQ(f.size(0), 64);
  for (size_t i = 0; i < index.size(); ++i) EXPECT_NEAR(f[index[i]].item<double>(), plain[i], 2e-6 * plain[i]) << index[i];
  c.rope_scaling = {"llama3", 8.0, 1.0, 4.0, 8192};
  f = rope_inverse_frequencies(c);
  for (size_t i = 0; i < index.size(); ++i) EXPECT_NEAR(f[index[i]].item<double>(), llama31[i], 2e-6 * llama31[i]) << index[i];
  c.rope_scaling = {"linear", 4.0, 1.0, 4.0, 0};
  f = rope_inverse_frequencies(c);
  EXPECT_NEAR(f[20].item<double>(), plain[1] / 4.0, 2e-6 * plain[1]);
  c.rope_scaling.type = "yarn";
  try {
    rope_inverse_frequencies(c);
    ADD_FAILURE() << "yarn accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "rope_scaling");
  }
}

// Invariant: apply_rotary (HF apply_rotary_pos_emb: x·cos + rotate_half(x)·sin) of one 8-wide
// head vector at positions 0, 1, 7 and 100 (theta 10000) equals rope_reference.py's values.
TEST(LlamaRope, RotaryMatchesTheReference) {
  ModelConfig c = tiny_llama();
  c.n_embd = 8;
  c.n_head = 1;
  c.n_kv_head = 1;
  const std::vector<float> x = {0.5f, -1.0f, 2.0f, 0.25f, -0.75f, 1.5f, 0.125f, -2.0f};
  const std::map<int64_t, std::vector<double>> expected = {
      {0, {0.5, -1.0, 2.0, 0.25, -0.75, 1.5, 0.125, -2.0}},
      {1, {0.901254392, -1.14475429, 1.998650022, 0.251999875, 0.015508763, 1.392672831, 0.144993417, -1.999749}},
      {7, {0.869691076, -1.731168718, 1.986359145, 0.263993761, -0.236933391, 0.503045594, 0.26457957, -1.998201014}},
      {100, {0.051385205, 1.655103195, 0.975420739, 0.448417875, -0.899921975, -0.714586183, 1.750479758, -1.965049976}}};
  const int64_t T = 101;
  auto [cos, sin] = rope_cos_sin(rope_inverse_frequencies(c), T);
  ASSERT_EQ(cos.sizes().vec(), (std::vector<int64_t>{T, 8}));
  torch::Tensor q = torch::tensor(x).view({1, 1, 1, 8}).expand({2, 1, T, 8}).contiguous();  // (B, heads, T, d_h)
  torch::Tensor out = apply_rotary(q, cos, sin);
  for (const auto& [pos, values] : expected) {
    for (int64_t i = 0; i < 8; ++i) {
      EXPECT_NEAR(out[1][0][pos][i].item<double>(), values[i], 2e-5) << "pos " << pos << " i " << i;
    }
  }
}

// Invariant: RMSNorm of [1, -2, 3, 0.5] with weight [1, 0.5, 2, -1], eps 1e-5, equals the
// reference's w·x/sqrt(mean(x²) + eps); with bf16 weights a bf16 input gives a bf16 output
// (computed in fp32 inside, as HF's LlamaRMSNorm).
TEST(LlamaRmsNorm, MatchesTheReference) {
  RmsNorm norm(4, 1e-5);
  {
    torch::NoGradGuard no_grad;
    norm->weight.copy_(torch::tensor({1.0f, 0.5f, 2.0f, -1.0f}));
  }
  torch::Tensor y = norm(torch::tensor({1.0f, -2.0f, 3.0f, 0.5f}).view({1, 1, 4}));
  const std::vector<double> expected = {0.529812199, -0.529812199, 3.178873195, -0.2649061};
  for (int64_t i = 0; i < 4; ++i) EXPECT_NEAR(y[0][0][i].item<double>(), expected[i], 1e-6);
  norm->to(torch::kBFloat16);
  torch::Tensor yb = norm(torch::tensor({1.0f, -2.0f, 3.0f, 0.5f}).view({1, 1, 4}).to(torch::kBFloat16));
  EXPECT_EQ(yb.scalar_type(), torch::kBFloat16);
  for (int64_t i = 0; i < 4; ++i) EXPECT_NEAR(yb[0][0][i].item<double>(), expected[i], 0.02 * std::abs(expected[i]));
}

// Invariant: named_parameters() lists Hugging Face LlamaForCausalLM's names in its order with
// (out, in) shapes, k/v projections h_kv·d_h wide; the total equals the estimator's
// count_parameters (an independent count from the config); a tied config has no lm_head.
TEST(LlamaModel, ParameterNamesAreHuggingFaces) {
  const ModelConfig c = tiny_llama(/*h_kv=*/2);
  Gpt model(c);
  std::vector<std::pair<std::string, std::vector<int64_t>>> expected = {{"model.embed_tokens.weight", {64, 32}}};
  for (int i = 0; i < 2; ++i) {
    const std::string p = "model.layers." + std::to_string(i) + ".";
    expected.push_back({p + "input_layernorm.weight", {32}});
    expected.push_back({p + "self_attn.q_proj.weight", {32, 32}});
    expected.push_back({p + "self_attn.k_proj.weight", {16, 32}});
    expected.push_back({p + "self_attn.v_proj.weight", {16, 32}});
    expected.push_back({p + "self_attn.o_proj.weight", {32, 32}});
    expected.push_back({p + "post_attention_layernorm.weight", {32}});
    expected.push_back({p + "mlp.gate_proj.weight", {48, 32}});
    expected.push_back({p + "mlp.up_proj.weight", {48, 32}});
    expected.push_back({p + "mlp.down_proj.weight", {32, 48}});
  }
  expected.push_back({"model.norm.weight", {32}});
  expected.push_back({"lm_head.weight", {64, 32}});
  const auto named = model->named_parameters();
  ASSERT_EQ(named.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(named[i].key(), expected[i].first);
    EXPECT_EQ(named[i].value().sizes().vec(), expected[i].second) << expected[i].first;
  }
  EXPECT_EQ(model->num_parameters(), count_parameters(c).total());
  const ModelConfig tied = tiny_llama(2, /*tied=*/true);
  Gpt tied_model(tied);
  EXPECT_EQ(tied_model->named_parameters().size(), expected.size() - 1);
  EXPECT_EQ(tied_model->num_parameters(), count_parameters(tied).total());
  for (const char* name : {"llama-nano", "llama-micro"}) {
    const ModelConfig shipped = resolve_model_config(name);
    EXPECT_EQ(Gpt(shipped)->num_parameters(), count_parameters(shipped).total()) << name;
  }
}

// Invariant: grouped-query attention is repeat_kv: a model with h_kv = 2 computes the same
// logits as one with h_kv = h = 4 whose k_proj/v_proj rows repeat each kv head twice.
TEST(LlamaModel, GroupedQueryAttentionRepeatsKvHeads) {
  torch::manual_seed(1);
  Gpt gqa(tiny_llama(2));
  Gpt mha(tiny_llama(4));
  {
    torch::NoGradGuard no_grad;
    auto src = gqa->named_parameters();
    for (auto& item : mha->named_parameters()) {
      const torch::Tensor& from = src[item.key()];
      if (from.sizes() == item.value().sizes()) {
        item.value().copy_(from);
      } else {  // (h_kv·d_h, d) -> (h·d_h, d): head j of the MHA model is kv head j / 2
        const int64_t d_h = 8;
        item.value().copy_(from.view({2, 1, d_h, 32}).expand({2, 2, d_h, 32}).reshape({32, 32}));
      }
    }
  }
  torch::Tensor idx = torch::randint(0, 64, {2, 12}, torch::kLong);
  EXPECT_TRUE(torch::allclose(gqa->forward(idx), mha->forward(idx), 1e-5, 1e-6));
}

// Invariant: position i's logits depend on tokens 0..i only; with a Mistral sliding_window W
// also not on tokens at i - W or earlier, but on i - W + 1.
TEST(LlamaModel, CausalAndSlidingWindow) {
  torch::manual_seed(2);
  ModelConfig c = tiny_llama();
  Gpt model(c);
  torch::Tensor idx = torch::randint(0, 64, {1, 16}, torch::kLong);
  torch::Tensor changed = idx.clone();
  changed[0][10] = (idx[0][10].item<int64_t>() + 1) % 64;
  torch::Tensor a = model->forward(idx), b = model->forward(changed);
  EXPECT_TRUE(torch::equal(a.slice(1, 0, 10), b.slice(1, 0, 10)));
  EXPECT_FALSE(torch::allclose(a.slice(1, 10, 11), b.slice(1, 10, 11)));

  // One layer, window 4: position i attends to i-3 .. i (with more layers the window compounds).
  c.sliding_window = 4;
  c.n_layer = 1;
  torch::manual_seed(2);
  Gpt one_layer(c);
  torch::Tensor x = one_layer->forward(idx), y = one_layer->forward(changed);
  EXPECT_TRUE(torch::equal(x.slice(1, 14, 16), y.slice(1, 14, 16)));   // 14 - 10 >= 4: outside the window
  EXPECT_FALSE(torch::allclose(x.slice(1, 13, 14), y.slice(1, 13, 14)));  // 13 - 10 = 3: inside
}

std::vector<torch::Tensor> llama_grads(Checkpointing mode, int64_t every, double dropout) {
  ModelConfig c = tiny_llama();
  c.attn_pdrop = dropout;
  torch::manual_seed(7);
  Gpt model(c, GptOptions{AttentionKernel::kEager, mode, every});
  model->train();
  torch::manual_seed(8);
  torch::Tensor idx = torch::randint(0, 64, {4, 16}, torch::kLong);
  GptImpl::loss(model->forward(idx), idx).backward();
  std::vector<torch::Tensor> grads;
  for (auto& p : model->trainable_parameters()) grads.push_back(p.grad().clone());
  return grads;
}

// Invariant: full activation checkpointing (every block, every 2nd) gives the plain run's
// gradients, with attention dropout on (the RNG is replayed in the recomputation).
TEST(LlamaModel, CheckpointingGivesTheSameGradients) {
  const auto plain = llama_grads(Checkpointing::kNone, 1, 0.1);
  for (int64_t every : {1, 2}) {
    const auto ckpt = llama_grads(Checkpointing::kFull, every, 0.1);
    ASSERT_EQ(plain.size(), ckpt.size());
    for (size_t i = 0; i < plain.size(); ++i) {
      EXPECT_TRUE(torch::allclose(plain[i], ckpt[i], 1e-5, 1e-7)) << "param " << i << " every " << every;
    }
  }
}

// Invariant: under CPU autocast (bf16-mixed) q and k are bf16, so cos and sin are cast once per
// forward and the logits come out bf16; under pure bf16 weights the whole forward is bf16.
TEST(LlamaModel, RunsUnderAutocastAndPureBf16) {
  torch::manual_seed(4);
  Gpt model(tiny_llama());
  torch::Tensor idx = torch::randint(0, 64, {2, 8}, torch::kLong);
  {
    at::autocast::set_cpu_enabled(true);
    at::autocast::set_autocast_cpu_dtype(at::kBFloat16);
    torch::Tensor logits = model->forward(idx);
    at::autocast::set_cpu_enabled(false);
    at::autocast::clear_cache();
    EXPECT_EQ(logits.scalar_type(), torch::kBFloat16);
    GptImpl::loss(logits.to(torch::kFloat), idx).backward();
  }
  for (auto& p : model->parameters()) p.set_data(p.data().to(torch::kBFloat16));
  torch::Tensor logits = model->forward(idx);
  EXPECT_EQ(logits.scalar_type(), torch::kBFloat16);
  EXPECT_TRUE(torch::isfinite(logits).all().item<bool>());
}

}  // namespace
}  // namespace oomkit
