// Optimizer step time over a GPT-2-shaped parameter list (gpt-micro: L=6, d=384, V=256,
// T=256; about 10.8M parameters), one intra-op thread, gradients fixed. Reports ms per
// step() and the state bytes each optimizer holds afterwards.
//   ./build/optimizers_bench [--benchmark_filter=Lion]
#include <benchmark/benchmark.h>

#include <torch/torch.h>

#include <memory>
#include <tuple>
#include <vector>

#include "oomkit/core/model_config.h"
#include "oomkit/train/optim/optimizers.h"
#include "oomkit/train/threads.h"

namespace {

// Parameter shapes of a GPT-2 model (docs/model-ops.md): wte (V, d), wpe (T, d), per layer
// ln_1 (d)x2, c_attn (3d, d)+(3d), c_proj (d, d)+(d), ln_2 (d)x2, c_fc (4d, d)+(4d),
// mlp.c_proj (d, 4d)+(d); ln_f (d)x2; lm_head tied to wte.
std::vector<torch::Tensor> gpt2_like_params(const oomkit::ModelConfig& c) {
  const int64_t d = c.n_embd, f = c.d_ff;
  std::vector<std::vector<int64_t>> shapes = {{c.vocab_size, d}, {c.n_positions, d}};
  for (int64_t l = 0; l < c.n_layer; ++l) {
    for (const auto& s : std::vector<std::vector<int64_t>>{
             {d}, {d}, {3 * d, d}, {3 * d}, {d, d}, {d}, {d}, {d}, {f, d}, {f}, {d, f}, {d}})
      shapes.push_back(s);
  }
  shapes.push_back({d});
  shapes.push_back({d});
  std::vector<torch::Tensor> params;
  for (const auto& s : shapes) {
    torch::Tensor p = torch::randn(s).mul_(0.02).requires_grad_(true);
    p.mutable_grad() = torch::randn(s).mul_(1e-3);
    params.push_back(p);
  }
  return params;
}

void BM_OptimizerStep(benchmark::State& state, oomkit::OptimizerKind kind, bool libtorch_adamw = false) {
  oomkit::configure_threads(1);
  torch::manual_seed(0);
  oomkit::ModelConfig config;
  config.vocab_size = 256; config.n_positions = 256; config.n_embd = 384; config.n_layer = 6;
  config.n_head = 6; config.n_kv_head = 6; config.d_ff = 4 * 384;
  auto params = gpt2_like_params(config);
  int64_t numel = 0;
  for (const auto& p : params) numel += p.numel();
  std::unique_ptr<torch::optim::Optimizer> opt;
  if (libtorch_adamw) {  // LibTorch's own AdamW, beside oomkit's one-pass FusedAdamW (kAdamW)
    const auto o = oomkit::default_optimizer_options(kind);
    opt = std::make_unique<torch::optim::AdamW>(
        params, torch::optim::AdamWOptions(o.lr)
                    .betas(std::make_tuple(o.beta1, o.beta2))
                    .eps(o.eps)
                    .weight_decay(o.weight_decay));  // LibTorch's default would be 1e-2
  } else {
    opt = oomkit::make_optimizer(kind, params, oomkit::default_optimizer_options(kind));
  }
  opt->step();  // create the state outside the timed loop
  for (auto _ : state) opt->step();
  state.counters["params"] = static_cast<double>(numel);
  state.counters["state_bytes"] = static_cast<double>(oomkit::optimizer_state_bytes(*opt));
  state.counters["state_bytes_per_param"] = static_cast<double>(oomkit::optimizer_state_bytes(*opt)) / numel;
}

BENCHMARK_CAPTURE(BM_OptimizerStep, adamw, oomkit::OptimizerKind::kAdamW)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_OptimizerStep, adamw_libtorch, oomkit::OptimizerKind::kAdamW, true)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_OptimizerStep, sgd_momentum, oomkit::OptimizerKind::kSgdMomentum)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_OptimizerStep, lion, oomkit::OptimizerKind::kLion)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_OptimizerStep, adafactor, oomkit::OptimizerKind::kAdafactor)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_OptimizerStep, adam_8bit, oomkit::OptimizerKind::kAdam8bit)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
