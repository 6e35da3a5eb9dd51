#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "oomkit/core/error.h"
#include "oomkit/core/model_config.h"
#include "oomkit/core/units.h"
#include "oomkit/estimate/estimate.h"
#include "oomkit/estimate/format.h"
#include "oomkit/estimate/gpus.h"
#include "oomkit/estimate/remedies.h"
#include "oomkit/estimate/verdict.h"

using namespace oomkit;

// usable = capacity · (1 - margin); fits iff peak <= usable; headroom = usable - peak.
TEST(Verdict, FitsAtTheMargin) {
  const ModelConfig m = resolve_model_config("gpt2");
  TrainingSetup s;
  s.seq_len = 512;
  const Estimate e = estimate_memory(m, s);
  EXPECT_EQ(usable_bytes(100 * kGB, 0.15), 85 * kGB);
  const int64_t exact = e.peak_bytes;  // a capacity whose usable part is exactly the peak fits
  const Verdict at = judge(m, e, static_cast<int64_t>(static_cast<long double>(exact) / 0.85L) + 2);
  EXPECT_TRUE(at.fits);
  EXPECT_GE(at.headroom_bytes, 0);
  const Verdict under = judge(m, e, exact);  // the margin makes the peak itself too much
  EXPECT_FALSE(under.fits);
  EXPECT_EQ(under.headroom_bytes, under.usable_bytes - e.peak_bytes);
  EXPECT_LT(under.headroom_bytes, 0);
}

// LLaMA-2-7B full fine-tuning in fp32 AdamW does not fit an 80 GB A100; the fixes come in the
// remedies catalogue's cost order (replaces "in the chapter's order": estimate, diagnose and
// recover now rank with one cost model, remedies.h), each lowers the peak, and its saving is
// the difference of the two peaks.
TEST(Verdict, FixesInCatalogueCostOrder) {
  const ModelConfig m = resolve_model_config("llama-2-7b");
  TrainingSetup s;
  s.micro_batch_size = 4;
  s.seq_len = 2048;
  const Estimate e = estimate_memory(m, s);
  RemedyResources one_gpu;
  one_gpu.host_memory_bytes = 256 * kGiB;
  const Verdict v = judge(m, e, find_gpu("a100-80gb").capacity_bytes, one_gpu);
  EXPECT_FALSE(v.fits);
  ASSERT_EQ(v.fixes.size(), v.remedies.single.size());
  for (size_t i = 0; i < v.fixes.size(); ++i) {
    const Fix& f = v.fixes[i];
    EXPECT_EQ(f.name, remedy_name(v.remedies.single[i].remedies.front())) << f.name;
    if (i > 0) {
      EXPECT_FALSE(cheaper(v.remedies.single[i].cost, v.remedies.single[i - 1].cost)) << f.name;
    }
    EXPECT_GT(f.saving_bytes, 0);
    EXPECT_EQ(f.saving_bytes, e.peak_bytes - f.peak_bytes_after);
  }
  EXPECT_GE(v.fixes.size(), 4u);
  EXPECT_EQ(v.bottleneck, "activations");
}

// The largest micro-batch fits and one more does not; the batch curve doubles from 1 to the
// first batch over the limit.
TEST(Verdict, MaxBatchAndCurve) {
  const ModelConfig m = resolve_model_config("gpt2");
  TrainingSetup s;
  s.seq_len = 1024;
  s.precision = Precision::kBf16Mixed;
  const int64_t cap = 24 * kGiB;
  const int64_t b = max_micro_batch(m, s, cap);
  ASSERT_GT(b, 0);
  const int64_t usable = usable_bytes(cap, s.safety_margin);
  s.micro_batch_size = b;
  EXPECT_LE(estimate_memory(m, s).peak_bytes, usable);
  s.micro_batch_size = b + 1;
  EXPECT_GT(estimate_memory(m, s).peak_bytes, usable);
  const auto curve = batch_curve(m, s, cap);
  ASSERT_GE(curve.size(), 2u);
  EXPECT_EQ(curve.front().micro_batch_size, 1);
  EXPECT_GT(curve.back().peak_bytes, usable);
  for (size_t i = 1; i < curve.size(); ++i) {
    EXPECT_EQ(curve[i].micro_batch_size, 2 * curve[i - 1].micro_batch_size);
    EXPECT_GT(curve[i].peak_bytes, curve[i - 1].peak_bytes);
    EXPECT_LE(curve[i - 1].peak_bytes, usable);
  }
  // A model that cannot fit at all: max batch 0.
  EXPECT_EQ(max_micro_batch(resolve_model_config("llama-2-70b"), TrainingSetup{}, 16 * kGB), 0);
}

