// The CUDA memory backend: the caching allocator's DeviceStats, cudaMemGetInfo, the memory
// fraction as the budget, and memory-history snapshots. The ONLY oomkit file that includes
// c10/cuda headers; compiled only when LibTorch has CUDA (CMakeLists.txt: src/profile/cuda/).
//
// Version notes (guarded with <torch/version.h>):
//  - DeviceStats moved from c10/cuda/CUDACachingAllocator.h (c10::cuda::CUDACachingAllocator)
//    to c10/core/CachingDeviceAllocator.h (c10::CachingDeviceAllocator) in 2.x; the CUDA
//    namespace keeps using-declarations and getDeviceStats() keeps its name, so the stats are
//    held in `auto` and indexed with 0 (StatType::AGGREGATE in every release).
//  - torch::cuda::_record_memory_history: (bool) in 1.13; (bool, record_context,
//    trace_alloc_max_entries, trace_alloc_record_context, ...) in 2.0-2.3; plus an overload
//    (enabled "all"|nullopt, context "all", stacks "all"|"python", max_entries) that
//    2.4 and later use and the memory viewer's stack traces need.
//  - c10's OOM observer (CUDACachingAllocator::attachOutOfMemoryObserver) exists from 2.0: it
//    is called with (device, rounded request, allowed-or-total bytes, free bytes) after the
//    allocator released its lock, so the DeviceStats read there are those at the failure. Its
//    std::function takes int64_t sizes in some releases and size_t in others: the observer is a
//    generic lambda. On 1.x last_oom() stays empty and the trainer parses the message.
#include <cuda_runtime_api.h>

#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAGuard.h>
#include <torch/csrc/cuda/memory_snapshot.h>
#include <torch/torch.h>
#include <torch/version.h>

#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>

#include "oomkit/core/error.h"
#include "oomkit/core/units.h"
#include "oomkit/core/write_file.h"
#include "oomkit/profile/memory_backend.h"
#include "oomkit/profile/tracking_allocator.h"

#define OOMKIT_TORCH_AT_LEAST(major, minor) \
  (TORCH_VERSION_MAJOR > (major) || (TORCH_VERSION_MAJOR == (major) && TORCH_VERSION_MINOR >= (minor)))

namespace oomkit {
namespace {

namespace cca = c10::cuda::CUDACachingAllocator;
constexpr size_t kAggregate = 0;  // StatType::AGGREGATE: all pools together

// The last OOM the caching allocator reported to the observer, per process.
std::mutex g_last_oom_mutex;
std::optional<LiveOom> g_last_oom;

#if OOMKIT_TORCH_AT_LEAST(2, 0)
void attach_oom_observer_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    cca::attachOutOfMemoryObserver([](int64_t device, auto requested, auto limit, auto /*device_free*/) {
      try {
        LiveOom r;
        r.requested_bytes = static_cast<int64_t>(requested);
        r.limit_bytes = static_cast<int64_t>(limit);
        r.device = "cuda:" + std::to_string(device);
        const auto stats = cca::getDeviceStats(static_cast<c10::DeviceIndex>(device));
        r.allocated_bytes = stats.allocated_bytes[kAggregate].current;
        r.reserved_bytes = stats.reserved_bytes[kAggregate].current;
        r.num_ooms = stats.num_ooms;
        std::lock_guard<std::mutex> lock(g_last_oom_mutex);
        g_last_oom = std::move(r);
      } catch (...) {
        // best effort: the allocator raises its OutOfMemoryError either way
      }
    });
  });
}
#endif

class CudaMemoryBackend final : public MemoryBackend {
 public:
  explicit CudaMemoryBackend(int index) : index_(static_cast<c10::DeviceIndex>(index)) {
    // The caching allocator initialises lazily with the first CUDA tensor; its statistics are
    // only defined after that, so create (and drop) one 1-element tensor on the device.
    torch::empty({1}, torch::TensorOptions().device(torch::kCUDA, index_));
#if OOMKIT_TORCH_AT_LEAST(2, 0)
    attach_oom_observer_once();
#endif
  }

  std::string device() const override { return "cuda:" + std::to_string(index_); }

  MemoryStats snapshot() const override {
    MemoryStats s;
    try {
      const auto stats = cca::getDeviceStats(index_);
      auto pair = [](const auto& stat_array) {
        return StatPair{stat_array[kAggregate].current, stat_array[kAggregate].peak};
      };
      s.allocated_bytes = pair(stats.allocated_bytes);
      s.reserved_bytes = pair(stats.reserved_bytes);
      s.active_bytes = pair(stats.active_bytes);
      s.inactive_split_bytes = pair(stats.inactive_split_bytes);
      s.num_allocs = stats.allocation[kAggregate].allocated;
      s.num_frees = stats.allocation[kAggregate].freed;
      s.num_ooms = stats.num_ooms;
      s.num_alloc_retries = stats.num_alloc_retries;
      s.limit_bytes = limit_bytes_;
      size_t free_bytes = 0;
      size_t total_bytes = 0;
      c10::cuda::CUDAGuard guard(index_);
      if (cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess) {
        s.device_free_bytes = static_cast<int64_t>(free_bytes);
        s.device_total_bytes = static_cast<int64_t>(total_bytes);
      } else {
        (void)cudaGetLastError();  // clear the sticky-free error state of a failed query
      }
      s.process_rss_bytes = read_process_rss_bytes();
    } catch (...) {
      // snapshot() never throws (memory_backend.h): a failed query leaves zeros.
    }
    return s;
  }

