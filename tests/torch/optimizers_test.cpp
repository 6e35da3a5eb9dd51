// Tests for the optimizer factory, Lion, Adafactor and 8-bit Adam.
//
// Reference tests: every update rule is re-implemented below in double precision with plain
// loops over std::vector<double>, independently of LibTorch's tensor ops, written from the
// papers (and, for 8-bit Adam, from bitsandbytes' map construction); the optimizer under test
// runs in fp32 on the same gradients for several steps and must agree to fp32 tolerance.
// State-bytes tests compute the expected bytes from the parameter shapes alone.
#include <gtest/gtest.h>

#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

#include "oomkit/core/error.h"
#include "oomkit/core/model_config.h"
#include "oomkit/estimate/estimate.h"
#include "oomkit/profile/static_memory.h"
#include "oomkit/train/optim/adafactor.h"
#include "oomkit/train/optim/adam8bit.h"
#include "oomkit/train/optim/lion.h"
#include "oomkit/train/optim/optimizers.h"

namespace oomkit {
namespace {

constexpr int kSteps = 5;
constexpr int64_t kRows = 5, kCols = 7;  // the matrix parameter (rows, cols); the vector has kCols

// One parameter of the reference: row-major values and its shape.
struct RefParam {
  int64_t rows = 1, cols = 1;
  bool matrix = false;
  std::vector<double> p;
};

std::vector<double> to_vec(const torch::Tensor& t) {
  torch::Tensor c = t.detach().to(torch::kDouble).contiguous().reshape(-1);
  return std::vector<double>(c.data_ptr<double>(), c.data_ptr<double>() + c.numel());
}

// Fixed initial parameters and kSteps gradients per parameter, in fp32 (so the optimizer and
// the reference see exactly the same numbers).
struct Problem {
  std::vector<torch::Tensor> init;                    // {W (5, 7), b (7)}
  std::vector<std::vector<torch::Tensor>> grads;      // [step][param]
  Problem() {
    torch::manual_seed(1234);
    init = {torch::randn({kRows, kCols}), torch::randn({kCols})};
    for (int s = 0; s < kSteps; ++s) grads.push_back({torch::randn({kRows, kCols}), torch::randn({kCols})});
  }
  std::vector<RefParam> ref_params() const {
    return {RefParam{kRows, kCols, true, to_vec(init[0])}, RefParam{1, kCols, false, to_vec(init[1])}};
  }
};

// Runs `optimizer` kSteps times on clones of the problem's parameters; returns the final values.
std::vector<std::vector<double>> run_optimizer(const Problem& pr, OptimizerKind kind, const OptimizerOptions& o) {
  std::vector<torch::Tensor> params;
  for (const auto& t : pr.init) params.push_back(t.clone().requires_grad_(true));
  auto opt = make_optimizer(kind, params, o);
  for (int s = 0; s < kSteps; ++s) {
    for (size_t i = 0; i < params.size(); ++i) params[i].mutable_grad() = pr.grads[s][i].clone();
    opt->step();
  }
  return {to_vec(params[0]), to_vec(params[1])};
}

void expect_close(const std::vector<std::vector<double>>& got, const std::vector<RefParam>& want, double tol) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_EQ(got[i].size(), want[i].p.size());
    for (size_t j = 0; j < got[i].size(); ++j) {
      EXPECT_NEAR(got[i][j], want[i].p[j], tol * std::max(1.0, std::abs(want[i].p[j]))) << "param " << i << " elem " << j;
    }
  }
}

// The update of a step must move the parameters (so agreement is not trivially with `init`).
void expect_moved(const std::vector<std::vector<double>>& got, const Problem& pr) {
  EXPECT_GT(std::abs(got[0][0] - to_vec(pr.init[0])[0]), 1e-4);
}

std::vector<double> grad_vec(const Problem& pr, int step, size_t i) { return to_vec(pr.grads[step][i]); }

