// The causal attention core shared by GPT-2's CausalSelfAttention and LLaMA's attention
// (src/train/model.cpp, src/train/llama.cpp).
#pragma once

#include <torch/torch.h>

#include "oomkit/estimate/estimate.h"

namespace oomkit {

/// softmax(q kᵀ / √d_h with `mask` set to -inf) → attention dropout → @ v (Vaswani et al.
/// 2017, eq. 1), or at::scaled_dot_product_attention with is_causal (kSdpa, LibTorch >= 2.0).
/// q, k, v: (B, h, T, d_h); mask: (T, T) bool, true where a query may not attend. Returns
/// (B, h, T, d_h). Saved tensors (eager): the mask (masked_fill), p (softmax, and bmm with v when
/// dropout is off), the dropout mask and the dropped p, and v's contiguous copy (bmm); the raw
/// scores are released before the dropout. Throws InputError("--attention") for kSdpa on
/// LibTorch 1.x.
torch::Tensor causal_attention(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v,
                               const torch::Tensor& mask, torch::nn::Dropout& attn_dropout, AttentionKernel kernel);

}  // namespace oomkit
