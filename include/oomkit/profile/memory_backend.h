// Where memory statistics come from. Torch-free interface; the implementations live in
// src/profile/ (CPU: a tracking c10::Allocator; CUDA: the caching allocator's DeviceStats).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "oomkit/core/live_oom.h"
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
  /// The typed record of the last allocation the backend refused since clear_last_oom() (phase
  /// left empty: the trainer knows it). CPU: always; CUDA: with LibTorch >= 2.0 (c10's OOM
  /// observer), nullopt on 1.x, where the caller parses the message. Never throws.
  virtual std::optional<LiveOom> last_oom() const { return std::nullopt; }
  /// Forgets the last record (the trainer calls it before each step). Never throws.
  virtual void clear_last_oom() {}

  /// True when the backend can record allocation history (the CUDA backend).
  virtual bool supports_memory_history() const { return false; }
  /// Starts (enabled) or stops recording every allocation and free with its stack, keeping at
  /// most `max_entries` events (torch.cuda.memory._record_memory_history). Throws
  /// std::runtime_error when supports_memory_history() is false.
  virtual void record_memory_history(bool enabled, int64_t max_entries = 100000);
  /// Writes the recorded history and the allocator's segments to `path` in the pickle format
  /// that https://pytorch.org/memory_viz reads (torch.cuda.memory._dump_snapshot). Throws
  /// std::runtime_error when unsupported, InputError(path) when the file cannot be written.
  virtual void dump_memory_snapshot(const std::string& path);
};

/// The CPU backend's OOM message template and counters are documented in
/// oomkit/profile/tracking_allocator.h (cpu_oom_message()): the budget raises
/// c10::OutOfMemoryError whose what_without_backtrace() starts with
///   "CPU out of memory (oomkit --memory-limit). Tried to allocate <X>. CPU 0 has a total
///    capacity of <Y> of which <Z> is free. Of the allocated memory <A> is allocated by
///    PyTorch, and 0 bytes is reserved by PyTorch but unallocated."
/// with sizes formatted by format_bytes_pytorch() ("N bytes", "x.xx KiB|MiB|GiB").

/// The CPU backend. Installs oomkit's tracking allocator with c10::SetCPUAllocator the first
/// time it is called (process-wide, idempotent); tensors allocated before that are not counted.
std::unique_ptr<MemoryBackend> make_cpu_memory_backend();

/// The CUDA backend for device `index`. Throws std::runtime_error when oomkit was built
/// without CUDA or no such device exists.
std::unique_ptr<MemoryBackend> make_cuda_memory_backend(int index);

/// True when built with the CUDA backend and a device is present.
bool cuda_memory_backend_available();

}  // namespace oomkit
