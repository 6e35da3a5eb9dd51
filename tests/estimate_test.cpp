#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "oomkit/core/error.h"
#include "oomkit/core/model_config.h"
#include "oomkit/core/units.h"
#include "oomkit/estimate/activations.h"
#include "oomkit/estimate/estimate.h"

using namespace oomkit;

namespace {

TrainingSetup cpu_setup(int64_t B, int64_t T) {
  TrainingSetup s;
  s.micro_batch_size = B;
  s.seq_len = T;
  s.cuda = false;
  return s;
}

const PhasePrediction& phase(const Estimate& e, const std::string& kind, const std::string& name) {
  for (const auto& p : e.phases) {
    if (p.step_kind == kind && p.phase == name) return p;
  }
  throw std::runtime_error("no phase " + kind + "/" + name);
}

std::string field_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.field();
  }
  return "(no error)";
}

}  // namespace

// The chapter's worked static numbers: 14P for mixed-precision Adam, 7B -> 14 + 28 + 56 = 98 GB
// (decimal GB, as the chapter states them).
TEST(Chapter, FourteenPRule) {
  const ChapterStatic s = chapter_static_bytes(7'000'000'000);
  EXPECT_EQ(s.parameters_bytes, 14 * kGB);
  EXPECT_EQ(s.gradients_bytes, 28 * kGB);
  EXPECT_EQ(s.optimizer_bytes, 56 * kGB);
  EXPECT_EQ(s.total(), 98 * kGB);
}

// The chapter's GPT-2 activation formula at B = 8, T = 512: (34·768 + 5·12·512)·8·512·12
// = 56,832 · 49,152 = 2,793,406,464 bytes (2.79 GB; NOTES.md: the prose's 3.7 GB total does
// not follow from it).
TEST(Chapter, Gpt2ActivationFormula) {
  EXPECT_EQ(chapter_activation_bytes(resolve_model_config("gpt2"), 8, 512), 2'793'406'464);
}

// `--method chapter --precision chapter` reproduces the chapter end to end: 2P + 4P + 8P static
// plus the formula's activations, and that sum (plus the context overhead) is the peak.
TEST(Chapter, MethodChapterEstimate) {
  const ModelConfig m = resolve_model_config("llama-2-7b");
  TrainingSetup s;
  s.precision = Precision::kChapter;
  s.method = EstimateMethod::kChapter;
  s.micro_batch_size = 1;
  s.seq_len = 4096;
  const Estimate e = estimate_memory(m, s);
  const int64_t P = 6'738'415'616;
  // 2P plus the RoPE inv_freq buffer the LLaMA module registers (d_h/2 = 64 fp32; llama.h).
  EXPECT_EQ(e.total(Category::kParameters), 2 * P + 64 * 4);
  EXPECT_EQ(e.total(Category::kGradients), 4 * P);
  EXPECT_EQ(e.total(Category::kOptimizerState), 8 * P);
  const int64_t act = (34LL * 4096 + 5LL * 32 * 4096) * 4096 * 32;
  EXPECT_EQ(e.total(Category::kActivations), act);
  EXPECT_EQ(e.peak_bytes, 14 * P + act + (500LL << 20));
}

// An independent count for GPT-2 fp32 eager on CPU, per token and layer, from
// docs/model-ops.md: ln_1 input d, ln_1 mean+rstd 2, c_attn input d, q and k copies 2d, softmax
// output h·T, v copy d, c_proj input d, ln_2 input d, ln_2 stats 2, c_fc input d, gelu input
// d_ff, mlp.c_proj input d_ff = 8d + 4 + 2·d_ff + h·T floats. Head: ln_f input d, stats 2,
// lm_head input d, logits V. Plus idx and targets (16 B per token, loaded after step_start) and
// arange(T) (8 B per position). Static: 4 B per parameter and the n_positions² bool mask; at
// every step mark the 5,056-byte CPU generator state `oomkit train` keeps for an OOM retry
// (sizeof(at::CPUGeneratorImplState), LibTorch 1.13); after_loss also the loss and nll_loss's
// saved total_weight, two fp32 scalars.
TEST(Detailed, Gpt2Fp32AfterForwardByHand) {
  const ModelConfig m = resolve_model_config("gpt-nano");
  const Estimate e = estimate_memory(m, cpu_setup(8, 128));
  const int64_t d = 128, d_ff = 512, h = 4, T = 128, L = 5, V = 256, E = 8 * 128;
  const int64_t block = (8 * d + 4 + 2 * d_ff + h * T) * 4;
  const int64_t head = (2 * d + 2 + V) * 4;
  const int64_t params = 4 * count_parameters(m).total() + 256 * 256;
  const int64_t rng = 5056;
  EXPECT_EQ(phase(e, "first", "step_start").allocated_bytes, params + rng);
  EXPECT_EQ(phase(e, "first", "after_forward").allocated_bytes, params + rng + 16 * E + 8 * T + E * (L * block + head));
  // after_loss adds the log_softmax output (B·T, V) fp32 and the trainer drops the logits
  // (B, T, V) fp32 (docs/model-ops.md): the same bytes, plus the two scalars; the peak between
  // holds both.
  EXPECT_EQ(phase(e, "first", "after_loss").allocated_bytes, phase(e, "first", "after_forward").allocated_bytes + 8);
  EXPECT_EQ(phase(e, "first", "after_loss").peak_bytes - phase(e, "first", "after_forward").allocated_bytes, E * V * 4);
  // CPU: no CUDA context; the overhead category holds only the OOM-retry RNG state.
  EXPECT_EQ(e.total(Category::kOverhead), rng);
}

// The step's bookkeeping: optimizer state appears at the first step (lazily) and stays; the
// steady step starts with parameters + state; gradients exist from backward to zero_grad; the
// step's batch (idx, targets: B·T·16 B) from the data load through after_zero_grad.
TEST(Detailed, FirstVersusSteadyStep) {
  const ModelConfig m = resolve_model_config("gpt-micro");
  const Estimate e = estimate_memory(m, cpu_setup(1, 128));
  const int64_t state = e.total(Category::kOptimizerState);
  const int64_t grads = e.total(Category::kGradients);
  EXPECT_EQ(state, 2 * grads);  // AdamW: two fp32 moments per fp32 gradient
  EXPECT_EQ(phase(e, "steady", "step_start").allocated_bytes - phase(e, "first", "step_start").allocated_bytes, state);
  const int64_t batch = 1 * 128 * 16;
  EXPECT_EQ(phase(e, "first", "after_backward").allocated_bytes - phase(e, "first", "step_start").allocated_bytes,
            grads + batch);
  EXPECT_EQ(phase(e, "first", "after_optimizer_step").allocated_bytes,
            phase(e, "steady", "after_backward").allocated_bytes);
  EXPECT_EQ(phase(e, "steady", "after_zero_grad").allocated_bytes,
            phase(e, "steady", "step_start").allocated_bytes + batch);
  for (const auto& p : e.phases) EXPECT_GE(p.peak_bytes, p.allocated_bytes) << p.step_kind << "/" << p.phase;
  EXPECT_EQ(e.phases.size(), 13u);  // 6 marks for each step kind + eval
}

// Property: more batch or more sequence never lowers activations or the peak.
TEST(Properties, MonotoneInBatchAndSequence) {
  for (const char* name : {"gpt2", "llama-2-7b"}) {
    const ModelConfig m = resolve_model_config(name);
    for (auto ck : {Checkpointing::kNone, Checkpointing::kFull, Checkpointing::kSelective}) {
      int64_t prev_act = 0, prev_peak = 0;
      for (int64_t B : {1, 2, 4, 8, 16}) {
        TrainingSetup s;
        s.micro_batch_size = B;
        s.seq_len = 512;
        s.checkpointing = ck;
        const Estimate e = estimate_memory(m, s);
        EXPECT_GE(e.total(Category::kActivations), prev_act);
        EXPECT_GE(e.peak_bytes, prev_peak);
        prev_act = e.total(Category::kActivations);
        prev_peak = e.peak_bytes;
      }
      prev_act = prev_peak = 0;
      for (int64_t T : {64, 128, 256, 512, 1024}) {
        TrainingSetup s;
        s.seq_len = T;
        s.checkpointing = ck;
        const Estimate e = estimate_memory(m, s);
        EXPECT_GE(e.total(Category::kActivations), prev_act);
        EXPECT_GE(e.peak_bytes, prev_peak);
        prev_act = e.total(Category::kActivations);
        prev_peak = e.peak_bytes;
      }
    }
  }
}

// Property: checkpointing never raises activations (full <= selective <= none).
TEST(Properties, CheckpointingNeverRaisesActivations) {
  for (const char* name : {"gpt-nano", "gpt2", "llama-2-13b"}) {
    const ModelConfig m = resolve_model_config(name);
    for (auto p : {Precision::kFp32, Precision::kBf16Mixed}) {
      TrainingSetup s;
      s.seq_len = 256;
      s.micro_batch_size = 4;
      s.precision = p;
      const int64_t none = estimate_memory(m, s).total(Category::kActivations);
      s.checkpointing = Checkpointing::kSelective;
      const int64_t selective = estimate_memory(m, s).total(Category::kActivations);
      s.checkpointing = Checkpointing::kFull;
      const int64_t full = estimate_memory(m, s).total(Category::kActivations);
      EXPECT_LE(selective, none) << name;
      EXPECT_LE(full, selective) << name;
      EXPECT_LT(full, none) << name;
    }
    // The chapter method's variants (Korthikanti et al. 2022 sec. 5) keep the same order.
    TrainingSetup c;
    c.seq_len = 256;
    c.method = EstimateMethod::kChapter;
    const int64_t none = estimate_memory(m, c).total(Category::kActivations);
    c.checkpointing = Checkpointing::kSelective;
    const int64_t selective = estimate_memory(m, c).total(Category::kActivations);
    c.checkpointing = Checkpointing::kFull;
    const int64_t full = estimate_memory(m, c).total(Category::kActivations);
    EXPECT_EQ(selective, 34 * m.n_embd * 256 * m.n_layer) << name;
    EXPECT_LT(selective, none) << name;
    EXPECT_LT(full, none) << name;
  }
}

// Property: ZeRO-3 over N divides parameters, gradients and optimizer state by N (to within
// the rounding up of each division).
TEST(Properties, Zero3DividesStaticMemory) {
  const ModelConfig m = resolve_model_config("llama-2-7b");
  TrainingSetup s;
  s.precision = Precision::kBf16Mixed;
  s.seq_len = 1024;
  const Estimate one = estimate_memory(m, s);
  for (int64_t N : {2, 8, 64}) {
    TrainingSetup z = s;
    z.parallel.data_parallel = N;
    z.parallel.zero_stage = 3;
    const Estimate sharded = estimate_memory(m, z);
    // Buffers (the LLaMA module's inv_freq, d_h/2 fp32) are replicated on every rank, not sharded.
    const double buffers = 64 * 4;
    for (auto c : {Category::kParameters, Category::kGradients, Category::kOptimizerState}) {
      const double b = c == Category::kParameters ? buffers : 0.0;
      EXPECT_NEAR(static_cast<double>(sharded.total(c)) - b, (static_cast<double>(one.total(c)) - b) / N, 2.0) << N;
    }
    EXPECT_EQ(sharded.total(Category::kActivations), one.total(Category::kActivations));
  }
}

// The optimizers' state sizes against their definitions for GPT-2 small (P = 124,439,808):
// SGD none, momentum P·4, AdamW 2·P·4; Adafactor factors every matrix into rows + columns.
TEST(Properties, OptimizerStateSizes) {
  const ModelConfig m = resolve_model_config("gpt2");
  const int64_t P = 124'439'808;
  auto state = [&](OptimizerKind o) {
    TrainingSetup s;
    s.optimizer = o;
    s.seq_len = 128;
    return estimate_memory(m, s).total(Category::kOptimizerState);
  };
  EXPECT_EQ(state(OptimizerKind::kSgd), 0);
  EXPECT_EQ(state(OptimizerKind::kSgdMomentum), 4 * P);
  EXPECT_EQ(state(OptimizerKind::kLion), 4 * P);
  EXPECT_EQ(state(OptimizerKind::kAdamW), 8 * P);
  // Adafactor: wte (50257 + 768), wpe (1024 + 768), per layer c_attn (2304 + 768), c_proj
  // (768 + 768), c_fc (3072 + 768), mlp.c_proj (768 + 3072) and every vector in full
  // (biases 2304 + 768 + 3072 + 768, norms 4·768), ln_f 2·768; fp32.
  const int64_t per_layer = (2304 + 768) + (768 + 768) + (3072 + 768) + (768 + 3072) + (2304 + 768 + 3072 + 768) + 4 * 768;
  EXPECT_EQ(state(OptimizerKind::kAdafactor), 4 * ((50257 + 768) + (1024 + 768) + 12 * per_layer + 2 * 768));
  // 8-bit Adam: well under a quarter of AdamW's 8 bytes per parameter, above 2 bytes.
  const int64_t q = state(OptimizerKind::kAdam8bit);
  EXPECT_GT(q, 2 * P);
  EXPECT_LT(q, 2 * P + P / 100);
}

// LoRA: gradients and optimizer state only for the adapters; the frozen base in bf16.
TEST(Properties, LoraTrainsAdaptersOnly) {
  const ModelConfig m = resolve_model_config("llama-2-7b");
  TrainingSetup s;
  s.precision = Precision::kBf16Mixed;
  s.seq_len = 512;
  s.lora.rank = 8;
  s.lora.targets = {"q", "v"};
  const Estimate e = estimate_memory(m, s);
  EXPECT_EQ(e.total(Category::kGradients), 4 * 4'194'304);
  EXPECT_EQ(e.total(Category::kOptimizerState), 8 * 4'194'304);
  bool saw_frozen = false;
  for (const auto& it : e.items) {
    if (it.path == "parameters/frozen_base") {
      saw_frozen = true;
      EXPECT_EQ(it.bytes, 2 * 6'738'415'616);
    }
  }
  EXPECT_TRUE(saw_frozen);
}

// Totals are the sums of their items, and the JSON carries every item and total in bytes.
TEST(Json, RoundTrip) {
  TrainingSetup s;
  s.micro_batch_size = 2;
  s.seq_len = 256;
  s.precision = Precision::kBf16Mixed;
  const Estimate e = estimate_memory(resolve_model_config("gpt2-medium"), s);
  std::array<int64_t, kNumCategories> sums{};
  for (const auto& it : e.items) sums[static_cast<int>(it.category)] += it.bytes;
  EXPECT_EQ(sums, e.totals);
  const nlohmann::json j = nlohmann::json::parse(estimate_to_json(e));
  ASSERT_EQ(j["items"].size(), e.items.size());
  for (size_t i = 0; i < e.items.size(); ++i) {
    EXPECT_EQ(j["items"][i]["path"], e.items[i].path);
    EXPECT_EQ(j["items"][i]["bytes"].get<int64_t>(), e.items[i].bytes);
  }
  for (int c = 0; c < kNumCategories; ++c) {
    EXPECT_EQ(j["totals"][category_name(static_cast<Category>(c))].get<int64_t>(), e.totals[c]);
  }
  EXPECT_EQ(j["peak_bytes"].get<int64_t>(), e.peak_bytes);
  EXPECT_EQ(j["peak_phase"], e.peak_phase);
  EXPECT_EQ(j["parameters"]["total"].get<int64_t>(), 354'823'168);
  EXPECT_EQ(j["phases"].size(), e.phases.size());
  const ModelConfig back = parse_model_config(j["model"].dump(), "roundtrip");
  EXPECT_EQ(back.n_embd, 1024);
  EXPECT_EQ(j["setup"]["precision"], "bf16-mixed");
}

// Bad input: one InputError naming the field, never a number.
TEST(BadInput, NamesTheField) {
  const ModelConfig gpt2 = resolve_model_config("gpt2");
  auto with = [&](const std::function<void(TrainingSetup&)>& change) {
    TrainingSetup s;
    s.seq_len = 128;
    change(s);
    return field_of([&] { estimate_memory(gpt2, s); });
  };
  EXPECT_EQ(with([](TrainingSetup& s) { s.micro_batch_size = 0; }), "--batch-size");
  EXPECT_EQ(with([](TrainingSetup& s) { s.micro_batch_size = -3; }), "--batch-size");
  EXPECT_EQ(with([](TrainingSetup& s) { s.seq_len = 4096; }), "--seq-len");
  EXPECT_EQ(with([](TrainingSetup& s) { s.parallel.zero_stage = 4; }), "--zero");
  EXPECT_EQ(with([](TrainingSetup& s) { s.parallel.tensor_parallel = 5; }), "--tp");
  EXPECT_EQ(with([](TrainingSetup& s) { s.safety_margin = 1.5; }), "--margin");
  EXPECT_EQ(with([](TrainingSetup& s) { s.lora = {4, {"gate"}}; }), "--lora-targets");
  EXPECT_EQ(field_of([] { parse_precision("fp8"); }), "--precision");
  EXPECT_EQ(field_of([] { parse_optimizer("adagrad"); }), "--optimizer");
  EXPECT_EQ(field_of([] { parse_attention("ring"); }), "--attention");
  EXPECT_EQ(field_of([] { parse_checkpointing("some"); }), "--checkpointing");
  ModelConfig bad = gpt2;
  bad.n_head = 7;
  EXPECT_NE(field_of([&] { estimate_memory(bad, TrainingSetup{}); }), "(no error)");
}

// Absurd sizes: a 10^15-parameter model (d = 2^20, L = 100: 12·2^40·100 ≈ 1.3·10^15) and a
// batch whose token count overflows the byte arithmetic are errors, not wrapped numbers.
TEST(BadInput, AbsurdSizes) {
  ModelConfig huge = resolve_model_config("gpt2");
  huge.n_embd = int64_t{1} << 20;
  huge.n_head = 1024;
  huge.n_kv_head = 1024;
  huge.d_ff = 4 * huge.n_embd;
  huge.n_layer = 100;
  TrainingSetup s;
  s.seq_len = 8;
  EXPECT_EQ(field_of([&] { estimate_memory(huge, s); }), "parameters");
  ModelConfig long_ctx = resolve_model_config("gpt2");
  long_ctx.n_positions = int64_t{1} << 30;
  TrainingSetup big;
  big.micro_batch_size = int64_t{1} << 30;
  big.seq_len = int64_t{1} << 30;
  EXPECT_EQ(field_of([&] { estimate_memory(long_ctx, big); }), "--batch-size");
}

// Framework oomkit under data parallelism (train --nproc-per-node N [--zero 1]): DDP's gradient
// buckets are one more copy of the gradients; ZeRO-1's optimizer state is whole tensors
// partitioned over the ranks (zero_partition), so the ranks' shares sum to the one-GPU state
// exactly, each differs from Ψ/N, the default (dp_rank -1) is the largest share, and the
// hf framework keeps its own model (no DDP buckets).
TEST(Detailed, DataParallelBucketsAndZero1Shares) {
  const ModelConfig m = resolve_model_config("gpt-nano");
  const Estimate one = estimate_memory(m, cpu_setup(2, 32));
  const int64_t whole_state = one.total(Category::kOptimizerState);
  const int64_t grads = one.total(Category::kGradients);
  auto item = [](const Estimate& e, const std::string& path) -> int64_t {
    for (const auto& i : e.items) {
      if (i.path == path) return i.bytes;
    }
    return -1;
  };
  EXPECT_EQ(item(one, "overhead/ddp_gradient_buckets"), -1);
  for (int64_t N : {2, 3, 8}) {
    SCOPED_TRACE(N);
    TrainingSetup s = cpu_setup(2, 32);
    s.parallel.data_parallel = N;
    const Estimate ddp = estimate_memory(m, s);
    EXPECT_EQ(item(ddp, "overhead/ddp_gradient_buckets"), grads);
    EXPECT_EQ(ddp.total(Category::kOptimizerState), whole_state);
    // Every mark carries the buckets: the phase points move up by exactly their bytes.
    EXPECT_EQ(phase(ddp, "steady", "step_start").allocated_bytes, phase(one, "steady", "step_start").allocated_bytes + grads);

    s.parallel.zero_stage = 1;
    int64_t sum = 0, largest = 0;
    for (int r = 0; r < N; ++r) {
      s.parallel.dp_rank = r;
      const int64_t share = estimate_memory(m, s).total(Category::kOptimizerState);
      EXPECT_GT(share, 0);
      sum += share;
      largest = std::max(largest, share);
    }
    EXPECT_EQ(sum, whole_state);
    s.parallel.dp_rank = -1;
    const Estimate zero1 = estimate_memory(m, s);
    EXPECT_EQ(zero1.total(Category::kOptimizerState), largest);
    EXPECT_NE(largest, (whole_state + N - 1) / N);  // whole tensors, not Ψ/N
    EXPECT_EQ(item(zero1, "overhead/ddp_gradient_buckets"), grads);
  }
  // A rank past the tensors owns nothing; a --dp of 10^9 is the same rule, not 10^9 lists; a rank
  // outside the job is refused.
  TrainingSetup huge = cpu_setup(2, 32);
  huge.parallel.zero_stage = 1;
  huge.parallel.data_parallel = 1'000'000'000;
  EXPECT_GT(estimate_memory(m, huge).total(Category::kOptimizerState), 0);
  huge.parallel.dp_rank = 999'999'999;
  EXPECT_EQ(estimate_memory(m, huge).total(Category::kOptimizerState), 0);
  huge.parallel.dp_rank = 1'000'000'000;
  EXPECT_EQ(field_of([&] { (void)estimate_memory(m, huge); }), "dp_rank");
  TrainingSetup ds = cpu_setup(2, 32);
  ds.parallel.data_parallel = 2;
  ds.framework = Framework::kHf;  // HF Trainer under DDP: the oomkit-trainer buckets are not assumed
  EXPECT_EQ(item(estimate_memory(m, ds), "overhead/ddp_gradient_buckets"), -1);
}

// oomkit's own ZeRO-2 (train --zero 2): no DDP buckets; the optimizer state partitioned as ZeRO-1;
// every gradient exists at the end of backward (the peak), and from the after_backward mark to
// zero_grad a rank keeps the gradients of its own tensors: the ranks' kept gradients sum to the
// one-GPU gradients exactly. DeepSpeed's stage 2 keeps its Ψ/N model.
TEST(Detailed, OomkitZero2KeepsItsShareOfTheGradientsAfterBackward) {
  const ModelConfig m = resolve_model_config("gpt-nano");
  const Estimate one = estimate_memory(m, cpu_setup(2, 32));
  const int64_t grads = one.total(Category::kGradients);
  const int64_t whole_state = one.total(Category::kOptimizerState);
  auto item = [](const Estimate& e, const std::string& path) -> int64_t {
    for (const auto& i : e.items) {
      if (i.path == path) return i.bytes;
    }
    return -1;
  };
  for (int64_t N : {2, 3}) {
    SCOPED_TRACE(N);
    TrainingSetup s = cpu_setup(2, 32);
    s.parallel.data_parallel = N;
    s.parallel.zero_stage = 2;
    int64_t kept_sum = 0, state_sum = 0;
    for (int r = 0; r < N; ++r) {
      s.parallel.dp_rank = r;
      const Estimate e = estimate_memory(m, s);
      EXPECT_EQ(item(e, "overhead/ddp_gradient_buckets"), -1);
      EXPECT_EQ(e.total(Category::kGradients), grads);  // all of them, at the end of backward
      state_sum += e.total(Category::kOptimizerState);
      const PhasePrediction& bwd = phase(e, "steady", "after_backward");
      const PhasePrediction& zero = phase(e, "steady", "after_zero_grad");
      const int64_t kept = bwd.allocated_bytes - zero.allocated_bytes;  // the batch is live at both marks
      EXPECT_GT(kept, 0);
      EXPECT_LT(kept, grads);
      kept_sum += kept;
      EXPECT_GE(bwd.peak_bytes, zero.allocated_bytes + grads);
      EXPECT_EQ(phase(e, "steady", "after_optimizer_step").allocated_bytes - zero.allocated_bytes, kept);
    }
    EXPECT_EQ(kept_sum, grads);
    EXPECT_EQ(state_sum, whole_state);
  }
  TrainingSetup ds = cpu_setup(2, 32);
  ds.precision = Precision::kBf16Mixed;
  ds.parallel.data_parallel = 2;
  ds.parallel.zero_stage = 2;
  const int64_t own_grads = estimate_memory(m, ds).total(Category::kGradients);
  ds.framework = Framework::kDeepSpeed;
  EXPECT_LT(estimate_memory(m, ds).total(Category::kGradients), own_grads);  // sharded during backward too
}