// ---- AdamW, SGD, SGD-momentum (LibTorch's, wired by the factory) ---------------------------
// Invariant: the factory passes lr, betas, eps and decoupled weight decay through unchanged:
// Loshchilov & Hutter 2019, Alg. 2 (AdamW), bias-corrected.
TEST(Optimizers, AdamWMatchesDoubleReference) {
  Problem pr;
  OptimizerOptions o;
  o.lr = 1e-2; o.weight_decay = 0.1; o.beta1 = 0.9; o.beta2 = 0.99; o.eps = 1e-8;
  auto ref = pr.ref_params();
  for (auto& rp : ref) {
    std::vector<double> m(rp.p.size(), 0.0), v(rp.p.size(), 0.0);
    const size_t i = &rp - &ref[0];
    for (int s = 0; s < kSteps; ++s) {
      const auto g = grad_vec(pr, s, i);
      const double bc1 = 1 - std::pow(o.beta1, s + 1), bc2 = 1 - std::pow(o.beta2, s + 1);
      for (size_t j = 0; j < rp.p.size(); ++j) {
        rp.p[j] *= 1 - o.lr * o.weight_decay;
        m[j] = o.beta1 * m[j] + (1 - o.beta1) * g[j];
        v[j] = o.beta2 * v[j] + (1 - o.beta2) * g[j] * g[j];
        rp.p[j] -= o.lr * (m[j] / bc1) / (std::sqrt(v[j] / bc2) + o.eps);
      }
    }
  }
  const auto got = run_optimizer(pr, OptimizerKind::kAdamW, o);
  expect_moved(got, pr);
  expect_close(got, ref, 1e-5);
}

// Invariant: plain SGD with L2 weight decay p -= lr·(g + wd·p); with momentum (PyTorch's form,
// dampening 0): buf = g at the first step, then buf = mu·buf + (g + wd·p); p -= lr·buf.
TEST(Optimizers, SgdAndMomentumMatchDoubleReference) {
  Problem pr;
  for (const bool momentum : {false, true}) {
    OptimizerOptions o;
    o.lr = 0.05; o.weight_decay = 0.01; o.beta1 = 0.8;
    auto ref = pr.ref_params();
    for (size_t i = 0; i < ref.size(); ++i) {
      std::vector<double> buf(ref[i].p.size(), 0.0);
      for (int s = 0; s < kSteps; ++s) {
        const auto g = grad_vec(pr, s, i);
        for (size_t j = 0; j < buf.size(); ++j) {
          const double d = g[j] + o.weight_decay * ref[i].p[j];
          buf[j] = (s == 0 || !momentum) ? d : o.beta1 * buf[j] + d;
          ref[i].p[j] -= o.lr * buf[j];
        }
      }
    }
    const auto got = run_optimizer(pr, momentum ? OptimizerKind::kSgdMomentum : OptimizerKind::kSgd, o);
    expect_moved(got, pr);
    expect_close(got, ref, 1e-5);
  }
}

// ---- Lion ---------------------------------------------------------------------------------
// Invariant: Chen et al. 2023, Alg. 2: c = b1·m + (1-b1)·g; p -= lr·(sign(c) + wd·p);
// m = b2·m + (1-b2)·g.
TEST(Optimizers, LionMatchesDoubleReference) {
  Problem pr;
  OptimizerOptions o = default_optimizer_options(OptimizerKind::kLion);
  o.lr = 1e-3; o.weight_decay = 0.5;
  ASSERT_DOUBLE_EQ(o.beta2, 0.99);
  auto ref = pr.ref_params();
  for (size_t i = 0; i < ref.size(); ++i) {
    std::vector<double> m(ref[i].p.size(), 0.0);
    for (int s = 0; s < kSteps; ++s) {
      const auto g = grad_vec(pr, s, i);
      for (size_t j = 0; j < m.size(); ++j) {
        const double c = o.beta1 * m[j] + (1 - o.beta1) * g[j];
        const double sign = c > 0 ? 1.0 : (c < 0 ? -1.0 : 0.0);
        ref[i].p[j] -= o.lr * (sign + o.weight_decay * ref[i].p[j]);
        m[j] = o.beta2 * m[j] + (1 - o.beta2) * g[j];
      }
    }
  }
  const auto got = run_optimizer(pr, OptimizerKind::kLion, o);
  expect_moved(got, pr);
  expect_close(got, ref, 1e-6);
}

