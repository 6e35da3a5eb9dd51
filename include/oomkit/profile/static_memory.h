// Static memory measured from tensor storages: parameters, gradients, optimizer state.
#pragma once

#include <vector>

#include <torch/torch.h>

#include "oomkit/profile/summary.h"

namespace oomkit {

/// Mix-in for optimizer param states that LibTorch does not define (Lion, Adafactor, 8-bit
/// Adam...): a state class deriving from torch::optim::OptimizerParamState and from this
/// lists its tensors, and measure_static_memory() counts them.
class OptimizerStateTensors {
 public:
  virtual ~OptimizerStateTensors() = default;
  /// Every tensor the state holds (undefined tensors are skipped).
  virtual std::vector<torch::Tensor> state_tensors() const = 0;
};

/// Measures the bytes of the storages of `model`'s parameters, their gradients, its buffers
/// and, when `optimizer` is not null, its per-parameter state: LibTorch's Adam, AdamW, SGD,
/// Adagrad and RMSprop states, and any state implementing OptimizerStateTensors; states of
/// other types are counted in unmeasured_optimizer_states, never guessed. Each storage is
/// counted once (StorageImpl identity) with its full nbytes, even when a tensor views part of
/// it. Never allocates tensor memory. Throws nothing beyond LibTorch's own errors.
StaticMemory measure_static_memory(const torch::nn::Module& model, const torch::optim::Optimizer* optimizer = nullptr);

}  // namespace oomkit
