// The tracking CPU allocator (see include/oomkit/profile/tracking_allocator.h).
//
// Each tracked block is laid out as [64-byte header][nbytes of tensor data]; the header holds
// the requested size and the base allocator's own deleter and context. The DataPtr handed to
// LibTorch has data == context == the tensor data, so the raw_allocate()/raw_deallocate()
// interface keeps working, and freeing needs no lookup table or lock: the deleter steps back
// 64 bytes, uncounts the size and calls the base deleter. 64 bytes keeps c10's gAlignment.
#include "oomkit/profile/tracking_allocator.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include <c10/core/CPUAllocator.h>
#include <c10/util/Exception.h>
#include <fmt/format.h>

#include "oomkit/core/error.h"
#include "oomkit/core/units.h"

namespace oomkit {
namespace {

constexpr size_t kHeaderBytes = 64;
static_assert(kHeaderBytes % c10::gAlignment == 0, "header must keep c10's alignment");

struct BlockHeader {
  size_t nbytes;                   // requested size, as counted
  c10::DeleterFnPtr base_deleter;  // the wrapped allocator's deleter ...
  void* base_context;              // ... and its context for this block
};
static_assert(sizeof(BlockHeader) <= kHeaderBytes, "header too large");

// Counters: relaxed atomics are enough (each is a sum; readers want a recent value, not an
// ordering with tensor data). Peak is a fetch-max by compare-exchange.
std::atomic<int64_t> g_allocated_bytes{0};
std::atomic<int64_t> g_peak_allocated_bytes{0};
std::atomic<int64_t> g_num_allocs{0};
std::atomic<int64_t> g_num_frees{0};
std::atomic<int64_t> g_num_ooms{0};
std::atomic<int64_t> g_limit_bytes{0};
std::atomic<bool> g_installed{false};

// The last refused allocation: written on the (rare) OOM path only, under a mutex.
std::mutex g_last_oom_mutex;
std::optional<LiveOom> g_last_oom;

void record_oom(int64_t requested, int64_t limit, int64_t allocated, int64_t num_ooms) noexcept {
  try {
    LiveOom r;
    r.requested_bytes = requested;
    r.limit_bytes = limit;
    r.allocated_bytes = allocated;
    r.reserved_bytes = allocated;  // nothing cached between tensors and malloc
    r.device = "cpu";
    r.num_ooms = num_ooms;
    std::lock_guard<std::mutex> lock(g_last_oom_mutex);
    g_last_oom = std::move(r);
  } catch (...) {
    // the record is best effort; the OOM itself is still raised
  }
}

void raise_peak(int64_t value) noexcept {
  int64_t peak = g_peak_allocated_bytes.load(std::memory_order_relaxed);
  while (value > peak &&
         !g_peak_allocated_bytes.compare_exchange_weak(peak, value, std::memory_order_relaxed)) {
  }
}

void tracked_delete(void* data) {
  if (data == nullptr) return;
  auto* base = static_cast<char*>(data) - kHeaderBytes;
  BlockHeader header;
  std::memcpy(&header, base, sizeof(header));
  g_allocated_bytes.fetch_sub(static_cast<int64_t>(header.nbytes), std::memory_order_relaxed);
  g_num_frees.fetch_add(1, std::memory_order_relaxed);
  header.base_deleter(header.base_context);
}

class TrackingCpuAllocator final : public c10::Allocator {
 public:
  explicit TrackingCpuAllocator(c10::Allocator* base) : base_(base) {}

  c10::DataPtr allocate(size_t nbytes) const override {
    // Zero-byte storages: the default allocator returns a null DataPtr; nothing to count.
    if (nbytes == 0) return base_->allocate(0);
    const auto n = static_cast<int64_t>(nbytes);
    const int64_t after = g_allocated_bytes.fetch_add(n, std::memory_order_relaxed) + n;
    const int64_t limit = g_limit_bytes.load(std::memory_order_relaxed);
    if (limit > 0 && after > limit) {
      g_allocated_bytes.fetch_sub(n, std::memory_order_relaxed);
      const int64_t ooms = g_num_ooms.fetch_add(1, std::memory_order_relaxed) + 1;
      record_oom(n, limit, after - n, ooms);
      C10_THROW_ERROR(OutOfMemoryError, cpu_oom_message(n, limit, after - n));
    }
    c10::DataPtr inner;
    try {
      inner = base_->allocate(nbytes + kHeaderBytes);
    } catch (...) {
      g_allocated_bytes.fetch_sub(n, std::memory_order_relaxed);
      const int64_t ooms = g_num_ooms.fetch_add(1, std::memory_order_relaxed) + 1;
      record_oom(n, limit, after - n, ooms);
      throw;
    }
    raise_peak(after);
    g_num_allocs.fetch_add(1, std::memory_order_relaxed);
    auto* base = static_cast<char*>(inner.get());
    const c10::Device device = inner.device();
    BlockHeader header{nbytes, inner.get_deleter(), inner.release_context()};
    std::memcpy(base, &header, sizeof(header));
    void* data = base + kHeaderBytes;
    return {data, data, &tracked_delete, device};
  }

  c10::DeleterFnPtr raw_deleter() const override { return &tracked_delete; }

