// Tests of the CUDA memory backend. They need a CUDA build and a device: without them every
// test calls GTEST_SKIP(). Registered with the `gpu` label in tests/tests.cmake; run by
// scripts/gpu-check.sh on a GPU machine. Golden sizes: the caching allocator rounds requests
// up to multiples of 512 bytes, so a 1 MiB fp32 tensor (262144 elements) is exactly 1 MiB of
// allocated_bytes (PyTorch docs, "CUDA semantics: memory management").
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <torch/torch.h>

#include "oomkit/core/units.h"
#include "oomkit/profile/memory_backend.h"
#include "oomkit/profile/tracking_allocator.h"

namespace oomkit {
namespace {

class CudaBackendTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!cuda_memory_backend_available()) GTEST_SKIP() << "no CUDA backend or device in this build";
    backend_ = make_cuda_memory_backend(0);
  }
  void TearDown() override {
    if (backend_) backend_->set_limit_bytes(0);
  }
  torch::Tensor on_gpu(int64_t bytes) {
    return torch::empty({bytes / 4}, torch::TensorOptions().dtype(torch::kFloat32).device(torch::kCUDA, 0));
  }
  std::unique_ptr<MemoryBackend> backend_;
};

// allocated_bytes moves by exactly the (512-aligned) tensor size; reserved covers allocated.
TEST_F(CudaBackendTest, AllocatedMovesExactly) {
  const MemoryStats before = backend_->snapshot();
  torch::Tensor t = on_gpu(kMiB);
  const MemoryStats during = backend_->snapshot();
  EXPECT_EQ(during.allocated_bytes.current - before.allocated_bytes.current, kMiB);
  EXPECT_GE(during.reserved_bytes.current, during.allocated_bytes.current);
  EXPECT_GT(during.device_total_bytes, 0);
  EXPECT_LE(during.device_free_bytes, during.device_total_bytes);
  EXPECT_EQ(during.num_allocs - before.num_allocs, 1);
  EXPECT_EQ(backend_->device(), "cuda:0");
  t = torch::Tensor();
  EXPECT_EQ(backend_->snapshot().allocated_bytes.current, before.allocated_bytes.current);
}

// Peak since reset: a freed 8 MiB tensor stays in the peak until reset_peak().
TEST_F(CudaBackendTest, PeakAndReset) {
  backend_->reset_peak();
  const int64_t base = backend_->snapshot().allocated_bytes.current;
  { torch::Tensor t = on_gpu(8 * kMiB); }
  EXPECT_EQ(backend_->snapshot().allocated_bytes.peak, base + 8 * kMiB);
  backend_->reset_peak();
  EXPECT_EQ(backend_->snapshot().allocated_bytes.peak, base);
}

// The budget through the memory fraction: a request beyond it raises c10::OutOfMemoryError in
// PyTorch's own CUDA wording and counts in num_ooms.
TEST_F(CudaBackendTest, MemoryFractionRaisesRealCudaOom) {
  backend_->empty_cache();
  const MemoryStats before = backend_->snapshot();
  backend_->set_limit_bytes(before.reserved_bytes.current + 64 * kMiB);
  std::string message;
  try {
    torch::Tensor t = on_gpu(256 * kMiB);
    ADD_FAILURE() << "256 MiB fitted in a 64 MiB budget";
  } catch (const c10::OutOfMemoryError& e) {
    message = e.what_without_backtrace();
  }
  EXPECT_NE(message.find("CUDA out of memory"), std::string::npos) << message;
  EXPECT_EQ(backend_->snapshot().num_ooms, before.num_ooms + 1);
  backend_->set_limit_bytes(0);
  EXPECT_NO_THROW(on_gpu(256 * kMiB));
}

// CUDA tensors never pass through the CPU tracker.
TEST_F(CudaBackendTest, CpuTrackerIgnoresCudaTensors) {
  install_tracking_cpu_allocator();
  const int64_t cpu_before = cpu_allocator_counters().allocated_bytes;
  torch::Tensor t = on_gpu(4 * kMiB);
  EXPECT_EQ(cpu_allocator_counters().allocated_bytes, cpu_before);
}

// Memory history: the snapshot is a pickle (protocol 2+ starts with byte 0x80) that
// https://pytorch.org/memory_viz reads.
TEST_F(CudaBackendTest, MemoryHistorySnapshotIsPickle) {
  ASSERT_TRUE(backend_->supports_memory_history());
  backend_->record_memory_history(true, 10000);
  { torch::Tensor t = on_gpu(2 * kMiB); }
  const std::string path = (std::filesystem::temp_directory_path() / "oomkit_cuda_snapshot.pickle").string();
  backend_->dump_memory_snapshot(path);
  backend_->record_memory_history(false, 1);
  std::ifstream in(path, std::ios::binary);
  char first = 0;
  in.get(first);
  EXPECT_EQ(static_cast<unsigned char>(first), 0x80);
  EXPECT_GT(std::filesystem::file_size(path), 100u);
}

}  // namespace
}  // namespace oomkit
