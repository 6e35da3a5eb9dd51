// Tests of the tracking CPU allocator, the CPU memory backend and the PyTorch-style formatter.
// Golden sizes are element counts times element sizes (fp32: 4 bytes, bf16: 2, int64: 8): the
// storage of a contiguous tensor holds exactly numel * element_size bytes.
#include <gtest/gtest.h>
#include <unistd.h>

#include <thread>
#include <vector>

#include <c10/core/CPUAllocator.h>
#include <torch/torch.h>

#include "oomkit/core/error.h"
#include "oomkit/core/units.h"
#include "oomkit/diagnose/oom_record.h"
#include "oomkit/diagnose/playbook.h"
#include "oomkit/profile/memory_backend.h"
#include "oomkit/profile/tracking_allocator.h"

namespace oomkit {
namespace {

class TrackingAllocatorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    backend_ = make_cpu_memory_backend();
    set_cpu_allocator_limit_bytes(0);
  }
  void TearDown() override { set_cpu_allocator_limit_bytes(0); }
  std::unique_ptr<MemoryBackend> backend_;
};

// format_bytes_pytorch reproduces c10's format_size(): inclusive boundaries at 1024, 2^20 and
// 2^30, two decimals, "bytes" spelled out (values as PyTorch prints them in its OOM messages).
TEST(FormatBytesPytorch, MatchesC10FormatSize) {
  EXPECT_EQ(format_bytes_pytorch(0), "0 bytes");
  EXPECT_EQ(format_bytes_pytorch(512), "512 bytes");
  EXPECT_EQ(format_bytes_pytorch(1024), "1024 bytes");
  EXPECT_EQ(format_bytes_pytorch(1025), "1.00 KiB");
  EXPECT_EQ(format_bytes_pytorch(1536), "1.50 KiB");
  EXPECT_EQ(format_bytes_pytorch(kMiB), "1024.00 KiB");
  EXPECT_EQ(format_bytes_pytorch(20 * kMiB), "20.00 MiB");
  EXPECT_EQ(format_bytes_pytorch(kGiB), "1024.00 MiB");
  EXPECT_EQ(format_bytes_pytorch(kGiB + kGiB / 2), "1.50 GiB");
  EXPECT_EQ(format_bytes_pytorch(-5), "0 bytes");
}

// The budget message is the exact template documented in memory_backend.h (the example of the
// brief: 20 MiB requested, 512 MiB budget, 509 MiB allocated -> 3 MiB free).
TEST(CpuOomMessage, ExactTemplate) {
  EXPECT_EQ(cpu_oom_message(20 * kMiB, 512 * kMiB, 509 * kMiB),
            "CPU out of memory (oomkit --memory-limit). Tried to allocate 20.00 MiB. CPU 0 has a total capacity "
            "of 512.00 MiB of which 3.00 MiB is free. Of the allocated memory 509.00 MiB is allocated by PyTorch, "
            "and 0 bytes is reserved by PyTorch but unallocated.");
  // More allocated than the budget (the budget was lowered below live memory): free is 0.
  EXPECT_NE(cpu_oom_message(kMiB, kMiB, 2 * kMiB).find("of which 0 bytes is free"), std::string::npos);
}

// A storage is counted with exactly its nbytes on allocation and uncounted on free; counts of
// allocations and frees move by one each.
TEST_F(TrackingAllocatorTest, CountsStorageBytesExactly) {
  ASSERT_TRUE(tracking_cpu_allocator_installed());
  const CpuAllocatorCounters before = cpu_allocator_counters();
  {
    torch::Tensor a = torch::empty({1000}, torch::kFloat32);  // 4000 B
    torch::Tensor b = torch::empty({3, 7}, torch::kBFloat16);  // 42 B
    torch::Tensor c = torch::empty({5, 5}, torch::kInt64);     // 200 B
    const CpuAllocatorCounters during = cpu_allocator_counters();
    EXPECT_EQ(during.allocated_bytes - before.allocated_bytes, 4000 + 42 + 200);
    EXPECT_EQ(during.num_allocs - before.num_allocs, 3);
    torch::Tensor view = a.view({10, 100});  // a view shares the storage: no allocation
    EXPECT_EQ(cpu_allocator_counters().num_allocs - before.num_allocs, 3);
  }
  const CpuAllocatorCounters after = cpu_allocator_counters();
  EXPECT_EQ(after.allocated_bytes, before.allocated_bytes);
  EXPECT_EQ(after.num_frees - before.num_frees, 3);
}

