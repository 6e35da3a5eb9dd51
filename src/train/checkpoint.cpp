// Activation checkpointing as a torch::autograd::Function (the reentrant variant of PyTorch's
// torch.utils.checkpoint; Chen et al. 2016, "Training Deep Nets with Sublinear Memory Cost").
//
// Forward: record the RNG state(s) and the autocast state, run fn under NoGradGuard (so autograd
// saves nothing inside fn), save only the input. Backward: fork the RNG (set the recorded state,
// and put the caller's state back afterwards, so the run's RNG sequence is the same as without
// checkpointing), re-run fn with grad enabled under the recorded autocast state, backpropagate
// the incoming gradient through the recomputed graph, return the input's gradient.
#include "oomkit/train/checkpoint.h"

#include <torch/csrc/autograd/custom_function.h>

#include <utility>

#include "oomkit/train/rng_autocast.h"

namespace oomkit {
namespace {

using CheckpointFn = std::function<torch::Tensor(const torch::Tensor&)>;

// Everything the activation-checkpointing backward needs besides the saved input: the function
// itself (copied, so a temporary lambda at the call site is fine) and the states to replay.
struct CheckpointRecord : torch::CustomClassHolder {
  CheckpointFn fn;
  RngState rng;            // CPU, plus the input's CUDA device when it lives on one
  AutocastState autocast;  // as at forward
};

struct CheckpointFunction : public torch::autograd::Function<CheckpointFunction> {
  static torch::Tensor forward(torch::autograd::AutogradContext* ctx, torch::Tensor input,
                               const CheckpointFn* fn) {
    auto rec = c10::make_intrusive<CheckpointRecord>();
    rec->fn = *fn;
    rec->rng = capture_rng_state(input.is_cuda() ? input.get_device() : -1);
    rec->autocast = AutocastState::current();

    torch::Tensor output;
    {
      torch::NoGradGuard no_grad;
      output = (*fn)(input);
    }
    TORCH_CHECK(output.defined(), "oomkit::checkpoint: the checkpointed function returned an undefined tensor");
    ctx->save_for_backward({input});
    ctx->saved_data["record"] = c10::IValue::make_capsule(std::move(rec));
    return output;
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::variable_list grad_outputs) {
    const torch::Tensor saved_input = ctx->get_saved_variables()[0];
    auto holder = ctx->saved_data["record"].toCapsule();
    const auto& rec = *static_cast<CheckpointRecord*>(holder.get());

    torch::Tensor input = saved_input.detach();
    input.requires_grad_(saved_input.requires_grad());
    torch::Tensor output;
    {
      RngFork rng(rec.rng);
      AutocastGuard autocast(rec.autocast);
      torch::AutoGradMode grad_on(true);
      output = rec.fn(input);
    }
    TORCH_CHECK(output.requires_grad(),
                "oomkit::checkpoint: the recomputed output does not require grad; nothing to backpropagate");
    torch::autograd::backward({output}, {grad_outputs[0]});
    // The second slot is the (non-tensor) function pointer argument: no gradient.
    return {input.grad(), torch::Tensor()};
  }
};

}  // namespace

torch::Tensor checkpoint(const std::function<torch::Tensor(const torch::Tensor&)>& fn, const torch::Tensor& input) {
  if (!torch::GradMode::is_enabled() || !input.requires_grad()) return fn(input);
  return CheckpointFunction::apply(input, &fn);
}

}  // namespace oomkit
