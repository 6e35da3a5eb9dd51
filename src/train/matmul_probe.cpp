#include "oomkit/train/matmul_probe.h"

#include <algorithm>
#include <chrono>

#include "oomkit/core/error.h"

namespace oomkit {

MatmulProbe probe_matmul_flops(torch::Device device, torch::ScalarType dtype, int64_t n, double min_seconds) {
  if (n < 1) throw InputError("--mfu-probe-seconds", "matrix size must be >= 1, got " + std::to_string(n));
  if (!(min_seconds >= 0.0)) {
    throw InputError("--mfu-probe-seconds", "must be >= 0, got " + std::to_string(min_seconds));
  }
  using Clock = std::chrono::steady_clock;
  torch::NoGradGuard no_grad;
  const auto options = torch::TensorOptions().dtype(dtype).device(device);
  const torch::Tensor a = torch::randn({n, n}, options);
  const torch::Tensor b = torch::randn({n, n}, options);
  torch::Tensor c = torch::empty({n, n}, options);
  const bool cuda = device.is_cuda();
  const auto sync = [&] {
    if (cuda) torch::cuda::synchronize(device.index());
  };
  torch::mm_out(c, a, b);  // warm-up: thread pool, BLAS buffers, kernel selection
  sync();
  MatmulProbe probe;
  probe.n = n;
  switch (dtype) {
    case torch::kFloat: probe.dtype = "float32"; break;
    case torch::kBFloat16: probe.dtype = "bfloat16"; break;
    case torch::kHalf: probe.dtype = "float16"; break;
    default: probe.dtype = c10::toString(dtype); break;
  }
  probe.device = device.str();
  double best_s = 0.0;
  const auto begin = Clock::now();
  while (probe.repetitions < 3 || std::chrono::duration<double>(Clock::now() - begin).count() < min_seconds) {
    const auto t0 = Clock::now();
    torch::mm_out(c, a, b);
    sync();
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    if (probe.repetitions == 0 || s < best_s) best_s = s;
    ++probe.repetitions;
  }
  probe.seconds = std::chrono::duration<double>(Clock::now() - begin).count();
  probe.flops_per_s = best_s > 0.0 ? 2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n) / best_s : 0.0;
  return probe;
}

}  // namespace oomkit