// ---- Adafactor ----------------------------------------------------------------------------
// Invariant: Shazeer & Stern 2018, Alg. 4 (factored: row means R over columns, column means C
// over rows, V = R·C / mean(R)); vectors keep the full V; beta2_t = 1 - t^-0.8; update
// clipping by max(1, RMS(U)/d); optional first moment on the lr-scaled update; decoupled
// weight decay p -= wd·lr·p; eps1 added to g².
void adafactor_reference(const Problem& pr, const OptimizerOptions& o, std::vector<RefParam>& ref) {
  for (size_t i = 0; i < ref.size(); ++i) {
    RefParam& rp = ref[i];
    const int64_t n = rp.rows, m = rp.cols;
    std::vector<double> R(n, 0.0), C(m, 0.0), V(rp.p.size(), 0.0), M(rp.p.size(), 0.0);
    for (int s = 0; s < kSteps; ++s) {
      const auto g = grad_vec(pr, s, i);
      const double beta2t = 1 - std::pow(s + 1.0, o.adafactor_decay_rate);
      std::vector<double> u(rp.p.size());
      if (rp.matrix) {
        for (int64_t r = 0; r < n; ++r) {
          double mean = 0;
          for (int64_t c = 0; c < m; ++c) mean += (g[r * m + c] * g[r * m + c] + o.adafactor_eps1) / m;
          R[r] = beta2t * R[r] + (1 - beta2t) * mean;
        }
        for (int64_t c = 0; c < m; ++c) {
          double mean = 0;
          for (int64_t r = 0; r < n; ++r) mean += (g[r * m + c] * g[r * m + c] + o.adafactor_eps1) / n;
          C[c] = beta2t * C[c] + (1 - beta2t) * mean;
        }
        double r_mean = 0;
        for (double x : R) r_mean += x / n;
        for (int64_t r = 0; r < n; ++r)
          for (int64_t c = 0; c < m; ++c) u[r * m + c] = g[r * m + c] / std::sqrt(R[r] / r_mean * C[c]);
      } else {
        for (size_t j = 0; j < u.size(); ++j) {
          V[j] = beta2t * V[j] + (1 - beta2t) * (g[j] * g[j] + o.adafactor_eps1);
          u[j] = g[j] / std::sqrt(V[j]);
        }
      }
      double sq = 0;
      for (double x : u) sq += x * x;
      const double rms = std::sqrt(sq / u.size());
      const double clip = std::max(1.0, rms / o.adafactor_clip_threshold);
      for (size_t j = 0; j < u.size(); ++j) {
        double step = o.lr * u[j] / clip;
        if (o.adafactor_first_moment) {
          M[j] = o.beta1 * M[j] + (1 - o.beta1) * step;
          step = M[j];
        }
        rp.p[j] = rp.p[j] - o.weight_decay * o.lr * rp.p[j] - step;
      }
    }
  }
}

TEST(Optimizers, AdafactorMatchesDoubleReference) {
  Problem pr;
  for (const bool first_moment : {false, true}) {
    OptimizerOptions o = default_optimizer_options(OptimizerKind::kAdafactor);
    o.lr = 1e-2; o.weight_decay = 0.1; o.adafactor_first_moment = first_moment;
    o.adafactor_clip_threshold = 0.5;  // small enough that clipping engages on some steps
    auto ref = pr.ref_params();
    adafactor_reference(pr, o, ref);
    const auto got = run_optimizer(pr, OptimizerKind::kAdafactor, o);
    expect_moved(got, pr);
    expect_close(got, ref, 1e-6);
  }
}

