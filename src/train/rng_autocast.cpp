// RNG and autocast state (see include/oomkit/train/rng_autocast.h).
#include "oomkit/train/rng_autocast.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/autocast_mode.h>
#include <ATen/detail/CUDAHooksInterface.h>
#include <torch/version.h>

#include <mutex>

namespace oomkit {
namespace {

at::Tensor get_generator_state(at::Generator gen) {  // a handle: copies share the generator
  std::lock_guard<std::mutex> lock(gen.mutex());
  return gen.get_state();
}

void set_generator_state(at::Generator gen, const at::Tensor& state) {
  std::lock_guard<std::mutex> lock(gen.mutex());
  gen.set_state(state);
}

const at::Generator& cuda_generator(int device) {
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
  // LibTorch 2.4+: CUDAHooksInterface is an AcceleratorHooksInterface (getDefaultGenerator).
  return at::detail::getCUDAHooks().getDefaultGenerator(static_cast<c10::DeviceIndex>(device));
#else
  return at::detail::getCUDAHooks().getDefaultCUDAGenerator(static_cast<c10::DeviceIndex>(device));
#endif
}

// LibTorch 2.4+ (PyTorch PR #124359; aten/src/ATen/autocast_mode.h): one autocast API taking the
// device type; the CPU- and CUDA-specific ones are deprecated and warn when called.
#define OOMKIT_AUTOCAST_BY_DEVICE_TYPE \
  (TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4))

void set_autocast(const AutocastState& s) {
#if OOMKIT_AUTOCAST_BY_DEVICE_TYPE
  at::autocast::set_autocast_enabled(at::kCPU, s.cpu_enabled);
  at::autocast::set_autocast_dtype(at::kCPU, s.cpu_dtype);
  at::autocast::set_autocast_enabled(at::kCUDA, s.cuda_enabled);
  at::autocast::set_autocast_dtype(at::kCUDA, s.cuda_dtype);
#else
  at::autocast::set_cpu_enabled(s.cpu_enabled);
  at::autocast::set_autocast_cpu_dtype(s.cpu_dtype);
  at::autocast::set_enabled(s.cuda_enabled);
  at::autocast::set_autocast_gpu_dtype(s.cuda_dtype);
#endif
}

}  // namespace

RngState capture_rng_state(int cuda_device) {
  RngState s;
  s.cpu = get_generator_state(at::detail::getDefaultCPUGenerator());
  if (cuda_device >= 0 && at::detail::getCUDAHooks().hasCUDA()) {
    s.cuda_device = cuda_device;
    s.cuda = get_generator_state(cuda_generator(cuda_device));
  }
  return s;
}

void restore_rng_state(const RngState& s) {
  if (s.cpu.defined()) set_generator_state(at::detail::getDefaultCPUGenerator(), s.cpu);
  if (s.cuda.defined()) set_generator_state(cuda_generator(s.cuda_device), s.cuda);
}

RngFork::RngFork(const RngState& state) : caller_(capture_rng_state(state.cuda.defined() ? state.cuda_device : -1)) {
  restore_rng_state(state);
}

RngFork::~RngFork() { restore_rng_state(caller_); }

AutocastState AutocastState::current() {
  AutocastState s;
#if OOMKIT_AUTOCAST_BY_DEVICE_TYPE
  s.cpu_enabled = at::autocast::is_autocast_enabled(at::kCPU);
  s.cpu_dtype = at::autocast::get_autocast_dtype(at::kCPU);
  s.cuda_enabled = at::autocast::is_autocast_enabled(at::kCUDA);
  s.cuda_dtype = at::autocast::get_autocast_dtype(at::kCUDA);
#else
  s.cpu_enabled = at::autocast::is_cpu_enabled();
  s.cpu_dtype = at::autocast::get_autocast_cpu_dtype();
  s.cuda_enabled = at::autocast::is_enabled();
  s.cuda_dtype = at::autocast::get_autocast_gpu_dtype();
#endif
  return s;
}

AutocastState AutocastState::enabled_for(const at::Device& device, at::ScalarType dtype) {
  AutocastState s = current();
  if (device.is_cuda()) {
    s.cuda_enabled = true;
    s.cuda_dtype = dtype;
  } else {
    s.cpu_enabled = true;
    s.cpu_dtype = dtype;
  }
  return s;
}

AutocastGuard::AutocastGuard(const AutocastState& state) : previous_(AutocastState::current()) {
  set_autocast(state);
  at::autocast::increment_nesting();
}

AutocastGuard::~AutocastGuard() {
  if (at::autocast::decrement_nesting() == 0) at::autocast::clear_cache();
  set_autocast(previous_);
}

}  // namespace oomkit