  void reset_peak() override { cca::resetPeakStats(index_); }

  void set_limit_bytes(int64_t limit_bytes) override {
    if (limit_bytes < 0) throw InputError("--memory-limit", "the budget must not be negative");
    size_t free_bytes = 0;
    size_t total_bytes = 0;
    {
      c10::cuda::CUDAGuard guard(index_);
      if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess || total_bytes == 0) {
        (void)cudaGetLastError();
        throw std::runtime_error("cudaMemGetInfo failed on " + device());
      }
    }
    const auto total = static_cast<int64_t>(total_bytes);
    if (limit_bytes > total) {
      throw InputError("--memory-limit",
                       format_bytes(limit_bytes) + " is more than " + device() + "'s capacity of " +
                           format_bytes(total),
                       "give at most " + format_bytes(total));
    }
    // The caching allocator allows fraction * total bytes of reserved memory
    // (torch.cuda.set_per_process_memory_fraction); 0 restores the whole device.
    const double fraction = limit_bytes == 0 ? 1.0 : static_cast<double>(limit_bytes) / static_cast<double>(total);
    cca::setMemoryFraction(fraction, index_);
    limit_bytes_ = limit_bytes;
  }

  void empty_cache() override { cca::emptyCache(); }

  std::optional<LiveOom> last_oom() const override {
    try {
      std::lock_guard<std::mutex> lock(g_last_oom_mutex);
      if (g_last_oom && g_last_oom->device == device()) return g_last_oom;
    } catch (...) {
    }
    return std::nullopt;
  }

  void clear_last_oom() override {
    std::lock_guard<std::mutex> lock(g_last_oom_mutex);
    g_last_oom.reset();
  }

  bool supports_memory_history() const override { return true; }

  void record_memory_history(bool enabled, int64_t max_entries) override {
    if (enabled && max_entries <= 0) {
      throw InputError("--memory-history", "keeps at least 1 event: " + std::to_string(max_entries));
    }
#if OOMKIT_TORCH_AT_LEAST(2, 4)
    torch::cuda::_record_memory_history(enabled ? std::optional<std::string>("all") : std::nullopt,
                                        std::optional<std::string>("all"), /*stacks=*/"all",
                                        static_cast<size_t>(max_entries > 0 ? max_entries : 1));
#elif OOMKIT_TORCH_AT_LEAST(2, 0)
    torch::cuda::_record_memory_history(enabled, /*record_context=*/true,
                                        /*trace_alloc_max_entries=*/max_entries > 0 ? max_entries : 1,
                                        /*trace_alloc_record_context=*/true);
#else
    (void)max_entries;  // 1.13 keeps per-block history without a trace-length bound
    torch::cuda::_record_memory_history(enabled);
#endif
  }

  MemorySnapshotInfo dump_memory_snapshot(const std::string& path, bool /*segments_at_oom*/) override {
    // The caching allocator keeps an OOM's segments reserved (cached), so the segments at the
    // dump already show what filled the device; its trace holds the "oom" entry.
    const std::string pickled = torch::cuda::_memory_snapshot_pickled();
    write_file_durably(path, {pickled}, "--memory-snapshot");
    MemorySnapshotInfo info;
    info.path = path;
    info.segments_at = "dump";
    try {
      const auto stats = cca::getDeviceStats(index_);
      info.reserved_bytes = stats.reserved_bytes[kAggregate].current;
      info.allocated_bytes = stats.allocated_bytes[kAggregate].current;
    } catch (...) {
    }
    return info;
  }

 private:
  c10::DeviceIndex index_;
  int64_t limit_bytes_ = 0;
};

}  // namespace

std::unique_ptr<MemoryBackend> make_cuda_memory_backend(int index) {
  const int count = static_cast<int>(c10::cuda::device_count());
  if (index < 0 || index >= count) {
    throw std::runtime_error("no CUDA device cuda:" + std::to_string(index) + " (" + std::to_string(count) +
                             " visible)");
  }
  return std::make_unique<CudaMemoryBackend>(index);
}

bool cuda_memory_backend_available() { return c10::cuda::device_count() > 0; }

std::optional<ComputeCapability> cuda_compute_capability(int index) {
  ComputeCapability cc;
  if (cudaDeviceGetAttribute(&cc.major, cudaDevAttrComputeCapabilityMajor, index) != cudaSuccess ||
      cudaDeviceGetAttribute(&cc.minor, cudaDevAttrComputeCapabilityMinor, index) != cudaSuccess) {
    (void)cudaGetLastError();  // clear the sticky-free error so later calls do not see it
    return std::nullopt;
  }
  return cc;
}

}  // namespace oomkit