// ---- 8-bit Adam ---------------------------------------------------------------------------
// bitsandbytes' create_dynamic_map(signed, 7, 8), rebuilt here in double: for i = 0..6, the
// midpoints of linspace(0.1, 1, 2^i + 1) (unsigned: 2^(i+1) + 1) times 10^(i-6), mirrored
// for signed, plus 0 and 1, sorted.
std::vector<double> reference_map(bool is_signed) {
  std::vector<double> out = {0.0, 1.0};
  for (int i = 0; i < 7; ++i) {
    const int items = is_signed ? (1 << i) + 1 : (1 << (i + 1)) + 1;
    std::vector<double> b(items);
    for (int k = 0; k < items; ++k) b[k] = 0.1 + 0.9 * k / (items - 1);
    for (int k = 0; k + 1 < items; ++k) {
      out.push_back(std::pow(10.0, i - 6) * (b[k] + b[k + 1]) / 2);
      if (is_signed) out.push_back(-std::pow(10.0, i - 6) * (b[k] + b[k + 1]) / 2);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Invariant: the maps are bitsandbytes' dynamic type: 256 sorted entries; signed spans
// [-0.99296875, 1] (largest fraction midpoint 1 - 0.9/128), unsigned [0, 1] with largest
// below 1 at 1 - 0.9/256; the smallest positive magnitudes are 0.55e-6 and 0.325e-6.
TEST(Adam8bit, DynamicMapsMatchBitsandbytes) {
  for (const bool is_signed : {true, false}) {
    const auto want = reference_map(is_signed);
    const auto got = to_vec(dynamic_quantization_map(is_signed));
    ASSERT_EQ(got.size(), 256u);
    for (size_t k = 0; k < 256; ++k) EXPECT_NEAR(got[k], want[k], 1e-7 * std::abs(want[k]) + 1e-12) << k;
  }
  const auto s = to_vec(dynamic_quantization_map(true));
  const auto u = to_vec(dynamic_quantization_map(false));
  EXPECT_NEAR(s.front(), -0.99296875, 1e-7);
  EXPECT_EQ(s.back(), 1.0);
  EXPECT_EQ(u.front(), 0.0);
  EXPECT_NEAR(u[254], 0.996484375, 1e-7);
  EXPECT_NEAR(*std::upper_bound(s.begin(), s.end(), 0.0), 0.55e-6, 1e-12);
  EXPECT_NEAR(u[1], 0.325e-6, 1e-12);
}

// Invariant: quantize/dequantize round trip: each element's error is at most half the gap
// between the two map entries around x/absmax, times absmax; the block maximum is exact
// (maps to ±1 or to the map's extreme); zero blocks stay zero.
TEST(Adam8bit, BlockwiseRoundTripWithinHalfStep) {
  torch::manual_seed(9);
  const int64_t block = 64;
  torch::Tensor x = torch::randn({10, 30});
  x.narrow(0, 0, 3).zero_();  // the first 90 elements: the first block is all zeros
  const torch::Tensor code = dynamic_quantization_map(true);
  const auto q = quantize_blockwise(x, code, block);
  ASSERT_EQ(q.codes.scalar_type(), torch::kUInt8);
  ASSERT_EQ(q.absmax.numel(), (300 + block - 1) / block);
  const auto y = to_vec(dequantize_blockwise(q.codes, q.absmax, code, block));
  const auto xs = to_vec(x);
  const auto map = reference_map(true);
  const auto absmax = to_vec(q.absmax);
  for (size_t j = 0; j < xs.size(); ++j) {
    const double a = absmax[j / block];
    if (a == 0) {
      EXPECT_EQ(y[j], 0.0);
      continue;
    }
    const double t = xs[j] / a;
    auto hi = std::lower_bound(map.begin(), map.end(), t);
    // Inside the map's range: half the gap around t. Below it (t = -1 for a block whose
    // maximum magnitude is negative; the signed map stops at -0.99296875): the distance to
    // the smallest entry.
    const double bound = hi == map.begin() ? map.front() - t : 0.5 * (*hi - *(hi - 1));
    EXPECT_LE(std::abs(y[j] - xs[j]), bound * a * (1 + 1e-5) + 1e-7) << j;
  }
  EXPECT_EQ(absmax[0], 0.0);
}

// Invariant: 8-bit Adam equals a double-precision Adam whose states are stored through the
// same block-wise quantization (nearest entry of the bitsandbytes maps, per-block absmax)
// after every step; the dequantized update then runs in full precision.
TEST(Adam8bit, MatchesQuantizedDoubleReference) {
  Problem pr;
  OptimizerOptions o = default_optimizer_options(OptimizerKind::kAdam8bit);
  o.lr = 1e-2; o.weight_decay = 0.1; o.block_size = 16;  // 35 and 7 elements: partial blocks
  o.adam8bit_min_8bit_size = 0;                           // quantize even these small tensors
  const auto smap = reference_map(true), umap = reference_map(false);
  auto quantize = [&](std::vector<double>& x, const std::vector<double>& map) {
    for (size_t b0 = 0; b0 < x.size(); b0 += o.block_size) {
      const size_t b1 = std::min(x.size(), b0 + static_cast<size_t>(o.block_size));
      double a = 0;
      for (size_t j = b0; j < b1; ++j) a = std::max(a, std::abs(x[j]));
      for (size_t j = b0; j < b1; ++j) {
        const double t = a > 0 ? x[j] / a : 0.0;
        double best = map[0];
        for (double c : map) if (std::abs(c - t) < std::abs(best - t)) best = c;
        x[j] = best * a;
      }
    }
  };
  auto reference = [&](bool quantized) {
    auto ref = pr.ref_params();
    for (size_t i = 0; i < ref.size(); ++i) {
      std::vector<double> m(ref[i].p.size(), 0.0), v(ref[i].p.size(), 0.0);
      for (int s = 0; s < kSteps; ++s) {
        const auto g = grad_vec(pr, s, i);
        const double bc1 = 1 - std::pow(o.beta1, s + 1), bc2 = 1 - std::pow(o.beta2, s + 1);
        for (size_t j = 0; j < m.size(); ++j) {
          m[j] = o.beta1 * m[j] + (1 - o.beta1) * g[j];
          v[j] = o.beta2 * v[j] + (1 - o.beta2) * g[j] * g[j];
          ref[i].p[j] *= 1 - o.lr * o.weight_decay;
          ref[i].p[j] -= o.lr * (m[j] / bc1) / (std::sqrt(v[j] / bc2) + o.eps);
        }
        if (quantized) {
          quantize(m, smap);
          quantize(v, umap);
        }
      }
    }
    return ref;
  };
  const auto ref = reference(true);
  // The quantization is visible at this tolerance: full-precision Adam lands elsewhere.
  const auto exact = reference(false);
  double max_gap = 0;
  for (size_t i = 0; i < ref.size(); ++i)
    for (size_t j = 0; j < ref[i].p.size(); ++j) max_gap = std::max(max_gap, std::abs(ref[i].p[j] - exact[i].p[j]));
  EXPECT_GT(max_gap, 1e-4);
  for (const bool fused : {true, false}) {
    SCOPED_TRACE(fused ? "fused CPU kernel" : "tensor ops");
    o.adam8bit_fused = fused;
    const auto got = run_optimizer(pr, OptimizerKind::kAdam8bit, o);
    expect_moved(got, pr);
    expect_close(got, ref, 1e-5);
  }
}

// Invariant: parameters under min_8bit_size (bitsandbytes' 4096 default) keep fp32 states
// and follow AdamW exactly (the same double reference as Optimizers.AdamWMatchesDoubleReference).
TEST(Adam8bit, SmallParametersKeepFp32State) {
  Problem pr;
  OptimizerOptions o;
  o.lr = 1e-2; o.weight_decay = 0.1; o.beta2 = 0.99;
  const auto via_adamw = run_optimizer(pr, OptimizerKind::kAdamW, o);
  const auto via_8bit = run_optimizer(pr, OptimizerKind::kAdam8bit, o);
  std::vector<RefParam> ref = pr.ref_params();
  for (size_t i = 0; i < ref.size(); ++i) ref[i].p = via_adamw[i];
  expect_moved(via_8bit, pr);
  expect_close(via_8bit, ref, 1e-6);
}

// Invariant: the fused kernel's table lookup picks exactly the entry searchsorted picks on
// the float32 midpoints (quantize_blockwise's path), for values spread over every decade of
// the map, both signs, exact map entries, midpoints and their float neighbours, and ±1.
TEST(Adam8bit, NearestCodeMatchesSearchsorted) {
  for (const bool is_signed : {true, false}) {
    const torch::Tensor map = dynamic_quantization_map(is_signed);
    const torch::Tensor mids = (map.narrow(0, 0, 255) + map.narrow(0, 1, 255)).mul(0.5);
    torch::manual_seed(17);
    torch::Tensor t = torch::pow(10.0, torch::rand({200000}) * -9.0);  // |t| in [1e-9, 1]
    if (is_signed) t = t * (torch::randint(0, 2, {200000}).mul(2).sub(1));
    std::vector<torch::Tensor> parts = {t, map, mids, torch::tensor({1.0f, 0.0f, -0.0f})};
    if (is_signed) parts.push_back(torch::tensor({-1.0f}));
    parts.push_back(torch::nextafter(mids, torch::full_like(mids, 2.0)));
    parts.push_back(torch::nextafter(mids, torch::full_like(mids, -2.0)));
    torch::Tensor all = torch::cat(parts).contiguous();
    const torch::Tensor want = torch::searchsorted(mids, all);
    const NearestCode nearest(map);
    const float* x = all.data_ptr<float>();
    const int64_t* w = want.data_ptr<int64_t>();
    int64_t mismatches = 0;
    for (int64_t i = 0; i < all.numel(); ++i) mismatches += nearest(x[i]) != w[i];
    EXPECT_EQ(mismatches, 0) << (is_signed ? "signed" : "unsigned");
  }
}

// ---- state bytes --------------------------------------------------------------------------
// Invariant: optimizer_state_bytes() after one step equals the bytes implied by the shapes:
// AdamW 2·4·n, SGD 0, SGD-momentum 4·n, Lion 4·n, Adafactor 4·(rows + cols) per matrix and
// 4·n per vector (+ 4·n each with the first moment), 8-bit Adam 2·n + 2·4·ceil(n/block) per
// parameter plus 2·256·4 for the maps; and 0 before the first step (lazy state).
int64_t state_bytes_after_one_step(OptimizerKind kind, const OptimizerOptions& o) {
  std::vector<torch::Tensor> params = {torch::randn({kRows, kCols}).requires_grad_(true),
                                       torch::randn({kCols}).requires_grad_(true),
                                       torch::randn({64, 80}).requires_grad_(true)};
  auto opt = make_optimizer(kind, params, o);
  EXPECT_EQ(optimizer_state_bytes(*opt), kind == OptimizerKind::kAdam8bit ? 2 * 256 * 4 : 0);
  for (auto& p : params) p.mutable_grad() = torch::randn_like(p);
  opt->step();
  return optimizer_state_bytes(*opt);
}

TEST(Optimizers, StateBytesFromShapes) {
  const int64_t small = kRows * kCols + kCols, big = 64 * 80;  // big >= 4096 = min_8bit_size
  const int64_t n = small + big;
  OptimizerOptions o;
  EXPECT_EQ(state_bytes_after_one_step(OptimizerKind::kAdamW, o), 8 * n);
  EXPECT_EQ(state_bytes_after_one_step(OptimizerKind::kSgd, o), 0);
  EXPECT_EQ(state_bytes_after_one_step(OptimizerKind::kSgdMomentum, o), 4 * n);
  EXPECT_EQ(state_bytes_after_one_step(OptimizerKind::kLion, o), 4 * n);
  const int64_t factored = 4 * ((kRows + kCols) + kCols + (64 + 80));
  EXPECT_EQ(state_bytes_after_one_step(OptimizerKind::kAdafactor, o), factored);
  o.adafactor_first_moment = true;
  EXPECT_EQ(state_bytes_after_one_step(OptimizerKind::kAdafactor, o), factored + 4 * n);
  o.block_size = 64;
  // default min_8bit_size 4096: the two small tensors keep 2·4 bytes per element
  EXPECT_EQ(state_bytes_after_one_step(OptimizerKind::kAdam8bit, o), 8 * small + 2 * big + 2 * 4 * (big / 64) + 2 * 256 * 4);
  o.adam8bit_min_8bit_size = 0;
  const auto blocks = [](int64_t k) { return (k + 63) / 64; };
  EXPECT_EQ(state_bytes_after_one_step(OptimizerKind::kAdam8bit, o),
            2 * n + 2 * 4 * (blocks(kRows * kCols) + blocks(kCols) + blocks(big)) + 2 * 256 * 4);
}

// Invariant: pure bf16 parameters (--precision bf16) step without leaving bf16, and the
// fp32-sized states shrink to 2 bytes per element (the estimator's pure-bf16 rule): AdamW
// 2·2·n, Lion 2·n, Adafactor 2·(rows + cols) + 2·n_vector; 8-bit Adam stays 2·n + scales.
TEST(Optimizers, Bf16ParametersKeepDtype) {
  const int64_t n = kRows * kCols + kCols;
  const int64_t blocks = 2;  // block 2048: one block per parameter
  const std::vector<std::pair<OptimizerKind, int64_t>> cases = {
      {OptimizerKind::kAdamW, 4 * n},
      {OptimizerKind::kLion, 2 * n},
      {OptimizerKind::kAdafactor, 2 * (kRows + kCols) + 2 * kCols},
      {OptimizerKind::kAdam8bit, 2 * n + 2 * 4 * blocks + 2 * 256 * 4}};  // with min_8bit_size 0
  for (const auto& [kind, want_bytes] : cases) {
    torch::manual_seed(2);
    std::vector<torch::Tensor> params = {torch::randn({kRows, kCols}, torch::kBFloat16).requires_grad_(true),
                                         torch::randn({kCols}, torch::kBFloat16).requires_grad_(true)};
    const torch::Tensor before = params[0].detach().clone();
    OptimizerOptions o = default_optimizer_options(kind);
    o.lr = 1e-2;
    o.adam8bit_min_8bit_size = 0;
    auto opt = make_optimizer(kind, params, o);
    for (int s = 0; s < 2; ++s) {
      for (auto& p : params) p.mutable_grad() = torch::randn_like(p);
      opt->step();
    }
    for (const auto& p : params) {
      EXPECT_EQ(p.scalar_type(), torch::kBFloat16);
      EXPECT_TRUE(torch::isfinite(p).all().item<bool>());
    }
    EXPECT_FALSE(torch::equal(before, params[0].detach()));
    EXPECT_EQ(optimizer_state_bytes(*opt), want_bytes) << static_cast<int>(kind);
  }
}

// Invariant: a storage shared by two state tensors is counted once.
TEST(Optimizers, StateBytesCountSharedStorageOnce) {
  torch::Tensor p = torch::randn({16}).requires_grad_(true);
  Lion lion(std::vector<torch::Tensor>{p});
  p.mutable_grad() = torch::randn_like(p);
  lion.step();
  EXPECT_EQ(optimizer_state_bytes(lion), 64);
  auto& state = static_cast<LionParamState&>(*lion.state().begin()->second);
  auto extra = std::make_unique<LionParamState>();
  extra->exp_avg(state.exp_avg().view({4, 4}));  // a view: the same storage
  const torch::Tensor other = torch::zeros({1});  // a second key in the state map
  lion.state()[optimizer_state_key(other)] = std::move(extra);
  EXPECT_EQ(optimizer_state_bytes(lion), 64);
}

// ---- agreement with the estimator --------------------------------------------------------
// The parameter tensors of a GPT-2 model as docs/model-ops.md lists them (torch::nn::Linear
// layout (out, in); lm_head tied to wte, so no tensor of its own), built here from the config
// independently of the estimator's own parameter table.
std::vector<torch::Tensor> gpt2_parameters(const ModelConfig& c, torch::Dtype dtype) {
  const int64_t d = c.n_embd, f = c.d_ff;
  std::vector<std::vector<int64_t>> shapes = {{c.vocab_size, d}, {c.n_positions, d}};  // wte, wpe
  for (int64_t l = 0; l < c.n_layer; ++l) {
    for (const auto& shape : std::vector<std::vector<int64_t>>{{d}, {d},              // ln_1
                                                               {3 * d, d}, {3 * d},   // attn.c_attn
                                                               {d, d}, {d},           // attn.c_proj
                                                               {d}, {d},              // ln_2
                                                               {f, d}, {f},           // mlp.c_fc
                                                               {d, f}, {d}})          // mlp.c_proj
      shapes.push_back(shape);
  }
  shapes.push_back({d});  // ln_f
  shapes.push_back({d});
  std::vector<torch::Tensor> params;
  for (const auto& shape : shapes) params.push_back(torch::randn(shape, dtype).requires_grad_(true));
  return params;
}

// Invariant: for every optimizer, the state the real optimizer holds after its first step
// equals the estimator's optimizer_state total for the same model (gpt-nano, 0.8M params) and
// precision, to the byte, 8-bit Adam's two 256-entry fp32 quantization maps (2 KiB per
// optimizer, CPU tensors) included: the estimator counts them on the CPU target.
TEST(Optimizers, StateBytesEqualEstimator) {
  const ModelConfig model = resolve_model_config("gpt-nano");
  for (const auto precision : {Precision::kFp32, Precision::kBf16}) {
    for (const auto kind : {OptimizerKind::kAdamW, OptimizerKind::kSgd, OptimizerKind::kSgdMomentum,
                            OptimizerKind::kLion, OptimizerKind::kAdafactor, OptimizerKind::kAdam8bit}) {
      SCOPED_TRACE(std::string(to_string(kind)) + " " + to_string(precision));
      TrainingSetup setup;
      setup.precision = precision;
      setup.optimizer = kind;
      setup.adam8bit_block_size = 256;
      setup.cuda = false;
      setup.seq_len = model.n_positions;
      const Estimate est = estimate_memory(model, setup);

      auto params = gpt2_parameters(model, precision == Precision::kBf16 ? torch::kBFloat16 : torch::kFloat);
      OptimizerOptions o = default_optimizer_options(kind);
      o.block_size = setup.adam8bit_block_size;
      auto opt = make_optimizer(kind, params, o);
      for (auto& p : params) p.mutable_grad() = torch::randn_like(p);
      opt->step();
      EXPECT_EQ(optimizer_state_bytes(*opt), est.total(Category::kOptimizerState));
      if (kind != OptimizerKind::kSgd) {
        EXPECT_GT(est.total(Category::kOptimizerState), 0);
      }
    }
  }
}

// Invariant: the profiler's measure_static_memory() sees every oomkit param state (no
// "unknown type" left) and counts what optimizer_state_bytes() counts, less the optimizer-level
// 8-bit maps, which are not per-parameter state.
TEST(Optimizers, ProfilerCountsOomkitStates) {
  for (const auto kind : {OptimizerKind::kLion, OptimizerKind::kAdafactor, OptimizerKind::kAdam8bit}) {
    torch::nn::Linear model(torch::nn::LinearOptions(96, 64));
    OptimizerOptions o = default_optimizer_options(kind);
    auto opt = make_optimizer(kind, model->parameters(), o);
    for (auto& p : model->parameters()) p.mutable_grad() = torch::randn_like(p);
    opt->step();
    const StaticMemory m = measure_static_memory(*model, opt.get());
    EXPECT_EQ(m.unmeasured_optimizer_states, 0);
    const int64_t maps_bytes = kind == OptimizerKind::kAdam8bit ? 2 * 256 * 4 : 0;
    EXPECT_EQ(m.optimizer_state_bytes, optimizer_state_bytes(*opt) - maps_bytes);
    EXPECT_GT(m.optimizer_state_bytes, 0);
  }
}

// ---- factory, learning rate, serialization ------------------------------------------------
// Invariant: bad options are rejected with InputError naming the flag.
TEST(Optimizers, RejectsBadOptionsNamingTheField) {
  std::vector<torch::Tensor> params = {torch::randn({3}).requires_grad_(true)};
  auto field_of = [&](OptimizerKind kind, OptimizerOptions o, std::vector<torch::Tensor> ps) {
    try {
      make_optimizer(kind, std::move(ps), o);
    } catch (const InputError& e) {
      return e.field();
    }
    return std::string("no error");
  };
  OptimizerOptions o;
  o.lr = -1;
  EXPECT_EQ(field_of(OptimizerKind::kAdamW, o, params), "--lr");
  o = {}; o.lr = std::nan("");
  EXPECT_EQ(field_of(OptimizerKind::kLion, o, params), "--lr");
  o = {}; o.beta1 = 1.0;
  EXPECT_EQ(field_of(OptimizerKind::kLion, o, params), "--beta1");
  o = {}; o.beta2 = -0.1;
  EXPECT_EQ(field_of(OptimizerKind::kAdam8bit, o, params), "--beta2");
  o = {}; o.weight_decay = -1;
  EXPECT_EQ(field_of(OptimizerKind::kSgd, o, params), "--weight-decay");
  o = {}; o.eps = -1;
  EXPECT_EQ(field_of(OptimizerKind::kAdamW, o, params), "--eps");
  o = {}; o.block_size = 0;
  EXPECT_EQ(field_of(OptimizerKind::kAdam8bit, o, params), "--adam8bit-block-size");
  o = {}; o.adam8bit_min_8bit_size = -1;
  EXPECT_EQ(field_of(OptimizerKind::kAdam8bit, o, params), "--adam8bit-min-8bit-size");
  o = {}; o.adafactor_decay_rate = 0.5;
  EXPECT_EQ(field_of(OptimizerKind::kAdafactor, o, params), "--adafactor-decay-rate");
  o = {};
  EXPECT_EQ(field_of(OptimizerKind::kAdafactor, o, {}), "--optimizer");
  EXPECT_EQ(field_of(OptimizerKind::kAdafactor, o, params), "no error");
}

// Invariant: set_learning_rate reaches every param group of every optimizer kind.
TEST(Optimizers, SetLearningRateEveryKind) {
  for (const auto kind : {OptimizerKind::kAdamW, OptimizerKind::kSgd, OptimizerKind::kSgdMomentum,
                          OptimizerKind::kLion, OptimizerKind::kAdafactor, OptimizerKind::kAdam8bit}) {
    auto opt = make_optimizer(kind, {torch::randn({3}).requires_grad_(true)}, default_optimizer_options(kind));
    opt->add_param_group(torch::optim::OptimizerParamGroup({torch::randn({2}).requires_grad_(true)}));
    set_learning_rate(*opt, 0.125);
    for (const auto& group : opt->param_groups()) EXPECT_EQ(group.options().get_lr(), 0.125);
  }
}

// Invariant: save then load into a fresh optimizer over the same parameters continues the
// run bitwise (step counters and every state tensor survive), for oomkit's own optimizers.
TEST(Optimizers, SaveLoadContinuesBitwise) {
  Problem pr;
  for (const auto kind : {OptimizerKind::kLion, OptimizerKind::kAdafactor, OptimizerKind::kAdam8bit}) {
    OptimizerOptions o = default_optimizer_options(kind);
    o.block_size = 16;
    o.adafactor_first_moment = true;
    o.adam8bit_min_8bit_size = 20;  // (5, 7) = 35 elements quantized, (7,) keeps fp32 state
    std::vector<torch::Tensor> a, b;
    for (const auto& t : pr.init) a.push_back(t.clone().requires_grad_(true));
    auto opt_a = make_optimizer(kind, a, o);
    auto feed = [&](std::vector<torch::Tensor>& ps, torch::optim::Optimizer& opt, int s) {
      for (size_t i = 0; i < ps.size(); ++i) ps[i].mutable_grad() = pr.grads[s][i].clone();
      opt.step();
    };
    for (int s = 0; s < 2; ++s) feed(a, *opt_a, s);
    std::stringstream buffer;
    {
      torch::serialize::OutputArchive archive;
      opt_a->save(archive);
      archive.save_to(buffer);
    }
    for (const auto& t : a) b.push_back(t.detach().clone().requires_grad_(true));
    auto opt_b = make_optimizer(kind, b, o);
    {
      torch::serialize::InputArchive archive;
      archive.load_from(buffer);
      opt_b->load(archive);
    }
    EXPECT_EQ(optimizer_state_bytes(*opt_b), optimizer_state_bytes(*opt_a));
    for (int s = 2; s < kSteps; ++s) {
      feed(a, *opt_a, s);
      feed(b, *opt_b, s);
    }
    for (size_t i = 0; i < a.size(); ++i) EXPECT_TRUE(torch::equal(a[i], b[i])) << static_cast<int>(kind);
  }
}

}  // namespace
}  // namespace oomkit
