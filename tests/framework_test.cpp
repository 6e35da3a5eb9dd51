// Framework profiles (issue 11 items 2 and 4): DeepSpeed's own model-states estimator reproduced
// to the printed digit, the deepspeed profile's GPU layout against it, the megatron profile's
// invariants. The term-by-term check against Megatron-LM's formula code runs as
// scripts/megatron_formula_check.py (ctest: megatron_formula).
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "oomkit/core/error.h"
#include "oomkit/core/model_config.h"
#include "oomkit/estimate/estimate.h"
#include "oomkit/estimate/framework.h"
#include "oomkit/estimate/verdict.h"

using namespace oomkit;

namespace {

std::string gib2(int64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", static_cast<double>(bytes) / 1073741824.0);
  return buf;
}

int64_t sum_prefix(const Estimate& e, const std::string& prefix) {
  int64_t s = 0;
  for (const auto& it : e.items) {
    if (it.path.rfind(prefix, 0) == 0) s += it.bytes;
  }
  return s;
}

}  // namespace

// Golden rows: DeepSpeed's docs/code-docs/source/memory.rst prints, for
// estimate_zero3_model_states_mem_needs_all_cold(total_params=2851e6, largest_layer_params=32e6,
// num_gpus_per_node=8, num_nodes=1), "per CPU | per GPU" in GiB (it writes GB, divides by 2**30):
//   71.69 | 0.12  offload_param=cpu,  offload_optimizer=cpu,  zero_init=1
//  127.45 | 0.12  offload_param=cpu,  offload_optimizer=cpu,  zero_init=0
//   63.72 | 0.78  offload_param=none, offload_optimizer=cpu,  zero_init=1
//  127.45 | 0.78  offload_param=none, offload_optimizer=cpu,  zero_init=0
//    1.43 | 6.09  offload_param=none, offload_optimizer=none, zero_init=1
//  127.45 | 6.09  offload_param=none, offload_optimizer=none, zero_init=0
TEST(DeepSpeedStates, Zero3MatchesTheDocsPrintedTable) {
  const auto rows = deepspeed_states_table(3, 2'851'000'000, 32'000'000, 8, 1);
  ASSERT_EQ(rows.size(), 6u);
  const char* cpu[] = {"71.69", "127.45", "63.72", "127.45", "1.43", "127.45"};
  const char* gpu[] = {"0.12", "0.12", "0.78", "0.78", "6.09", "6.09"};
  const bool offload_param[] = {true, true, false, false, false, false};
  const bool offload_opt[] = {true, true, true, true, false, false};
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(gib2(rows[i].cpu_bytes), cpu[i]) << "row " << i;
    EXPECT_EQ(gib2(rows[i].gpu_bytes), gpu[i]) << "row " << i;
    EXPECT_EQ(rows[i].offload_param, offload_param[i]);
    EXPECT_EQ(rows[i].offload_optimizer, offload_opt[i]);
    EXPECT_EQ(rows[i].zero_init, i % 2 == 0);
  }
}

