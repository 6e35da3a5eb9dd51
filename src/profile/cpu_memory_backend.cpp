// The CPU memory backend over the tracking allocator, and the backend defaults shared by all.
#include <stdexcept>

#include "oomkit/core/memory_snapshot.h"
#include "oomkit/core/write_file.h"
#include "oomkit/profile/memory_backend.h"
#include "oomkit/profile/tracking_allocator.h"

namespace oomkit {

void MemoryBackend::record_memory_history(bool, int64_t) {
  throw std::runtime_error("memory history: not available on " + device());
}

MemorySnapshotInfo MemoryBackend::dump_memory_snapshot(const std::string&, bool) {
  throw std::runtime_error("memory snapshot: not available on " + device());
}

namespace {

/// CPU: allocated = reserved = active (no cache between tensors and malloc), no split blocks.
class CpuMemoryBackend final : public MemoryBackend {
 public:
  std::string device() const override { return "cpu"; }

  MemoryStats snapshot() const override {
    const CpuAllocatorCounters c = cpu_allocator_counters();
    MemoryStats s;
    s.allocated_bytes = {c.allocated_bytes, c.peak_allocated_bytes};
    s.reserved_bytes = s.allocated_bytes;
    s.active_bytes = s.allocated_bytes;
    s.inactive_split_bytes = {0, 0};
    s.num_allocs = c.num_allocs;
    s.num_frees = c.num_frees;
    s.num_ooms = c.num_ooms;
    s.num_alloc_retries = 0;
    s.limit_bytes = c.limit_bytes;
    const HostMemoryInfo host = read_host_memory_info();
    s.device_total_bytes = host.total_bytes;
    s.device_free_bytes = host.available_bytes;
    s.process_rss_bytes = read_process_rss_bytes();
    return s;
  }

  void reset_peak() override { reset_cpu_allocator_peak(); }

  void set_limit_bytes(int64_t limit_bytes) override { set_cpu_allocator_limit_bytes(limit_bytes); }

  std::optional<LiveOom> last_oom() const override {
    try {
      return cpu_allocator_last_oom();
    } catch (...) {
      return std::nullopt;
    }
  }

  void clear_last_oom() override { clear_cpu_allocator_last_oom(); }

  bool supports_memory_history() const override { return true; }

  void record_memory_history(bool enabled, int64_t max_entries) override {
    if (enabled) {
      start_cpu_allocator_history(max_entries);
    } else {
      stop_cpu_allocator_history();
    }
  }

  MemorySnapshotInfo dump_memory_snapshot(const std::string& path, bool segments_at_oom) override {
    const MemorySnapshotData data = cpu_allocator_snapshot(segments_at_oom);
    write_file_durably(path, {memory_snapshot_pickle(data)}, "--memory-snapshot");
    MemorySnapshotInfo info;
    info.path = path;
    info.segments = static_cast<int64_t>(data.segments.size());
    info.reserved_bytes = snapshot_reserved_bytes(data);
    info.allocated_bytes = data.allocated_bytes;
    info.trace_entries = static_cast<int64_t>(data.trace.size());
    info.dropped_entries = data.dropped_entries;
    info.segments_at = data.segments_at;
    return info;
  }

  void set_allocation_phase(std::string_view phase, int64_t step) noexcept override {
    set_cpu_allocator_phase(phase, step);
  }
};

}  // namespace

std::unique_ptr<MemoryBackend> make_cpu_memory_backend() {
  install_tracking_cpu_allocator();
  return std::make_unique<CpuMemoryBackend>();
}

#ifndef OOMKIT_WITH_CUDA
// Built against a CPU-only LibTorch: src/profile/cuda/ is not compiled.
std::unique_ptr<MemoryBackend> make_cuda_memory_backend(int index) {
  throw std::runtime_error("CUDA backend for cuda:" + std::to_string(index) +
                           ": oomkit was built against a LibTorch without CUDA");
}

bool cuda_memory_backend_available() { return false; }

std::optional<ComputeCapability> cuda_compute_capability(int /*index*/) { return std::nullopt; }
#endif

}  // namespace oomkit