// The sweep runs 125M to 70B in order of size, clamps T to each model's context, and its
// JSON has one row per model with the chart fields.
TEST(Verdict, SweepTable) {
  TrainingSetup s;
  s.seq_len = 2048;
  s.precision = Precision::kChapter;
  const auto rows = sweep(sweep_models(), s);
  ASSERT_EQ(rows.size(), 9u);
  EXPECT_EQ(rows.front().model, "gpt2");
  EXPECT_EQ(rows.front().seq_len, 1024);
  EXPECT_EQ(rows.back().model, "llama-2-70b");
  // The chapter's 14P, plus the RoPE inv_freq buffer the LLaMA module registers (d_h/2 = 64 fp32).
  EXPECT_EQ(rows.back().static_bytes, 14 * 68'976'648'192LL + 64 * 4);
  for (size_t i = 1; i < rows.size(); ++i) EXPECT_GT(rows[i].parameters, rows[i - 1].parameters);
  const auto j = nlohmann::json::parse(sweep_to_json(rows));
  ASSERT_EQ(j["sweep"].size(), rows.size());
  EXPECT_EQ(j["sweep"][4]["model"], "llama-2-7b");
  EXPECT_EQ(j["sweep"][4]["activation_bytes"].get<int64_t>(), rows[4].activation_bytes);
}

// The sweep's columns are consistent: "static" (what the optimizer step holds at once) never
// exceeds "peak", whatever the precision (bf16-mixed's autocast weight copies are released by
// backward, so they are not static), optimizer or checkpointing, on every shipped model.
TEST(Verdict, SweepStaticNeverExceedsPeak) {
  for (Precision p : {Precision::kFp32, Precision::kBf16Mixed, Precision::kFp16Mixed, Precision::kBf16, Precision::kChapter}) {
    for (OptimizerKind o : {OptimizerKind::kAdamW, OptimizerKind::kSgd, OptimizerKind::kAdafactor}) {
      for (Checkpointing c : {Checkpointing::kNone, Checkpointing::kFull}) {
        for (int64_t T : {16, 2048}) {
          TrainingSetup s;
          s.seq_len = T;
          s.precision = p;
          s.optimizer = o;
          s.checkpointing = c;
          for (const auto& r : sweep(sweep_models(), s)) {
            EXPECT_LE(r.static_bytes, r.peak_bytes) << r.model << " " << to_string(p) << " " << to_string(o) << " T=" << T;
          }
        }
      }
    }
  }
}

// The verdict JSON adds the verdict fields, max_batch and the batch curve to the estimate's.
TEST(Verdict, JsonFields) {
  const ModelConfig m = resolve_model_config("gpt2");
  TrainingSetup s;
  s.seq_len = 512;
  const Estimate e = estimate_memory(m, s);
  const Verdict v = judge(m, e, 16 * kGB);
  const auto curve = batch_curve(m, s, 16 * kGB);
  const auto j = nlohmann::json::parse(verdict_to_json(e, v, 3, curve));
  EXPECT_EQ(j["capacity_bytes"].get<int64_t>(), 16 * kGB);
  EXPECT_EQ(j["usable_bytes"].get<int64_t>(), v.usable_bytes);
  EXPECT_EQ(j["fits"].get<bool>(), v.fits);
  EXPECT_EQ(j["headroom_bytes"].get<int64_t>(), v.headroom_bytes);
  EXPECT_EQ(j["bottleneck"], v.bottleneck);
  EXPECT_EQ(j["fixes"].size(), v.fixes.size());
  EXPECT_EQ(j["max_batch"].get<int64_t>(), 3);
  EXPECT_EQ(j["batch_curve"].size(), curve.size());
  EXPECT_EQ(j["items"].size(), e.items.size());
}

// The readable table uses binary units with two decimals and never labels them "GB".
TEST(Verdict, TableUsesBinaryUnits) {
  const ModelConfig m = resolve_model_config("llama-2-7b");
  TrainingSetup s;
  s.seq_len = 4096;
  const Estimate e = estimate_memory(m, s);
  const std::string text = format_estimate(e) + format_verdict(judge(m, e, 80 * kGB), "a100-80gb", 0.15);
  EXPECT_NE(text.find(" GiB"), std::string::npos);
  EXPECT_EQ(text.find(" GB "), std::string::npos);
  EXPECT_NE(text.find("activations/block/attn_probs"), std::string::npos);
  EXPECT_NE(text.find("DOES NOT FIT"), std::string::npos);
}
