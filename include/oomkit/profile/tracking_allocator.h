// oomkit's tracking CPU allocator: a c10::Allocator that wraps LibTorch's default CPU allocator
// and counts the bytes of every live tensor storage exactly, with an optional budget that turns
// an over-budget allocation into a c10::OutOfMemoryError worded like PyTorch 2.x's CUDA OOM.
// Torch-free interface (counters and /proc readers); the allocator itself is in
// src/profile/tracking_allocator.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "oomkit/core/live_oom.h"
#include "oomkit/core/memory_snapshot.h"

namespace oomkit {

/// The counters of the tracking allocator, bytes and counts since the process started (peak:
/// since the last reset). Exactly the requested nbytes of each storage: the 64-byte header the
/// allocator puts before each block to remember its size is not counted (PyTorch's
/// "requested_bytes" convention on CUDA; its "allocated_bytes" also rounds to 512).
struct CpuAllocatorCounters {
  int64_t allocated_bytes = 0;       // bytes in live storages allocated through the tracker
  int64_t peak_allocated_bytes = 0;  // highest allocated_bytes since the last reset
  int64_t num_allocs = 0;            // successful allocations of more than 0 bytes
  int64_t num_frees = 0;             // frees of tracked storages
  int64_t num_ooms = 0;              // allocations refused (budget) or failed (base allocator)
  int64_t limit_bytes = 0;           // the budget; 0: none
};

/// Installs the tracking allocator with c10::SetCPUAllocator the first time (process-wide,
/// thread-safe, idempotent); later calls do nothing. Storages allocated before the first call
/// keep the default allocator's deleter and are never counted.
void install_tracking_cpu_allocator();

/// True once install_tracking_cpu_allocator() ran and the tracker is c10's CPU allocator.
bool tracking_cpu_allocator_installed();

/// Reads the counters (atomic loads; never throws). Zeros before installation.
CpuAllocatorCounters cpu_allocator_counters() noexcept;

/// Sets peak_allocated_bytes to the current allocated_bytes (torch.cuda.reset_peak_memory_stats()).
void reset_cpu_allocator_peak() noexcept;

/// Sets the budget: an allocation that would take allocated_bytes past `limit_bytes` throws
/// c10::OutOfMemoryError with cpu_oom_message() and counts in num_ooms; nothing is allocated.
/// 0 removes the budget. Throws InputError("--memory-limit") for a negative value.
void set_cpu_allocator_limit_bytes(int64_t limit_bytes);

/// The last refused allocation (budget, or the base allocator failing) since
/// clear_cpu_allocator_last_oom(): requested, budget (0: none), allocated = reserved before the
/// request, device "cpu", num_ooms counting it. Never throws.
std::optional<LiveOom> cpu_allocator_last_oom();
void clear_cpu_allocator_last_oom() noexcept;

/// The budget's OOM message, PyTorch 2.x's CUDA OOM sentence structure with CPU nouns
/// (parsed by the diagnose module as the "oomkit CPU budget" family). Exact template, sizes
/// through format_bytes_pytorch():
///
///   CPU out of memory (oomkit --memory-limit). Tried to allocate <requested>. CPU 0 has a
///   total capacity of <limit> of which <limit - allocated> is free. Of the allocated memory
///   <allocated> is allocated by PyTorch, and 0 bytes is reserved by PyTorch but unallocated.
///
/// (one line; "reserved but unallocated" is always "0 bytes" on CPU: nothing is cached).
/// `allocated_bytes` is the tracked allocation before the refused request; free is clamped at 0.
std::string cpu_oom_message(int64_t requested_bytes, int64_t limit_bytes, int64_t allocated_bytes);

/// Starts recording memory history (torch.cuda.memory._record_memory_history(max_entries=N)
/// for the CPU): every storage allocated from now on is listed until it is freed, and each
/// allocation, free and refused allocation becomes trace entries (segment_alloc + alloc;
/// free_requested + free_completed + segment_free; oom), of which the newest `max_entries` are
/// kept. Frames: the ops running on the allocating thread (at::RecordFunction global callback,
/// added here and removed by stop; innermost first, at most 6, {"oomkit/op", 0, name}) and the
/// phase set by set_cpu_allocator_phase() ({"oomkit/step", step, phase}). Starting again clears
/// the trace. Throws InputError("--memory-history") when max_entries <= 0.
void start_cpu_allocator_history(int64_t max_entries);
/// Stops recording (the recorded data stays for cpu_allocator_snapshot()).
void stop_cpu_allocator_history();
bool cpu_allocator_history_recording() noexcept;
/// The phase frame of later allocations and frees: what the process is doing ("forward",
/// "backward", ...) in optimizer step `step`. No-op unless recording. Never throws.
void set_cpu_allocator_phase(std::string_view phase, int64_t step) noexcept;
/// The recording as a memory_viz snapshot: segments = the live recorded storages (one block
/// each, allocated = reserved; storages allocated before recording began are not listed), with
/// allocated_bytes the counter read under the same lock. With `segments_at_oom` and an OOM
/// raised since recording began, the segments and counters are those at the first such OOM
/// (segments_at "oom"). The trace is oldest first.
MemorySnapshotData cpu_allocator_snapshot(bool segments_at_oom);

/// Resident set size of this process: /proc/self/statm's second field times the page size.
/// Returns 0 when /proc is unreadable (never throws).
int64_t read_process_rss_bytes() noexcept;

/// /proc/meminfo's MemTotal and MemAvailable, in bytes; zeros when unreadable (never throws).
struct HostMemoryInfo {
  int64_t total_bytes = 0;
  int64_t available_bytes = 0;
};
HostMemoryInfo read_host_memory_info() noexcept;

}  // namespace oomkit
