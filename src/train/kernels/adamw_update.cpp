// The one-pass AdamW update over float arrays. See include/oomkit/train/optim/adamw_update.h.
// Built without LibTorch's headers and with -fno-math-errno -fno-trapping-math -ffp-contract=off
// (CMakeLists.txt): sqrt may then be vectorised (errno is never set for v >= 0 anyway), for
// AVX-512 and AVX2 too (clones.h), and no multiply-add is fused, so every element's arithmetic
// is the same whatever the vector width or the split.
#include "oomkit/train/optim/adamw_update.h"

#include <cmath>

#include "clones.h"

namespace oomkit {

OOMKIT_KERNEL_CLONES void adamw_update_float(float* __restrict p, const float* __restrict g, float* __restrict m,
                        float* __restrict v, int64_t n, const AdamWStepConstants& k) {
  const float decay = k.decay, b1 = k.beta1, c1 = k.one_minus_beta1, b2 = k.beta2, c2 = k.one_minus_beta2;
  const float sbc2 = k.sqrt_bias_correction2, eps = k.eps, nss = k.neg_step_size;
  for (int64_t i = 0; i < n; ++i) {
    const float gi = g[i];
    const float mi = m[i] * b1 + c1 * gi;
    const float vi = v[i] * b2 + c2 * gi * gi;
    const float denom = std::sqrt(vi) / sbc2 + eps;
    p[i] = p[i] * decay + (nss * mi) / denom;  // addcdiv_: self + value * t1 / t2
    m[i] = mi;
    v[i] = vi;
  }
}

}  // namespace oomkit
