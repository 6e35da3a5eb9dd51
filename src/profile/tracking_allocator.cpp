// The tracking CPU allocator (see include/oomkit/profile/tracking_allocator.h).
//
// Each tracked block is laid out as [64-byte header][nbytes of tensor data]; the header holds
// the requested size and the base allocator's own deleter and context. The DataPtr handed to
// LibTorch has data == context == the tensor data, so the raw_allocate()/raw_deallocate()
// interface keeps working, and freeing needs no lookup table or lock: the deleter steps back
// 64 bytes, uncounts the size and calls the base deleter. 64 bytes keeps c10's gAlignment.
//
// Memory history (start_cpu_allocator_history): while it records, each new block is linked
// into a list of live recorded blocks through its header (so a snapshot lists them without a
// table), and allocations, frees and refusals are appended to a bounded trace, each with its
// frames: the ops on the allocating thread (at::RecordFunction callbacks, registered only while
// recording) and the training phase the profiler last announced. Those paths take one mutex;
// without recording the hot path is unchanged but for one relaxed load.
#include "oomkit/profile/tracking_allocator.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <new>
#include <vector>

#include <ATen/record_function.h>
#include <torch/version.h>
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
  BlockHeader* prev;               // the list of live recorded blocks (g_history.head) ...
  BlockHeader* next;
  int32_t frames;                  // ... the frame stack of its allocation (-1: none)
  bool listed;                     // in that list (allocated while recording)
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

// ---- memory history -------------------------------------------------------------------------
std::atomic<bool> g_recording{false};
std::atomic<uint64_t> g_op_generation{0};  // bumped at each start: stale thread-local op stacks reset

struct History {
  std::mutex mutex;
  BlockHeader* head = nullptr;  // live recorded blocks, newest first
  int64_t listed_bytes = 0;
  int64_t max_entries = 0;
  std::vector<SnapshotTraceEntry> ring;  // bounded trace; oldest at ring_next once full
  size_t ring_next = 0;
  int64_t pushed = 0;
  std::vector<std::vector<SnapshotFrame>> stacks;  // frame stacks, by id
  std::map<std::string, int32_t> stack_ids;        // their keys
  std::string phase;                               // the profiler's phase ("" before any)
  int64_t phase_step = 0;
  std::optional<MemorySnapshotData> at_oom;        // segments when the first OOM was raised
  at::CallbackHandle op_callback = 0;
  bool op_callback_added = false;
};
History& history() {
  static History* h = new History();  // never destroyed: blocks may be freed during exit
  return *h;
}

// The ops running on this thread, outermost first (names owned by their RecordFunction, alive
// while it runs). Reset when the generation changes, so names of an earlier recording are
// never read after their RecordFunctions ended without our end callback.
struct OpStack {
  uint64_t generation = 0;
  std::vector<const char*> names;
};
thread_local OpStack t_ops;

std::unique_ptr<at::ObserverContext> op_start(const at::RecordFunction& fn) {
  const uint64_t gen = g_op_generation.load(std::memory_order_relaxed);
  if (t_ops.generation != gen) {
    t_ops.names.clear();
    t_ops.generation = gen;
  }
  t_ops.names.push_back(fn.name());
  return nullptr;
}

void op_end(const at::RecordFunction&, at::ObserverContext*) {
  if (t_ops.generation == g_op_generation.load(std::memory_order_relaxed) && !t_ops.names.empty()) {
    t_ops.names.pop_back();
  }
}

constexpr size_t kMaxOpFrames = 6;  // innermost ops kept per allocation

int64_t now_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// The frame stack of the current context (this thread's ops, innermost first, then the phase),
// interned. Caller holds h.mutex.
int32_t current_frames(History& h) {
  std::vector<SnapshotFrame> frames;
  if (t_ops.generation == g_op_generation.load(std::memory_order_relaxed)) {
    const size_t n = t_ops.names.size();
    for (size_t k = 0; k < n && k < kMaxOpFrames; ++k) {
      const char* name = t_ops.names[n - 1 - k];
      frames.push_back(SnapshotFrame{"oomkit/op", 0, name != nullptr ? name : "?"});
    }
  }
  if (!h.phase.empty()) frames.push_back(SnapshotFrame{"oomkit/step", h.phase_step, h.phase});
  if (frames.empty()) return -1;
  std::string key;
  for (const SnapshotFrame& f : frames) {
    key += f.filename;
    key += '\x1f';
    key += std::to_string(f.line);
    key += '\x1f';
    key += f.name;
    key += '\x1e';
  }
  auto it = h.stack_ids.find(key);
  if (it != h.stack_ids.end()) return it->second;
  const auto id = static_cast<int32_t>(h.stacks.size());
  h.stacks.push_back(std::move(frames));
  h.stack_ids.emplace(std::move(key), id);
  return id;
}

// Caller holds h.mutex.
void push_trace(History& h, const SnapshotTraceEntry& e) {
  if (h.max_entries <= 0) return;
  if (h.ring.size() < static_cast<size_t>(h.max_entries)) {
    h.ring.push_back(e);
  } else {
    h.ring[h.ring_next] = e;
    h.ring_next = (h.ring_next + 1) % h.ring.size();
  }
  ++h.pushed;
}

