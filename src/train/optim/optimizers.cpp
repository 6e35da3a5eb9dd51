// Optimizer factory, state accounting and learning-rate setting. See
// include/oomkit/train/optim/optimizers.h.
#include "oomkit/train/optim/optimizers.h"

#include <cmath>
#include <stdexcept>
#include <string>
#include <typeinfo>
#include <unordered_set>

#include "oomkit/core/error.h"
#include "oomkit/train/optim/adafactor.h"
#include "oomkit/train/optim/adam8bit.h"
#include "oomkit/train/optim/adamw.h"
#include "oomkit/train/optim/lion.h"

namespace oomkit {
namespace {

void require(bool ok, const char* field, const std::string& message, const std::string& hint = {}) {
  if (!ok) throw InputError(field, message, hint);
}

void validate(OptimizerKind kind, const std::vector<torch::Tensor>& params, const OptimizerOptions& o) {
  require(!params.empty(), "--optimizer", "no parameters to optimize");
  require(std::isfinite(o.lr) && o.lr >= 0, "--lr", "must be a finite number >= 0, got " + std::to_string(o.lr));
  require(std::isfinite(o.weight_decay) && o.weight_decay >= 0, "--weight-decay",
          "must be a finite number >= 0, got " + std::to_string(o.weight_decay));
  require(o.beta1 >= 0 && o.beta1 < 1, "--beta1", "must be in [0, 1), got " + std::to_string(o.beta1));
  require(o.beta2 >= 0 && o.beta2 < 1, "--beta2", "must be in [0, 1), got " + std::to_string(o.beta2));
  require(std::isfinite(o.eps) && o.eps >= 0, "--eps", "must be a finite number >= 0, got " + std::to_string(o.eps));
  if (kind == OptimizerKind::kAdam8bit) {
    require(o.block_size >= 1, "--adam8bit-block-size", "must be >= 1 element, got " + std::to_string(o.block_size),
            "bitsandbytes uses 2048 (its default) down to 64");
    require(o.adam8bit_min_8bit_size >= 0, "--adam8bit-min-8bit-size",
            "must be >= 0 elements, got " + std::to_string(o.adam8bit_min_8bit_size));
  }
  if (kind == OptimizerKind::kAdafactor) {
    require(o.adafactor_clip_threshold > 0, "--adafactor-clip-threshold", "must be > 0");
    require(o.adafactor_decay_rate < 0, "--adafactor-decay-rate", "must be < 0 (beta2_t = 1 - t^decay_rate)");
    require(o.adafactor_eps1 >= 0, "--adafactor-eps1", "must be >= 0");
  }
}

// Appends the tensors of one LibTorch or oomkit param state; false for an unknown type.
bool collect_state_tensors(const torch::optim::OptimizerParamState& state, std::vector<torch::Tensor>& out) {
  if (const auto* s = dynamic_cast<const StateTensorSource*>(&state)) {
    for (const auto& t : s->state_tensors()) out.push_back(t);
    return true;
  }
  if (const auto* s = dynamic_cast<const torch::optim::AdamWParamState*>(&state)) {
    out.insert(out.end(), {s->exp_avg(), s->exp_avg_sq(), s->max_exp_avg_sq()});
    return true;
  }
  if (const auto* s = dynamic_cast<const torch::optim::AdamParamState*>(&state)) {
    out.insert(out.end(), {s->exp_avg(), s->exp_avg_sq(), s->max_exp_avg_sq()});
    return true;
  }
  if (const auto* s = dynamic_cast<const torch::optim::SGDParamState*>(&state)) {
    out.push_back(s->momentum_buffer());
    return true;
  }
  return false;
}

}  // namespace

OptimizerOptions default_optimizer_options(OptimizerKind kind) {
  OptimizerOptions o;
  switch (kind) {
    case OptimizerKind::kAdamW:
    case OptimizerKind::kAdam8bit:
    case OptimizerKind::kAdafactor:
      break;
    case OptimizerKind::kSgd:
    case OptimizerKind::kSgdMomentum:
      o.lr = 1e-2;
      break;
    case OptimizerKind::kLion:
      o.lr = 1e-4;
      o.beta2 = 0.99;
      break;
  }
  return o;
}

std::unique_ptr<torch::optim::Optimizer> make_optimizer(OptimizerKind kind, std::vector<torch::Tensor> params,
                                                        const OptimizerOptions& o) {
  validate(kind, params, o);
  switch (kind) {
    case OptimizerKind::kAdamW: {
      // "adam" parses to kAdamW as well: AdamW with weight_decay = 0 is Adam.
      auto opts = torch::optim::AdamWOptions(o.lr)
                      .betas(std::make_tuple(o.beta1, o.beta2))
                      .eps(o.eps)
                      .weight_decay(o.weight_decay);
      return std::make_unique<FusedAdamW>(std::move(params), opts);
    }
    case OptimizerKind::kSgd:
      return std::make_unique<torch::optim::SGD>(
          std::move(params), torch::optim::SGDOptions(o.lr).weight_decay(o.weight_decay));
    case OptimizerKind::kSgdMomentum:
      return std::make_unique<torch::optim::SGD>(
          std::move(params), torch::optim::SGDOptions(o.lr).momentum(o.beta1).weight_decay(o.weight_decay));
    case OptimizerKind::kLion:
      return std::make_unique<Lion>(
          std::move(params),
          LionOptions(o.lr).betas(std::make_tuple(o.beta1, o.beta2)).weight_decay(o.weight_decay));
    case OptimizerKind::kAdafactor:
      return std::make_unique<Adafactor>(std::move(params), AdafactorOptions(o.lr)
                                                                .eps1(o.adafactor_eps1)
                                                                .clip_threshold(o.adafactor_clip_threshold)
                                                                .decay_rate(o.adafactor_decay_rate)
                                                                .first_moment(o.adafactor_first_moment)
                                                                .beta1(o.beta1)
                                                                .weight_decay(o.weight_decay));
    case OptimizerKind::kAdam8bit:
      return std::make_unique<Adam8bit>(std::move(params), Adam8bitOptions(o.lr)
                                                               .betas(std::make_tuple(o.beta1, o.beta2))
                                                               .eps(o.eps)
                                                               .weight_decay(o.weight_decay)
                                                               .block_size(o.block_size)
                                                               .fused(o.adam8bit_fused)
                                                               .min_8bit_size(o.adam8bit_min_8bit_size));
  }
  throw InputError("--optimizer", "unknown optimizer kind " + std::to_string(static_cast<int>(kind)));
}

int64_t optimizer_state_bytes(const torch::optim::Optimizer& optimizer) {
  std::vector<torch::Tensor> tensors;
  for (const auto& [key, state] : optimizer.state()) {
    if (!collect_state_tensors(*state, tensors)) {
      throw std::invalid_argument(std::string("optimizer_state_bytes: unknown optimizer param state type ") +
                                  typeid(*state).name());
    }
  }
  if (const auto* shared = dynamic_cast<const StateTensorSource*>(&optimizer)) {
    for (const auto& t : shared->state_tensors()) tensors.push_back(t);
  }
  std::unordered_set<const c10::StorageImpl*> seen;
  int64_t total_bytes = 0;
  for (const auto& t : tensors) {
    if (!t.defined() || !t.has_storage()) continue;
    const c10::StorageImpl* storage = t.storage().unsafeGetStorageImpl();
    if (seen.insert(storage).second) total_bytes += static_cast<int64_t>(t.storage().nbytes());
  }
  return total_bytes;
}

void set_learning_rate(torch::optim::Optimizer& optimizer, double lr) {
  for (auto& group : optimizer.param_groups()) group.options().set_lr(lr);
}

}  // namespace oomkit
