// The peak FLOP/s that MFU is measured against: a short matmul probe at the start of a run.
#pragma once

#include <cstdint>
#include <string>

#include <torch/torch.h>

namespace oomkit {

/// What the probe measured.
struct MatmulProbe {
  double flops_per_s = 0.0;  // best of the timed repetitions: 2·n³ / seconds
  int64_t n = 0;             // square matrices (n, n) @ (n, n)
  std::string dtype;         // "float32", "bfloat16", "float16"
  std::string device;        // "cpu", "cuda:0"
  int repetitions = 0;       // timed matmuls (after one untimed warm-up)
  double seconds = 0.0;      // wall time of the timed repetitions
};

/// Times (n, n) @ (n, n) matmuls of `dtype` on `device` (torch::mm; on CUDA synchronised
/// around each) for at least `min_seconds` and at least 3 repetitions after one warm-up, and
/// keeps the best repetition's rate, 2·n³ FLOPs over its time (a short probe on a shared
/// machine is disturbed downwards, not upwards). On CPU this is the BLAS (OpenBLAS, oneDNN for
/// bf16) rate at the run's intra-op threads. The tensors (3·n²·element bytes: 3 MiB for
/// n = 512 fp32) are freed before it returns. Throws InputError("--mfu-probe-seconds") for
/// n < 1 or a negative time.
MatmulProbe probe_matmul_flops(torch::Device device, torch::ScalarType dtype, int64_t n = 512,
                               double min_seconds = 0.2);

}  // namespace oomkit