// The live recorded blocks as segments (one block per segment: no cache), address order.
// Caller holds h.mutex.
std::vector<SnapshotSegment> listed_segments(const History& h) {
  std::vector<SnapshotSegment> segments;
  for (const BlockHeader* b = h.head; b != nullptr; b = b->next) {
    SnapshotSegment seg;
    seg.address = reinterpret_cast<uint64_t>(reinterpret_cast<const char*>(b) + kHeaderBytes);
    seg.total_size_bytes = static_cast<int64_t>(b->nbytes);
    SnapshotBlock block;
    block.address = seg.address;
    block.size_bytes = seg.total_size_bytes;
    block.requested_size_bytes = seg.total_size_bytes;
    block.frames = b->frames;
    seg.blocks.push_back(block);
    segments.push_back(std::move(seg));
  }
  std::sort(segments.begin(), segments.end(),
            [](const SnapshotSegment& a, const SnapshotSegment& b) { return a.address < b.address; });
  return segments;
}

// Records an allocation that was counted (links the block, traces segment_alloc + alloc).
void record_alloc(BlockHeader* header, void* data, size_t nbytes) noexcept {
  History& h = history();
  try {
    std::lock_guard<std::mutex> lock(h.mutex);
    if (!g_recording.load(std::memory_order_relaxed)) return;
    header->frames = current_frames(h);
    header->listed = true;
    header->prev = nullptr;
    header->next = h.head;
    if (h.head != nullptr) h.head->prev = header;
    h.head = header;
    h.listed_bytes += static_cast<int64_t>(nbytes);
    SnapshotTraceEntry e;
    e.addr = reinterpret_cast<uint64_t>(data);
    e.size_bytes = static_cast<int64_t>(nbytes);
    e.time_us = now_us();
    e.frames = header->frames;
    e.action = TraceAction::kSegmentAlloc;
    push_trace(h, e);
    e.action = TraceAction::kAlloc;
    push_trace(h, e);
  } catch (...) {
    // history is best effort: the allocation itself succeeded
  }
}

// Unlinks a listed block; traces free_requested + free_completed + segment_free while recording.
void record_free(BlockHeader* header, void* data) noexcept {
  const bool recording = g_recording.load(std::memory_order_relaxed);
  if (!header->listed && !recording) return;
  History& h = history();
  try {
    std::lock_guard<std::mutex> lock(h.mutex);
    if (header->listed) {
      if (header->prev != nullptr) header->prev->next = header->next;
      if (header->next != nullptr) header->next->prev = header->prev;
      if (h.head == header) h.head = header->next;
      header->listed = false;
      h.listed_bytes -= static_cast<int64_t>(header->nbytes);
    }
    if (!g_recording.load(std::memory_order_relaxed)) return;
    SnapshotTraceEntry e;
    e.addr = reinterpret_cast<uint64_t>(data);
    e.size_bytes = static_cast<int64_t>(header->nbytes);
    e.time_us = now_us();
    e.frames = current_frames(h);
    for (TraceAction a : {TraceAction::kFreeRequested, TraceAction::kFreeCompleted, TraceAction::kSegmentFree}) {
      e.action = a;
      push_trace(h, e);
    }
  } catch (...) {
  }
}

// Traces a refused allocation; the first one since recording began also keeps the segments of
// that moment (what a user wants to see after an OOM: the tensors that filled the budget).
void record_refusal(int64_t requested, int64_t limit, int64_t allocated) noexcept {
  if (!g_recording.load(std::memory_order_relaxed)) return;
  History& h = history();
  try {
    std::lock_guard<std::mutex> lock(h.mutex);
    SnapshotTraceEntry e;
    e.action = TraceAction::kOom;
    e.size_bytes = requested;
    e.device_free_bytes = limit > 0 ? std::max<int64_t>(0, limit - allocated) : 0;
    e.time_us = now_us();
    e.frames = current_frames(h);
    push_trace(h, e);
    if (!h.at_oom) {
      MemorySnapshotData d;
      d.segments = listed_segments(h);
      d.allocated_bytes = allocated;
      d.reserved_bytes = allocated;
      d.segments_at = "oom";
      h.at_oom = std::move(d);
    }
  } catch (...) {
  }
}

void tracked_delete(void* data) {
  if (data == nullptr) return;
  auto* base = static_cast<char*>(data) - kHeaderBytes;
  auto* header = std::launder(reinterpret_cast<BlockHeader*>(base));
  record_free(header, data);
  const size_t nbytes = header->nbytes;
  const c10::DeleterFnPtr base_deleter = header->base_deleter;
  void* base_context = header->base_context;
  g_allocated_bytes.fetch_sub(static_cast<int64_t>(nbytes), std::memory_order_relaxed);
  g_num_frees.fetch_add(1, std::memory_order_relaxed);
  base_deleter(base_context);
}

