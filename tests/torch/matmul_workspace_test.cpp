// oneDNN's bf16 matmul scratchpad as the estimator queries it (matmul_workspace.h) against the
// bytes LibTorch's bf16 mm/bmm actually allocate through c10 (the tracking allocator), over
// seeded random shapes and 1 and 2 threads: the estimator's CPU bf16 term is exact or the test
// fails. Skips where LibTorch does not take oneDNN's path for bf16 (no AVX-512: the query then
// must say std::nullopt or the measured transient must be 0).
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <random>

#include "oomkit/estimate/matmul_workspace.h"
#include "oomkit/profile/tracking_allocator.h"

namespace oomkit {
namespace {

// Bytes above the output that one bf16 linear (2-D) or bmm (3-D) allocates while it runs.
int64_t measured_transient(const MatmulShape& s) {
  torch::Tensor a, b;
  if (s.batch > 0) {
    a = torch::randn({s.batch, s.m, s.k}).to(torch::kBFloat16);
    b = torch::randn({s.batch, s.k, s.n}).to(torch::kBFloat16);
  } else {
    a = torch::randn({s.m, s.k}).to(torch::kBFloat16);
    b = torch::randn({s.n, s.k}).to(torch::kBFloat16);  // nn.Linear's (out, in) weight
  }
  const int64_t before = cpu_allocator_counters().allocated_bytes;
  reset_cpu_allocator_peak();
  torch::Tensor y = s.batch > 0 ? torch::bmm(a, b) : torch::nn::functional::linear(a, b);
  const int64_t peak = cpu_allocator_counters().peak_allocated_bytes;
  return peak - before - static_cast<int64_t>(y.nbytes());
}

TEST(MatmulWorkspace, QueryEqualsLibTorchAllocationOnSeededShapes) {
  install_tracking_cpu_allocator();
  std::mt19937_64 rng(20261130);
  std::uniform_int_distribution<int64_t> dim(1, 700), heads(1, 24);
  const int saved_threads = at::get_num_threads();
  int compared = 0;
  for (int threads : {1, 2}) {
    at::set_num_threads(threads);
    for (int i = 0; i < 24; ++i) {
      const bool bmm = i % 3 == 2;
      const MatmulShape s{bmm ? heads(rng) : 0, dim(rng), dim(rng) / (bmm ? 4 : 1) + 1, dim(rng)};
      const int64_t measured = measured_transient(s);
      const auto predicted = onednn_bf16_matmul_scratchpad_bytes(s, threads);
      if (!predicted) {
        EXPECT_EQ(measured, 0) << "oneDNN not queryable (" << onednn_status() << ") but LibTorch allocated a scratchpad";
        continue;
      }
      ++compared;
      EXPECT_EQ(*predicted, measured) << "threads " << threads << " batch " << s.batch << " (" << s.m << ", " << s.k
                                      << ") x (" << s.k << ", " << s.n << ")";
    }
  }
  at::set_num_threads(saved_threads);
  if (compared == 0) GTEST_SKIP() << "oneDNN's bf16 matmul is not used here: " << onednn_status();
}

TEST(MatmulWorkspace, DegenerateShapesAreZero) {
  EXPECT_EQ(onednn_bf16_matmul_scratchpad_bytes({0, 0, 8, 8}, 1).value_or(0), 0);
  EXPECT_EQ(onednn_bf16_matmul_scratchpad_bytes({0, 8, -1, 8}, 1).value_or(0), 0);
}

}  // namespace
}  // namespace oomkit
