// QLoRA and 8-bit bases (issue 11 item 5): the stored bytes of quantized frozen weights against
// the QLoRA paper's arithmetic and its published footprint.
#include <gtest/gtest.h>

#include <string>

#include "oomkit/core/error.h"
#include "oomkit/core/model_config.h"
#include "oomkit/estimate/estimate.h"
#include "oomkit/estimate/quantization.h"

using namespace oomkit;

namespace {
int64_t item(const Estimate& e, const std::string& path) {
  for (const auto& it : e.items) {
    if (it.path == path) return it.bytes;
  }
  return -1;
}
}  // namespace

// Dettmers et al. 2023, sec. 3 (Double Quantization): blocks of 64 with fp32 constants cost
// 32/64 = 0.5 bits per parameter; quantizing the constants to 8 bits with a second level of
// blocks of 256 costs 8/64 + 32/(64·256) = 0.127 bits. NF4 itself is 4 bits.
TEST(Quantization, Nf4BitsPerParameterFromThePaper) {
  QuantizationOptions q;
  q.base = BaseQuantization::kNf4;
  EXPECT_DOUBLE_EQ(nf4_bits_per_parameter(q), 4.0 + 8.0 / 64 + 32.0 / (64 * 256));
  EXPECT_NEAR(nf4_bits_per_parameter(q) - 4.0, 0.127, 5e-4);
  q.double_quant = false;
  EXPECT_DOUBLE_EQ(nf4_bits_per_parameter(q), 4.5);
}

// One 8192 x 8192 weight (LLaMA-65B's q_proj), by hand: 67,108,864 nibbles = 33,554,432 B;
// 1,048,576 blocks of 64 -> 1,048,576 uint8 absmax; 4,096 fp32 second-level constants; one fp32
// offset: 34,619,396 B = 4.12695 bits/param. Without double quantization: 33,554,432 +
// 4·1,048,576. LLM.int8(): 67,108,864 int8 + 8,192 fp32 row scales.
TEST(Quantization, TensorBytesByHand) {
  QuantizationOptions q;
  q.base = BaseQuantization::kNf4;
  EXPECT_EQ(quantized_weight_bytes(q, 8192, 8192), 34'619'396);
  q.double_quant = false;
  EXPECT_EQ(quantized_weight_bytes(q, 8192, 8192), 33'554'432 + 4 * 1'048'576);
  q.base = BaseQuantization::kInt8;
  EXPECT_EQ(quantized_weight_bytes(q, 8192, 8192), 67'108'864 + 8192 * 4);
}

// QLoRA's headline (abstract): a 65B model finetunes on a single 48 GB GPU. LLaMA-65B with the
// paper's recipe (NF4 + double quantization, LoRA r = 64 on every linear layer in bf16,
// qlora.py: norms fp32, embeddings and lm_head bf16): the frozen base by hand is
// 80 layers x (4 x 8192² + 3 x 22016·8192 weights at 34,619,396 B per 8192² ... computed per
// tensor below) + 2 x 32000·8192 x 2 B + (2·80 + 1)·8192 x 4 B.
TEST(Quantization, Llama65bQloraFitsTheStatedGpu) {
  const ModelConfig m = load_model_config(std::string(OOMKIT_SOURCE_DIR) + "/tests/data/qlora/llama-65b.json");
  TrainingSetup s;
  s.precision = Precision::kBf16;
  s.optimizer = OptimizerKind::kAdam8bit;
  s.lora.rank = 64;
  s.lora.targets = {"q", "k", "v", "o", "gate", "up", "down"};
  s.quantization.base = BaseQuantization::kNf4;
  s.seq_len = 512;
  const Estimate e = estimate_memory(m, s);
  QuantizationOptions q;
  q.base = BaseQuantization::kNf4;
  const int64_t linear = 80 * (4 * quantized_weight_bytes(q, 8192, 8192) + 2 * quantized_weight_bytes(q, 22016, 8192) +
                               quantized_weight_bytes(q, 8192, 22016));
  const int64_t base = linear + 2LL * 32000 * 8192 * 2 + (2 * 80 + 1) * 8192LL * 4;
  EXPECT_EQ(item(e, "parameters/frozen_base"), base);
  // Adapters: per layer r·(in + out) for q, k, v, o (8192 + 8192) and gate, up, down
  // (8192 + 22016), bf16.
  const int64_t adapters = 80LL * 64 * (4 * 16384 + 3 * 30208);
  EXPECT_EQ(e.parameters.lora, adapters);
  EXPECT_EQ(item(e, "parameters/trainable"), 2 * adapters);
  // Weights in 10^9 B: base 34.7, adapters 1.6; all static memory (adapters' grads and 8-bit
  // optimizer state included) stays under 48 GB, the paper's single GPU.
  const int64_t statics = e.total(Category::kParameters) + e.total(Category::kGradients) + e.total(Category::kOptimizerState);
  EXPECT_LT(statics, 48'000'000'000LL);
  EXPECT_GT(base, 34'000'000'000LL);
  EXPECT_LT(base, 35'000'000'000LL);
}

// The 8-bit base: one byte per Linear weight plus a row scale; about half of bf16.
TEST(Quantization, Int8BaseHalvesTheBf16Base) {
  const ModelConfig m = resolve_model_config("llama-2-7b");
  TrainingSetup s;
  s.precision = Precision::kBf16;
  s.lora.rank = 8;
  s.seq_len = 512;
  const int64_t bf16 = item(estimate_memory(m, s), "parameters/frozen_base");
  s.quantization.base = BaseQuantization::kInt8;
  const int64_t int8 = item(estimate_memory(m, s), "parameters/frozen_base");
  // Linear weights: 6,476,005,376 (32 x (4·4096² + 3·11008·4096)) go from 2 B to 1 B + scales;
  // embeddings and head stay bf16; norms go from bf16 to fp32.
  const int64_t linear = 32LL * (4 * 4096 * 4096 + 3LL * 11008 * 4096);
  const int64_t rows = 32LL * (4 * 4096 + 2 * 11008 + 4096);
  const int64_t norms = (2 * 32 + 1) * 4096LL;
  EXPECT_EQ(bf16 - int8, linear - 4 * rows - 2 * norms);
}

// Quantizing needs a frozen base: without LoRA the flag is refused, naming it.
TEST(Quantization, NeedsLora) {
  TrainingSetup s;
  s.quantization.base = BaseQuantization::kNf4;
  try {
    estimate_memory(resolve_model_config("gpt2"), s);
    FAIL() << "no error";
  } catch (const InputError& err) {
    EXPECT_EQ(err.field(), "--quantize-base");
  }
}
