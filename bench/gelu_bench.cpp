// GELU (tanh approximation) forward and backward: LibTorch's at::gelu / at::gelu_backward
// beside oomkit's one-pass gelu_tanh (include/oomkit/train/gelu.h), on one gpt-micro MLP
// activation (B=8, T=256, d_ff=1536: 3.1M elements), float32 and bfloat16, 2 intra-op threads,
// ATen's CPU kernels chosen as oomkit-train chooses them (choose_aten_cpu_capability()).
// Each pair runs side by side in one process; compare the aten_* and oomkit_* rows.
//   ./build/gelu_bench [--benchmark_filter=bf16]
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

#include <torch/torch.h>

#include "oomkit/train/gelu.h"
#include "oomkit/train/threads.h"

namespace {

// GELU_BENCH_SHAPE=nano: gpt-nano's activation (B=16, T=128, d_ff=1024) instead.
const bool kNano = std::getenv("GELU_BENCH_SHAPE") && std::string(std::getenv("GELU_BENCH_SHAPE")) == "nano";
const int64_t kRows = kNano ? 16 * 128 : 8 * 256, kCols = kNano ? 1024 : 1536;

void BM_Gelu(benchmark::State& state, bool oomkit_kernel, torch::ScalarType dtype, bool backward) {
  torch::manual_seed(0);
  const torch::Tensor x = torch::randn({kRows, kCols}).mul_(2).to(dtype);
  const torch::Tensor dy = torch::randn({kRows, kCols}).to(dtype);
  if (!backward) {
    for (auto _ : state) {
      torch::NoGradGuard no_grad;
      benchmark::DoNotOptimize(oomkit_kernel ? oomkit::gelu_tanh(x) : at::gelu(x, "tanh"));
    }
  } else if (oomkit_kernel) {
    torch::Tensor leaf = x.detach().requires_grad_(true);
    torch::Tensor y = oomkit::gelu_tanh(leaf);
    for (auto _ : state) {
      benchmark::DoNotOptimize(torch::autograd::grad({y}, {leaf}, {dy}, /*retain_graph=*/true));
    }
  } else {
    for (auto _ : state) benchmark::DoNotOptimize(at::gelu_backward(dy, x, "tanh"));
  }
  state.SetItemsProcessed(state.iterations() * kRows * kCols);
}

BENCHMARK_CAPTURE(BM_Gelu, aten_fp32_forward, false, torch::kFloat, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Gelu, oomkit_fp32_forward, true, torch::kFloat, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Gelu, aten_fp32_backward, false, torch::kFloat, true)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Gelu, oomkit_fp32_backward, true, torch::kFloat, true)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Gelu, aten_bf16_forward, false, torch::kBFloat16, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Gelu, oomkit_bf16_forward, true, torch::kBFloat16, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Gelu, aten_bf16_backward, false, torch::kBFloat16, true)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Gelu, oomkit_bf16_backward, true, torch::kBFloat16, true)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  oomkit::choose_aten_cpu_capability();
  oomkit::configure_threads(std::getenv("GELU_BENCH_THREADS") ? std::atoi(std::getenv("GELU_BENCH_THREADS")) : 2);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
