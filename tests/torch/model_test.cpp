// The GPT-2 model: Hugging Face names and counts, causality, and activation checkpointing.
#include <gtest/gtest.h>

#include <torch/torch.h>

#include "oomkit/core/model_config.h"
#include "oomkit/estimate/estimate.h"
#include "oomkit/profile/tracking_allocator.h"
#include "oomkit/train/model.h"

namespace oomkit {
namespace {

ModelConfig tiny_config(double dropout = 0.0) {
  ModelConfig c;
  c.name = "tiny";
  c.vocab_size = 64;
  c.n_embd = 32;
  c.n_layer = 2;
  c.n_head = 2;
  c.n_kv_head = 2;
  c.d_ff = 128;
  c.n_positions = 32;
  c.embd_pdrop = c.attn_pdrop = c.resid_pdrop = dropout;
  return c;
}

// Invariant: named_parameters() lists exactly Hugging Face GPT2LMHeadModel's deduplicated
// names, in its order, with the (out, in) shapes of torch::nn::Linear; lm_head adds no tensor.
TEST(GptModel, ParameterNamesAreHuggingFaces) {
  const ModelConfig c = tiny_config();
  Gpt model(c);
  std::vector<std::pair<std::string, std::vector<int64_t>>> expected = {
      {"transformer.wte.weight", {64, 32}}, {"transformer.wpe.weight", {32, 32}}};
  for (int i = 0; i < 2; ++i) {
    const std::string p = "transformer.h." + std::to_string(i) + ".";
    expected.push_back({p + "ln_1.weight", {32}});
    expected.push_back({p + "ln_1.bias", {32}});
    expected.push_back({p + "attn.c_attn.weight", {96, 32}});
    expected.push_back({p + "attn.c_attn.bias", {96}});
    expected.push_back({p + "attn.c_proj.weight", {32, 32}});
    expected.push_back({p + "attn.c_proj.bias", {32}});
    expected.push_back({p + "ln_2.weight", {32}});
    expected.push_back({p + "ln_2.bias", {32}});
    expected.push_back({p + "mlp.c_fc.weight", {128, 32}});
    expected.push_back({p + "mlp.c_fc.bias", {128}});
    expected.push_back({p + "mlp.c_proj.weight", {32, 128}});
    expected.push_back({p + "mlp.c_proj.bias", {32}});
  }
  expected.push_back({"transformer.ln_f.weight", {32}});
  expected.push_back({"transformer.ln_f.bias", {32}});
  const auto named = model->named_parameters();
  ASSERT_EQ(named.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(named[i].key(), expected[i].first);
    EXPECT_EQ(named[i].value().sizes().vec(), expected[i].second) << expected[i].first;
  }
}

// Invariant: the trainer's parameter count equals the published GPT-2 small count
// (Hugging Face `GPT2LMHeadModel.from_pretrained("gpt2").num_parameters()` = 124,439,808)
// and the estimator's count_parameters() for the same config.
TEST(GptModel, ParameterCountMatchesPublishedGpt2AndEstimator) {
  const ModelConfig gpt2 = resolve_model_config("gpt2");
  Gpt model(gpt2);
  EXPECT_EQ(model->num_parameters(), 124439808);
  EXPECT_EQ(model->num_parameters(), count_parameters(gpt2).total());
  const ModelConfig nano = resolve_model_config("gpt-nano");
  EXPECT_EQ(Gpt(nano)->num_parameters(), count_parameters(nano).total());
}

// Invariant: the head is tied (one storage with wte) and the output is (B, T, V).
TEST(GptModel, TiedHeadAndLogitShape) {
  torch::manual_seed(0);
  Gpt model(tiny_config());
  torch::Tensor idx = torch::randint(0, 64, {3, 10}, torch::kLong);
  torch::Tensor logits = model->forward(idx);
  EXPECT_EQ(logits.sizes().vec(), (std::vector<int64_t>{3, 10, 64}));
  // Tied head: logits equal ln_f(x) @ wte^T; a change of wte changes the output projection.
  torch::Tensor loss = GptImpl::loss(logits, idx);
  loss.backward();
  EXPECT_TRUE(model->transformer->wte->weight.grad().defined());
  // At initialisation the loss is close to ln V (uniform prediction): ln 64 = 4.159.
  EXPECT_NEAR(loss.item<double>(), std::log(64.0), 0.15);
}

// Invariant: causal attention: logits at position t do not depend on tokens after t.
TEST(GptModel, IsCausal) {
  torch::manual_seed(1);
  Gpt model(tiny_config());
  model->eval();
  torch::NoGradGuard no_grad;
  torch::Tensor a = torch::randint(0, 64, {1, 12}, torch::kLong);
  torch::Tensor b = a.clone();
  b.index_put_({0, 7}, (a.index({0, 7}) + 1) % 64);
  torch::Tensor la = model->forward(a), lb = model->forward(b);
  EXPECT_TRUE(torch::equal(la.slice(1, 0, 7), lb.slice(1, 0, 7)));
  EXPECT_FALSE(torch::allclose(la.slice(1, 7, 8), lb.slice(1, 7, 8)));
}

// Invariant: a sequence longer than n_positions is refused with an InputError.
TEST(GptModel, RejectsSequencesBeyondContext) {
  Gpt model(tiny_config());
  EXPECT_THROW(model->forward(torch::zeros({1, 33}, torch::kLong)), InputError);
}

std::vector<torch::Tensor> grads_after_step(Checkpointing mode, int64_t every) {
  torch::manual_seed(7);
  Gpt model(tiny_config(/*dropout=*/0.1), GptOptions{AttentionKernel::kEager, mode, every});
  model->train();
  torch::manual_seed(8);  // the same dropout masks in both runs
  torch::Tensor idx = torch::randint(0, 64, {4, 16}, torch::kLong);
  GptImpl::loss(model->forward(idx), idx).backward();
  std::vector<torch::Tensor> grads;
  for (auto& p : model->trainable_parameters()) grads.push_back(p.grad().clone());
  return grads;
}

// Invariant: activation checkpointing changes memory, not math: with dropout on (the RNG state
// is replayed in the recomputation) every gradient equals the plain run's in fp32.
TEST(GptModel, CheckpointingGivesTheSameGradients) {
  const auto plain = grads_after_step(Checkpointing::kNone, 1);
  for (int64_t every : {1, 2}) {
    const auto ckpt = grads_after_step(Checkpointing::kFull, every);
    ASSERT_EQ(plain.size(), ckpt.size());
    for (size_t i = 0; i < plain.size(); ++i) {
      EXPECT_TRUE(torch::allclose(plain[i], ckpt[i], /*rtol=*/1e-5, /*atol=*/1e-7)) << "param " << i << " every " << every;
    }
  }
}

// Invariant: with full checkpointing the forward keeps only block inputs. Bytes alive after the
// forward, counted by hand for docs/model-ops.md's sequence: L + 1 block boundaries (B, T, d)
// (the L block inputs and the last output, saved by ln_f), ln_f's mean and rstd (B, T) each,
// ln_f's output xf (B, T, d) saved by the head's matmul, the logits (B, T, V), and the position
// ids (T) int64 saved by wpe's embedding backward. All fp32 except the ids.
TEST(GptModel, FullCheckpointingSavesOnlyBlockInputs) {
  install_tracking_cpu_allocator();
  const ModelConfig c = tiny_config();
  const int64_t B = 4, T = 16, d = c.n_embd, L = c.n_layer, V = c.vocab_size;
  auto alive_after_forward = [&](Checkpointing mode) {
    torch::manual_seed(3);
    Gpt model(c, GptOptions{AttentionKernel::kEager, mode, 1});
    torch::Tensor idx = torch::randint(0, V, {B, T}, torch::kLong);
    const int64_t before = cpu_allocator_counters().allocated_bytes;
    torch::Tensor logits = model->forward(idx);
    return cpu_allocator_counters().allocated_bytes - before;
  };
  const int64_t expected = (L + 1) * B * T * d * 4 + 2 * B * T * 4 + B * T * d * 4 + B * T * V * 4 + T * 8;
  EXPECT_EQ(alive_after_forward(Checkpointing::kFull), expected);
  EXPECT_GT(alive_after_forward(Checkpointing::kNone), 3 * expected);
}

}  // namespace
}  // namespace oomkit
