// GELU (tanh approximation) as one autograd op. See include/oomkit/train/gelu.h.
#include "oomkit/train/gelu.h"

#include <ATen/Parallel.h>
#include <ATen/record_function.h>

#include <cstdint>
#include <vector>

#include "oomkit/train/kernels/gelu_tanh.h"

namespace oomkit {
namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

// Elements per intra-op task: large enough to amortise a task, small enough to split one
// (B, T, d_ff) activation over every thread.
constexpr int64_t kGrainElements = 1 << 15;

bool one_pass(const torch::Tensor& t) {
  return t.device().is_cpu() && t.layout() == torch::kStrided &&
         (t.scalar_type() == torch::kFloat || t.scalar_type() == torch::kBFloat16);
}

uint16_t* bf16_bits(torch::Tensor& t) { return reinterpret_cast<uint16_t*>(t.data_ptr<at::BFloat16>()); }
const uint16_t* bf16_bits(const torch::Tensor& t) {
  return reinterpret_cast<const uint16_t*>(t.data_ptr<at::BFloat16>());
}

// x contiguous, float or bfloat16 on the CPU.
torch::Tensor forward_one_pass(const torch::Tensor& x) {
  RECORD_FUNCTION("oomkit::gelu_tanh", std::vector<c10::IValue>({x}));  // an op in LibTorch's profiler
  torch::Tensor y = torch::empty_like(x, torch::MemoryFormat::Contiguous);
  const bool f32 = x.scalar_type() == torch::kFloat;
  at::parallel_for(0, x.numel(), kGrainElements, [&](int64_t begin, int64_t end) {
    if (f32) {
      gelu_tanh_forward_float(x.data_ptr<float>() + begin, y.data_ptr<float>() + begin, end - begin);
    } else {
      gelu_tanh_forward_bf16(bf16_bits(x) + begin, bf16_bits(y) + begin, end - begin);
    }
  });
  return y;
}

// dy and x contiguous, of x's dtype, on the CPU.
torch::Tensor backward_one_pass(const torch::Tensor& dy, const torch::Tensor& x) {
  RECORD_FUNCTION("oomkit::gelu_tanh_backward", std::vector<c10::IValue>({dy, x}));
  torch::Tensor dx = torch::empty_like(x, torch::MemoryFormat::Contiguous);
  const bool f32 = x.scalar_type() == torch::kFloat;
  at::parallel_for(0, x.numel(), kGrainElements, [&](int64_t begin, int64_t end) {
    if (f32) {
      gelu_tanh_backward_float(dy.data_ptr<float>() + begin, x.data_ptr<float>() + begin,
                               dx.data_ptr<float>() + begin, end - begin);
    } else {
      gelu_tanh_backward_bf16(bf16_bits(dy) + begin, bf16_bits(x) + begin, bf16_bits(dx) + begin, end - begin);
    }
  });
  return dx;
}

struct GeluTanh : public torch::autograd::Function<GeluTanh> {
  // x contiguous (made so by gelu_tanh(), outside, where autograd records the copy: the saved x
  // then keeps its history, which a differentiable backward needs).
  static torch::Tensor forward(AutogradContext* ctx, const torch::Tensor& x) {
    ctx->save_for_backward({x});
    return forward_one_pass(x);
  }

  static variable_list backward(AutogradContext* ctx, variable_list grad_outputs) {
    const torch::Tensor x = ctx->get_saved_variables()[0];
    const torch::Tensor& dy = grad_outputs[0];
    if (torch::GradMode::is_enabled() || !one_pass(dy) || dy.scalar_type() != x.scalar_type()) {
      return {at::gelu_backward(dy, x, "tanh")};  // create_graph: differentiable
    }
    return {backward_one_pass(dy.contiguous(), x)};
  }
};

}  // namespace

torch::Tensor gelu_tanh(const torch::Tensor& x) {
  if (!one_pass(x)) return at::gelu(x, "tanh");
  return GeluTanh::apply(x.contiguous());
}

}  // namespace oomkit
