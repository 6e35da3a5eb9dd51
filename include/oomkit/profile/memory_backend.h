// Where memory statistics come from. Torch-free interface; the implementations live in
// src/profile/ (CPU: a tracking c10::Allocator; CUDA: the caching allocator's DeviceStats).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "oomkit/core/memory_stats.h"

namespace oomkit {

class MemoryBackend {
 public:
  virtual ~MemoryBackend() = default;
  /// "cpu" or "cuda:N".
  virtual std::string device() const = 0;
  /// Current statistics, PyTorch names, bytes. Never throws.
  virtual MemoryStats snapshot() const = 0;
  /// Resets every StatPair's peak to its current value (torch.cuda.reset_peak_memory_stats()).
  virtual void reset_peak() = 0;
  /// Budget in bytes (0 removes it). CPU: an allocation that would take allocated_bytes past it
  /// raises c10::OutOfMemoryError in PyTorch's CUDA OOM wording. CUDA: the allocator's
  /// per-process memory fraction, limit / total.
  virtual void set_limit_bytes(int64_t limit_bytes) = 0;
  /// Frees cached, unused blocks (torch.cuda.empty_cache()); no-op on CPU.
  virtual void empty_cache() {}
};

/// The CPU backend. Installs oomkit's tracking allocator with c10::SetCPUAllocator the first
/// time it is called (process-wide, idempotent); tensors allocated before that are not counted.
std::unique_ptr<MemoryBackend> make_cpu_memory_backend();

/// The CUDA backend for device `index`. Throws std::runtime_error when oomkit was built
/// without CUDA or no such device exists.
std::unique_ptr<MemoryBackend> make_cuda_memory_backend(int index);

/// True when built with the CUDA backend and a device is present.
bool cuda_memory_backend_available();

}  // namespace oomkit