// Zero-element tensors allocate nothing and are not counted.
TEST_F(TrackingAllocatorTest, ZeroBytesNotCounted) {
  const CpuAllocatorCounters before = cpu_allocator_counters();
  torch::Tensor z = torch::empty({0, 16});
  EXPECT_EQ(cpu_allocator_counters().allocated_bytes, before.allocated_bytes);
  EXPECT_EQ(cpu_allocator_counters().num_allocs, before.num_allocs);
}

// The peak holds the highest allocated value since the last reset; reset sets it to current.
TEST_F(TrackingAllocatorTest, PeakAndReset) {
  backend_->reset_peak();
  const int64_t base = backend_->snapshot().allocated_bytes.current;
  {
    torch::Tensor big = torch::empty({kMiB / 4}, torch::kFloat32);  // 1 MiB
  }
  torch::Tensor small = torch::empty({1024}, torch::kFloat32);  // 4 KiB
  MemoryStats s = backend_->snapshot();
  EXPECT_EQ(s.allocated_bytes.current, base + 4096);
  EXPECT_EQ(s.allocated_bytes.peak, base + kMiB);
  backend_->reset_peak();
  s = backend_->snapshot();
  EXPECT_EQ(s.allocated_bytes.peak, base + 4096);
}

// CPU statistics: reserved and active equal allocated (no cache), no split blocks; the host
// figures are /proc/meminfo's, whose MemTotal equals sysconf's physical pages times page size.
TEST_F(TrackingAllocatorTest, SnapshotFieldsOnCpu) {
  torch::Tensor t = torch::ones({256, 256});
  const MemoryStats s = backend_->snapshot();
  EXPECT_EQ(backend_->device(), "cpu");
  EXPECT_EQ(s.reserved_bytes.current, s.allocated_bytes.current);
  EXPECT_EQ(s.active_bytes.current, s.allocated_bytes.current);
  EXPECT_EQ(s.inactive_split_bytes.current, 0);
  EXPECT_EQ(s.num_alloc_retries, 0);
  EXPECT_GE(s.allocated_bytes.current, 256 * 256 * 4);
  const int64_t phys = static_cast<int64_t>(::sysconf(_SC_PHYS_PAGES)) * ::sysconf(_SC_PAGESIZE);
  EXPECT_EQ(s.device_total_bytes, phys);
  EXPECT_GT(s.device_free_bytes, 0);
  EXPECT_LT(s.device_free_bytes, s.device_total_bytes);
  // RSS covers at least the tensor just written (it is touched by ones()).
  EXPECT_GT(s.process_rss_bytes, 256 * 256 * 4);
}

// The budget: an allocation that would pass it throws c10::OutOfMemoryError with the template,
// allocates nothing and counts one OOM; allocations that fit still succeed.
TEST_F(TrackingAllocatorTest, BudgetRaisesOutOfMemoryError) {
  const CpuAllocatorCounters before = cpu_allocator_counters();
  const int64_t limit = before.allocated_bytes + kMiB;
  backend_->set_limit_bytes(limit);
  EXPECT_EQ(backend_->snapshot().limit_bytes, limit);
  std::string message;
  try {
    torch::Tensor t = torch::empty({kMiB / 2}, torch::kFloat32);  // 2 MiB > 1 MiB left
    ADD_FAILURE() << "no OOM raised";
  } catch (const c10::OutOfMemoryError& e) {
    message = e.what_without_backtrace();
  }
  const std::string expected = cpu_oom_message(2 * kMiB, limit, before.allocated_bytes);
  EXPECT_EQ(message.substr(0, expected.size()), expected);
  const CpuAllocatorCounters after = cpu_allocator_counters();
  EXPECT_EQ(after.allocated_bytes, before.allocated_bytes);
  EXPECT_EQ(after.num_ooms - before.num_ooms, 1);
  EXPECT_EQ(after.num_allocs, before.num_allocs);
  torch::Tensor fits = torch::empty({kMiB / 8}, torch::kFloat32);  // 512 KiB fits
  EXPECT_EQ(cpu_allocator_counters().allocated_bytes, before.allocated_bytes + kMiB / 2);
  // An op's output over budget raises the same error type from inside ATen.
  torch::Tensor a = torch::ones({64, 64});
  EXPECT_THROW(torch::matmul(a.expand({100, 64, 64}), a), c10::OutOfMemoryError);
  backend_->set_limit_bytes(0);
  EXPECT_NO_THROW(torch::empty({kMiB / 2}, torch::kFloat32));
  EXPECT_THROW(backend_->set_limit_bytes(-1), InputError);
}

