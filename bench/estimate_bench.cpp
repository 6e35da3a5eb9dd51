// Full estimates per second (issue 2: at least 100,000/s so sweeps and searches are instant).
// Run: build/estimate_bench --benchmark_min_time=0.5
#include <benchmark/benchmark.h>

#include "oomkit/core/model_config.h"
#include "oomkit/estimate/estimate.h"
#include "oomkit/estimate/verdict.h"

namespace {

using namespace oomkit;

void BM_EstimateGpt2(benchmark::State& state) {
  const ModelConfig m = resolve_model_config("gpt2");
  TrainingSetup s;
  s.micro_batch_size = 8;
  s.seq_len = 1024;
  s.precision = Precision::kBf16Mixed;
  for (auto _ : state) {
    Estimate e = estimate_memory(m, s);
    benchmark::DoNotOptimize(e.peak_bytes);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_EstimateGpt2);

void BM_EstimateLlama70bZero3Lora(benchmark::State& state) {
  const ModelConfig m = resolve_model_config("llama-2-70b");
  TrainingSetup s;
  s.seq_len = 4096;
  s.precision = Precision::kBf16Mixed;
  s.checkpointing = Checkpointing::kFull;
  s.parallel.data_parallel = 8;
  s.parallel.zero_stage = 3;
  s.lora.rank = 16;
  for (auto _ : state) {
    Estimate e = estimate_memory(m, s);
    benchmark::DoNotOptimize(e.peak_bytes);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_EstimateLlama70bZero3Lora);

// A max-batch search: about 20 estimates.
void BM_MaxBatchSearch(benchmark::State& state) {
  const ModelConfig m = resolve_model_config("llama-2-7b");
  TrainingSetup s;
  s.seq_len = 2048;
  s.precision = Precision::kBf16Mixed;
  s.checkpointing = Checkpointing::kFull;
  for (auto _ : state) benchmark::DoNotOptimize(max_micro_batch(m, s, int64_t{80} * 1000 * 1000 * 1000));
}
BENCHMARK(BM_MaxBatchSearch);

}  // namespace

BENCHMARK_MAIN();
