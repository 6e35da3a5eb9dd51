// Tests for gelu_tanh (include/oomkit/train/gelu.h) and its one-pass kernels
// (include/oomkit/train/kernels/gelu_tanh.h): values against a double-precision evaluation of
// GPT-2's gelu_new and its derivative (written here from the formula, not from either kernel),
// bfloat16 rounding, the autograd contract, independence from the thread split, and the fallbacks.
#include <gtest/gtest.h>

#include <torch/torch.h>

#include <cmath>
#include <limits>
#include <vector>

#include "oomkit/train/gelu.h"
#include "oomkit/train/kernels/gelu_tanh.h"

namespace oomkit {
namespace {

constexpr double kBeta = 0.7978845608028654, kKappa = 0.044715;

// 1 + tanh(u) = 2 / (1 + exp(-2u)): no cancellation for u -> -inf, even in double.
double gelu_ref(double x) { return 0.5 * x * (2 / (1 + std::exp(-2 * kBeta * (x + kKappa * x * x * x)))); }
double gelu_grad_ref(double x) {
  const double t = std::tanh(kBeta * (x + kKappa * x * x * x));
  return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * kBeta * (1 + 3 * kKappa * x * x);
}

// Inputs over the range an activation takes, both tails and zero included.
torch::Tensor inputs() {
  torch::manual_seed(5);
  return torch::cat({torch::linspace(-12, 12, 24001), torch::randn({50000}).mul_(3), torch::tensor({0.0f, -0.0f})});
}

// Largest |got - ref| over max(|ref|, floor): relative error, with an absolute floor where the
// value itself is tiny (gelu's negative tail, the derivative's zero crossing near x = -0.75).
double worst_error(const torch::Tensor& got, const std::vector<double>& ref, double floor) {
  const auto g = got.to(torch::kDouble).contiguous();
  const double* gp = g.data_ptr<double>();
  double worst = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    worst = std::max(worst, std::abs(gp[i] - ref[i]) / std::max(std::abs(ref[i]), floor));
  }
  return worst;
}

// Invariant: float forward and backward are as close to the double formula as LibTorch's own
// at::gelu / at::gelu_backward or closer (error relative to max(|value|, 1e-3)). Both inherit
// float's rounding of the inner sqrt(2/pi)·(x + 0.044715·x³), which the negative tail magnifies
// (by 2|u| for u -> -inf) and the derivative's cancellation near x = -0.75 too; LibTorch adds
// the cancellation of 1 + tanh(u) (measured: forward 1263 ulps, backward 1.0e-3), oomkit does not
// (9.6 ulps, 4.0e-5; ulp = 2^-23 relative).
TEST(GeluTanh, FloatMatchesTheFormulaInDouble) {
  const torch::Tensor x = inputs();
  std::vector<double> y_ref, dx_ref;
  const torch::Tensor xd = x.to(torch::kDouble);
  for (int64_t i = 0; i < x.numel(); ++i) {
    const double xi = xd[i].item<double>();
    y_ref.push_back(gelu_ref(xi));
    dx_ref.push_back(gelu_grad_ref(xi));
  }
  const torch::Tensor y = gelu_tanh(x);
  const torch::Tensor ones = torch::ones_like(x);
  torch::Tensor leaf = x.clone().requires_grad_(true);
  gelu_tanh(leaf).backward(ones);
  const double ulp = std::ldexp(1.0, -23);  // float's epsilon: one ulp of a value in [1, 2)
  const double y_err = worst_error(y, y_ref, 1e-3), dx_err = worst_error(leaf.grad(), dx_ref, 1e-3);
  const double aten_y_err = worst_error(at::gelu(x, "tanh"), y_ref, 1e-3);
  const double aten_dx_err = worst_error(at::gelu_backward(ones, x, "tanh"), dx_ref, 1e-3);
  RecordProperty("forward_error_ulps", std::to_string(y_err / ulp));
  RecordProperty("backward_error_ulps", std::to_string(dx_err / ulp));
  EXPECT_LE(y_err, 16 * ulp) << "aten: " << aten_y_err / ulp << " ulps";
  EXPECT_LE(dx_err, 1e-4) << "aten: " << aten_dx_err;
  EXPECT_LE(y_err, aten_y_err);
  EXPECT_LE(dx_err, aten_dx_err);
}

// Invariant: a bfloat16 result is the float result rounded once to nearest-even, as
// c10::BFloat16 rounds: equal to gelu_tanh on the widened input, rounded.
TEST(GeluTanh, Bfloat16IsTheFloatResultRoundedOnce) {
  const torch::Tensor xb = inputs().to(torch::kBFloat16);
  const torch::Tensor x = xb.to(torch::kFloat);
  const torch::Tensor yb = gelu_tanh(xb), y_rounded = gelu_tanh(x).to(torch::kBFloat16);
  EXPECT_TRUE(yb.equal(y_rounded)) << yb.ne(y_rounded).sum().item<int64_t>() << " differ, e.g. x = "
                                   << x.masked_select(yb.ne(y_rounded)).slice(0, 0, 3) << " -> "
                                   << yb.masked_select(yb.ne(y_rounded)).slice(0, 0, 3) << " vs "
                                   << y_rounded.masked_select(yb.ne(y_rounded)).slice(0, 0, 3);
  torch::Tensor dy = torch::randn(x.sizes()).to(torch::kBFloat16);
  torch::Tensor leaf_b = xb.clone().requires_grad_(true), leaf = x.clone().requires_grad_(true);
  gelu_tanh(leaf_b).backward(dy);
  gelu_tanh(leaf).backward(dy.to(torch::kFloat));
  EXPECT_TRUE(leaf_b.grad().equal(leaf.grad().to(torch::kBFloat16)));
  // So within one bfloat16 rounding (2^-8 relative) of the formula in double (deep in the
  // negative tail, where the value is below float's normal range, within 1e-37).
  const torch::Tensor xd = x.to(torch::kDouble);
  const torch::Tensor ref = xd.mul(0.5).mul(torch::exp(xd.add(xd.pow(3).mul(kKappa)).mul(-2 * kBeta)).add(1).reciprocal().mul(2));
  const torch::Tensor diff = (yb.to(torch::kDouble) - ref).abs();
  const torch::Tensor bound = ref.abs().mul(std::ldexp(1.0, -8)).add(1e-37);  // floor: float's smallest normals
  EXPECT_TRUE(diff.le(bound).all().item<bool>())
      << diff.gt(bound).sum().item<int64_t>() << " differ, e.g. x = " << x.masked_select(diff.gt(bound)).slice(0, 0, 4);
}

// Invariant: NaN propagates; +inf gives +inf, 0 gives 0, and -inf gives NaN as at::gelu does
// (-inf·0: the limit is 0, neither gives it). Far in the negative tail, where 1 + tanh(u) is 0 in
// float, the value and the gradient are 0 (as at::gelu's), not x times a clamped residue.
TEST(GeluTanh, SpecialValues) {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  const float big = std::numeric_limits<float>::max();
  const torch::Tensor x = torch::tensor({nan, inf, -inf, 0.0f, -1e13f, -big, -30.0f});
  const torch::Tensor y = gelu_tanh(x), want = at::gelu(x, "tanh");
  EXPECT_TRUE(std::isnan(y[0].item<float>()));
  EXPECT_EQ(y[1].item<float>(), inf);
  EXPECT_TRUE(std::isnan(y[2].item<float>()));
  EXPECT_TRUE(std::isnan(want[2].item<float>()));
  EXPECT_EQ(y[3].item<float>(), 0.0f);
  for (int i = 4; i < 7; ++i) EXPECT_EQ(y[i].item<float>(), 0.0f) << x[i].item<float>();
  torch::Tensor leaf = torch::tensor({-1e13f, -30.0f}).requires_grad_(true);
  gelu_tanh(leaf).backward(torch::ones({2}));
  EXPECT_TRUE(leaf.grad().eq(0).all().item<bool>()) << leaf.grad();
  // At -FLT_MAX, x² overflows: 0·inf is NaN in the derivative's second term, as in at::gelu_backward.
  torch::Tensor at_max = torch::tensor({-big}).requires_grad_(true);
  gelu_tanh(at_max).backward(torch::ones({1}));
  EXPECT_EQ(std::isnan(at_max.grad()[0].item<float>()),
            std::isnan(at::gelu_backward(torch::ones({1}), torch::tensor({-big}), "tanh")[0].item<float>()));
  uint16_t bf16_nan = 0x7FC1, out = 0;
  gelu_tanh_forward_bf16(&bf16_nan, &out, 1);
  EXPECT_EQ(out, 0x7FC0);
}

// Invariant: one element's result does not depend on the thread count or the range it is in.
TEST(GeluTanh, SameBitsWhateverTheSplit) {
  const torch::Tensor x = torch::randn({3, 70001}).mul_(3);
  const int threads = at::get_num_threads();
  at::set_num_threads(1);
  const torch::Tensor one = gelu_tanh(x);
  at::set_num_threads(2);
  const torch::Tensor two = gelu_tanh(x);
  at::set_num_threads(threads);
  EXPECT_TRUE(one.equal(two));
  std::vector<float> piecewise(static_cast<size_t>(x.numel()));
  const float* xp = x.data_ptr<float>();
  for (int64_t i = 0; i < x.numel(); i += 7) {
    gelu_tanh_forward_float(xp + i, piecewise.data() + i, std::min<int64_t>(7, x.numel() - i));
  }
  EXPECT_TRUE(torch::from_blob(piecewise.data(), x.sizes()).equal(one));
}

// Invariant: the autograd contract of at::gelu: the result keeps x's shape (also for a
// non-contiguous x), its gradient matches, and a backward with create_graph is itself
// differentiable (ATen's gelu_backward, so second derivatives agree with at::gelu's).
TEST(GeluTanh, AutogradLikeAtGelu) {
  torch::manual_seed(9);
  const torch::Tensor base = torch::randn({6, 5}).t();  // non-contiguous
  torch::Tensor a = base.clone().requires_grad_(true), b = base.clone().requires_grad_(true);
  const torch::Tensor ya = gelu_tanh(a.t().t()), yb = at::gelu(b, "tanh");
  ASSERT_EQ(ya.sizes(), yb.sizes());
  EXPECT_TRUE(torch::allclose(ya, yb, 1e-6, 1e-7));
  const auto ga = torch::autograd::grad({ya.pow(2).sum()}, {a}, {}, true, true)[0];
  const auto gb = torch::autograd::grad({yb.pow(2).sum()}, {b}, {}, true, true)[0];
  EXPECT_TRUE(torch::allclose(ga, gb, 1e-5, 1e-7));
  const auto gga = torch::autograd::grad({ga.sum()}, {a})[0];
  const auto ggb = torch::autograd::grad({gb.sum()}, {b})[0];
  EXPECT_TRUE(torch::allclose(gga, ggb, 1e-4, 1e-6)) << gga << ggb;
}

// Invariant: dtypes other than float and bfloat16 are at::gelu's, bit for bit, or its error.
TEST(GeluTanh, OtherDtypesAreAtGelu) {
  const torch::Tensor x = torch::randn({1000}, torch::kDouble);
  EXPECT_TRUE(gelu_tanh(x).equal(at::gelu(x, "tanh")));
  const torch::Tensor h = x.to(torch::kHalf);
  torch::Tensor want;
  try {
    want = at::gelu(h, "tanh");
  } catch (const c10::Error&) {
    EXPECT_THROW(gelu_tanh(h), c10::Error);  // LibTorch 1.13 has no CPU half GELU
    return;
  }
  EXPECT_TRUE(gelu_tanh(h).equal(want));
}

}  // namespace
}  // namespace oomkit
