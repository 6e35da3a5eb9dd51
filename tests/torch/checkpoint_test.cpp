// Tests for oomkit::checkpoint (activation checkpointing as a torch::autograd::Function).
#include <gtest/gtest.h>

#include <ATen/autocast_mode.h>
#include <c10/core/CPUAllocator.h>
#include <torch/torch.h>

#include <mutex>
#include <unordered_map>
#include <map>
#include <string>
#include <vector>

#include "oomkit/train/checkpoint.h"
#include "oomkit/train/rng_autocast.h"

namespace oomkit {
namespace {

constexpr int64_t kB = 2, kT = 16, kD = 32, kL = 4;  // batch, sequence, hidden, layers

// A GPT-like pre-LayerNorm MLP block: x + Dropout(fc2(GELU(fc1(LN(x))))).
struct BlockImpl : torch::nn::Module {
  BlockImpl()
      : ln(register_module("ln", torch::nn::LayerNorm(torch::nn::LayerNormOptions({kD})))),
        fc1(register_module("fc1", torch::nn::Linear(kD, 4 * kD))),
        fc2(register_module("fc2", torch::nn::Linear(4 * kD, kD))),
        drop(register_module("drop", torch::nn::Dropout(0.1))) {}
  torch::Tensor forward(const torch::Tensor& x) {  // (B, T, d) -> (B, T, d)
    return x + drop(fc2(torch::gelu(fc1(ln(x)))));
  }
  torch::nn::LayerNorm ln;
  torch::nn::Linear fc1, fc2;
  torch::nn::Dropout drop;
};
TORCH_MODULE(Block);

struct Stack : torch::nn::Module {
  Stack() {
    for (int64_t i = 0; i < kL; ++i) blocks.push_back(register_module("h" + std::to_string(i), Block()));
  }
  torch::Tensor forward(torch::Tensor x, bool checkpointed) {
    for (auto& block : blocks) {
      x = checkpointed ? checkpoint([&block](const torch::Tensor& in) { return block->forward(in); }, x)
                       : block->forward(x);
    }
    return x;
  }
  std::vector<Block> blocks;
};

struct RunResult {
  double loss = 0;
  std::map<std::string, torch::Tensor> grads;
  torch::Tensor input_grad;
  torch::Tensor rng_after;  // a draw from the CPU generator after forward + backward
};

RunResult run_once(bool checkpointed) {
  torch::manual_seed(7);
  Stack model;
  model.train();
  torch::Tensor x = torch::randn({kB, kT, kD}).requires_grad_(true);
  torch::Tensor target = torch::randn({kB, kT, kD});
  torch::Tensor loss = torch::mse_loss(model.forward(x, checkpointed), target);
  loss.backward();
  RunResult r;
  r.loss = loss.item<double>();
  for (const auto& p : model.named_parameters()) r.grads[p.key()] = p.value().grad().clone();
  r.input_grad = x.grad().clone();
  r.rng_after = torch::rand({8});
  return r;
}

double max_rel_diff(const torch::Tensor& a, const torch::Tensor& b) {
  return ((a - b).abs().max() / b.abs().max().clamp_min(1e-30)).item<double>();
}

// Invariant: with dropout on, checkpointing changes nothing numerically: the same loss, the
// same gradient for every parameter and for the input (the RNG state is replayed, so the
// recomputed dropout masks equal the forward's), and the caller's RNG stream continues as
// if no recomputation had happened.
TEST(Checkpoint, GradientsEqualWithDropout) {
  const RunResult plain = run_once(false);
  const RunResult ckpt = run_once(true);
  EXPECT_NEAR(ckpt.loss, plain.loss, 1e-6 * std::abs(plain.loss));
  ASSERT_EQ(plain.grads.size(), static_cast<size_t>(kL * 6));
  for (const auto& [name, g] : plain.grads) {
    ASSERT_TRUE(ckpt.grads.at(name).defined()) << name;
    EXPECT_LE(max_rel_diff(ckpt.grads.at(name), g), 1e-6) << name;
    EXPECT_GT(g.abs().max().item<double>(), 0.0) << name;
  }
  EXPECT_LE(max_rel_diff(ckpt.input_grad, plain.input_grad), 1e-6);
  EXPECT_TRUE(torch::equal(ckpt.rng_after, plain.rng_after));
}

// Invariant: the RNG replay is what makes the masks agree: a dropout-only function whose
// recomputation drew fresh masks would give a different input gradient than its forward mask.
TEST(Checkpoint, ReplaysDropoutMask) {
  torch::manual_seed(3);
  torch::Tensor x = torch::ones({1000}).requires_grad_(true);
  torch::Tensor y = checkpoint([](const torch::Tensor& in) { return torch::dropout(in, 0.5, true); }, x);
  y.sum().backward();
  // d(sum(dropout(x)))/dx = mask/(1-p) = y / x elementwise for x = 1: the forward's own mask.
  EXPECT_TRUE(torch::equal(x.grad(), y.detach()));
  EXPECT_GT(y.eq(0).sum().item<int64_t>(), 300);  // the mask really drops ~half
}

// Invariant: under CPU autocast (bf16-mixed), the recomputation runs under the same autocast
// state, so gradients equal those of the plain autocast run; autocast is off again afterwards.
TEST(Checkpoint, ReplaysAutocastState) {
  auto run = [](bool checkpointed) {
    torch::manual_seed(11);
    torch::nn::Linear fc(kD, kD);
    torch::Tensor x = torch::randn({kB, kD}).requires_grad_(true);
    at::autocast::set_autocast_cpu_dtype(at::kBFloat16);
    at::autocast::set_cpu_enabled(true);
    auto fn = [&fc](const torch::Tensor& in) { return fc->forward(in); };
    torch::Tensor y = checkpointed ? checkpoint(fn, x) : fn(x);
    at::autocast::set_cpu_enabled(false);
    at::autocast::clear_cache();
    EXPECT_EQ(y.scalar_type(), at::kBFloat16);
    y.to(torch::kFloat).pow(2).sum().backward();
    return fc->weight.grad().clone();
  };
  const torch::Tensor plain = run(false);
  const torch::Tensor ckpt = run(true);
  EXPECT_TRUE(torch::equal(plain, ckpt));
  EXPECT_FALSE(at::autocast::is_cpu_enabled());
}

// Invariant: without grad mode (evaluation) checkpoint is a plain call: no graph.
// The RNG helper shared by activation checkpointing, OOM retry and resume: a captured state
// replays the same draws; RngFork sets a state and gives the caller's sequence back untouched.
TEST(RngAutocast, CaptureRestoreAndFork) {
  torch::manual_seed(42);
  const RngState at_start = capture_rng_state();
  EXPECT_TRUE(at_start.cpu.defined());
  EXPECT_FALSE(at_start.cuda.defined());  // no CUDA device asked for
  const torch::Tensor a = torch::rand({16});
  const torch::Tensor b = torch::rand({16});
  restore_rng_state(at_start);
  EXPECT_TRUE(torch::equal(torch::rand({16}), a));
  {
    RngFork fork(at_start);  // replays from the start ...
    EXPECT_TRUE(torch::equal(torch::rand({16}), a));
  }
  EXPECT_TRUE(torch::equal(torch::rand({16}), b));  // ... and the caller continues where it was
}

// AutocastGuard sets both devices' flags and dtypes, nests, and puts the previous state back.
TEST(RngAutocast, AutocastGuardNestsAndRestores) {
  const AutocastState before = AutocastState::current();
  ASSERT_FALSE(before.cpu_enabled);
  {
    AutocastGuard outer(AutocastState::enabled_for(torch::Device(torch::kCPU), at::kBFloat16));
    EXPECT_TRUE(at::autocast::is_cpu_enabled());
    EXPECT_EQ(at::autocast::get_autocast_cpu_dtype(), at::kBFloat16);
    const torch::Tensor w = torch::ones({4, 4});
    EXPECT_EQ(torch::matmul(w, w).scalar_type(), at::kBFloat16);
    {
      AutocastState off = AutocastState::current();
      off.cpu_enabled = false;
      AutocastGuard inner(off);
      EXPECT_FALSE(at::autocast::is_cpu_enabled());
      EXPECT_EQ(torch::matmul(w, w).scalar_type(), at::kFloat);
    }
    EXPECT_TRUE(at::autocast::is_cpu_enabled());
  }
  const AutocastState after = AutocastState::current();
  EXPECT_EQ(after.cpu_enabled, before.cpu_enabled);
  EXPECT_EQ(after.cpu_dtype, before.cpu_dtype);
  EXPECT_EQ(after.cuda_enabled, before.cuda_enabled);
  EXPECT_EQ(after.cuda_dtype, before.cuda_dtype);
}

TEST(Checkpoint, NoGradModeIsPlainCall) {
  torch::NoGradGuard no_grad;
  torch::Tensor x = torch::randn({4}).requires_grad_(true);
  torch::Tensor y = checkpoint([](const torch::Tensor& in) { return in * 2; }, x);
  EXPECT_FALSE(y.requires_grad());
  EXPECT_TRUE(torch::equal(y, x.detach() * 2));
}

// A CPU allocator that counts the bytes currently allocated through it. Installed with a
// higher priority than LibTorch's default so every new CPU tensor goes through it. Data and
// context are the same pointer (some kernels call raw_allocate, which requires that); the
// size of each live block is kept in a map.
class CountingAllocator final : public c10::Allocator {
 public:
  static CountingAllocator& instance() {
    static CountingAllocator* allocator = [] {
      auto* a = new CountingAllocator(c10::GetDefaultCPUAllocator());
      c10::SetCPUAllocator(a, /*priority=*/1);
      return a;
    }();
    return *allocator;
  }
  c10::DataPtr allocate(size_t n) const override {
    void* data = base_->raw_allocate(n);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      sizes_[data] = static_cast<int64_t>(n);
      current_bytes_ += static_cast<int64_t>(n);
    }
    return {data, data, &release, c10::Device(c10::DeviceType::CPU)};
  }
  c10::DeleterFnPtr raw_deleter() const override { return &release; }
  int64_t current_bytes() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return current_bytes_;
  }

