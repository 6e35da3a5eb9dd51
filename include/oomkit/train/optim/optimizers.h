// Optimizer factory and state accounting. AdamW and SGD are LibTorch's; Lion, Adafactor and
// 8-bit Adam are torch::optim::Optimizer subclasses in src/train/ (see their headers).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <torch/torch.h>
#include <torch/version.h>

#include "oomkit/estimate/estimate.h"
#include "oomkit/profile/static_memory.h"

namespace oomkit {

/// The key type of torch::optim::Optimizer::state(): std::string in LibTorch 1.x-2.1, void*
/// from 2.2 (PyTorch PR #108480, "Eliminate c10::guts::to_string", keyed state_ by the
/// parameter's TensorImpl pointer).
using OptimizerStateKey =
    typename std::decay_t<decltype(std::declval<torch::optim::Optimizer&>().state())>::key_type;

/// The key under which torch::optim keeps parameter `p`'s state: its TensorImpl's address, as
/// the pointer itself (LibTorch 2.2+: torch/csrc/api/src/optim/adam.cpp's
/// `state_.find(p.unsafeGetTensorImpl())`) or as c10::guts::to_string of it (1.x-2.1), the key
/// LibTorch's own optimizers and torch::optim::serialize use, so oomkit's optimizers save, load
/// and measure like theirs.
inline OptimizerStateKey optimizer_state_key(const torch::Tensor& p) {
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 2)
  static_assert(std::is_same_v<OptimizerStateKey, void*>, "LibTorch 2.2+ keys optimizer state by void*");
  return p.unsafeGetTensorImpl();
#else
  static_assert(std::is_same_v<OptimizerStateKey, std::string>, "LibTorch < 2.2 keys optimizer state by string");
  return c10::guts::to_string(p.unsafeGetTensorImpl());
#endif
}

struct OptimizerOptions {
  double lr = 1e-3;
  double weight_decay = 0.0;     // decoupled (AdamW, Lion, Adafactor, 8-bit Adam); L2 for SGD
  double beta1 = 0.9;            // Adam/Lion first moment; SGD momentum for kSgdMomentum
  double beta2 = 0.999;          // Adam second moment (Lion: 0.99)
  double eps = 1e-8;
  int64_t block_size = 2048;     // 8-bit Adam quantization block (elements)
  bool adam8bit_fused = true;    // 8-bit Adam: fused per-block CPU kernel for fp32 CPU params
  int64_t adam8bit_min_8bit_size = 4096;  // 8-bit Adam: smaller params keep fp32 m, v (bitsandbytes)
  // Adafactor (Shazeer & Stern 2018; Hugging Face transformers' defaults, see adafactor.h).
  double adafactor_eps1 = 1e-30;          // added to g² before the second-moment average
  double adafactor_clip_threshold = 1.0;  // d: the update is divided by max(1, RMS(update)/d)
  double adafactor_decay_rate = -0.8;     // beta2_t = 1 - t^decay_rate
  bool adafactor_first_moment = false;    // HF beta1=None; true keeps an EMA of updates with beta1
};

/// The recommended defaults per optimizer; `lr`, `weight_decay` may then be overridden:
/// adamw/adam 1e-3 (0.9, 0.999); sgd and sgd-momentum 1e-2 (momentum 0.9); lion 1e-4 with
/// betas (0.9, 0.99) (Chen et al. 2023, §3 and §5: lr 3-10x smaller than AdamW's);
/// adafactor 1e-3 (HF's recommendation for an external lr); adam-8bit as adamw, block 2048.
OptimizerOptions default_optimizer_options(OptimizerKind kind);

/// Builds the optimizer over `params`. Throws InputError naming the offending option
/// ("--lr", "--weight-decay", "--beta1", "--beta2", "--eps", "--adam8bit-block-size",
/// "--adam8bit-min-8bit-size", "--adafactor-*"; "--optimizer" for an empty parameter list).
std::unique_ptr<torch::optim::Optimizer> make_optimizer(OptimizerKind kind, std::vector<torch::Tensor> params,
                                                        const OptimizerOptions& options);

/// Bytes held by the optimizer's state tensors (sum of storage nbytes, each storage counted
/// once). Zero before the first step() for optimizers that create state lazily.
/// Knows LibTorch's AdamW/Adam/SGD param states and every StateTensorSource (oomkit's own
/// optimizers and their param states); throws std::invalid_argument for any other state type.
int64_t optimizer_state_bytes(const torch::optim::Optimizer& optimizer);

/// Sets the learning rate of every param group (for warmup/cosine schedules).
void set_learning_rate(torch::optim::Optimizer& optimizer, double lr);

/// Implemented by oomkit's own optimizer param states, and by optimizers that hold tensors
/// shared by all parameters (8-bit Adam's quantization maps), so that optimizer_state_bytes()
/// sees every tensor they keep between steps. The same interface as the profiler's
/// OptimizerStateTensors (profile/static_memory.h), so measure_static_memory() counts the
/// param states too.
using StateTensorSource = OptimizerStateTensors;

}  // namespace oomkit
