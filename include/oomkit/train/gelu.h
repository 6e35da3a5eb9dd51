// The MLP's activation: GELU with the tanh approximation (GPT-2's gelu_new) as one autograd op
// whose CPU forward and backward are single passes (kernels/gelu_tanh.h).
#pragma once

#include <torch/torch.h>

namespace oomkit {

/// gelu(x, approximate="tanh") with at::gelu's autograd contract: any shape, the result has
/// x's shape and dtype; backward saves x (as GeluBackward0 does, so the activation memory the
/// estimator counts is the same; a non-contiguous x is first copied contiguous, and that copy is
/// what is saved) and returns dx = dy·gelu'(x) with ATen's formula. On CPU float and bfloat16
/// tensors the forward and the backward are one pass each over the data (gelu_tanh_forward_* /
/// gelu_tanh_backward_*, split over LibTorch's intra-op threads), where LibTorch 1.13 runs
/// Sleef's tanh (and, for bfloat16, converts around each operation): 1.7-2.9x faster than
/// at::gelu / at::gelu_backward on this project's AVX-512 machine at 2 threads (bench/gelu_bench.cpp),
/// and closer to the formula evaluated in double than at::gelu (tests/torch/gelu_test.cpp).
/// Other devices and dtypes, and a backward that must itself be differentiable (create_graph),
/// use at::gelu / at::gelu_backward. Errors: those of at::gelu (none for CPU float/bfloat16).
torch::Tensor gelu_tanh(const torch::Tensor& x);

}  // namespace oomkit
