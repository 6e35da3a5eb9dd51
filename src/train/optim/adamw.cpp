// AdamW with a one-pass CPU update. See include/oomkit/train/optim/adamw.h.
#include "oomkit/train/optim/adamw.h"

#include <ATen/MemoryOverlap.h>
#include <ATen/Parallel.h>
#include <ATen/record_function.h>

#include <cmath>
#include <memory>
#include <tuple>
#include <utility>
#include <vector>

#include "oomkit/train/optim/optimizers.h"

namespace oomkit {
namespace {

// The intra-op split's grain: a range of up to this many elements (biases, norms) runs on the
// calling thread; a larger one is cut into one piece per thread (at::parallel_for, OpenMP), and
// into fewer pieces when a piece would be smaller than the grain.
constexpr int64_t kGrainElements = 1 << 15;

AdamWStepConstants step_constants(const torch::optim::AdamWOptions& o, int64_t step) {
  const auto [beta1, beta2] = o.betas();
  const double bias_correction1 = 1 - std::pow(beta1, static_cast<double>(step));
  const double bias_correction2 = 1 - std::pow(beta2, static_cast<double>(step));
  return {static_cast<float>(1 - o.lr() * o.weight_decay()),
          static_cast<float>(beta1),
          static_cast<float>(1 - beta1),
          static_cast<float>(beta2),
          static_cast<float>(1 - beta2),
          static_cast<float>(std::sqrt(bias_correction2)),
          static_cast<float>(o.eps()),
          static_cast<float>(-(o.lr() / bias_correction1))};
}

}  // namespace

bool adamw_one_pass(const torch::Tensor& p, const torch::Tensor& grad, bool amsgrad) {
  return !amsgrad && p.device().is_cpu() && grad.device().is_cpu() && p.scalar_type() == torch::kFloat &&
         grad.scalar_type() == torch::kFloat && p.layout() == torch::kStrided && grad.layout() == torch::kStrided &&
         p.is_contiguous() && grad.is_contiguous() && p.sizes() == grad.sizes() &&
         at::get_overlap_status(p, grad) == at::MemOverlapStatus::No;
}

namespace {

// A moment tensor the one pass may write: CPU float, contiguous, p's shape, apart from p and g
// (a loaded checkpoint's state is checked here, not trusted).
bool one_pass_state(const torch::Tensor& s, const torch::Tensor& p, const torch::Tensor& grad) {
  return s.defined() && s.device().is_cpu() && s.scalar_type() == torch::kFloat && s.layout() == torch::kStrided &&
         s.is_contiguous() && s.sizes() == p.sizes() && at::get_overlap_status(s, p) == at::MemOverlapStatus::No &&
         at::get_overlap_status(s, grad) == at::MemOverlapStatus::No;
}

}  // namespace

FusedAdamW::FusedAdamW(std::vector<torch::optim::OptimizerParamGroup> param_groups,
                       torch::optim::AdamWOptions defaults)
    : torch::optim::AdamW(std::move(param_groups), std::move(defaults)) {}

FusedAdamW::FusedAdamW(std::vector<torch::Tensor> params, torch::optim::AdamWOptions defaults)
    : torch::optim::AdamW(std::move(params), std::move(defaults)) {}

torch::Tensor FusedAdamW::step(LossClosure closure) {
  torch::NoGradGuard no_grad;
  torch::Tensor loss;
  if (closure) {
    torch::AutoGradMode enable_grad(true);
    loss = closure();
  }
  for (auto& group : param_groups_) {
    const auto& options = static_cast<const torch::optim::AdamWOptions&>(group.options());
    for (auto& p : group.params()) {
      if (!p.grad().defined()) continue;
      const torch::Tensor& grad = p.grad();
      TORCH_CHECK(!grad.is_sparse(), "AdamW does not support sparse gradients");
      const OptimizerStateKey key = optimizer_state_key(p);
      auto it = state_.find(key);
      if (it == state_.end()) {
        auto fresh = std::make_unique<torch::optim::AdamWParamState>();
        fresh->step(0);
        fresh->exp_avg(torch::zeros_like(p, torch::MemoryFormat::Preserve));
        fresh->exp_avg_sq(torch::zeros_like(p, torch::MemoryFormat::Preserve));
        if (options.amsgrad()) fresh->max_exp_avg_sq(torch::zeros_like(p, torch::MemoryFormat::Preserve));
        it = state_.emplace(key, std::move(fresh)).first;
      }
      auto& state = static_cast<torch::optim::AdamWParamState&>(*it->second);
      torch::Tensor& exp_avg = state.exp_avg();
      torch::Tensor& exp_avg_sq = state.exp_avg_sq();
      state.step(state.step() + 1);
      if (adamw_one_pass(p, grad, options.amsgrad()) && one_pass_state(exp_avg, p, grad) &&
          one_pass_state(exp_avg_sq, p, grad) &&
          at::get_overlap_status(exp_avg, exp_avg_sq) == at::MemOverlapStatus::No) {
        RECORD_FUNCTION("oomkit::adamw_update", std::vector<c10::IValue>({p}));  // an op in LibTorch's profiler
        const AdamWStepConstants k = step_constants(options, state.step());
        float* pp = p.data_ptr<float>();
        const float* gp = grad.data_ptr<float>();
        float* mp = exp_avg.data_ptr<float>();
        float* vp = exp_avg_sq.data_ptr<float>();
        at::parallel_for(0, p.numel(), kGrainElements, [&](int64_t begin, int64_t end) {
          adamw_update_float(pp + begin, gp + begin, mp + begin, vp + begin, end - begin, k);
        });
        // Written through data_ptr: bump the version counters as LibTorch's in-place ops do, so a
        // graph that saved p (or a moment) before this step refuses to use it in backward.
        torch::autograd::impl::bump_version(p);
        torch::autograd::impl::bump_version(exp_avg);
        torch::autograd::impl::bump_version(exp_avg_sq);
        continue;
      }
      // LibTorch 1.13's AdamW::step for one parameter (torch/csrc/api/src/optim/adamw.cpp).
      if (options.weight_decay() != 0) p.mul_(1 - options.lr() * options.weight_decay());
      const auto [beta1, beta2] = options.betas();
      const double bias_correction1 = 1 - std::pow(beta1, static_cast<double>(state.step()));
      const double bias_correction2 = 1 - std::pow(beta2, static_cast<double>(state.step()));
      exp_avg.mul_(beta1).add_(grad, 1 - beta1);
      exp_avg_sq.mul_(beta2).addcmul_(grad, grad, 1 - beta2);
      torch::Tensor denom;
      if (options.amsgrad()) {
        torch::Tensor& max_exp_avg_sq = state.max_exp_avg_sq();
        torch::max_out(max_exp_avg_sq, exp_avg_sq, max_exp_avg_sq);
        denom = (max_exp_avg_sq.sqrt() / std::sqrt(bias_correction2)).add_(options.eps());
      } else {
        denom = (exp_avg_sq.sqrt() / std::sqrt(bias_correction2)).add_(options.eps());
      }
      p.addcdiv_(exp_avg, denom, -(options.lr() / bias_correction1));
    }
  }
  return loss;
}

}  // namespace oomkit
