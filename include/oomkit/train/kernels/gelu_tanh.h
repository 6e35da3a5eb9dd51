// GELU with the tanh approximation (Hendrycks & Gimpel 2016, §2; GPT-2's gelu_new) over float
// and bfloat16 arrays, forward and backward in one pass each, without LibTorch: used by
// gelu_tanh() (include/oomkit/train/gelu.h), the MLP's activation.
#pragma once

#include <cstdint>

namespace oomkit {

/// y = 0.5·x·(1 + tanh(sqrt(2/pi)·(x + 0.044715·x³))), elementwise over n floats, in float.
/// With s = 2/(exp(2|u|) + 1), 1 + tanh(u) is s for u < 0 and 2 - s otherwise (no cancellation
/// on the negative tail), |u| clamped to 44 (s is then about 1e-38), exp from Cephes' expf
/// (range reduction by ln 2, degree-6 polynomial, 2^n from the exponent bits); below u = -44
/// both 1 + tanh(u) and 1 - tanh(u)² are taken as 0 (as in float tanh), so x = -inf gives NaN
/// like at::gelu. `x` and `y` must not overlap (__restrict: no in-place call); likewise below. No multiply-add is fused (built with -ffp-contract=off): the same bits
/// whatever the CPU, the vector width or how the range is split. NaN in, NaN out.
void gelu_tanh_forward_float(const float* x, float* y, int64_t n);

/// dx = dy·(0.5·(1 + t) + 0.5·x·(1 - t²)·sqrt(2/pi)·(1 + 3·0.044715·x²)), t = tanh(u) as above
/// (1 - t² = s·(2 - s)): ATen's GeluBackward formula for approximate="tanh"
/// (aten/src/ATen/native/cpu/Activation.cpp).
void gelu_tanh_backward_float(const float* dy, const float* x, float* dx, int64_t n);

/// The same on bfloat16 bit patterns (the upper 16 bits of a float): each input widened to
/// float exactly, the result computed in float and rounded once to nearest-even (NaN to the
/// quiet NaN 0x7FC0), as c10::BFloat16's conversion rounds.
void gelu_tanh_forward_bf16(const uint16_t* x, uint16_t* y, int64_t n);
void gelu_tanh_backward_bf16(const uint16_t* dy, const uint16_t* x, uint16_t* dx, int64_t n);

}  // namespace oomkit
