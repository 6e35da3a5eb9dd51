// The CPU memory budget (--memory-limit) on a real forward/backward: the OOM is raised from
// inside ATen and autograd, the failed step's tensors are released completely, and a smaller
// step fits under the same budget. Expected sizes are measured first without a budget on the
// same computation, so the budgets below are placed relative to measured numbers.
#include <gtest/gtest.h>

#include <regex>

#include <torch/torch.h>

#include "oomkit/core/units.h"
#include "oomkit/profile/memory_backend.h"
#include "oomkit/profile/tracking_allocator.h"

namespace oomkit {
namespace {

struct Mlp : torch::nn::Module {
  Mlp() {
    fc1 = register_module("fc1", torch::nn::Linear(256, 1024));
    fc2 = register_module("fc2", torch::nn::Linear(1024, 256));
  }
  torch::Tensor forward(const torch::Tensor& x) { return fc2(torch::gelu(fc1(x))); }
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};

class MemoryBudgetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    backend_ = make_cpu_memory_backend();
    backend_->set_limit_bytes(0);
    torch::manual_seed(0);
    model_ = std::make_shared<Mlp>();
  }
  void TearDown() override { backend_->set_limit_bytes(0); }

  // One training step at batch B; returns the rise of the peak above the start.
  int64_t step(int64_t batch) {
    backend_->reset_peak();
    const int64_t start = backend_->snapshot().allocated_bytes.current;
    torch::Tensor x = torch::randn({batch, 256});
    torch::Tensor loss = model_->forward(x).pow(2).mean();
    loss.backward();
    model_->zero_grad();
    return backend_->snapshot().allocated_bytes.peak - start;
  }

  std::unique_ptr<MemoryBackend> backend_;
  std::shared_ptr<Mlp> model_;
};

// Under a budget below the measured need of batch 64 the step raises c10::OutOfMemoryError;
// after unwinding, allocated memory is exactly what it was before the step (nothing leaks from
// a failed op or a half-built graph); batch 16 then fits under the same budget.
TEST_F(MemoryBudgetTest, StepOverBudgetFailsCleanlyAndSmallerBatchFits) {
  step(64);  // creates the gradients' storages, so later steps start from a steady state
  const int64_t rise64 = step(64);
  const int64_t rise16 = step(16);
  ASSERT_GT(rise64, 3 * rise16 / 2) << "activations should grow with the batch";
  const int64_t before = backend_->snapshot().allocated_bytes.current;
  const int64_t ooms_before = backend_->snapshot().num_ooms;
  backend_->set_limit_bytes(before + (rise64 + rise16) / 2);
  EXPECT_THROW(step(64), c10::OutOfMemoryError);
  EXPECT_EQ(backend_->snapshot().allocated_bytes.current, before);
  EXPECT_EQ(backend_->snapshot().num_ooms, ooms_before + 1);
  EXPECT_NO_THROW(step(16));
  EXPECT_EQ(backend_->snapshot().allocated_bytes.current, before);
}

// The OOM raised inside backward (forward fits, backward's gradients do not) reaches the
// caller of backward() with its type and the template's numbers: capacity is the budget.
TEST_F(MemoryBudgetTest, OomInsideBackwardCarriesTemplate) {
  step(64);
  const int64_t before = backend_->snapshot().allocated_bytes.current;
  torch::Tensor x = torch::randn({64, 256});
  torch::Tensor loss = model_->forward(x).pow(2).mean();
  const int64_t after_forward = backend_->snapshot().allocated_bytes.current;
  const int64_t limit = after_forward + 4 * kKiB;  // no room for backward's temporaries
  backend_->set_limit_bytes(limit);
  std::string message;
  try {
    loss.backward();
    ADD_FAILURE() << "backward fitted in 4 KiB";
  } catch (const c10::OutOfMemoryError& e) {
    message = e.what_without_backtrace();
  }
  backend_->set_limit_bytes(0);
  const std::regex re(
      "CPU out of memory \\(oomkit --memory-limit\\)\\. Tried to allocate ([0-9.]+ (?:bytes|KiB|MiB|GiB))\\. "
      "CPU 0 has a total capacity of ([0-9.]+ (?:bytes|KiB|MiB|GiB)) of which ([0-9.]+ (?:bytes|KiB|MiB|GiB)) is "
      "free\\. Of the allocated memory ([0-9.]+ (?:bytes|KiB|MiB|GiB)) is allocated by PyTorch, and 0 bytes is "
      "reserved by PyTorch but unallocated\\.");
  std::smatch match;
  ASSERT_TRUE(std::regex_search(message, match, re)) << message;
  EXPECT_EQ(match[2].str(), format_bytes_pytorch(limit));
  // The refused request is larger than what was free.
  EXPECT_GT(parse_bytes(match[1].str()), parse_bytes(match[3].str()));
  x = torch::Tensor();
  loss = torch::Tensor();
  model_->zero_grad();
  EXPECT_LE(backend_->snapshot().allocated_bytes.current, before + 4 * kKiB);
}

// Lowering the budget below live memory refuses every new allocation but frees still work.
TEST_F(MemoryBudgetTest, BudgetBelowLiveMemory) {
  torch::Tensor keep = torch::empty({kMiB / 4});
  const int64_t live = backend_->snapshot().allocated_bytes.current;
  backend_->set_limit_bytes(live - kMiB / 2);
  EXPECT_THROW(torch::empty({16}), c10::OutOfMemoryError);
  keep = torch::Tensor();
  EXPECT_EQ(backend_->snapshot().allocated_bytes.current, live - kMiB);
  EXPECT_NO_THROW(torch::empty({16}));
}

}  // namespace
}  // namespace oomkit
