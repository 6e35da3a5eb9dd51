// Activation checkpointing for LibTorch (which has no torch.utils.checkpoint in C++).
#pragma once

#include <functional>

#include <torch/torch.h>

namespace oomkit {

/// Runs `fn(input)` without keeping its intermediate activations for backward; in backward,
/// re-runs `fn` on the saved input with the CPU (and CUDA) RNG state restored, so dropout masks
/// are identical, then backpropagates through the recomputed graph. Saves only `input`
/// (a reference to its storage, no copy). Parameters used inside `fn` receive their gradients
/// as usual. Implemented as a torch::autograd::Function (Chen et al. 2016, "Training Deep Nets
/// with Sublinear Memory Cost"; PyTorch's torch.utils.checkpoint, reentrant variant).
/// When grad mode is off or `input` does not require grad, simply returns fn(input).
torch::Tensor checkpoint(const std::function<torch::Tensor(const torch::Tensor&)>& fn, const torch::Tensor& input);

}  // namespace oomkit
