// Where memory statistics come from. Torch-free interface; the implementations live in
// src/profile/ (CPU: a tracking c10::Allocator; CUDA: the caching allocator's DeviceStats).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "oomkit/core/live_oom.h"
#include "oomkit/core/memory_stats.h"
#include "oomkit/estimate/precision_auto.h"  // ComputeCapability

namespace oomkit {

/// What dump_memory_snapshot() wrote (-1: not known for this backend).
struct MemorySnapshotInfo {
  std::string path;
  int64_t segments = -1;
  int64_t reserved_bytes = -1;     // sum of the segments' total_size
  int64_t allocated_bytes = -1;    // the backend's allocated_bytes when the segments were taken
  int64_t trace_entries = -1;
  int64_t dropped_entries = -1;    // older entries pushed out by the --memory-history bound
  std::string segments_at;         // "dump" or "oom"
};

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

  /// True when the backend can record allocation history (both backends; a custom one may not).
  virtual bool supports_memory_history() const { return false; }
  /// Starts (enabled) or stops recording every allocation and free with its frames, keeping at
  /// most `max_entries` trace entries (torch.cuda.memory._record_memory_history(max_entries=N)).
  /// CPU: the tracking allocator's recorder (tracking_allocator.h); CUDA: the caching
  /// allocator's history. Throws std::runtime_error when supports_memory_history() is false,
  /// InputError("--memory-history") for max_entries <= 0 when enabling.
  virtual void record_memory_history(bool enabled, int64_t max_entries = 100000);
  /// Writes the recorded history and the allocator's segments to `path` (atomically: a .tmp
  /// file renamed) as the pickle torch.cuda.memory._dump_snapshot writes, which
  /// https://pytorch.org/memory_viz reads. CPU: with `segments_at_oom`, the segments are those
  /// of the first OOM raised while recording (core/memory_snapshot.h). Returns what it wrote.
  /// Throws std::runtime_error when unsupported, InputError("--memory-snapshot") when the file
  /// cannot be written.
  virtual MemorySnapshotInfo dump_memory_snapshot(const std::string& path, bool segments_at_oom = false);
  /// Names what the process is doing for the frames of later allocations ("forward",
  /// "backward", ... of optimizer step `step`); the profiler calls it at each mark. Only the
  /// CPU recorder uses it. Never throws.
  virtual void set_allocation_phase(std::string_view /*phase*/, int64_t /*step*/) noexcept {}
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

/// The compute capability of CUDA device `index` (cudaDevAttrComputeCapabilityMajor/Minor), for
/// `--precision auto`; nullopt when built without CUDA or the device does not answer.
std::optional<ComputeCapability> cuda_compute_capability(int index);

/// True when built with the CUDA backend and a device is present.
bool cuda_memory_backend_available();

}  // namespace oomkit
