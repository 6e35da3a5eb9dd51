// One helper for the thread- and process-wide state a training step depends on besides its
// tensors: the default random generators (CPU, and the CUDA device's when it has one) and the
// autocast state. Used by the trainer (autocast around forward + loss), activation
// checkpointing (the recompute in backward replays both), the OOM retry (the step's RNG put
// back before the retry) and saved-run checkpoints (--save / --resume keep both generators).
#pragma once

#include <ATen/ATen.h>

namespace oomkit {

/// The default generators' states, as at::Generator::get_state() returns them (uint8 tensors).
struct RngState {
  at::Tensor cpu;        // always defined once captured
  at::Tensor cuda;       // undefined unless captured for a CUDA device
  int cuda_device = -1;  // the device whose generator `cuda` holds
};

/// Captures the CPU generator, and the default generator of CUDA device `cuda_device` when it
/// is >= 0 and this LibTorch has CUDA (otherwise `cuda` stays undefined). Thread-safe (each
/// generator's own mutex). Never throws for a CPU-only build.
RngState capture_rng_state(int cuda_device = -1);

/// Sets every generator `state` holds (undefined members are left alone).
void restore_rng_state(const RngState& state);

/// Sets `state` for its lifetime and puts the caller's states back on destruction: the RNG
/// fork of activation checkpointing's recompute, so the run's random sequence is the same with
/// and without checkpointing (torch.utils.checkpoint's preserve_rng_state).
class RngFork {
 public:
  explicit RngFork(const RngState& state);
  ~RngFork();
  RngFork(const RngFork&) = delete;
  RngFork& operator=(const RngFork&) = delete;

 private:
  RngState caller_;
};

/// The autocast state of both device types (at::autocast's thread-local flags and dtypes).
struct AutocastState {
  bool cpu_enabled = false;
  at::ScalarType cpu_dtype = at::kBFloat16;
  bool cuda_enabled = false;
  at::ScalarType cuda_dtype = at::kHalf;

  /// The current thread's state.
  static AutocastState current();
  /// The current state with autocast switched on for `device`'s type in `dtype`.
  static AutocastState enabled_for(const at::Device& device, at::ScalarType dtype);
};

/// Sets `state` for its lifetime, as Python's `with torch.autocast(...)`: the nesting count goes
/// up, and on exit it drops and, at zero, the cache of low-precision weight copies is cleared
/// (the graph keeps the copies it saved until backward); the previous state comes back.
class AutocastGuard {
 public:
  explicit AutocastGuard(const AutocastState& state);
  ~AutocastGuard();
  AutocastGuard(const AutocastGuard&) = delete;
  AutocastGuard& operator=(const AutocastGuard&) = delete;

 private:
  AutocastState previous_;
};

}  // namespace oomkit
