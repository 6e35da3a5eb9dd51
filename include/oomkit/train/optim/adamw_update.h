// The one-pass AdamW update over float arrays, without LibTorch: used by FusedAdamW (adamw.h).
#pragma once

#include <cstdint>

namespace oomkit {

/// The float constants of one AdamW step, rounded to float as ATen rounds a double Scalar for a
/// float tensor (so that the one-pass update computes LibTorch's expressions, see FusedAdamW).
struct AdamWStepConstants {
  float decay;                 // 1 - lr·weight_decay
  float beta1;
  float one_minus_beta1;
  float beta2;
  float one_minus_beta2;
  float sqrt_bias_correction2; // sqrt(1 - beta2^t)
  float eps;
  float neg_step_size;         // -lr / (1 - beta1^t)
};

/// One pass over n contiguous float elements, per element i, in this order (LibTorch 1.13
/// torch/csrc/api/src/optim/adamw.cpp, amsgrad off):
///   p = p·decay;  m = m·beta1 + (1-beta1)·g;  v = v·beta2 + (1-beta2)·g·g;
///   p = p + (neg_step_size · m) / (sqrt(v) / sqrt_bias_correction2 + eps)
/// (addcdiv_'s self + value·t1/t2). Every operation is one correctly rounded float operation (no
/// fused multiply-add), so the result does not depend on how the range is split between threads
/// or on the CPU. LibTorch's vectorised add_ fuses `m·beta1 + (1-beta1)·g` into one FMA: the two
/// differ by float rounding there. `p`, `m`, `v` are updated in place; `g` is read; the four
/// arrays must not overlap (they are __restrict). No allocation, no torch dependency.
void adamw_update_float(float* p, const float* g, float* m, float* v, int64_t n, const AdamWStepConstants& k);

}  // namespace oomkit
