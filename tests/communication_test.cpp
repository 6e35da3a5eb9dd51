// The data-parallel traffic model and the ZeRO trade-off table (communication.h, issue 14 item 6):
// bytes per collective from the parameter count and the element sizes per framework, when each
// collective runs, the stages a framework runs, and each stage's peak from the estimator itself.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "oomkit/core/error.h"
#include "oomkit/core/model_config.h"
#include "oomkit/estimate/communication.h"
#include "oomkit/estimate/estimate.h"

namespace oomkit {
namespace {

TrainingSetup dp_setup(int64_t n, int zero, Precision p = Precision::kFp32) {
  TrainingSetup s;
  s.seq_len = 128;
  s.micro_batch_size = 2;
  s.precision = p;
  s.parallel.data_parallel = n;
  s.parallel.zero_stage = zero;
  return s;
}

int64_t ring_bytes(double payload, double factor) { return static_cast<int64_t>(std::llround(payload * factor)); }

TEST(Communication, DataParallelAllReducesTheGradientsOnce) {
  const ModelConfig m = resolve_model_config("gpt2");
  const ParameterCount c = count_parameters(m);
  const auto cs = data_parallel_collectives(c, c, dp_setup(4, 0));
  ASSERT_EQ(cs.size(), 1u);
  EXPECT_EQ(cs[0].op, "all_reduce");
  EXPECT_EQ(cs[0].calls_per_step, 1);
  EXPECT_EQ(cs[0].payload_bytes, c.total() * 4);
  EXPECT_EQ(cs[0].bytes_per_gpu, ring_bytes(static_cast<double>(c.total()) * 4.0, 2.0 * 3.0 / 4.0));
  EXPECT_TRUE(data_parallel_collectives(c, c, dp_setup(1, 0)).empty());
}

TEST(Communication, PaperStagesMoveTwoPsiZeroThreeThreePsiAndOomkitsZeroOneThreePsi) {
  // Rajbhandari et al. 2020, section 7: 2Ψ for DP and ZeRO-1/2, 3Ψ for ZeRO-3 (one micro-batch),
  // as DeepSpeed runs them (fp32: every element 4 B).
  const ModelConfig m = resolve_model_config("gpt2");
  const ParameterCount c = count_parameters(m);
  auto total = [&](int zero, Framework framework) {
    TrainingSetup s = dp_setup(8, zero);
    s.framework = framework;
    int64_t b = 0;
    for (const auto& t : data_parallel_collectives(c, c, s)) b += t.bytes_per_gpu;
    return static_cast<double>(b);
  };
  EXPECT_NEAR(total(1, Framework::kDeepSpeed), total(0, Framework::kDeepSpeed), 2.0);
  EXPECT_NEAR(total(2, Framework::kDeepSpeed), total(0, Framework::kDeepSpeed), 2.0);
  EXPECT_NEAR(total(3, Framework::kDeepSpeed), 1.5 * total(0, Framework::kDeepSpeed), 3.0);
  // oomkit's own ZeRO-1 (train --zero 1, ZeroRedundancyOptimizer under DDP): DDP's all-reduce,
  // then every owner broadcasts its updated parameters: 3Ψ.
  EXPECT_NEAR(total(1, Framework::kOomkit), 1.5 * total(0, Framework::kOomkit), 3.0);
  const auto own = data_parallel_collectives(c, c, dp_setup(8, 1));
  ASSERT_EQ(own.size(), 2u);
  EXPECT_EQ(own[0].op, "all_reduce");
  EXPECT_EQ(own[1].op, "broadcast");
  // oomkit's own ZeRO-2 (train --zero 2): the gradients accumulate whole and are reduced to their
  // owners once per step, however many micro-batches (one reduce-scatter's volume), then the
  // owners broadcast as ZeRO-1: 2Ψ. DeepSpeed's stage 2 reduce-scatters every micro-batch.
  TrainingSetup z2 = dp_setup(8, 2);
  z2.gradient_accumulation_steps = 4;
  const auto own2 = data_parallel_collectives(c, c, z2);
  ASSERT_EQ(own2.size(), 2u);
  EXPECT_EQ(own2[0].op, "reduce");
  EXPECT_EQ(own2[0].calls_per_step, 1);
  EXPECT_EQ(own2[1].op, "broadcast");
  EXPECT_NEAR(total(2, Framework::kOomkit), total(0, Framework::kOomkit), 2.0);
  z2.framework = Framework::kDeepSpeed;
  z2.precision = Precision::kBf16Mixed;
  EXPECT_EQ(data_parallel_collectives(c, c, z2)[0].calls_per_step, 4);
}

TEST(Communication, MixedPrecisionGathersTwoByteParametersAndZeroThreeGathersPerMicroBatch) {
  const ModelConfig m = resolve_model_config("gpt2");
  const ParameterCount c = count_parameters(m);
  TrainingSetup s = dp_setup(2, 3, Precision::kBf16Mixed);
  s.gradient_accumulation_steps = 4;
  const auto cs = data_parallel_collectives(c, c, s);
  ASSERT_EQ(cs.size(), 3u);
  EXPECT_EQ(cs[0].op, "all_gather");
  EXPECT_EQ(cs[0].calls_per_step, 4);
  EXPECT_EQ(cs[0].payload_bytes, c.total() * 2);
  EXPECT_EQ(cs[0].bytes_per_gpu, ring_bytes(4.0 * static_cast<double>(c.total()) * 2.0, 0.5));
  EXPECT_EQ(cs[1].op, "all_gather");
  EXPECT_EQ(cs[1].calls_per_step, 4);
  EXPECT_EQ(cs[2].op, "reduce_scatter");
  EXPECT_EQ(cs[2].calls_per_step, 4);             // sharded gradients: after every micro-batch
  EXPECT_EQ(cs[2].payload_bytes, c.total() * 4);  // fp32 gradients under AMP
}

TEST(Communication, AccumulationReducesOncePerStepOnlyWhileGradientsStayWhole) {
  const ModelConfig m = resolve_model_config("gpt2");
  const ParameterCount c = count_parameters(m);
  // oomkit's own stages 0-2 accumulate whole gradients and reduce them once per step; DeepSpeed's
  // stage 2 shards them, so it reduce-scatters after every micro-batch.
  for (int zero : {0, 1, 2}) {
    for (Framework fw : {Framework::kOomkit, Framework::kDeepSpeed}) {
      TrainingSetup s = dp_setup(4, zero, Precision::kBf16Mixed);
      s.framework = fw;
      s.gradient_accumulation_steps = 4;
      const auto cs = data_parallel_collectives(c, c, s);
      ASSERT_FALSE(cs.empty());
      EXPECT_EQ(cs[0].calls_per_step, zero == 2 && fw == Framework::kDeepSpeed ? 4 : 1) << zero;
    }
  }
}

TEST(Communication, ElementSizesFollowTheFramework) {
  const ModelConfig m = resolve_model_config("gpt2");
  const ParameterCount c = count_parameters(m);
  // AMP (oomkit): fp32 gradients reduced, the fp32 master parameters gathered.
  const auto amp = data_parallel_collectives(c, c, dp_setup(2, 1, Precision::kBf16Mixed));
  ASSERT_EQ(amp.size(), 2u);
  EXPECT_EQ(amp[0].payload_bytes, c.total() * 4);
  EXPECT_EQ(amp[1].payload_bytes, c.total() * 4);
  // DeepSpeed: the model's dtype on the wire, the bf16 working copy gathered.
  TrainingSetup ds = dp_setup(2, 1, Precision::kBf16Mixed);
  ds.framework = Framework::kDeepSpeed;
  const auto dsc = data_parallel_collectives(c, c, ds);
  ASSERT_EQ(dsc.size(), 2u);
  EXPECT_EQ(dsc[0].payload_bytes, c.total() * 2);
  EXPECT_EQ(dsc[1].payload_bytes, c.total() * 2);
  EXPECT_DOUBLE_EQ(gradient_reduce_bytes_per_element(ds), 2.0);
  EXPECT_DOUBLE_EQ(updated_parameter_bytes_per_element(dp_setup(2, 1, Precision::kBf16Mixed)), 4.0);
}

TEST(Communication, TrafficBeyondInt64IsRefusedNotWrapped) {
  const ModelConfig m = resolve_model_config("llama-2-7b");
  const ParameterCount c = count_parameters(m);
  TrainingSetup s = dp_setup(8, 3, Precision::kBf16Mixed);
  s.gradient_accumulation_steps = 1000000000;
  EXPECT_THROW(data_parallel_collectives(c, c, s), InputError);
}

TEST(Communication, AStageTheFrameworkRefusesIsLeftOutAndTheFirstRowIsTheBaseline) {
  // DeepSpeed offloads the optimizer only from ZeRO-1 on: no DP row, ZeRO-1 is the baseline.
  const ModelConfig m = resolve_model_config("gpt2");
  TrainingSetup s = dp_setup(4, 2, Precision::kBf16Mixed);
  s.framework = Framework::kDeepSpeed;
  s.parallel.offload_optimizer = true;
  const CommunicationTable t = communication_table(m, s, 12.5e9);
  ASSERT_FALSE(t.stages.empty());
  EXPECT_EQ(t.stages.front().zero_stage, 1);
  EXPECT_EQ(t.stages.front().saved_bytes, 0);
  EXPECT_NE(format_communication(t).find("saves vs ZeRO-1"), std::string::npos);
  EXPECT_EQ(communication_to_json(t)["baseline_zero_stage"], 1);
}

TEST(Communication, LoraReducesItsAdaptersButZeroThreeStillGathersTheBase) {
  const ModelConfig m = resolve_model_config("gpt2");
  TrainingSetup s = dp_setup(2, 3);
  s.lora.rank = 8;
  const ParameterCount base = count_parameters(m);
  const ParameterCount lora = count_parameters(m, s.lora);
  ASSERT_GT(lora.lora, 0);
  const auto cs = data_parallel_collectives(base, lora, s);
  ASSERT_EQ(cs.size(), 3u);
  EXPECT_EQ(cs[0].payload_bytes, lora.total() * 4);
  EXPECT_EQ(cs[2].payload_bytes, lora.lora * 4);
}

TEST(Communication, TableHoldsEveryStageWithTheEstimatorsOwnPeak) {
  const ModelConfig m = resolve_model_config("gpt2");
  const TrainingSetup s = dp_setup(4, 2);
  const CommunicationTable t = communication_table(m, s, 12.5e9);
  ASSERT_EQ(t.stages.size(), 4u);
  EXPECT_EQ(t.chosen_stage, 2);
  EXPECT_EQ(t.gpus, 4);
  for (const auto& row : t.stages) {
    TrainingSetup at = s;
    at.parallel.zero_stage = row.zero_stage;
    EXPECT_EQ(row.peak_bytes, estimate_memory(m, at).peak_bytes) << row.zero_stage;
    EXPECT_EQ(row.saved_bytes, t.stages[0].peak_bytes - row.peak_bytes);
    int64_t sum = 0;
    for (const auto& c : row.collectives) sum += c.bytes_per_gpu;
    EXPECT_EQ(row.bytes_per_gpu, sum);
    EXPECT_DOUBLE_EQ(row.seconds, static_cast<double>(sum) / 12.5e9);
  }
  // Each stage shards more: the peak never grows from one stage to the next.
  for (size_t i = 1; i < t.stages.size(); ++i) EXPECT_LE(t.stages[i].peak_bytes, t.stages[i - 1].peak_bytes);
  EXPECT_LT(t.stages[3].peak_bytes, t.stages[0].peak_bytes);
  const nlohmann::json j = communication_to_json(t);
  EXPECT_EQ(j["stages"].size(), 4u);
  EXPECT_EQ(j["stages"][2]["collectives"][0]["op"], "reduce");  // oomkit's ZeRO-2: to each gradient's owner
  const std::string text = format_communication(t);
  EXPECT_NE(text.find("* ZeRO-2"), std::string::npos) << text;
  EXPECT_NE(text.find("100 Gb/s"), std::string::npos) << text;
}

TEST(Communication, MegatronRunsOnlyTheDistributedOptimizer) {
  const ModelConfig m = resolve_model_config("llama-2-7b");
  TrainingSetup s = dp_setup(8, 1, Precision::kBf16Mixed);
  s.framework = Framework::kMegatron;
  s.seq_len = 1024;
  s.micro_batch_size = 1;
  const CommunicationTable t = communication_table(m, s, 31.5e9);
  ASSERT_EQ(t.stages.size(), 2u);
  EXPECT_GT(t.stages[1].saved_bytes, 0);
}

TEST(Communication, RefusesWhatItDoesNotModel) {
  const ModelConfig m = resolve_model_config("gpt2");
  EXPECT_THROW(communication_table(m, dp_setup(1, 0), 1e9), std::invalid_argument);
  EXPECT_THROW(communication_table(m, dp_setup(2, 0), 0.0), std::invalid_argument);
  TrainingSetup tp = dp_setup(2, 0);
  tp.parallel.tensor_parallel = 2;
  EXPECT_THROW(communication_table(m, tp, 1e9), InputError);
}

}  // namespace
}  // namespace oomkit
