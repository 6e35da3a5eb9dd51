// Inference memory (issue 11 item 6): GptImpl::forward_cached's prefill and decode measured on
// the exact CPU tracking allocator against estimate_inference(), on seeded random configs.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>

#include "oomkit/core/error.h"
#include "oomkit/estimate/inference.h"
#include "oomkit/profile/tracking_allocator.h"
#include "oomkit/train/model.h"

namespace oomkit {
namespace {

int64_t allocated() { return cpu_allocator_counters().allocated_bytes; }

// The static cache holds what it should: 2·L tensors (B, h, T_max, d_h), and decoding token by
// token gives the logits of the full (uncached) forward.
TEST(Inference, CachedForwardMatchesTheFullForward) {
  ModelConfig c;
  c.name = "tiny";
  c.n_embd = 32;
  c.n_head = 4;
  c.n_kv_head = 4;
  c.n_layer = 2;
  c.d_ff = 128;
  c.vocab_size = 97;
  c.n_positions = 32;
  torch::manual_seed(7);
  Gpt model(c);
  model->eval();
  torch::NoGradGuard no_grad;
  const torch::Tensor idx = torch::randint(0, c.vocab_size, {2, 12}, torch::kLong);
  const torch::Tensor full = model->forward(idx);
  KvCache cache = model->make_kv_cache(2, 12);
  ASSERT_EQ(cache.k.size(), 2u);
  EXPECT_EQ(cache.k[0].sizes(), (std::vector<int64_t>{2, 4, 12, 8}));
  const torch::Tensor pre = model->forward_cached(idx.slice(1, 0, 8), cache);
  EXPECT_TRUE(torch::allclose(pre, full.slice(1, 0, 8), 1e-5, 1e-5));
  for (int64_t i = 8; i < 12; ++i) {
    const torch::Tensor step = model->forward_cached(idx.slice(1, i, i + 1), cache);
    EXPECT_TRUE(torch::allclose(step, full.slice(1, i, i + 1), 1e-4, 1e-5)) << "position " << i;
  }
  EXPECT_EQ(cache.length, 12);
  EXPECT_THROW(model->forward_cached(idx.slice(1, 0, 1), cache), InputError);
}

// Seeded random configs (fp32, CPU): the resident bytes (weights + causal mask + cache + prompt
// ids) exactly, and the peaks of the prefill and of the last decode step within 3%. The seeds
// are fixed; a failing seed stays in the list.
TEST(Inference, PrefillAndDecodeMeasuredWithinThreePercent) {
  install_tracking_cpu_allocator();
  for (const unsigned seed : {11u, 12u, 13u, 14u, 15u, 16u, 17u, 18u}) {
    std::mt19937 rng(seed);
    auto pick = [&](std::initializer_list<int64_t> xs) { return *(xs.begin() + rng() % xs.size()); };
    ModelConfig c;
    c.name = "seed" + std::to_string(seed);
    c.n_head = pick({1, 2, 4});
    c.n_embd = c.n_head * pick({16, 32});
    c.n_kv_head = c.n_head;
    c.n_layer = pick({1, 2, 3});
    c.d_ff = pick({2, 4}) * c.n_embd;
    c.vocab_size = pick({64, 257, 1000});
    c.n_positions = 160;
    InferenceSetup s;
    s.batch_size = pick({1, 2, 4});
    s.prompt_len = pick({16, 48, 96});
    s.max_new_tokens = pick({4, 16, 32});
    s.cuda = false;
    const InferenceEstimate e = estimate_inference(c, s);

    const int64_t start = allocated();
    torch::manual_seed(seed);
    Gpt model(c);
    model->eval();
    torch::NoGradGuard no_grad;
    KvCache cache = model->make_kv_cache(s.batch_size, s.prompt_len + s.max_new_tokens);
    torch::Tensor idx = torch::randint(0, c.vocab_size, {s.batch_size, s.prompt_len}, torch::kLong);
    EXPECT_EQ(allocated() - start, e.resident_bytes) << c.name;

    reset_cpu_allocator_peak();
    torch::Tensor logits = model->forward_cached(idx, cache);
    const int64_t prefill = cpu_allocator_counters().peak_allocated_bytes - start;
    torch::Tensor next = logits.select(1, s.prompt_len - 1).argmax(-1, /*keepdim=*/true);  // (B, 1)
    logits = torch::Tensor();
    idx = torch::Tensor();
    int64_t decode = 0;
    for (int64_t i = 0; i < s.max_new_tokens; ++i) {
      reset_cpu_allocator_peak();
      logits = model->forward_cached(next, cache);
      decode = cpu_allocator_counters().peak_allocated_bytes - start;
      next = logits.select(1, 0).argmax(-1, true);
      logits = torch::Tensor();
    }
    const double rp = static_cast<double>(prefill) / static_cast<double>(e.prefill_peak_bytes);
    const double rd = static_cast<double>(decode) / static_cast<double>(e.decode_peak_bytes);
    const int64_t resident = e.resident_bytes;
    const double tp = static_cast<double>(prefill - resident) / static_cast<double>(e.prefill_peak_bytes - resident);
    std::printf("%s d=%lld h=%lld L=%lld d_ff=%lld V=%lld B=%lld T=%lld N=%lld: prefill %lld / %lld B (%.4f; transient %.4f), "
                "decode %lld / %lld B (%.4f)\n",
                c.name.c_str(), (long long)c.n_embd, (long long)c.n_head, (long long)c.n_layer, (long long)c.d_ff,
                (long long)c.vocab_size, (long long)s.batch_size, (long long)s.prompt_len, (long long)s.max_new_tokens,
                (long long)prefill, (long long)e.prefill_peak_bytes, rp, tp, (long long)decode, (long long)e.decode_peak_bytes, rd);
    EXPECT_NEAR(rp, 1.0, 0.03) << c.name;
    EXPECT_NEAR(tp, 1.0, 0.03) << c.name << ": the prefill's transient alone";
    EXPECT_NEAR(rd, 1.0, 0.03) << c.name;
  }
}

}  // namespace
}  // namespace oomkit
