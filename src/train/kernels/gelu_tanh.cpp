// GELU (tanh approximation) over float and bfloat16 arrays. See
// include/oomkit/train/kernels/gelu_tanh.h. Built without LibTorch's headers and with
// -fno-math-errno -fno-trapping-math -ffp-contract=off (CMakeLists.txt): the loops are
// branch-free so the compiler vectorises them (for AVX-512 and AVX2 as well as the baseline, picked
// at load time: target_clones), and every element's arithmetic is the same whatever the vector
// width, since no multiply-add is fused and each operation is correctly rounded.
#include "oomkit/train/kernels/gelu_tanh.h"

#include <cstring>

#include "clones.h"

namespace oomkit {
namespace {

constexpr float kBeta = 0.7978845608028654f;  // sqrt(2/pi)
constexpr float kKappa = 0.044715f;

inline float from_bits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

inline uint32_t to_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

// exp(z) for z in [0, 88] (Cephes expf: z = n·ln2 + r, |r| <= ln2/2, exp(r) by its degree-6
// polynomial, times 2^n built in the exponent bits; relative error about 1 ulp).
inline float exp_0_88(float z) {
  const float fx = z * 1.44269504088896341f + 0.5f;
  const int32_t n = static_cast<int32_t>(fx);  // fx >= 0.5: truncation is floor
  const float nf = static_cast<float>(n);
  float r = z - nf * 0.693359375f;
  r = r - nf * -2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * (r * r) + r + 1.0f;
  return p * from_bits(static_cast<uint32_t>(n + 127) << 23);
}

// s = 2/(exp(2|u|) + 1) = 1 - tanh(|u|), in (0, 1]; |u| beyond 44 (or NaN) reads as 44, where
// s is about 1e-38, the smallest normal float (exp(88) is near the largest). Then 1 + tanh(u) is s for u < 0 and 2 - s otherwise, and
// 1 - tanh(u)² = s·(2 - s), each without cancellation (1 + tanh(u) for u -> -inf included).
inline float one_minus_tanh_abs(float u) {
  float a = u < 0.0f ? -u : u;
  a = a < 44.0f ? a : 44.0f;
  return 2.0f / (exp_0_88(2.0f * a) + 1.0f);
}

// Below u = -44, 1 + tanh(u) and 1 - tanh(u)² are under 2e-38: taken as 0 (as tanh(u) = -1 in
// float makes them in ATen), so that x·(1 + tanh(u)) does not keep the clamped s for huge |x|.
constexpr float kFarNegative = -44.0f;

inline float gelu_forward(float x) {
  const float inner = kBeta * (x + kKappa * (x * x * x));
  const float s = one_minus_tanh_abs(inner);
  const float near = inner < kFarNegative ? 0.0f : 1.0f;  // two plain selects: nested ones stop GCC's
  const float one_plus_t = (inner < 0.0f ? s : 2.0f - s) * near;  // vectoriser in the AVX clones
  return 0.5f * x * one_plus_t;
}

inline float gelu_backward(float dy, float x) {
  const float x_sq = x * x;
  const float inner = kBeta * (x + kKappa * (x_sq * x));
  const float s = one_minus_tanh_abs(inner);
  const float near = inner < kFarNegative ? 0.0f : 1.0f;
  const float one_plus_t = (inner < 0.0f ? s : 2.0f - s) * near;
  const float one_minus_t_sq = s * (2.0f - s) * near;
  const float left_derivative = 0.5f * one_plus_t;
  const float right_derivative = 0.5f * x * one_minus_t_sq * (kBeta * (1.0f + 3.0f * kKappa * x_sq));
  return dy * (left_derivative + right_derivative);
}

inline float bf16_to_float(uint16_t b) { return from_bits(static_cast<uint32_t>(b) << 16); }

// Round to nearest even (c10::BFloat16's round_to_nearest_even), NaN to 0x7FC0.
inline uint16_t float_to_bf16(float f) {
  const uint32_t u = to_bits(f);
  const uint32_t rounded = (u + (((u >> 16) & 1u) + 0x7FFFu)) >> 16;
  return f != f ? static_cast<uint16_t>(0x7FC0) : static_cast<uint16_t>(rounded);
}

}  // namespace

OOMKIT_KERNEL_CLONES void gelu_tanh_forward_float(const float* __restrict x, float* __restrict y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = gelu_forward(x[i]);
}

OOMKIT_KERNEL_CLONES void gelu_tanh_backward_float(const float* __restrict dy, const float* __restrict x, float* __restrict dx,
                              int64_t n) {
  for (int64_t i = 0; i < n; ++i) dx[i] = gelu_backward(dy[i], x[i]);
}

OOMKIT_KERNEL_CLONES void gelu_tanh_forward_bf16(const uint16_t* __restrict x, uint16_t* __restrict y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = float_to_bf16(gelu_forward(bf16_to_float(x[i])));
}

OOMKIT_KERNEL_CLONES void gelu_tanh_backward_bf16(const uint16_t* __restrict dy, const uint16_t* __restrict x, uint16_t* __restrict dx,
                             int64_t n) {
  for (int64_t i = 0; i < n; ++i) dx[i] = float_to_bf16(gelu_backward(bf16_to_float(dy[i]), bf16_to_float(x[i])));
}

}  // namespace oomkit
