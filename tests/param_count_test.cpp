#include <gtest/gtest.h>

#include "oomkit/core/error.h"
#include "oomkit/core/model_config.h"
#include "oomkit/estimate/estimate.h"
#include "oomkit/estimate/parameters.h"

using namespace oomkit;

// The published parameter counts (Hugging Face model cards / `model.num_parameters()` of the
// released checkpoints) are reproduced exactly from the shipped config.json files.
TEST(ParamCount, PublishedCounts) {
  const std::pair<const char*, int64_t> published[] = {
      {"gpt2", 124'439'808},          {"gpt2-medium", 354'823'168},   {"gpt2-large", 774'030'080},
      {"gpt2-xl", 1'557'611'200},     {"llama-2-7b", 6'738'415'616},  {"llama-2-13b", 13'015'864'320},
      {"llama-2-70b", 68'976'648'192}, {"llama-3-8b", 8'030'261'248}, {"mistral-7b", 7'241'732'096}};
  for (const auto& [name, count] : published) {
    EXPECT_EQ(count_parameters(resolve_model_config(name)).total(), count) << name;
  }
}

// The per-part breakdown of GPT-2 small, computed by hand: wte 50257·768 + wpe 1024·768;
// per layer c_attn 768·2304 + 2304, c_proj 768² + 768 (attention), c_fc 768·3072 + 3072 and
// mlp.c_proj 3072·768 + 768 (MLP); two LayerNorms (w + b) per layer plus ln_f; head tied.
TEST(ParamCount, Gpt2Breakdown) {
  const ParameterCount c = count_parameters(resolve_model_config("gpt2"));
  EXPECT_EQ(c.embeddings, 50257 * 768 + 1024 * 768);
  EXPECT_EQ(c.attention, 12 * (768 * 2304 + 2304 + 768 * 768 + 768));
  EXPECT_EQ(c.mlp, 12 * (768 * 3072 + 3072 + 3072 * 768 + 768));
  EXPECT_EQ(c.norms, (12 * 2 + 1) * 2 * 768);
  EXPECT_EQ(c.head, 0);
  EXPECT_EQ(c.lora, 0);
}

// LLaMA parts: grouped-query attention shrinks k and v to h_kv·d_h columns (70B: 8 KV heads of
// 128), SwiGLU has three d x d_ff matrices, RMSNorm is weight-only, the head is untied.
TEST(ParamCount, LlamaGqaAndUntiedHead) {
  const ParameterCount c = count_parameters(resolve_model_config("llama-2-70b"));
  const int64_t d = 8192, kv = 8 * 128, L = 80, d_ff = 28672, V = 32000;
  EXPECT_EQ(c.attention, L * (2 * d * d + 2 * d * kv));
  EXPECT_EQ(c.mlp, L * 3 * d * d_ff);
  EXPECT_EQ(c.norms, (2 * L + 1) * d);
  EXPECT_EQ(c.head, V * d);
  EXPECT_EQ(c.embeddings, V * d);
}

// The small trainable configs: gpt-nano is about 1M parameters (12d² + 13d per GPT-2 layer,
// d = 128, L = 5, V = n_positions = 256), gpt-micro has 6 layers of d = 384.
TEST(ParamCount, SmallConfigs) {
  EXPECT_EQ(count_parameters(resolve_model_config("gpt-nano")).total(),
            5 * (12 * 128 * 128 + 13 * 128) + 2 * 256 * 128 + 2 * 128);
  EXPECT_EQ(count_parameters(resolve_model_config("gpt-micro")).total(),
            6 * (12 * 384 * 384 + 13 * 384) + 2 * 256 * 384 + 2 * 384);
}

// LoRA adds r·(in + out) per adapted projection and layer. PEFT's published example for
// LLaMA-2-7B with r = 8 on q_proj and v_proj prints "trainable params: 4,194,304".
TEST(ParamCount, LoraAdapters) {
  LoraConfig lora;
  lora.rank = 8;
  lora.targets = {"q", "v"};
  const ParameterCount c = count_parameters(resolve_model_config("llama-2-7b"), lora);
  EXPECT_EQ(c.lora, 4'194'304);
  EXPECT_EQ(c.total(), 6'738'415'616 + 4'194'304);
  // GQA: an adapter on k of llama-2-70b maps d -> h_kv·d_h.
  lora.targets = {"k"};
  EXPECT_EQ(count_parameters(resolve_model_config("llama-2-70b"), lora).lora, 80 * 8 * (8192 + 1024));
  // The frozen base carries no trainable flag.
  for (const auto& t : parameter_tensors(resolve_model_config("gpt2"), lora)) {
    EXPECT_EQ(t.trainable, t.part == ParamPart::kLora) << t.name;
  }
}

// A target the family lacks is bad input naming --lora-targets.
TEST(ParamCount, UnknownLoraTarget) {
  LoraConfig lora;
  lora.rank = 4;
  lora.targets = {"gate"};
  try {
    count_parameters(resolve_model_config("gpt2"), lora);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--lora-targets");
  }
}

// Counts that overflow int64 are reported, not wrapped: d = 2^31 makes one d x d matrix 2^62
// elements and twelve of them per layer overflow.
TEST(ParamCount, OverflowIsInputError) {
  ModelConfig m = resolve_model_config("gpt2");
  m.n_embd = int64_t{1} << 31;
  m.n_head = 1;
  m.n_kv_head = 1;
  m.d_ff = int64_t{1} << 31;
  EXPECT_THROW(count_parameters(m), InputError);
}