 private:
  c10::Allocator* base_;
};

// Reads a small /proc file through a descriptor kept open for the process (pread at offset 0
// regenerates procfs content), so a snapshot costs one syscall instead of open/read/close.
class ProcFile {
 public:
  explicit ProcFile(const char* path) : fd_(::open(path, O_RDONLY | O_CLOEXEC)) {}
  ~ProcFile() {
    if (fd_ >= 0) ::close(fd_);
  }
  ProcFile(const ProcFile&) = delete;
  ProcFile& operator=(const ProcFile&) = delete;
  // Returns the bytes read into buf (NUL-terminated), 0 on failure.
  size_t read(char* buf, size_t capacity) const noexcept {
    if (fd_ < 0 || capacity == 0) return 0;
    const ssize_t n = ::pread(fd_, buf, capacity - 1, 0);
    if (n <= 0) return 0;
    buf[n] = '\0';
    return static_cast<size_t>(n);
  }

 private:
  int fd_;
};

// "Key:   12345 kB" -> 12345 * 1024; 0 if absent.
int64_t meminfo_field_bytes(const char* text, const char* key) noexcept {
  const char* p = std::strstr(text, key);
  if (p == nullptr) return 0;
  p += std::strlen(key);
  char* end = nullptr;
  const long long kib = std::strtoll(p, &end, 10);
  if (end == p || kib < 0) return 0;
  return static_cast<int64_t>(kib) * kKiB;
}

}  // namespace

void install_tracking_cpu_allocator() {
  static std::once_flag once;
  std::call_once(once, [] {
    // The tracker must live for the whole process: storages outlive any owner we could give it.
    static TrackingCpuAllocator tracker(c10::GetCPUAllocator());
    c10::SetCPUAllocator(&tracker, /*priority=*/0);
    g_installed.store(c10::GetCPUAllocator() == &tracker, std::memory_order_release);
  });
}

bool tracking_cpu_allocator_installed() { return g_installed.load(std::memory_order_acquire); }

CpuAllocatorCounters cpu_allocator_counters() noexcept {
  CpuAllocatorCounters c;
  c.allocated_bytes = g_allocated_bytes.load(std::memory_order_relaxed);
  c.peak_allocated_bytes = std::max(g_peak_allocated_bytes.load(std::memory_order_relaxed), c.allocated_bytes);
  c.num_allocs = g_num_allocs.load(std::memory_order_relaxed);
  c.num_frees = g_num_frees.load(std::memory_order_relaxed);
  c.num_ooms = g_num_ooms.load(std::memory_order_relaxed);
  c.limit_bytes = g_limit_bytes.load(std::memory_order_relaxed);
  return c;
}

std::optional<LiveOom> cpu_allocator_last_oom() {
  std::lock_guard<std::mutex> lock(g_last_oom_mutex);
  return g_last_oom;
}

void clear_cpu_allocator_last_oom() noexcept {
  std::lock_guard<std::mutex> lock(g_last_oom_mutex);
  g_last_oom.reset();
}

void reset_cpu_allocator_peak() noexcept {
  g_peak_allocated_bytes.store(g_allocated_bytes.load(std::memory_order_relaxed), std::memory_order_relaxed);
}

void set_cpu_allocator_limit_bytes(int64_t limit_bytes) {
  if (limit_bytes < 0) {
    throw InputError("--memory-limit", "the budget must not be negative: " + std::to_string(limit_bytes));
  }
  g_limit_bytes.store(limit_bytes, std::memory_order_relaxed);
}

std::string cpu_oom_message(int64_t requested_bytes, int64_t limit_bytes, int64_t allocated_bytes) {
  const int64_t free_bytes = std::max<int64_t>(0, limit_bytes - allocated_bytes);
  return fmt::format(
      "CPU out of memory (oomkit --memory-limit). Tried to allocate {}. CPU 0 has a total capacity of {} "
      "of which {} is free. Of the allocated memory {} is allocated by PyTorch, and {} is reserved by "
      "PyTorch but unallocated.",
      format_bytes_pytorch(requested_bytes), format_bytes_pytorch(limit_bytes), format_bytes_pytorch(free_bytes),
      format_bytes_pytorch(allocated_bytes), format_bytes_pytorch(0));
}

int64_t read_process_rss_bytes() noexcept {
  static const ProcFile statm("/proc/self/statm");
  static const long page_bytes = ::sysconf(_SC_PAGESIZE);
  char buf[128];
  if (statm.read(buf, sizeof(buf)) == 0) return 0;
  // statm: size resident shared text lib data dt (pages)
  char* end = nullptr;
  std::strtoll(buf, &end, 10);
  if (end == buf) return 0;
  const char* p = end;
  const long long resident = std::strtoll(p, &end, 10);
  if (end == p || resident < 0) return 0;
  return static_cast<int64_t>(resident) * page_bytes;
}

HostMemoryInfo read_host_memory_info() noexcept {
  static const ProcFile meminfo("/proc/meminfo");
  char buf[8192];
  HostMemoryInfo info;
  if (meminfo.read(buf, sizeof(buf)) == 0) return info;
  info.total_bytes = meminfo_field_bytes(buf, "MemTotal:");
  info.available_bytes = meminfo_field_bytes(buf, "MemAvailable:");
  return info;
}

}  // namespace oomkit