// The live OOM record (issue 9, item 5): a refused allocation leaves the typed
// {requested, limit, allocated, reserved, device} on the backend, exact to the byte; the
// OomRecord made from it (no parsing) agrees with the one parse_oom_log() reads back from the
// formatted message, which rounds to two decimals of a binary unit; clear_last_oom() forgets it.
TEST_F(TrackingAllocatorTest, BudgetLeavesATypedOomRecord) {
  backend_->clear_last_oom();
  EXPECT_FALSE(backend_->last_oom().has_value());
  const CpuAllocatorCounters before = cpu_allocator_counters();
  const int64_t limit = before.allocated_bytes + kMiB + 12345;
  backend_->set_limit_bytes(limit);
  std::string message;
  try {
    torch::Tensor t = torch::empty({3 * kMiB / 4 + 7}, torch::kFloat32);  // 3 MiB + 28 bytes
    ADD_FAILURE() << "no OOM raised";
  } catch (const c10::OutOfMemoryError& e) {
    message = e.what_without_backtrace();
  }
  backend_->set_limit_bytes(0);
  const auto live = backend_->last_oom();
  ASSERT_TRUE(live.has_value());
  EXPECT_EQ(live->requested_bytes, 3 * kMiB + 28);
  EXPECT_EQ(live->limit_bytes, limit);
  EXPECT_EQ(live->allocated_bytes, before.allocated_bytes);
  EXPECT_EQ(live->reserved_bytes, before.allocated_bytes);
  EXPECT_EQ(live->device, "cpu");
  EXPECT_EQ(live->num_ooms, cpu_allocator_counters().num_ooms);

  const OomRecord typed = oom_record_from_live(*live);
  const auto parsed = parse_oom_log(message);
  ASSERT_EQ(parsed.size(), 1u);
  const OomRecord& p = parsed.front();
  EXPECT_EQ(typed.family, p.family);
  EXPECT_EQ(typed.subsystem, p.subsystem);
  EXPECT_EQ(typed.device, p.device);
  auto near = [](int64_t exact, std::optional<int64_t> rounded) {  // "x.xx MiB": within 0.5% + 1 KiB
    ASSERT_TRUE(rounded.has_value());
    EXPECT_NEAR(static_cast<double>(*rounded), static_cast<double>(exact), 0.005 * static_cast<double>(exact) + 1024.0);
  };
  near(*typed.requested_bytes, p.requested_bytes);
  near(*typed.total_capacity_bytes, p.total_capacity_bytes);
  near(*typed.allocated_bytes, p.allocated_bytes);
  near(*typed.free_bytes, p.free_bytes);
  EXPECT_EQ(*typed.reserved_unallocated_bytes, 0);
  EXPECT_EQ(*typed.requested_bytes, 3 * kMiB + 28);  // the typed record keeps every byte

  backend_->clear_last_oom();
  EXPECT_FALSE(backend_->last_oom().has_value());
}

// raw_allocate/raw_deallocate keep working through the tracker (data == context) and count.
TEST_F(TrackingAllocatorTest, RawInterface) {
  c10::Allocator* alloc = c10::GetCPUAllocator();
  const CpuAllocatorCounters before = cpu_allocator_counters();
  void* p = alloc->raw_allocate(1000);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % c10::gAlignment, 0u);
  EXPECT_EQ(cpu_allocator_counters().allocated_bytes, before.allocated_bytes + 1000);
  alloc->raw_deallocate(p);
  EXPECT_EQ(cpu_allocator_counters().allocated_bytes, before.allocated_bytes);
}

// Thread safety: concurrent allocations and frees from several threads leave the count at its
// starting value, with allocs and frees each advanced by the number performed.
TEST_F(TrackingAllocatorTest, ConcurrentAllocationsBalance) {
  const CpuAllocatorCounters before = cpu_allocator_counters();
  constexpr int kThreads = 4;
  constexpr int kIters = 2000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t] {
      for (int i = 0; i < kIters; ++i) {
        torch::Tensor x = torch::empty({(i % 97) + 1 + t}, torch::kFloat32);
      }
    });
  }
  for (auto& th : threads) th.join();
  const CpuAllocatorCounters after = cpu_allocator_counters();
  EXPECT_EQ(after.allocated_bytes, before.allocated_bytes);
  EXPECT_EQ(after.num_allocs - before.num_allocs, kThreads * kIters);
  EXPECT_EQ(after.num_frees - before.num_frees, kThreads * kIters);
  EXPECT_GE(after.peak_allocated_bytes, before.allocated_bytes + 4);
}