// The same docs page prints, for estimate_zero2_model_states_mem_needs_all_cold(2851e6, 8, 1):
// 127.45 | 5.31 offload_optimizer=cpu and 127.45 | 15.93 offload_optimizer=none. The 15.93 comes
// from an older formula (4·P + 16·P/N, the docs' own "GPU RAM" text); today's
// stage_1_and_2.py prints 2·P + int(18·P/N) = 5.702e9 + 6.41475e9 B = 11.28 GiB.
TEST(DeepSpeedStates, Zero2MatchesTheEstimator) {
  const auto rows = deepspeed_states_table(2, 2'851'000'000, 0, 8, 1);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(gib2(rows[0].cpu_bytes), "127.45");
  EXPECT_EQ(gib2(rows[0].gpu_bytes), "5.31");
  EXPECT_EQ(gib2(rows[1].cpu_bytes), "127.45");
  EXPECT_EQ(gib2(rows[1].gpu_bytes), "11.28");
  EXPECT_EQ(rows[1].gpu_bytes, 5'702'000'000 + 6'414'750'000);
}

// Multi-node, by hand from estimate_zero3_model_states_mem_needs (gpus_factor = 1/num_nodes):
// P = 1e9, largest layer 1e8, 4 GPUs x 2 nodes, factor 1.5:
//  both offloaded, zero_init: cpu = 1e9·18·0.5·1.5 = 13.5e9, gpu = 4·1e8;
//  both offloaded, no zero_init: cpu = 1e9·max(16, 9)·1.5 = 24e9;
//  nothing offloaded, zero_init: cpu = 1e8·4·4·1.5 = 2.4e9, gpu = 4e8 + 18e9/8 = 2.65e9.
TEST(DeepSpeedStates, Zero3TwoNodesByHand) {
  const auto rows = deepspeed_states_table(3, 1'000'000'000, 100'000'000, 4, 2);
  EXPECT_EQ(rows[0].cpu_bytes, 13'500'000'000);
  EXPECT_EQ(rows[0].gpu_bytes, 400'000'000);
  EXPECT_EQ(rows[1].cpu_bytes, 24'000'000'000);
  EXPECT_EQ(rows[4].cpu_bytes, 2'400'000'000);
  EXPECT_EQ(rows[4].gpu_bytes, 2'650'000'000);
}

// model_to_params(): GPT-2 small has 124,439,808 parameters (tied head once) and its largest
// module is wte, 50257·768 = 38,597,376.
TEST(DeepSpeedStates, ParamCountsOfGpt2) {
  const auto c = deepspeed_param_counts(resolve_model_config("gpt2"), LoraConfig{});
  EXPECT_EQ(c.total, 124'439'808);
  EXPECT_EQ(c.largest_layer, 50257 * 768);
  EXPECT_EQ(c.largest_layer_name, "transformer.wte");
}

// The deepspeed profile's model states on the GPU equal DeepSpeed's estimator's per-GPU column
// for the same option (ZeRO-2: 2·P + 18·P/N; ZeRO-3 with both offloads: the gathered largest
// layer only), up to the profile's per-item rounding up and ZeRO-3's persistent small params.
TEST(DeepSpeedProfile, StaticMatchesTheEstimatorColumn) {
  const ModelConfig m = resolve_model_config("llama-2-7b");
  TrainingSetup s;
  s.framework = Framework::kDeepSpeed;
  s.precision = Precision::kBf16Mixed;
  s.seq_len = 512;
  s.parallel.data_parallel = 8;
  s.parallel.zero_stage = 2;
  Estimate e = estimate_memory(m, s);
  const auto counts = deepspeed_param_counts(m, s.lora);
  const int64_t P = counts.total;
  const int64_t states = sum_prefix(e, "parameters/") + sum_prefix(e, "gradients/") + sum_prefix(e, "optimizer_state/");
  EXPECT_NEAR(static_cast<double>(states), static_cast<double>(2 * P + 18 * P / 8), 8.0);
  EXPECT_EQ(sum_prefix(e, "transient/reduce_bucket"), 2 * 500'000'000LL);  // reduce_bucket_size · 2 B
  EXPECT_GT(e.total(Category::kActivations), 0);
  ASSERT_EQ(e.host_table.size(), 2u);

  s.parallel.zero_stage = 3;
  s.parallel.offload_optimizer = s.parallel.offload_parameters = true;
  e = estimate_memory(m, s);
  EXPECT_EQ(sum_prefix(e, "parameters/") + sum_prefix(e, "gradients/") + sum_prefix(e, "optimizer_state/"), 0);
  EXPECT_EQ(sum_prefix(e, "transient/zero3_gathered"), 4 * counts.largest_layer);
  // Host: 16 B (fp32 master, grads, Adam) + 2 B (the offloaded params) per parameter.
  EXPECT_EQ(e.host_bytes, 18 * P);
  ASSERT_EQ(e.host_table.size(), 6u);
  EXPECT_EQ(e.host_table[0].gpu_bytes, 4 * counts.largest_layer);
}

// Setups DeepSpeed cannot run are refused, naming the flag.
TEST(DeepSpeedProfile, RefusesWhatDeepSpeedDoesNot) {
  const ModelConfig m = resolve_model_config("gpt2");
  TrainingSetup s;
  s.framework = Framework::kDeepSpeed;
  s.precision = Precision::kBf16Mixed;
  s.parallel.offload_parameters = true;
  s.parallel.zero_stage = 2;
  try {
    estimate_memory(m, s);
    FAIL() << "no error";
  } catch (const InputError& err) {
    EXPECT_EQ(err.field(), "--offload-params");
  }
}

// Megatron: bf16 params (2), fp32 main grads (4), fp32 master + Adam (12) sharded over DP by
// the distributed optimizer: 6 + 12/N bytes per parameter of the GPU's shard; the
// GPT-2-family shard adds biases and learned positions that Megatron's formula leaves out.
TEST(MegatronProfile, BytesPerParameter) {
  const ModelConfig m = resolve_model_config("llama-2-7b");
  TrainingSetup s;
  s.framework = Framework::kMegatron;
  s.precision = Precision::kBf16Mixed;
  s.attention = AttentionKernel::kSdpa;
  s.seq_len = 4096;
  s.parallel.data_parallel = 8;
  s.parallel.zero_stage = 1;
  const Estimate e = estimate_memory(m, s);
  const MegatronParameters mp = megatron_parameters(m, s);
  // llama-2-7b: V = 32000 is already a multiple of 128; the untied head doubles the embedding.
  EXPECT_EQ(mp.padded_vocab, 32000);
  EXPECT_EQ(mp.total(), 6'738'415'616);
  EXPECT_EQ(mp.biases_and_positions, 0);
  EXPECT_EQ(sum_prefix(e, "parameters/"), 2 * mp.total());
  EXPECT_EQ(sum_prefix(e, "gradients/"), 4 * mp.total());
  EXPECT_EQ(sum_prefix(e, "optimizer_state/"), (12 * mp.total() + 7) / 8);
  // Flash attention, no recompute, no SP: no s² term; the no-SP formula's 5% allowance.
  EXPECT_EQ(sum_prefix(e, "activations/block/attention_scores"), 0);
  EXPECT_EQ(sum_prefix(e, "transient/temporaries_5pct"), (e.total(Category::kActivations) * 5 + 99) / 100);
}

// Eager attention without recompute adds the softmax output (2·h·s²·b B / t, no dropout);
// sequence parallelism divides the replicated terms by t; Megatron pads V to 128·t.
TEST(MegatronProfile, AttentionScoresSequenceParallelAndPadding) {
  const ModelConfig m = resolve_model_config("gpt2");  // V = 50257, attn_pdrop 0.1
  TrainingSetup s;
  s.framework = Framework::kMegatron;
  s.precision = Precision::kBf16Mixed;
  s.seq_len = 1024;
  s.micro_batch_size = 2;
  s.parallel.tensor_parallel = 4;
  const Estimate eager = estimate_memory(m, s);
  const int64_t scores = sum_prefix(eager, "activations/block/attention_scores");
  const int64_t per_elem = m.attn_pdrop > 0 ? 5 : 2;
  EXPECT_EQ(scores, 12 * per_elem * 12 * 1024 * 1024 * 2 / 4);
  EXPECT_EQ(megatron_parameters(m, s).padded_vocab, 50688);  // 50257 -> multiple of 512
  s.megatron.sequence_parallel = true;
  const Estimate sp = estimate_memory(m, s);
  EXPECT_EQ(sum_prefix(sp, "activations/block/layernorm_inputs") * 4, sum_prefix(eager, "activations/block/layernorm_inputs"));
}

// Megatron has no fp32 or ZeRO-3 mode; the profile refuses them, naming the flag.
TEST(MegatronProfile, RefusesWhatMegatronDoesNot) {
  const ModelConfig m = resolve_model_config("gpt2");
  TrainingSetup s;
  s.framework = Framework::kMegatron;
  try {
    estimate_memory(m, s);
    FAIL() << "no error";
  } catch (const InputError& err) {
    EXPECT_EQ(err.field(), "--precision");
  }
  s.precision = Precision::kBf16Mixed;
  s.parallel.zero_stage = 3;
  try {
    estimate_memory(m, s);
    FAIL() << "no error";
  } catch (const InputError& err) {
    EXPECT_EQ(err.field(), "--zero");
  }
}

// hf: GPT-2's NewGELUActivation (Python ops) saves tanh's output, 0.5·x and 1 + tanh: three
// (B, T, d_ff) tensors per layer beyond the trainer's fused gelu, 12·B·T·3·3072·4 B in fp32
// for GPT-2 small; the loss's contiguous shifted-logits copy lifts the after_loss peak by
// B·T·V·4 B.
TEST(HfProfile, NewGeluAndShiftedLogits) {
  const ModelConfig m = resolve_model_config("gpt2");
  TrainingSetup s;
  s.seq_len = 256;
  s.micro_batch_size = 2;
  const Estimate ours = estimate_memory(m, s);
  s.framework = Framework::kHf;
  const Estimate hf = estimate_memory(m, s);
  EXPECT_EQ(hf.total(Category::kActivations) - ours.total(Category::kActivations), 12LL * 2 * 256 * 3 * 3072 * 4);
  auto peak_at = [](const Estimate& e, const char* phase) {
    for (const auto& p : e.phases) {
      if (p.step_kind == "steady" && p.phase == phase) return p.peak_bytes;
    }
    return int64_t{-1};
  };
  EXPECT_EQ(peak_at(hf, "after_loss") - peak_at(ours, "after_loss"), 12LL * 2 * 256 * 3 * 3072 * 4 + 2LL * 256 * 50257 * 4);
}

// The verdict's remedies are computed through the profile; a remedy the framework lacks
// (ZeRO-3, 8-bit Adam for Megatron) is left out instead of failing the verdict.
TEST(MegatronProfile, VerdictSkipsRemediesMegatronLacks) {
  const ModelConfig m = resolve_model_config("llama-2-7b");
  TrainingSetup s;
  s.framework = Framework::kMegatron;
  s.precision = Precision::kBf16Mixed;
  s.attention = AttentionKernel::kSdpa;
  s.seq_len = 4096;
  s.micro_batch_size = 4;
  const Estimate e = estimate_memory(m, s);
  const Verdict v = judge(m, e, 80LL << 30);
  EXPECT_FALSE(v.fits);
  bool batch = false;
  for (const auto& f : v.fixes) {
    EXPECT_NE(f.name, "zero_3");
    EXPECT_NE(f.name, "adam_8bit");
    batch = batch || f.name == "micro_batch";
  }
  EXPECT_TRUE(batch);
}