 private:
  explicit CountingAllocator(c10::Allocator* base) : base_(base) {}
  static void release(void* p) {
    CountingAllocator& self = instance();
    {
      std::lock_guard<std::mutex> lock(self.mutex_);
      auto it = self.sizes_.find(p);
      if (it != self.sizes_.end()) {
        self.current_bytes_ -= it->second;
        self.sizes_.erase(it);
      }
    }
    self.base_->raw_deleter()(p);
  }
  c10::Allocator* base_;
  mutable std::mutex mutex_;
  mutable std::unordered_map<void*, int64_t> sizes_;
  mutable int64_t current_bytes_ = 0;
};

CountingAllocator& counting_allocator() { return CountingAllocator::instance(); }

// Bytes still allocated after the forward of the stack (activations kept for backward plus
// the output), measured through the counting allocator.
int64_t forward_retained_bytes(Stack& model, const torch::Tensor& x, bool checkpointed) {
  const int64_t before = counting_allocator().current_bytes();
  torch::Tensor y = model.forward(x, checkpointed);
  const int64_t after = counting_allocator().current_bytes();
  EXPECT_TRUE(y.requires_grad());
  return after - before;
}

// Invariant: with checkpointing, the forward keeps exactly the block outputs (each is the next
// block's saved input; the last is the returned output) plus one recorded RNG state per
// block: L·(B·T·d·4 + state) bytes. Without it, autograd keeps at least fc1's and GELU's
// (B, T, 4d) fp32 outputs per block.
TEST(Checkpoint, ForwardKeepsOnlyBlockInputs) {
  counting_allocator();
  torch::manual_seed(5);
  Stack model;
  torch::Tensor x = torch::randn({kB, kT, kD}).requires_grad_(true);
  const int64_t rng_state_bytes = static_cast<int64_t>(at::detail::getDefaultCPUGenerator().get_state().nbytes());
  const int64_t block_io_bytes = kB * kT * kD * 4;

  const int64_t with_ckpt = forward_retained_bytes(model, x, true);
  EXPECT_EQ(with_ckpt, kL * (block_io_bytes + rng_state_bytes));

  const int64_t without = forward_retained_bytes(model, x, false);
  EXPECT_GE(without, kL * 2 * (kB * kT * 4 * kD * 4));
  EXPECT_GT(without, 3 * with_ckpt);
}

}  // namespace
}  // namespace oomkit
