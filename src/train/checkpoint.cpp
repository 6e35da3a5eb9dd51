// Activation checkpointing as a torch::autograd::Function (the reentrant variant of PyTorch's
// torch.utils.checkpoint; Chen et al. 2016, "Training Deep Nets with Sublinear Memory Cost").
//
// Forward: record the RNG state(s) and the autocast state, run fn under NoGradGuard (so autograd
// saves nothing inside fn), save only the input. Backward: fork the RNG (set the recorded state,
// and put the caller's state back afterwards, so the run's RNG sequence is the same as without
// checkpointing), re-run fn with grad enabled under the recorded autocast state, backpropagate
// the incoming gradient through the recomputed graph, return the input's gradient.
#include "oomkit/train/checkpoint.h"

#include <ATen/autocast_mode.h>
#include <ATen/detail/CUDAHooksInterface.h>
#include <torch/csrc/autograd/custom_function.h>

#include <mutex>
#include <utility>

namespace oomkit {
namespace {

using CheckpointFn = std::function<torch::Tensor(const torch::Tensor&)>;

// Everything backward needs besides the saved input: the function itself (copied, so a
// temporary lambda at the call site is fine) and the states to replay.
struct CheckpointRecord : torch::CustomClassHolder {
  CheckpointFn fn;
  torch::Tensor cpu_rng_state;    // uint8, at::CPUGeneratorImpl::get_state()
  torch::Tensor cuda_rng_state;   // undefined unless the input lives on a CUDA device
  int cuda_device = -1;
  bool autocast_cpu = false;
  at::ScalarType autocast_cpu_dtype = at::kBFloat16;
  bool autocast_cuda = false;
  at::ScalarType autocast_cuda_dtype = at::kHalf;
};

torch::Tensor get_generator_state(at::Generator gen) {  // a handle: copies share the generator
  std::lock_guard<std::mutex> lock(gen.mutex());
  return gen.get_state();
}

void set_generator_state(at::Generator gen, const torch::Tensor& state) {
  std::lock_guard<std::mutex> lock(gen.mutex());
  gen.set_state(state);
}

const at::Generator& cuda_generator(int device) {
  return at::detail::getCUDAHooks().getDefaultCUDAGenerator(static_cast<c10::DeviceIndex>(device));
}

// Sets the RNG states recorded at forward; the destructor puts the caller's states back.
class RngFork {
 public:
  explicit RngFork(const CheckpointRecord& rec) : rec_(rec) {
    caller_cpu_ = get_generator_state(at::detail::getDefaultCPUGenerator());
    set_generator_state(at::detail::getDefaultCPUGenerator(), rec.cpu_rng_state);
    if (rec.cuda_rng_state.defined()) {
      caller_cuda_ = get_generator_state(cuda_generator(rec.cuda_device));
      set_generator_state(cuda_generator(rec.cuda_device), rec.cuda_rng_state);
    }
  }
  ~RngFork() {
    set_generator_state(at::detail::getDefaultCPUGenerator(), caller_cpu_);
    if (caller_cuda_.defined()) set_generator_state(cuda_generator(rec_.cuda_device), caller_cuda_);
  }
  RngFork(const RngFork&) = delete;
  RngFork& operator=(const RngFork&) = delete;

 private:
  const CheckpointRecord& rec_;
  torch::Tensor caller_cpu_;
  torch::Tensor caller_cuda_;
};

// Sets the autocast state recorded at forward; restores the previous one (and drops the
// autocast weight-cast cache when this was the outermost autocast region, as Python's
// torch.autocast.__exit__ does).
class AutocastReplay {
 public:
  explicit AutocastReplay(const CheckpointRecord& rec)
      : cpu_(at::autocast::is_cpu_enabled()),
        cpu_dtype_(at::autocast::get_autocast_cpu_dtype()),
        cuda_(at::autocast::is_enabled()),
        cuda_dtype_(at::autocast::get_autocast_gpu_dtype()) {
    at::autocast::set_cpu_enabled(rec.autocast_cpu);
    at::autocast::set_autocast_cpu_dtype(rec.autocast_cpu_dtype);
    at::autocast::set_enabled(rec.autocast_cuda);
    at::autocast::set_autocast_gpu_dtype(rec.autocast_cuda_dtype);
    at::autocast::increment_nesting();
  }
  ~AutocastReplay() {
    if (at::autocast::decrement_nesting() == 0) at::autocast::clear_cache();
    at::autocast::set_cpu_enabled(cpu_);
    at::autocast::set_autocast_cpu_dtype(cpu_dtype_);
    at::autocast::set_enabled(cuda_);
    at::autocast::set_autocast_gpu_dtype(cuda_dtype_);
  }
  AutocastReplay(const AutocastReplay&) = delete;
  AutocastReplay& operator=(const AutocastReplay&) = delete;

 private:
  bool cpu_;
  at::ScalarType cpu_dtype_;
  bool cuda_;
  at::ScalarType cuda_dtype_;
};

struct CheckpointFunction : public torch::autograd::Function<CheckpointFunction> {
  static torch::Tensor forward(torch::autograd::AutogradContext* ctx, torch::Tensor input,
                               const CheckpointFn* fn) {
    auto rec = c10::make_intrusive<CheckpointRecord>();
    rec->fn = *fn;
    rec->cpu_rng_state = get_generator_state(at::detail::getDefaultCPUGenerator());
    if (input.is_cuda() && at::detail::getCUDAHooks().hasCUDA()) {
      rec->cuda_device = input.get_device();
      rec->cuda_rng_state = get_generator_state(cuda_generator(rec->cuda_device));
    }
    rec->autocast_cpu = at::autocast::is_cpu_enabled();
    rec->autocast_cpu_dtype = at::autocast::get_autocast_cpu_dtype();
    rec->autocast_cuda = at::autocast::is_enabled();
    rec->autocast_cuda_dtype = at::autocast::get_autocast_gpu_dtype();

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
      RngFork rng(rec);
      AutocastReplay autocast(rec);
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
