// Tests for FusedAdamW (include/oomkit/train/optim/adamw.h): the one-pass CPU update against
// LibTorch's own torch::optim::AdamW on the same parameters and gradients, its fallback paths
// (which must be LibTorch's to the bit), its independence from how the range is split, and its
// checkpoints (LibTorch's layout, loadable both ways). The double-precision reference from the
// paper is Optimizers.AdamWMatchesDoubleReference (optimizers_test.cpp), through the factory.
#include <gtest/gtest.h>

#include <torch/torch.h>

#include <cmath>
#include <functional>
#include <memory>
#include <sstream>
#include <tuple>
#include <utility>
#include <vector>

#include "oomkit/train/optim/adamw.h"
#include "oomkit/train/optim/optimizers.h"

namespace oomkit {
namespace {

torch::optim::AdamWOptions options(bool amsgrad = false) {
  return torch::optim::AdamWOptions(3e-3).betas(std::make_tuple(0.9, 0.95)).eps(1e-8).weight_decay(0.1).amsgrad(
      amsgrad);
}

// Leaf parameters made by `make` (same seed, so both optimizers start from equal tensors).
std::vector<torch::Tensor> params_from(const std::function<torch::Tensor()>& make) {
  torch::manual_seed(7);
  return {make(), make()};
}

// Runs `steps` steps of `opt` over `params` with gradients drawn from seed 11 + step.
void run_steps(torch::optim::Optimizer& opt, std::vector<torch::Tensor>& params, int steps) {
  for (int s = 0; s < steps; ++s) {
    torch::manual_seed(11 + s);
    for (auto& p : params) p.mutable_grad() = torch::randn(p.sizes()).mul_(1e-2).to(p.scalar_type()).contiguous();
    if (!params[0].is_contiguous()) params[0].mutable_grad() = params[0].grad().t().contiguous().t();
    opt.step();
  }
}

bool bitwise_equal(const torch::Tensor& a, const torch::Tensor& b) {
  return a.sizes() == b.sizes() && a.scalar_type() == b.scalar_type() && a.equal(b);
}

// |a - b| <= `ulps` ulps of the largest |b| (2^-23·max|b| each) everywhere: rounding differences of
// a few operations (measured: at most 2 after 6 steps), with the largest difference printed.
::testing::AssertionResult within_ulps(const torch::Tensor& a, const torch::Tensor& b, double ulps = 4) {
  const double scale = b.abs().max().item<double>();
  const double largest = (a - b).abs().max().item<double>();
  const double bound = ulps * std::ldexp(scale, -23);
  if (largest <= bound) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "largest difference " << largest << " > " << bound << " (" << ulps
                                       << " ulps of " << scale << ")";
}

const torch::optim::AdamWParamState& adamw_state(const torch::optim::Optimizer& opt, const torch::Tensor& p) {
  return static_cast<const torch::optim::AdamWParamState&>(*opt.state().at(optimizer_state_key(p)));
}

// Invariant: on CPU float parameters large enough to be split between threads, the one pass
// computes LibTorch's expressions: parameters and both moments agree with torch::optim::AdamW to
// float rounding (LibTorch's vectorised add_ may fuse a multiply-add; the one pass never does).
TEST(FusedAdamW, MatchesLibTorchAdamWToFloatRounding) {
  const auto make = [] { return torch::randn({300, 257}).mul_(0.02).requires_grad_(true); };
  auto fused_params = params_from(make), libtorch_params = params_from(make);
  FusedAdamW fused(fused_params, options());
  torch::optim::AdamW libtorch(libtorch_params, options());
  run_steps(fused, fused_params, 6);
  run_steps(libtorch, libtorch_params, 6);
  for (const auto& p : fused_params) ASSERT_TRUE(adamw_one_pass(p, p.grad(), false));  // the one pass ran
  for (size_t i = 0; i < fused_params.size(); ++i) {
    EXPECT_TRUE(within_ulps(fused_params[i], libtorch_params[i])) << "parameter " << i;
    EXPECT_FALSE(fused_params[i].equal(params_from(make)[i])) << "parameter " << i << " did not move";
    const auto& fs = adamw_state(fused, fused_params[i]);
    const auto& ls = adamw_state(libtorch, libtorch_params[i]);
    EXPECT_EQ(fs.step(), 6);
    EXPECT_TRUE(within_ulps(fs.exp_avg(), ls.exp_avg())) << "exp_avg " << i;
    EXPECT_TRUE(within_ulps(fs.exp_avg_sq(), ls.exp_avg_sq())) << "exp_avg_sq " << i;
  }
  EXPECT_EQ(optimizer_state_bytes(fused), optimizer_state_bytes(libtorch));
}

// Invariant: what the one pass does not take (amsgrad, a non-contiguous parameter, bf16
// parameters) runs LibTorch's tensor ops, bit for bit.
TEST(FusedAdamW, OtherParametersTakeLibTorchsPathBitForBit) {
  struct Case {
    const char* name;
    std::function<torch::Tensor()> make;
    bool amsgrad;
  };
  const std::vector<Case> cases = {
      {"amsgrad", [] { return torch::randn({40, 33}).requires_grad_(true); }, true},
      {"non-contiguous", [] { return torch::randn({33, 40}).t().detach().requires_grad_(true); }, false},
      {"bf16", [] { return torch::randn({40, 33}).to(torch::kBFloat16).requires_grad_(true); }, false},
  };
  for (const auto& c : cases) {
    auto fused_params = params_from(c.make), libtorch_params = params_from(c.make);
    EXPECT_FALSE(adamw_one_pass(fused_params[0], fused_params[0], c.amsgrad)) << c.name;
    FusedAdamW fused(fused_params, options(c.amsgrad));
    torch::optim::AdamW libtorch(libtorch_params, options(c.amsgrad));
    run_steps(fused, fused_params, 4);
    run_steps(libtorch, libtorch_params, 4);
    for (size_t i = 0; i < fused_params.size(); ++i) {
      EXPECT_TRUE(bitwise_equal(fused_params[i], libtorch_params[i])) << c.name << " parameter " << i;
      EXPECT_TRUE(bitwise_equal(adamw_state(fused, fused_params[i]).exp_avg_sq(),
                                adamw_state(libtorch, libtorch_params[i]).exp_avg_sq()))
          << c.name;
    }
  }
}

// Invariant: adamw_update_float computes, per element, LibTorch 1.13's AdamW expressions in its
// order (p·decay; m·b1 + c1·g; v·b2 + c2·g·g; p + (nss·m) / (sqrt(v)/sbc2 + eps)), each a float
// operation: equal to the same expressions evaluated here one float operation at a time, bit for
// bit, and within float rounding of the double-precision update. Cases where eps dominates the
// denominator (gradients ~1e-10) and where there is no weight decay are included: eps placed
// inside the square root, or decay applied after the update, would fail the double comparison.
TEST(FusedAdamW, UpdateIsLibTorchsExpressionsPerElement) {
  struct Case {
    const char* name;
    float grad_scale;
    float decay;
  };
  for (const Case c : {Case{"typical", 1e-2f, 0.9997f}, Case{"eps dominates", 1e-10f, 0.9997f},
                       Case{"no weight decay", 1e-2f, 1.0f}}) {
    torch::manual_seed(21);
    const int64_t n = 4099;
    const torch::Tensor p0 = torch::randn({n}), g = torch::randn({n}).mul_(c.grad_scale);
    const torch::Tensor m0 = g.mul(0.5), v0 = g.mul(g).mul_(0.3);
    const double b1 = 0.9, b2 = 0.95, lr = 3e-3, eps = 1e-8, step = 3;
    const double sbc2 = std::sqrt(1 - std::pow(b2, step)), step_size = lr / (1 - std::pow(b1, step));
    const AdamWStepConstants k{c.decay, float(b1), float(1 - b1), float(b2), float(1 - b2), float(sbc2), float(eps),
                               float(-step_size)};
    torch::Tensor p = p0.clone(), m = m0.clone(), v = v0.clone();
    adamw_update_float(p.data_ptr<float>(), g.data_ptr<float>(), m.data_ptr<float>(), v.data_ptr<float>(), n, k);
    const float* pp = p.data_ptr<float>();
    const float *p0p = p0.data_ptr<float>(), *gp = g.data_ptr<float>(), *m0p = m0.data_ptr<float>(),
                *v0p = v0.data_ptr<float>();
    int64_t not_bitwise = 0;
    double worst = 0;
    for (int64_t i = 0; i < n; ++i) {
      volatile float mi = m0p[i] * k.beta1;  // one float operation at a time (no contraction)
      mi = mi + k.one_minus_beta1 * gp[i];
      volatile float vi = v0p[i] * k.beta2;
      volatile float gg = k.one_minus_beta2 * gp[i];
      vi = vi + gg * gp[i];
      volatile float denom = std::sqrt(static_cast<float>(vi)) / k.sqrt_bias_correction2;
      denom = denom + k.eps;
      volatile float pi = p0p[i] * k.decay;
      volatile float upd = k.neg_step_size * mi;
      pi = pi + upd / denom;
      not_bitwise += pi != pp[i];
      const double md = b1 * m0p[i] + (1 - b1) * gp[i], vd = b2 * v0p[i] + (1 - b2) * double(gp[i]) * gp[i];
      const double update = step_size * md / (std::sqrt(vd) / sbc2 + eps);
      const double pd = double(p0p[i]) * c.decay - update;
      // In units of the terms' size: p can cancel to near 0, the terms cannot be rounded below it.
      worst = std::max(worst, std::abs(pp[i] - pd) / (std::abs(double(p0p[i]) * c.decay) + std::abs(update)));
    }
    EXPECT_EQ(not_bitwise, 0) << c.name;
    EXPECT_LE(worst, 4 * std::ldexp(1.0, -23)) << c.name;  // 4 ulps of |p·decay| + |update|
    EXPECT_FALSE(p.equal(p0)) << c.name;
  }
}

// Invariant: one element's result does not depend on the range it is updated in (whole array,
// odd pieces, one element at a time: vector body or scalar tail), so the thread count and the
// split never change a training run.
TEST(FusedAdamW, UpdateIsTheSameWhateverTheSplit) {
  torch::manual_seed(3);
  const int64_t n = 1037;
  const torch::Tensor p0 = torch::randn({n}), g = torch::randn({n}).mul_(1e-2);
  const torch::Tensor m0 = torch::randn({n}).mul_(1e-3), v0 = torch::rand({n}).mul_(1e-4);
  const AdamWStepConstants k{0.9997f, 0.9f, 0.1f, 0.95f, 0.05f, 0.3f, 1e-8f, -4e-3f};
  auto run = [&](const std::vector<int64_t>& cuts) {
    std::vector<torch::Tensor> t = {p0.clone(), m0.clone(), v0.clone()};
    int64_t begin = 0;
    for (const int64_t end : cuts) {
      adamw_update_float(t[0].data_ptr<float>() + begin, g.data_ptr<float>() + begin, t[1].data_ptr<float>() + begin,
                         t[2].data_ptr<float>() + begin, end - begin, k);
      begin = end;
    }
    return t;
  };
  std::vector<int64_t> each(n);
  for (int64_t i = 0; i < n; ++i) each[i] = i + 1;
  const auto whole = run({n}), pieces = run({3, 500, 517, n}), one_by_one = run(each);
  for (int j = 0; j < 3; ++j) {
    EXPECT_TRUE(bitwise_equal(whole[j], pieces[j])) << j;
    EXPECT_TRUE(bitwise_equal(whole[j], one_by_one[j])) << j;
  }
  EXPECT_FALSE(whole[0].equal(p0));
}

// Saves `from`'s state into a fresh `To` over copies of `params` (a checkpoint round trip).
template <typename To>
std::pair<std::unique_ptr<To>, std::vector<torch::Tensor>> reload_as(const torch::optim::Optimizer& from,
                                                                     const std::vector<torch::Tensor>& params) {
  std::stringstream saved;
  torch::serialize::OutputArchive out;
  from.save(out);
  out.save_to(saved);
  std::vector<torch::Tensor> copies;
  for (const auto& p : params) copies.push_back(p.detach().clone().requires_grad_(true));
  auto to = std::make_unique<To>(copies, options());
  torch::serialize::InputArchive in;
  in.load_from(saved);
  to->load(in);
  return {std::move(to), copies};
}

// Invariant: FusedAdamW's checkpoint is LibTorch's AdamW checkpoint: one saved by either loads
// into the other, and the runs continue as if never stopped.
TEST(FusedAdamW, CheckpointLoadsIntoLibTorchsAdamWAndBack) {
  const auto make = [] { return torch::randn({64, 48}).requires_grad_(true); };
  auto a_params = params_from(make);
  FusedAdamW a(a_params, options());
  run_steps(a, a_params, 3);
  auto [b, b_params] = reload_as<torch::optim::AdamW>(a, a_params);
  for (size_t i = 0; i < a_params.size(); ++i) {
    EXPECT_EQ(adamw_state(*b, b_params[i]).step(), 3);
    EXPECT_TRUE(bitwise_equal(adamw_state(*b, b_params[i]).exp_avg(), adamw_state(a, a_params[i]).exp_avg()));
  }
  auto [c_opt, c_params] = reload_as<FusedAdamW>(*b, a_params);
  FusedAdamW& c = *c_opt;
  run_steps(a, a_params, 2);
  run_steps(c, c_params, 2);
  for (size_t i = 0; i < a_params.size(); ++i) {
    EXPECT_TRUE(bitwise_equal(a_params[i], c_params[i])) << i;
    EXPECT_EQ(adamw_state(c, c_params[i]).step(), 5);
  }
}

// Invariant: the factory's AdamW ("adamw", "adam") is FusedAdamW.
TEST(FusedAdamW, FactoryBuildsIt) {
  auto params = params_from([] { return torch::randn({4, 4}).requires_grad_(true); });
  const auto opt = make_optimizer(OptimizerKind::kAdamW, params, default_optimizer_options(OptimizerKind::kAdamW));
  EXPECT_NE(dynamic_cast<FusedAdamW*>(opt.get()), nullptr);
}

}  // namespace
}  // namespace oomkit
