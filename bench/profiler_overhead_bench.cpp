// The profiler's overhead (issue 4: "marking costs under 1% of step time on gpt-nano").
//
// BM_StepOverhead runs the real trainer step of gpt-nano (B=8, T=128, AdamW, fp32) with the
// profiler on (six marks per step, timeline JSONL + CSV written and flushed, the step record)
// and with the profiler disabled (`--no-profile`), side by side in one process: the two
// variants alternate step by step (ABBA order), so load from other processes and the learning
// rate schedule hit both alike. It reports the median step time of each, their ratio, and the
// profiler's own measured time per step (Profiler::overhead_ns()) as a share of the step.
// BM_Mark and BM_CpuSnapshot measure one mark (snapshot + reset_peak + timeline write) and one
// CPU backend snapshot in isolation.
//
//   build/profiler_overhead_bench                         (about a minute on 2 idle cores)
//   build/profiler_overhead_bench --benchmark_filter=Mark
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include "oomkit/profile/memory_backend.h"
#include "oomkit/profile/profiler.h"
#include "oomkit/train/threads.h"
#include "oomkit/train/trainer.h"

namespace {

using oomkit::Phase;
using oomkit::Profiler;

std::string temp_timeline(const char* name) {
  const auto dir = std::filesystem::temp_directory_path() / "oomkit_profiler_bench";
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n == 0 ? 0.0 : (n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]));
}

void BM_StepOverhead(benchmark::State& state) {
  // Intra-op threads: $OOMKIT_BENCH_THREADS, default 1 (on a shared machine, OpenMP teams
  // waiting for descheduled workers add noise larger than the effect measured here).
  const char* threads_env = std::getenv("OOMKIT_BENCH_THREADS");
  const int threads = oomkit::configure_threads(threads_env != nullptr ? std::atoi(threads_env) : 1);
  auto backend = oomkit::make_cpu_memory_backend();
  oomkit::TrainOptions options;
  options.model = "gpt-nano";
  options.setup.micro_batch_size = 8;
  options.setup.seq_len = 128;
  options.steps = 1000000;  // keeps the lr schedule flat-ish over the measured steps
  options.warmup_steps = 0;
  options.quiet = true;
  oomkit::Trainer trainer(options, backend.get(), nullptr);
  oomkit::TimelineWriter writer(temp_timeline("overhead.jsonl"));
  Profiler on(backend.get(), &writer, /*enabled=*/true);
  Profiler off(backend.get(), nullptr, /*enabled=*/false);

  std::vector<double> on_ms, off_ms;
  int64_t measured_on_ns = 0;
  auto run = [&](bool profiled, bool keep) {
    Profiler& p = profiled ? on : off;
    trainer.set_profiler(&p);
    const int64_t overhead_before = on.overhead_ns();
    const auto t0 = std::chrono::steady_clock::now();
    const oomkit::StepStats stats = trainer.step();  // closes the profiler's step (end_step)
    if (profiled) p.write_step(Profiler::step_record(stats.memory));
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (!keep) return;
    (profiled ? on_ms : off_ms).push_back(ms);
    if (profiled) measured_on_ns += on.overhead_ns() - overhead_before;
  };
  for (int i = 0; i < 2; ++i) {  // warm-up: first-touch allocations, AdamW state, oneDNN caches
    run(true, false);
    run(false, false);
  }
  int64_t pair = 0;
  for (auto _ : state) {
    const bool on_first = pair % 2 == 0;  // ABBA: alternate which variant goes first
    run(on_first, true);
    run(!on_first, true);
    ++pair;
  }
  const double med_on = median(on_ms);
  const double med_off = median(off_ms);
  std::vector<double> pair_ratios;  // each pair's two steps ran back to back: drift cancels
  for (size_t i = 0; i < on_ms.size() && i < off_ms.size(); ++i) pair_ratios.push_back(on_ms[i] / off_ms[i]);
  const double paired = median(pair_ratios);
  double on_total_ms = 0.0;
  for (double ms : on_ms) on_total_ms += ms;
  const double self_share = on_total_ms > 0 ? 1e-6 * static_cast<double>(measured_on_ns) / on_total_ms : 0.0;
  state.counters["profiled_ms"] = med_on;
  state.counters["no_profile_ms"] = med_off;
  state.counters["ratio"] = med_off > 0 ? med_on / med_off : 0.0;
  state.counters["paired_ratio"] = paired;
  state.counters["profiler_share"] = self_share;
  state.counters["profiler_us_per_step"] = 1e-3 * static_cast<double>(measured_on_ns) / static_cast<double>(on_ms.size());
  std::printf(
      "gpt-nano B=8 T=128, %d threads, %zu steps each, interleaved: profiled %.2f ms/step, --no-profile %.2f ms/step (medians), "
      "ratio %.4f (median of per-pair ratios %.4f); profiler's own time %.1f us/step = %.3f%% of the step\n",
      threads, on_ms.size(), med_on, med_off, med_off > 0 ? med_on / med_off : 0.0, paired,
      1e-3 * static_cast<double>(measured_on_ns) / static_cast<double>(on_ms.size()), 100.0 * self_share);
  if (!on.errors().empty()) state.SkipWithError(on.errors().front().c_str());
}
BENCHMARK(BM_StepOverhead)->Iterations(30)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Mark(benchmark::State& state) {
  auto backend = oomkit::make_cpu_memory_backend();
  oomkit::TimelineWriter writer(temp_timeline("marks.jsonl"));
  Profiler profiler(backend.get(), &writer);
  profiler.begin_step(0);
  for (auto _ : state) profiler.mark(Phase::kAfterForward);
  profiler.end_step();
}
BENCHMARK(BM_Mark)->Unit(benchmark::kMicrosecond);

void BM_CpuSnapshot(benchmark::State& state) {
  auto backend = oomkit::make_cpu_memory_backend();
  for (auto _ : state) benchmark::DoNotOptimize(backend->snapshot());
}
BENCHMARK(BM_CpuSnapshot)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