class TrackingCpuAllocator final : public c10::Allocator {
 public:
  explicit TrackingCpuAllocator(c10::Allocator* base) : base_(base) {}

#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 3)
  // LibTorch 2.3+: allocate() is non-const and copy_data() is part of the interface.
  void copy_data(void* dest, const void* src, std::size_t count) const override { default_copy_data(dest, src, count); }
  c10::DataPtr allocate(size_t nbytes) override {
#else
  c10::DataPtr allocate(size_t nbytes) const override {
#endif
    // Zero-byte storages: the default allocator returns a null DataPtr; nothing to count.
    if (nbytes == 0) return base_->allocate(0);
    const auto n = static_cast<int64_t>(nbytes);
    const int64_t after = g_allocated_bytes.fetch_add(n, std::memory_order_relaxed) + n;
    const int64_t limit = g_limit_bytes.load(std::memory_order_relaxed);
    if (limit > 0 && after > limit) {
      g_allocated_bytes.fetch_sub(n, std::memory_order_relaxed);
      const int64_t ooms = g_num_ooms.fetch_add(1, std::memory_order_relaxed) + 1;
      record_oom(n, limit, after - n, ooms);
      record_refusal(n, limit, after - n);
      C10_THROW_ERROR(OutOfMemoryError, cpu_oom_message(n, limit, after - n));
    }
    c10::DataPtr inner;
    try {
      inner = base_->allocate(nbytes + kHeaderBytes);
    } catch (...) {
      g_allocated_bytes.fetch_sub(n, std::memory_order_relaxed);
      const int64_t ooms = g_num_ooms.fetch_add(1, std::memory_order_relaxed) + 1;
      record_oom(n, limit, after - n, ooms);
      record_refusal(n, limit, after - n);
      throw;
    }
    raise_peak(after);
    g_num_allocs.fetch_add(1, std::memory_order_relaxed);
    auto* base = static_cast<char*>(inner.get());
    const c10::Device device = inner.device();
    auto* header = new (base) BlockHeader{nbytes, inner.get_deleter(), inner.release_context(), nullptr, nullptr, -1, false};
    void* data = base + kHeaderBytes;
    if (g_recording.load(std::memory_order_relaxed)) record_alloc(header, data, nbytes);
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

void start_cpu_allocator_history(int64_t max_entries) {
  if (max_entries <= 0) {
    throw InputError("--memory-history", "keeps at least 1 event: " + std::to_string(max_entries));
  }
  History& h = history();
  std::lock_guard<std::mutex> lock(h.mutex);
  h.max_entries = max_entries;
  h.ring.clear();
  h.ring.shrink_to_fit();
  h.ring_next = 0;
  h.pushed = 0;
  h.at_oom.reset();
  g_op_generation.fetch_add(1, std::memory_order_relaxed);
  if (!h.op_callback_added) {
    // Op names for the frames: aten ops and autograd nodes, no inputs (the cheapest callback).
    h.op_callback = at::addGlobalCallback(
        at::RecordFunctionCallback(&op_start, &op_end)
            .needsInputs(false)
            .scopes({at::RecordScope::FUNCTION, at::RecordScope::BACKWARD_FUNCTION}));
    h.op_callback_added = true;
  }
  g_recording.store(true, std::memory_order_relaxed);
}

void stop_cpu_allocator_history() {
  History& h = history();
  std::lock_guard<std::mutex> lock(h.mutex);
  g_recording.store(false, std::memory_order_relaxed);
  if (h.op_callback_added) {
    at::removeCallback(h.op_callback);
    h.op_callback_added = false;
  }
}

bool cpu_allocator_history_recording() noexcept { return g_recording.load(std::memory_order_relaxed); }

void set_cpu_allocator_phase(std::string_view phase, int64_t step) noexcept {
  if (!g_recording.load(std::memory_order_relaxed)) return;
  History& h = history();
  try {
    std::lock_guard<std::mutex> lock(h.mutex);
    h.phase.assign(phase.data(), phase.size());
    h.phase_step = step;
  } catch (...) {
  }
}

MemorySnapshotData cpu_allocator_snapshot(bool segments_at_oom) {
  History& h = history();
  std::lock_guard<std::mutex> lock(h.mutex);
  MemorySnapshotData d;
  if (segments_at_oom && h.at_oom) {
    d = *h.at_oom;
  } else {
    d.segments = listed_segments(h);
    d.allocated_bytes = g_allocated_bytes.load(std::memory_order_relaxed);
    d.reserved_bytes = d.allocated_bytes;
    d.segments_at = "dump";
  }
  d.device = "cpu";
  d.frame_stacks = h.stacks;
  d.max_entries = h.max_entries;
  d.dropped_entries = std::max<int64_t>(0, h.pushed - static_cast<int64_t>(h.ring.size()));
  d.trace.reserve(h.ring.size());
  for (size_t k = 0; k < h.ring.size(); ++k) d.trace.push_back(h.ring[(h.ring_next + k) % h.ring.size()]);
  return d;
}

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
