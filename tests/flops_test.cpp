// Model FLOPs per token (PaLM, Chowdhery et al. 2022, appendix B: 6N + 12·L·H·Q·T) against
// values computed by hand from the architectures, and MFU's arithmetic.
#include <gtest/gtest.h>

#include "oomkit/core/error.h"
#include "oomkit/core/model_config.h"
#include "oomkit/estimate/estimate.h"
#include "oomkit/estimate/flops.h"

using namespace oomkit;

// GPT-2 small (124M), by hand: per layer ln_1 2·768, c_attn 768·2304 + 2304, c_proj 768² + 768,
// ln_2 2·768, c_fc 768·3072 + 3072, mlp.c_proj 3072·768 + 768 = 7,087,872; x 12 layers, + ln_f
// 1,536, + wte 50257·768 = 38,597,376 (tied: lm_head's matmul weight); wpe (a lookup) left
// out: N = 123,653,376 = 124,439,808 - 1024·768, nanoGPT's get_num_params(). At T = 1024:
// 6N = 741,920,256 and 12·12·12·64·1024 = 113,246,208.
TEST(ModelFlops, Gpt2SmallByHand) {
  const ModelConfig gpt2 = resolve_model_config("gpt2");
  EXPECT_EQ(12 * 7'087'872 + 1'536 + 38'597'376, 123'653'376);
  EXPECT_EQ(mfu_parameters(gpt2), 123'653'376);
  EXPECT_EQ(model_flops_per_token(gpt2, 1024), 741'920'256 + 113'246'208);
  EXPECT_EQ(model_flops_per_token(gpt2, 1024), 855'166'464);
  // T is the run's sequence length: at T = 128 only the attention term shrinks (by 8).
  EXPECT_EQ(model_flops_per_token(gpt2, 128), 741'920'256 + 113'246'208 / 8);
}

// Llama-2-7B, by hand: per layer q, k, v, o 4·4096² = 67,108,864, gate/up/down 3·4096·11008 =
// 135,266,304, two RMSNorms 8,192 = 202,383,360; x 32, + final norm 4,096, + the untied lm_head
// 32000·4096 = 131,072,000; embed_tokens (a lookup) left out: N = 6,607,343,616 =
// 6,738,415,616 - 131,072,000. At T = 4096: 6N = 39,644,061,696, 12·32·32·128·4096 =
// 6,442,450,944.
TEST(ModelFlops, Llama2SevenBByHand) {
  const ModelConfig llama = resolve_model_config("llama-2-7b");
  EXPECT_EQ(32LL * 202'383'360 + 4'096 + 131'072'000, 6'607'343'616LL);
  EXPECT_EQ(mfu_parameters(llama), 6'607'343'616LL);
  EXPECT_EQ(model_flops_per_token(llama, 4096), 39'644'061'696LL + 6'442'450'944LL);
}

// Grouped-query attention and a tied head, by hand on llama-nano (d 128, L 5, h 4, h_kv 2,
// d_h 32, d_ff 352, V 256): per layer q 128², k and v 64·128 each, o 128², three 128·352
// matrices, two norms = 184,576; x 5, + final norm 128, + the head 256·128 = 32,768 (its own
// tensor when untied, embed_tokens' when tied: counted once either way) = 955,776. The
// attention term counts query heads: 12·5·4·32·T.
TEST(ModelFlops, LlamaGqaTiedAndUntied) {
  ModelConfig nano = resolve_model_config("llama-nano");
  ASSERT_FALSE(nano.tie_word_embeddings);
  EXPECT_EQ(mfu_parameters(nano), 5 * 184'576 + 128 + 32'768);
  EXPECT_EQ(model_flops_per_token(nano, 64), 6 * 955'776 + 12 * 5 * 4 * 32 * 64);
  nano.tie_word_embeddings = true;
  EXPECT_EQ(mfu_parameters(nano), 955'776);
}

// LoRA r = 16 on q and v of Llama-2-7B, by hand: per layer A (16, 4096) + B (4096, 16) for each
// of q and v = 4·65,536 = 262,144; x 32 = 8,388,608 adapters. The frozen base has no weight
// gradients: 4N = 26,429,374,464 instead of 6N, plus 6·N_lora = 50,331,648; attention unchanged.
TEST(ModelFlops, LoraFrozenBaseByHand) {
  const ModelConfig llama = resolve_model_config("llama-2-7b");
  LoraConfig lora;
  lora.rank = 16;
  lora.targets = {"q", "v"};
  EXPECT_EQ(count_parameters(llama, lora).lora, 8'388'608);
  EXPECT_EQ(model_flops_per_token(llama, 4096, lora), 26'429'374'464LL + 50'331'648LL + 6'442'450'944LL);
  lora.rank = 0;  // off: the full-training count
  EXPECT_EQ(model_flops_per_token(llama, 4096, lora), model_flops_per_token(llama, 4096));
  lora.rank = 16;
  lora.targets = {"nonexistent"};
  EXPECT_THROW(model_flops_per_token(llama, 4096, lora), InputError);
}

// MFU = tokens/s · FLOPs/token / peak; 0 when a rate is missing; bad T is an InputError.
TEST(ModelFlops, UtilizationAndBadInput) {
  EXPECT_DOUBLE_EQ(model_flops_utilization(1000.0, 855'166'464, 1e12), 0.855166464);
  EXPECT_EQ(model_flops_utilization(0.0, 1000, 1e9), 0.0);
  EXPECT_EQ(model_flops_utilization(10.0, 1000, 0.0), 0.0);
  EXPECT_THROW(model_flops_per_token(resolve_model_config("gpt2"), 0), InputError);
}