// Without CUDA in this build the CUDA factory refuses clearly; availability is false.
// Memory history: storages allocated while recording are listed until freed (their bytes are
// exactly the counter's growth), each with the op that made it and the phase; allocations and
// frees become segment_alloc+alloc / free_requested+free_completed+segment_free entries, newest
// max_entries kept; a refused allocation is an "oom" entry and keeps the segments of that moment.
TEST_F(TrackingAllocatorTest, MemoryHistoryListsRecordedStorages) {
  ASSERT_TRUE(backend_->supports_memory_history());
  EXPECT_THROW(backend_->record_memory_history(true, 0), InputError);
  const int64_t before = cpu_allocator_counters().allocated_bytes;
  backend_->record_memory_history(true, 100);
  backend_->set_allocation_phase("forward", 7);
  torch::Tensor a = torch::ones({1000});          // 4000 bytes, aten::ones
  torch::Tensor b = torch::empty({10, 10});       // 400 bytes
  {
    torch::Tensor c = torch::zeros({256});        // 1024 bytes, freed at once
  }
  MemorySnapshotData d = cpu_allocator_snapshot(false);
  EXPECT_EQ(snapshot_reserved_bytes(d), 4400);
  EXPECT_EQ(d.allocated_bytes - before, 4400);
  ASSERT_EQ(d.segments.size(), 2u);
  for (const SnapshotSegment& seg : d.segments) {
    ASSERT_EQ(seg.blocks.size(), 1u);
    const auto& frames = d.frame_stacks.at(static_cast<size_t>(seg.blocks[0].frames));
    ASSERT_GE(frames.size(), 2u);
    EXPECT_EQ(frames.back().filename, "oomkit/step");
    EXPECT_EQ(frames.back().name, "forward");
    EXPECT_EQ(frames.back().line, 7);
    EXPECT_EQ(frames.front().filename, "oomkit/op");
    EXPECT_EQ(frames.front().name.rfind("aten::", 0), 0u) << frames.front().name;
  }
  // 3 allocations (2 entries each) + 1 free (3 entries), in order.
  ASSERT_EQ(d.trace.size(), 9u);
  EXPECT_EQ(d.trace[0].action, TraceAction::kSegmentAlloc);
  EXPECT_EQ(d.trace[1].action, TraceAction::kAlloc);
  EXPECT_EQ(d.trace[1].size_bytes, 4000);
  EXPECT_EQ(d.trace[6].action, TraceAction::kFreeRequested);
  EXPECT_EQ(d.trace[8].action, TraceAction::kSegmentFree);
  EXPECT_EQ(d.trace[8].size_bytes, 1024);
  EXPECT_EQ(d.trace[8].addr, d.trace[4].addr);

  // The budget refuses the next storage: an oom entry and the segments at that moment.
  set_cpu_allocator_limit_bytes(cpu_allocator_counters().allocated_bytes + 100);
  EXPECT_THROW(torch::empty({1000}), c10::OutOfMemoryError);
  set_cpu_allocator_limit_bytes(0);
  b = torch::Tensor();
  d = cpu_allocator_snapshot(true);
  EXPECT_EQ(d.segments_at, "oom");
  EXPECT_EQ(snapshot_reserved_bytes(d), 4400);
  ASSERT_FALSE(d.trace.empty());
  EXPECT_EQ(d.trace[9].action, TraceAction::kOom);
  EXPECT_EQ(d.trace[9].size_bytes, 4000);
  EXPECT_EQ(d.trace[9].device_free_bytes, 100);
  EXPECT_EQ(snapshot_reserved_bytes(cpu_allocator_snapshot(false)), 4000);  // b freed since

  // The bound keeps the newest entries, oldest first.
  for (int i = 0; i < 30; ++i) torch::Tensor t = torch::empty({i + 1});
  d = cpu_allocator_snapshot(false);
  EXPECT_EQ(d.trace.size(), 100u);
  EXPECT_GT(d.dropped_entries, 0);
  EXPECT_EQ(d.trace.back().action, TraceAction::kSegmentFree);
  EXPECT_EQ(d.trace.back().size_bytes, 30 * 4);
  backend_->record_memory_history(false);
  EXPECT_FALSE(cpu_allocator_history_recording());
  a = torch::Tensor();
  EXPECT_EQ(snapshot_reserved_bytes(cpu_allocator_snapshot(false)), 0);  // unlisted on free
}

TEST(CudaBackendFactory, RefusesWithoutCuda) {
#ifndef OOMKIT_WITH_CUDA
  EXPECT_FALSE(cuda_memory_backend_available());
  EXPECT_THROW(make_cuda_memory_backend(0), std::runtime_error);
#else
  GTEST_SKIP() << "built with CUDA: covered by cuda_memory_backend_test";
#endif
}

}  // namespace
}  // namespace oomkit
