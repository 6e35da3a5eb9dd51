// Optimizer factory and state accounting. AdamW and SGD are LibTorch's; Lion, Adafactor and
// 8-bit Adam are torch::optim::Optimizer subclasses in src/train/ (see their headers).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <torch/torch.h>

#include "oomkit/estimate/estimate.h"

namespace oomkit {

struct OptimizerOptions {
  double lr = 1e-3;
  double weight_decay = 0.0;     // decoupled (AdamW, Lion); L2 for SGD
  double beta1 = 0.9;            // Adam/Lion first moment; SGD momentum for kSgdMomentum
  double beta2 = 0.999;          // Adam second moment (Lion: 0.99)
  double eps = 1e-8;
  int64_t block_size = 2048;     // 8-bit Adam quantization block (elements)
};

/// Builds the optimizer over `params`. Throws InputError("--optimizer") for invalid options.
std::unique_ptr<torch::optim::Optimizer> make_optimizer(OptimizerKind kind, std::vector<torch::Tensor> params,
                                                        const OptimizerOptions& options);

/// Bytes held by the optimizer's state tensors (sum of storage nbytes, each storage counted
/// once). Zero before the first step() for optimizers that create state lazily.
int64_t optimizer_state_bytes(const torch::optim::Optimizer& optimizer);

/// Sets the learning rate of every param group (for warmup/cosine schedules).
void set_learning_rate(torch::optim::Optimizer& optimizer, double lr);

}  // namespace oomkit
